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

/** The anti-CSRF guard of a calendar: it mints nonces and judges writes. */
export interface CsrfGuard {
  /** A nonce for `user`'s pages (`X-WP-Nonce` / `_wpnonce`), valid for the calendar's nonce lifetime. */
  createNonce(user: User | number, session?: string): string;
  /**
   * The caller a write runs as: unchanged unless it was authenticated by a cookie, in which
   * case it needs a valid nonce or a trusted origin (WordPress' `rest_cookie_check_errors`):
   * without either it runs anonymously; with a wrong nonce it is refused (403).
   */
  check(request: CoreRequest, principal: Principal | null, params: ParamMap[], urls: Urls): Principal | null;
}

/** Nonces are bound to this action, as WordPress binds REST nonces to `wp_rest`. */
const ACTION = 'wp_rest';

const defaultCookieAuthenticated = (request: CoreRequest) =>
  headerValue(request.headers, 'cookie') !== undefined && !/^\s*bearer\s/i.test(headerValue(request.headers, 'authorization') ?? '');

/** The guard of a calendar's `csrf` option; `false` trusts every cookie-authenticated write (the host guards them). */
export function csrfGuard(options: CsrfOptions | false | undefined, cors: CorsPolicy): CsrfGuard {
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

  /** Whether the browser says the page that sent the request is the site itself, or one the host trusts. */
  const fromTrustedPage = (request: CoreRequest, urls: Urls) => {
    if (headerValue(request.headers, 'sec-fetch-site') === 'same-origin') return true;
    const origin = headerValue(request.headers, 'origin');
    if (!origin || origin === 'null') return false;
    if (canonicalOrigin(origin) === new URL(urls.home).origin || trusted.has(canonicalOrigin(origin))) return true;
    // Origins listed for reads without credentials are not trusted with the visitor's cookies.
    return cors !== false && cors.access(origin) === 'credentials';
  };

  return {
    createNonce: (user, sessionId = '') => sign(tick(), typeof user === 'number' ? user : user.id, sessionId),
    check(request, principal, params, urls) {
      if (options === false || principal === null || !cookieAuthenticated(request)) return principal;
      const fromParams = params.map((p) => p._wpnonce).find((v): v is string => typeof v === 'string');
      const nonce = headerValue(request.headers, 'x-wp-nonce') ?? fromParams;
      if (nonce === undefined) return fromTrustedPage(request, urls) ? principal : null;
      if (valid(nonce, principal.id, session(request) ?? '')) return principal;
      throw new ApiError('rest_cookie_invalid_nonce', 'Cookie check failed', { status: 403 });
    },
  };
}
