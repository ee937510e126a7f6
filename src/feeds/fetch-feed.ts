/**
 * One conditional GET of a feed (`If-None-Match`, `If-Modified-Since`) under the outbound
 * policy of images, webhooks and the importer (`checkOutboundUrl`: public addresses on web
 * ports, widened by the hosts allowed, every redirect checked again and every connection made
 * through the guarded lookup), within a byte limit (decoded bytes counted, so that a compressed
 * answer cannot swell past it) and a time limit for the whole exchange.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { stripBrackets } from '../images/address-policy.js';
import { allowsUrl, parseAllowedHost } from '../images/allowed-hosts.js';
import { checkOutboundUrl } from '../images/fetch-image.js';
import { guardedLookup } from '../images/guarded-lookup.js';
import { decodedBody } from '../images/decoded-body.js';

/** Limits and validators of one fetch. */
export interface FeedFetchOptions {
  /** Hosts (`host`, `host:port`) that may be contacted whatever their address. */
  allowHosts: readonly string[];
  /** Largest answer read, in bytes (decoded). */
  maxBytes: number;
  /** Time limit of the whole fetch, redirects and body included. */
  timeoutMs: number;
  /** The validators of the last answer: a feed unchanged since answers 304. */
  etag?: string;
  lastModified?: string;
  signal?: AbortSignal;
}

/** A feed's answer: unchanged since the validators sent, or its text and new validators. */
export type FeedAnswer = { status: 304 } | { status: 200; text: string; etag: string; lastModified: string };

/** A fetch that failed: refused by the policy, an HTTP error, too large, too slow, the network. */
export class FeedFetchError extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** `webcal://` (how calendar apps are handed feeds) as the `https://` it stands for. */
export function feedUrl(raw: string): string {
  return raw.replace(/^webcals?:\/\//i, 'https://');
}

/** Fetches a feed (http, https or webcal) if it changed since the validators given. */
export async function fetchFeed(raw: string, o: FeedFetchOptions): Promise<FeedAnswer> {
  const allowed = o.allowHosts.flatMap((entry) => parseAllowedHost(entry) ?? []);
  const deadline = AbortSignal.any([AbortSignal.timeout(o.timeoutMs), ...(o.signal ? [o.signal] : [])]);
  const check = (url: string, base?: URL) => {
    try {
      return checkOutboundUrl(new URL(url, base).href, allowed);
    } catch (e) {
      throw new FeedFetchError(`${url.slice(0, 200)}: ${e instanceof Error ? e.message : String(e)} (list its host in allowHosts, --allow-host, to fetch it)`);
    }
  };
  let url = check(feedUrl(raw));
  try {
    for (let redirects = 0; ; redirects++) {
      const res = await send(url, allowsUrl(allowed, url), o, deadline);
      const status = res.statusCode ?? 0;
      try {
        if (REDIRECTS.has(status) && res.headers.location) {
          if (redirects >= MAX_REDIRECTS) throw new FeedFetchError(`${raw.slice(0, 200)}: more than ${MAX_REDIRECTS} redirects`);
          url = check(res.headers.location, url);
          continue;
        }
        if (status === 304) return { status: 304 };
        if (status !== 200) throw new FeedFetchError(`${url.href.slice(0, 200)} answered HTTP ${status}`);
        const declared = res.headers['content-length'];
        if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > o.maxBytes)
          throw new FeedFetchError(`${url.href.slice(0, 200)}: the feed is larger than ${o.maxBytes} bytes (its Content-Length is ${declared})`);
        const decoder = new TextDecoder();
        const parts: string[] = [];
        let size = 0;
        for await (const chunk of decodedBody(res)) {
          const bytes = chunk as Buffer;
          size += bytes.length;
          if (size > o.maxBytes) throw new FeedFetchError(`${url.href.slice(0, 200)}: the feed is larger than ${o.maxBytes} bytes`);
          parts.push(decoder.decode(bytes, { stream: true }));
        }
        parts.push(decoder.decode());
        const header = (name: string) => String(res.headers[name] ?? '').slice(0, 250);
        return { status: 200, text: parts.join(''), etag: header('etag'), lastModified: header('last-modified') };
      } finally {
        if (!res.complete) res.destroy();
      }
    }
  } catch (e) {
    if (e instanceof FeedFetchError) throw e;
    if (deadline.aborted && !o.signal?.aborted) throw new FeedFetchError(`${url.href.slice(0, 200)}: no whole answer within ${o.timeoutMs} ms`);
    throw new FeedFetchError(`${url.href.slice(0, 200)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Sends one GET and waits for the head of its answer. */
function send(url: URL, hostAllowed: boolean, o: FeedFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: stripBrackets(url.hostname),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      signal,
      // A fresh socket per hop, connected through the guarded lookup.
      agent: false,
      lookup: guardedLookup({ enforce: !hostAllowed }),
      headers: {
        accept: 'text/calendar, text/csv;q=0.9, */*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'calendar-events-rest feeds',
        ...(o.etag ? { 'if-none-match': o.etag } : {}),
        ...(o.lastModified ? { 'if-modified-since': o.lastModified } : {}),
      },
    });
    req.on('error', reject);
    req.on('response', resolve);
    req.end();
  });
}
