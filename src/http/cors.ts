import type { Principal } from '../auth/capabilities.js';
import { headerValue } from './header-value.js';
import type { Headers } from './types.js';

/** Which pages of other origins may read the API's answers (README "CORS and CSRF"). */
export interface CorsOptions {
  /**
   * `'*'` (the default): any origin may read answers, never with the visitor's cookies; a list
   * of origins (`https://app.example.org`) or a function: only those, with credentials.
   */
  origins?: '*' | readonly string[] | ((origin: string) => boolean);
  /** Whether allowed origins may send credentials (cookies); default `true` for a list or a function, never for `'*'`. */
  credentials?: boolean;
  /** Request headers a cross-origin page may send (preflight `Access-Control-Allow-Headers`). */
  allowHeaders?: readonly string[];
  /** Verbs a cross-origin page may use (`Access-Control-Allow-Methods`). */
  allowMethods?: readonly string[];
  /** Seconds a browser may keep a preflight's answer (`Access-Control-Max-Age`); none by default. */
  maxAge?: number;
}

/** CORS as a calendar applies it; `false` leaves every `Access-Control-*` header to the host. */
export type CorsPolicy =
  | false
  | {
      /** How an origin may read answers: with credentials, without, or not at all. */
      access(origin: string): 'credentials' | 'plain' | false;
      /** `Access-Control-Allow-Headers`, on every answer. */
      allowHeaders: string;
      /** `Access-Control-Expose-Headers`, on every answer. */
      exposeHeaders: string;
      /** `Access-Control-Allow-Methods`, on answers to allowed origins. */
      allowMethods: string;
      /** `Access-Control-Max-Age` of preflight answers, when set. */
      maxAge?: number;
    };

/** WordPress' values of the headers it sends on every REST answer. */
const ALLOW_HEADERS = ['Authorization', 'X-WP-Nonce', 'Content-Disposition', 'Content-MD5', 'Content-Type'];
const ALLOW_METHODS = ['OPTIONS', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const EXPOSE_HEADERS = ['X-WP-Total', 'X-WP-TotalPages', 'Link'];

/** An origin as browsers send it: scheme, host and port, lower case, without a trailing slash. */
export function canonicalOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin.trim().toLowerCase();
  }
}

/** Whether the host listed an origin (none are, under `'*'`). */
function listedBy(origins: NonNullable<CorsOptions['origins']>): (origin: string) => boolean {
  if (origins === '*') return () => false;
  if (typeof origins === 'function') return origins;
  const set = new Set(origins.map(canonicalOrigin));
  return (origin) => set.has(canonicalOrigin(origin));
}

/**
 * The policy of a calendar's `cors` option (`undefined`: any origin, without credentials);
 * `ownHeaders` are headers of this library's own that pages send and read beside WordPress' ones.
 */
export function corsPolicy(options: CorsOptions | false | undefined, ownHeaders: readonly string[] = []): CorsPolicy {
  if (options === false) return false;
  const origins = options?.origins ?? '*';
  const listed = listedBy(origins);
  const credentials = origins !== '*' && (options?.credentials ?? true);
  return {
    access: (origin) => (listed(origin) ? (credentials ? 'credentials' : 'plain') : origins === '*' ? 'plain' : false),
    allowHeaders: (options?.allowHeaders ?? [...ALLOW_HEADERS, ...ownHeaders]).join(', '),
    exposeHeaders: [...EXPOSE_HEADERS, ...ownHeaders].join(', '),
    allowMethods: (options?.allowMethods ?? ALLOW_METHODS).join(', '),
    maxAge: options?.maxAge,
  };
}

/** The CORS headers every answer carries, whoever asks (kept with cached answers). */
export function corsHeaders(policy: CorsPolicy): Record<string, string> {
  if (!policy) return {};
  return { 'Access-Control-Expose-Headers': policy.exposeHeaders, 'Access-Control-Allow-Headers': policy.allowHeaders };
}

/**
 * CORS, caching and `Vary` headers, which depend on the caller, its origin and the verb. Only
 * origins the host listed get `Access-Control-Allow-Credentials`: a page elsewhere can never
 * read what the visitor's cookies let them see.
 */
export function callerHeaders(requestHeaders: Headers, method: string, principal: Principal | null, policy: CorsPolicy): Record<string, string> {
  const h: Record<string, string> = {};
  // `Origin` cannot carry a line break through HTTP parsers; removed anyway before it is echoed.
  const origin = headerValue(requestHeaders, 'origin')?.replace(/[\r\n]/g, '');
  const access = origin && policy ? policy.access(origin) : false;
  if (origin && policy && access) {
    h['Access-Control-Allow-Origin'] = origin;
    h['Access-Control-Allow-Methods'] = policy.allowMethods;
    if (access === 'credentials') h['Access-Control-Allow-Credentials'] = 'true';
    if (method === 'OPTIONS' && policy.maxAge !== undefined) h['Access-Control-Max-Age'] = String(policy.maxAge);
  }
  if (policy && (origin || (principal === null && method === 'GET'))) h.Vary = 'Origin';
  if (principal !== null) {
    h['Cache-Control'] = 'no-cache, must-revalidate, max-age=0, no-store, private';
    h.Expires = 'Wed, 11 Jan 1984 05:00:00 GMT';
  }
  return h;
}
