/**
 * One GET of an import: redirects followed by hand, each hop under the outbound policy
 * (`outbound.ts`), at most {@link MAX_REDIRECTS}; the answer read as a stream and given up as
 * soon as it outgrows the byte limit (at once when its `Content-Length` says so), decoded
 * bytes counted, so that a compressed page cannot swell past it either.
 *
 * Node's `http` rather than `fetch`: the sockets of hops off the source's origin must connect
 * through the guarded lookup (`images/guarded-lookup.ts`), which `fetch` cannot be given
 * without a dependency on undici's own package.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { stripBrackets } from '../images/address-policy.js';
import { ImageFetchError } from '../images/errors.js';
import { guardedLookup } from '../images/guarded-lookup.js';
import type { AllowedUrl, OutboundPolicy } from './outbound.js';
import { decodedBody } from '../images/decoded-body.js';

/** Redirects one request follows at most. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** An answer read whole. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Why a request was given up other than by the network: an answer too large, a URL the policy refuses, a redirect too many. */
export class RequestRefused extends Error {
  constructor(
    message: string,
    readonly reason: 'too-large' | 'not-allowed' | 'redirects',
  ) {
    super(message);
  }
}

/** How the importer reaches its source: the policy, the source's credentials, the byte limit, and the connections it keeps to the source. */
export class SourceConnection {
  readonly #agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  constructor(
    readonly policy: OutboundPolicy,
    /** Sent to the source's origin only, never where it redirects elsewhere. */
    private readonly authorization: string | undefined,
    /** Largest answer read, in bytes (decoded). */
    readonly maxBytes: number,
  ) {}

  /** `GET url` (on the source's origin or allowed by the policy), following redirects; rejects with {@link RequestRefused} or a network error. */
  async get(url: string, signal: AbortSignal): Promise<RawAnswer> {
    let target = this.policy.check(url);
    if (typeof target === 'string') throw new RequestRefused(target, 'not-allowed');
    for (let redirects = 0; ; redirects++) {
      const hop = await this.#hop(target, signal);
      if (!('location' in hop)) return hop;
      if (redirects >= MAX_REDIRECTS) throw new RequestRefused(`${url}: more than ${MAX_REDIRECTS} redirects`, 'redirects');
      const next = this.policy.check(hop.location, target.url);
      if (typeof next === 'string') throw new RequestRefused(`redirect from ${target.url.href} refused: ${next}`, 'not-allowed');
      target = next;
    }
  }

  /** Closes the connections kept to the source. */
  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  /** One request: where it redirects, or its answer within the byte limit. */
  async #hop(target: AllowedUrl, signal: AbortSignal): Promise<RawAnswer | { location: string }> {
    const res = await this.#respond(target, signal);
    try {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) return { location };
      const declared = res.headers['content-length'];
      if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > this.maxBytes)
        throw this.#tooLarge(target.url, `its Content-Length is ${declared}`);
      const decoder = new TextDecoder();
      const parts: string[] = [];
      let size = 0;
      for await (const chunk of decodedBody(res)) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (size > this.maxBytes) throw this.#tooLarge(target.url, 'it goes on past that');
        parts.push(decoder.decode(bytes, { stream: true }));
      }
      parts.push(decoder.decode());
      return { status, headers: headersOf(res.headers), text: parts.join('') };
    } finally {
      // An answer left unread (a redirect's body, one past the limit) is not drained: its connection goes.
      if (!res.complete) res.destroy();
    }
  }

  #tooLarge(url: URL, why: string): RequestRefused {
    return new RequestRefused(`${url.href}: the answer is larger than ${this.maxBytes} bytes (${why})`, 'too-large');
  }

  /** Sends the request and waits for the head of its answer. */
  #respond(target: AllowedUrl, signal: AbortSignal): Promise<IncomingMessage> {
    const { url, sameOrigin, publicOnly } = target;
    const https = url.protocol === 'https:';
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)({
        protocol: url.protocol,
        hostname: stripBrackets(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        signal,
        // The source's own connections are kept; elsewhere a fresh socket, connected through the guarded lookup.
        ...(sameOrigin ? { agent: https ? this.#agents.https : this.#agents.http } : { agent: false, lookup: guardedLookup({ enforce: publicOnly }) }),
        headers: {
          accept: 'application/json',
          'accept-encoding': 'gzip, deflate, br',
          'user-agent': 'calendar-events-rest import',
          ...(sameOrigin && this.authorization !== undefined ? { authorization: this.authorization } : {}),
        },
      });
      // The guarded lookup refusing an address is the policy's refusal, not a network failure to retry.
      req.on('error', (e) =>
        reject(e instanceof ImageFetchError && e.code === 'not-allowed' ? new RequestRefused(`${url.href}: ${e.message}`, 'not-allowed') : e),
      );
      req.on('response', resolve);
      req.end();
    });
  }
}

/** Node's header object as `Headers`. */
function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}
