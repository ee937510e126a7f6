/**
 * Render: a handler's reply as bytes with its headers (`ETag`, caching, CORS), and an answer
 * as the client is sent it (`304` when it already holds it, no body for `HEAD`).
 */
import { notModified, notModifiedHeaders, entityTag } from '../conditional.js';
import type { ContextOptions, Reply } from '../context.js';
import { callerHeaders } from '../cors.js';
import { commonHeaders } from '../headers.js';
import type { JoinedBodies } from '../joined-bodies.js';
import { bodyBytes, RawJson } from '../raw-json.js';
import type { CachedResponse } from '../response-cache.js';
import type { CoreRequest, CoreResponse } from '../types.js';
import type { Urls } from '../urls.js';
import type { Exchange } from './exchange.js';
import { merged } from '../../merged.js';

/**
 * A computed or kept answer as sent: `304` with its headers and no body when it is a read the
 * client already holds (`If-None-Match`, `If-Modified-Since`), else as it is.
 */
export function readAnswer(
  req: CoreRequest,
  status: number,
  headers: Record<string, string>,
  body: Uint8Array | RawJson,
  head: boolean,
  joined?: JoinedBodies,
): CoreResponse {
  const tag = headers.ETag;
  if (status === 200 && tag !== undefined && notModified(req.headers, tag, headers['Last-Modified'])) {
    return { status: 304, headers: notModifiedHeaders(headers), body: undefined };
  }
  if (head) return { status, headers, body: undefined };
  if (body instanceof Uint8Array) return { status, headers, body };
  if (!body.inPieces) return { status, headers, body: body.bytes };
  // The same bytes as an earlier answer are one buffer to write, joined once for them all.
  const again = joined?.again(body);
  if (again) return { status, headers, body: again };
  // Joined only for a reader of `body`: a socket is written the kept items themselves.
  return {
    status,
    headers,
    chunks: body.chunks(),
    get body() {
      return joined ? joined.join(body) : body.bytes;
    },
  };
}

/** An answer of `body` as JSON bytes (none for `HEAD`). */
export function respond(status: number, headers: Record<string, string>, body: unknown, head: boolean): CoreResponse {
  return { status, headers, body: head ? undefined : bodyBytes(body) };
}

/**
 * The CORS and caching headers of this caller. They follow the verb of the request line, not
 * an override (WordPress reads `$_SERVER['REQUEST_METHOD']`): caches see that verb.
 */
export function callerHeadersOf(x: Exchange): Record<string, string> {
  return callerHeaders(x.req.headers, x.req.method.toUpperCase(), x.principal, x.core.options.cors);
}

/**
 * The headers of a logged-out answer that shared caches may keep (`httpCache.maxAge`): it must
 * not be served to a signed-in caller of the same URL, nor, when its links come from forwarded
 * headers, to a request forwarded for another host.
 */
export function shared(options: ContextOptions, headers: Record<string, string>): Record<string, string> {
  if (options.httpCache.maxAge <= 0) return headers;
  const forwarded = options.trustProxy && !options.baseUrl ? ['X-Forwarded-Host', 'X-Forwarded-Proto'] : [];
  return merged(headers, { Vary: [headers.Vary, 'Authorization', 'Cookie', ...forwarded].filter(Boolean).join(', ') });
}

/** A handler's reply as kept and sent, before the caller's headers: a successful read gets its `ETag` and `Cache-Control`. */
export function render(x: Exchange, urls: Urls, verb: string, reply: Reply): CachedResponse {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = merged(commonHeaders(urls, x.core.options.cors), reply.headers ?? {});
  if (x.allow !== undefined) headers.Allow = x.allow;
  const body = reply.body instanceof RawJson && reply.body.inPieces ? reply.body : bodyBytes(reply.body);
  if (status === 200 && verb === 'GET') {
    headers.ETag = entityTag(reply.body instanceof RawJson ? reply.body : body);
    if (x.principal === null) headers['Cache-Control'] = `public, max-age=${x.core.options.httpCache.maxAge}`;
  }
  return { status, headers, body };
}

/** A rendered reply as this caller is sent it. */
export function send(x: Exchange, verb: string, rendered: CachedResponse): CoreResponse {
  const { status, body } = rendered;
  const headers = merged(rendered.headers, callerHeadersOf(x));
  const sharable = status === 200 && verb === 'GET' && x.principal === null;
  return readAnswer(x.req, status, sharable ? shared(x.core.options, headers) : headers, body, x.method === 'HEAD', x.core.joined);
}
