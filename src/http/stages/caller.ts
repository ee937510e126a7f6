/**
 * Authenticate: the request's mount URLs and its caller, and whether a cookie-authenticated
 * write may act as that caller (CSRF).
 */
import { toPrincipal } from '../../auth/capabilities.js';
import { ApiError, apiError } from '../errors.js';
import type { BodyParams, ParamMap } from '../params.js';
import type { CoreRequest } from '../types.js';
import { urlsFor, type Urls } from '../urls.js';
import type { Exchange } from './exchange.js';

/** Bytes of a raw body (`0` for one the host already parsed). */
export function bodySize(body: CoreRequest['body']): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  return body instanceof Uint8Array ? body.byteLength : 0;
}

/**
 * Sets the request's URLs and caller (`x.urls`, `x.principal`): the mount's `resolveUser` or the
 * calendar's `getUser` when the adapter did not name one. A body over the limit is refused
 * here, before anything reads it (`413`).
 */
export async function authenticate(x: Exchange): Promise<Urls> {
  const { req } = x;
  const { options } = x.core;
  const urls = urlsFor(req, options.namespace, options.baseUrl, options.trustProxy, options.permalinks);
  x.urls = urls;
  const user = req.user !== undefined ? req.user : req.resolveUser ? await req.resolveUser() : await options.getUser(req);
  x.principal = toPrincipal(user, options.unknownRole, options.roles);
  if (req.refusedBody) throw refusedByHost(req.refusedBody.limit, options.limits.bodyBytes);
  if (bodySize(req.body) > options.limits.bodyBytes) throw apiError('rest_request_too_large', 'The request body is too large.', 413);
  return urls;
}

/** The 413 of a body the host's parser refused: which limit applied (the host's), since the calendar's may be larger. */
function refusedByHost(limit: number | undefined, own: number): ApiError {
  const known = limit !== undefined && Number.isSafeInteger(limit);
  const message = `The request body is too large: the host's body parser accepts ${known ? `at most ${limit} bytes` : 'less'} (the calendar's own limit, limits.bodyBytes, is ${own} bytes).`;
  return new ApiError('rest_request_too_large', message, { status: 413, limit_source: 'host', ...(known ? { limit } : {}) });
}

/**
 * A write authenticated by a cookie needs a nonce or a trusted origin (`http/csrf.ts`): without
 * either it runs as nobody (`x.principal`), with a wrong nonce it is refused. Reads need neither.
 */
export function guardCookies(x: Exchange, urls: Urls, verb: string, query: ParamMap, body: BodyParams): void {
  if (verb === 'GET') return;
  const verdict = x.core.options.csrf.check(x.req, x.principal, [query, body.body, body.json], urls);
  x.principal = verdict.principal;
  x.csrfRefusal = verdict.refusal;
}
