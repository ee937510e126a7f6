/**
 * Cache: a logged-out read answered before is served from the response cache
 * (`http/response-cache.ts`), and one computed now is kept there for the next.
 */
import { RawJson } from '../raw-json.js';
import type { CachedResponse } from '../response-cache.js';
import type { CoreRequest, CoreResponse } from '../types.js';
import type { Urls } from '../urls.js';
import { bodySize } from './caller.js';
import { storeVersion, type CacheSlot, type Exchange } from './exchange.js';
import { callerHeadersOf, readAnswer, shared } from './render.js';
import { merged } from '../../merged.js';

/** Whether the request carries parameters in a body (raw, or already parsed by the host). */
function hasBody(body: CoreRequest['body']): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body === 'string' || body instanceof Uint8Array) return bodySize(body) > 0;
  return Array.isArray(body) ? body.length > 0 : Object.keys(body).length > 0;
}

/** Whether the client asks for an answer computed now (`Cache-Control: no-cache`, or HTTP/1.0's `Pragma`). */
function wantsFresh(headers: CoreRequest['headers']): boolean {
  return saysNoCache(headers['cache-control']) || saysNoCache(headers.pragma);
}

const NO_CACHE = /\bno-cache\b/i;

/** Whether a header (one value or several) names `no-cache`. */
function saysNoCache(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  return typeof value === 'string' ? NO_CACHE.test(value) : value.some((v) => NO_CACHE.test(v));
}

/**
 * Where a logged-out read's answer may be kept: the store version and the key (everything the
 * answer is computed from: mount URLs, locale, path and query). Anything else (a caller, a
 * body, another verb) is computed every time.
 */
async function cacheSlot(x: Exchange, urls: Urls): Promise<CacheSlot | undefined> {
  const { req, core } = x;
  if (!core.responses || x.principal !== null || (x.method !== 'GET' && x.method !== 'HEAD') || hasBody(req.body)) return undefined;
  const version = await storeVersion(x);
  if (version === undefined) return undefined;
  return { cache: core.responses.cache, version, key: `${urls.root}\n${req.locale ?? 'en'}\n${x.rest}\n${req.query ?? ''}` };
}

/**
 * The kept answer to a logged-out read, with this caller's headers. Looked up before the query
 * is parsed and the route matched: the key is the raw request, and only GET and HEAD (which no
 * override changes) are kept. Sets `x.slot` for an answer to be computed.
 */
export async function cachedAnswer(x: Exchange, urls: Urls): Promise<CoreResponse | undefined> {
  const slot = await cacheSlot(x, urls);
  if (!slot) return undefined;
  x.slot = slot;
  // Looked up even for a fresh answer: a new version drops the older answers.
  const found = slot.cache.lookup(slot.version, slot.key, x.second);
  const kept = wantsFresh(x.req.headers) ? undefined : await found;
  if (!kept) return undefined;
  // A kept list is joined once, on its first reuse: one buffer costs less to write than its
  // pieces, over and over; the same join a `no-cache` or signed-in answer of those bytes uses.
  const body = kept.body instanceof RawJson ? x.core.joined.join(kept.body) : kept.body;
  return readAnswer(x.req, kept.status, shared(x.core.options, merged(kept.headers, callerHeadersOf(x))), body, x.method === 'HEAD');
}

/** Announces that this request computes the answer of its slot (requests for it in the same second wait for it). */
export function claimAnswer(x: Exchange): void {
  if (x.slot) x.settle = x.slot.cache.begin(x.slot.version, x.slot.key, x.second);
}

/**
 * Hands the outcome to the cache and to the requests waiting for it: a `200` is kept, anything
 * else (`rendered` undefined: an error) only releases them. Once per request.
 */
export function settleAnswer(x: Exchange, rendered: CachedResponse | undefined): void {
  const settle = x.settle;
  x.settle = undefined;
  settle?.(rendered?.status === 200 ? rendered : undefined, x.clockRead);
}
