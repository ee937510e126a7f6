import type { Principal } from '../auth/capabilities.js';
import type { Urls } from './urls.js';
import type { Headers } from './types.js';

/** The headers every API response carries (README "Response headers"). */
export function commonHeaders(urls: Urls | undefined): Record<string, string> {
  const h: Record<string, string> = {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
  };
  if (urls) h.Link = `<${urls.root}>; rel="https://api.w.org/"`;
  h['Access-Control-Expose-Headers'] = 'X-WP-Total, X-WP-TotalPages, Link';
  h['Access-Control-Allow-Headers'] = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';
  return h;
}

/** CORS, caching and `Vary` headers, which depend on the caller and the verb. */
export function callerHeaders(requestHeaders: Headers, method: string, principal: Principal | null): Record<string, string> {
  const h: Record<string, string> = {};
  const origin = requestHeaders.origin;
  const originValue = Array.isArray(origin) ? origin[0] : origin;
  if (originValue) {
    // Echoing the origin mirrors WordPress; `Origin` cannot carry a line break through HTTP parsers.
    h['Access-Control-Allow-Origin'] = originValue.replace(/[\r\n]/g, '');
    h['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
    h['Access-Control-Allow-Credentials'] = 'true';
  }
  if (originValue || (principal === null && method === 'GET')) h.Vary = 'Origin';
  if (principal !== null) {
    h['Cache-Control'] = 'no-cache, must-revalidate, max-age=0, no-store, private';
    h.Expires = 'Wed, 11 Jan 1984 05:00:00 GMT';
  }
  return h;
}
