import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Principal, User } from '../auth/capabilities.js';
import { canonicalOrigin, type CorsPolicy } from './cors.js';
import { headerValue } from './header-value.js';
import { ApiError } from './errors.js';
import type { ParamMap } from './params.js';
import type { CoreRequest } from './types.js';
import type { Urls } from './urls.js';
import { invalidOption } from '../option-error.js';

/** How a calendar protects cookie-authenticated writes (README "CORS and CSRF"). */
export interface CsrfOptions {
  /**
   * The key nonces are signed with. Default: random at start, so nonces die with the process;
   * give every instance serving one site the same secret.
   */
  secret?: string;
  /** Seconds a nonce stays valid: at least half of it, at most all of it (WordPress: one day). Default 86 400. */
  lifetime?: number;
  /** Origins whose pages may write with the visitor's cookies without a nonce, besides the site's own and the `cors` origins allowed credentials. */
  trustedOrigins?: readonly string[];
  /** The visitor's session, to bind nonces to it (a nonce then dies with its session); none by default. */
  session?: (request: CoreRequest) => string | undefined;
  /**
   * Whether the caller may have been authenticated by credentials the browser sends on its own.
   * Default: the request carries a `Cookie`, and no `Authorization: Bearer` (browsers add Basic,
   * Digest or Negotiate credentials by themselves once a user has typed them, never a bearer token).
   */
  cookieAuthenticated?: (request: CoreRequest) => boolean;
}

/** Why a cookie-authenticated write did not run as its caller: no nonce (nor a page the guard trusts), a page of an untrusted origin, or a wrong nonce. */
export type CsrfReason = 'missing_nonce' | 'untrusted_origin' | 'invalid_nonce';

/** What an error answer says of a write the guard refused its caller (`data.csrf`). */
export interface CsrfRefusal {
  reason: CsrfReason;
  message: string;
}

/** The guard's verdict on a write: the caller it runs as, and why that is not the request's, if it is not. */
export interface CsrfVerdict {
  principal: Principal | null;
  refusal?: CsrfRefusal;
}

/** The anti-CSRF guard of a calendar: it mints nonces and judges writes. */
export interface CsrfGuard {
  /** A nonce for `user`'s pages (`X-WP-Nonce` / `_wpnonce`), valid for the calendar's nonce lifetime. */
  createNonce(user: User | number, session?: string): string;
  /**
   * The caller a write runs as: unchanged unless it was authenticated by a cookie, in which
   * case it needs a valid nonce or a trusted origin (WordPress' `rest_cookie_check_errors`):
   * without either it runs anonymously (the verdict says why); with a wrong nonce it is refused (403).
   */
  check(request: CoreRequest, principal: Principal | null, params: ParamMap[], urls: Urls): CsrfVerdict;
}

/** What each refusal says, in the error's `data.csrf` (the origin named when there is one). */
function refusal(reason: CsrfReason, origin?: string): CsrfRefusal {
  const messages: Record<CsrfReason, string> = {
    missing_nonce:
      'The request carried a cookie but no nonce (X-WP-Nonce header or _wpnonce parameter) and no Origin the calendar trusts, so it ran as a logged-out caller.',
    untrusted_origin: `The request carried a cookie but no nonce, from the origin ${origin}, which the calendar does not trust with cookies (csrf.trustedOrigins, or cors.origins with credentials), so it ran as a logged-out caller.`,
    invalid_nonce: 'The nonce is not valid for this user: expired, made for another user or session, or signed with another csrf.secret.',
  };
  return { reason, message: messages[reason] };
}

/**
 * The error answered to a write the guard ran as a logged-out caller, saying why: an error
 * for want of a caller (401) gets the refusal as `data.csrf`; any other is left as it is.
 */
export function explainRefusal(error: ApiError, verdict: CsrfRefusal | undefined): ApiError {
  if (!verdict || error.status !== 401 || error.data === null) return error;
  return new ApiError(error.code, error.message, { ...error.data, csrf: verdict }, error.extra);
}

/** Nonces are bound to this action, as WordPress binds REST nonces to `wp_rest`. */
const ACTION = 'wp_rest';

const defaultCookieAuthenticated = (request: CoreRequest) =>
  headerValue(request.headers, 'cookie') !== undefined && !/^\s*bearer\s/i.test(headerValue(request.headers, 'authorization') ?? '');

/**
 * The guard of a calendar's `csrf` option; `false` trusts every cookie-authenticated write (the
 * host guards them). Outside production, the first refusal of each kind is also reported to
 * `report` (the calendar's `onError`): a host whose cookie sessions seem to be ignored sees why.
 */
export function csrfGuard(options: CsrfOptions | false | undefined, cors: CorsPolicy, report: (error: unknown) => void = () => undefined): CsrfGuard {
  const given = options || {};
  const lifetime = given.lifetime ?? 86_400;
  if (!Number.isSafeInteger(lifetime) || lifetime < 2) throw invalidOption('csrf.lifetime', lifetime, 'a whole number of seconds of at least 2');
  const secret = given.secret || randomBytes(32).toString('hex');
  const half = Math.floor(lifetime / 2) * 1000;
  const trusted = new Set((given.trustedOrigins ?? []).map(canonicalOrigin));
  const session = given.session ?? (() => undefined);
  const cookieAuthenticated = given.cookieAuthenticated ?? defaultCookieAuthenticated;

  const sign = (tick: number, userId: number, sessionId: string) =>
    createHmac('sha256', secret).update(`${tick}|${ACTION}|${userId}|${sessionId}`).digest('base64url').slice(0, 24);
  const tick = () => Math.ceil(Date.now() / half);

  const valid = (nonce: string, userId: number, sessionId: string) => {
    const sent = Buffer.from(nonce);
    const now = tick();
    // This half-lifetime's nonce, or the previous one's: WordPress' two "ticks".
    return [now, now - 1].some((t) => {
      const expected = Buffer.from(sign(t, userId, sessionId));
      return sent.length === expected.length && timingSafeEqual(sent, expected);
    });
  };

  /**
   * Why a write without a nonce may not run as its caller, or `undefined` when the browser says
   * the page that sent it is the site itself, or one the host trusts.
   */
  const untrustedPage = (request: CoreRequest, urls: Urls): CsrfRefusal | undefined => {
    if (headerValue(request.headers, 'sec-fetch-site') === 'same-origin') return undefined;
    const origin = headerValue(request.headers, 'origin');
    if (!origin || origin === 'null') return refusal('missing_nonce');
    if (canonicalOrigin(origin) === new URL(urls.home).origin || trusted.has(canonicalOrigin(origin))) return undefined;
    // Origins listed for reads without credentials are not trusted with the visitor's cookies.
    return cors !== false && cors.access(origin) === 'credentials' ? undefined : refusal('untrusted_origin', origin);
  };

  // Read once: a production host is not told of every forged request (nor of any: they are expected there).
  const reporting = process.env.NODE_ENV !== 'production';
  const reported = new Set<CsrfReason>();
  const refused = (principal: Principal, why: CsrfRefusal): CsrfRefusal => {
    if (reporting && !reported.has(why.reason)) {
      reported.add(why.reason);
      report(
        new Error(
          `calendar-events-rest: a write authenticated by a cookie (user ${principal.id}) was refused its user (${why.reason}): ${why.message} Send calendar.createNonce(user) as X-WP-Nonce, or trust the page's origin (docs/concepts/sessions-and-csrf.md). Reported once per reason, outside production.`,
        ),
      );
    }
    return why;
  };

  return {
    createNonce: (user, sessionId = '') => sign(tick(), typeof user === 'number' ? user : user.id, sessionId),
    check(request, principal, params, urls) {
      if (options === false || principal === null || !cookieAuthenticated(request)) return { principal };
      const fromParams = params.map((p) => p._wpnonce).find((v): v is string => typeof v === 'string');
      const nonce = headerValue(request.headers, 'x-wp-nonce') ?? fromParams;
      if (nonce === undefined) {
        const why = untrustedPage(request, urls);
        return why ? { principal: null, refusal: refused(principal, why) } : { principal };
      }
      if (valid(nonce, principal.id, session(request) ?? '')) return { principal };
      const why = refused(principal, refusal('invalid_nonce'));
      throw new ApiError('rest_cookie_invalid_nonce', 'Cookie check failed', { status: 403, csrf: why });
    },
  };
}
