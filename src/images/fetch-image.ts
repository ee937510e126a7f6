import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { classifyAddress, stripBrackets } from './address-policy.js';
import { allowsUrl, effectivePort, parseAllowedHost, type AllowedHost } from './allowed-hosts.js';
import { ImageProbe } from './image-probe.js';
import type { ByteBudget, Reservation } from './byte-budget.js';
import { ImageFetchError } from './errors.js';
import { guardedLookup } from './guarded-lookup.js';
import type { ImageInfo } from './inspect-image.js';

export { ImageFetchError, type ImageFetchErrorCode } from './errors.js';

/** Limits and exceptions for `fetchImage`. */
export type FetchImageOptions = {
  /**
   * Hosts that may be contacted whatever their address (case-insensitive, exact): `host`
   * on ports 80 and 443 only, or `host:port` / `[v6]:port` on that port only.
   */
  allowHosts?: readonly string[];
  /** Largest accepted body in bytes; default 10 MiB (never more than `budget` holds). */
  maxBytes?: number;
  /** Bytes shared with concurrent fetches: each body waits, unread, until its size fits. */
  budget?: ByteBudget;
  /** Time limit for the whole fetch, all redirects and the body included; default 8000. */
  timeoutMs?: number;
  /** Redirects followed at most; default 3. */
  maxRedirects?: number;
};

/** A fetched image: where it finally came from and what it really is. */
export type FetchedImage = {
  /** Final URL after redirects. */
  url: string;
  mimeType: string;
  width?: number;
  height?: number;
  filesize: number;
  extension: string;
};

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Ports of hosts `allowHosts` does not list (WordPress' `wp_http_validate_url`). */
const PUBLIC_PORTS: readonly number[] = [80, 443, 8080];
const USER_AGENT = 'calendar-events-rest image fetcher';

/** Downloads an image URL under an SSRF policy and reports its type, size and final URL. */
export async function fetchImage(url: string, options: FetchImageOptions = {}): Promise<FetchedImage> {
  const { budget } = options;
  // A body larger than the whole budget could never be granted, so it is refused like any
  // other oversized body instead of waiting for the deadline.
  const maxBytes = Math.min(options.maxBytes ?? DEFAULT_MAX_BYTES, budget?.capacity ?? Infinity);
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const allowed = (options.allowHosts ?? []).flatMap((entry) => parseAllowedHost(entry) ?? []);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    let current = checkOutboundUrl(url, allowed);
    for (let redirects = 0; ; redirects++) {
      const hop = await get(current, allowsUrl(allowed, current), { maxBytes, budget }, deadline.signal);
      if (hop.kind === 'image') return { url: current.href, ...hop.info, filesize: hop.filesize };
      if (redirects >= maxRedirects) throw new ImageFetchError('too-many-redirects', `more than ${maxRedirects} redirects`);
      let next: string;
      try {
        next = new URL(hop.location, current).href;
      } catch (cause) {
        throw new ImageFetchError('http-status', 'redirect to an unusable Location', { cause });
      }
      // Every hop faces the same policy as the first URL.
      current = checkOutboundUrl(next, allowed);
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Parses a URL and refuses what may not be fetched before any connection is made (the SSRF
 * policy of every outgoing request: image side-loading and webhooks).
 */
export function checkOutboundUrl(raw: string, allowed: readonly AllowedHost[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new ImageFetchError('bad-url', 'not an absolute URL', { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImageFetchError('bad-url', `unsupported scheme ${url.protocol}`);
  }
  // Credentials are never forwarded, and `http://good@evil/` is a classic phishing shape.
  if (url.username || url.password) throw new ImageFetchError('bad-url', 'credentials in URL');
  if (url.port === '0') throw new ImageFetchError('bad-url', 'port 0');
  const host = stripBrackets(url.hostname);
  if (!host) throw new ImageFetchError('bad-url', 'no host');
  const listed = allowsUrl(allowed, url);
  // Web servers only, as WordPress' `wp_http_validate_url`: a URL must not make the server
  // knock on other services of other machines.
  if (!listed && !PUBLIC_PORTS.includes(effectivePort(url))) throw new ImageFetchError('not-allowed', `port ${effectivePort(url)}`);
  // The URL parser has already turned 2130706433, 0x7f.1, 0177.0.0.1 … into dotted form.
  // Node connects to IP literals without calling `lookup`, so they are judged here.
  if (isIP(host) && !listed) {
    const cls = classifyAddress(host);
    if (cls !== 'public') throw new ImageFetchError('not-allowed', `${host} is a ${cls} address`);
  }
  return url;
}

type Hop = { kind: 'redirect'; location: string } | { kind: 'image'; info: ImageInfo; filesize: number };

type BodyLimits = { maxBytes: number; budget: ByteBudget | undefined };

/** One GET: a redirect target, or a 200 `image/*` body within the byte limit and budget. */
function get(url: URL, hostAllowed: boolean, limits: BodyLimits, deadline: AbortSignal): Promise<Hop> {
  const { maxBytes, budget } = limits;
  return new Promise<Hop>((resolve, reject) => {
    if (deadline.aborted) {
      reject(new ImageFetchError('timeout', 'image download timed out'));
      return;
    }
    let settled = false;
    let reservation: Reservation | undefined;
    // Aborted once the hop is over, so a reservation still queued is withdrawn.
    const done = new AbortController();
    /** Ends the hop and gives its reservation back. */
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onTimeout);
      done.abort();
      reservation?.release();
      // Never keep a connection: sockets are not pooled (agent: false) and a finished or
      // failed hop has nothing more to read.
      req.destroy();
      fn();
    };
    const fail = (err: ImageFetchError): void => settle(() => reject(err));
    const onTimeout = (): void => fail(new ImageFetchError('timeout', 'image download timed out'));

    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request({
      protocol: url.protocol,
      hostname: stripBrackets(url.hostname),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      // Fresh socket per hop: a pooled one may have been connected without our lookup.
      agent: false,
      lookup: guardedLookup({ enforce: !hostAllowed }),
      headers: {
        'User-Agent': USER_AGENT,
        Accept: 'image/*',
        'Accept-Encoding': 'identity',
        Connection: 'close',
      },
    });
    deadline.addEventListener('abort', onTimeout, { once: true });

    req.on('error', (err) => fail(asFetchError(err)));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        const location = res.headers.location;
        if (!location) fail(new ImageFetchError('http-status', `${status} without Location`, { status }));
        else settle(() => resolve({ kind: 'redirect', location }));
        return;
      }
      if (status !== 200) {
        fail(new ImageFetchError('http-status', `HTTP ${status}`, { status }));
        return;
      }
      // WordPress requires the header to say image; checking it first also spares the
      // download of pages and other non-images.
      const contentType = res.headers['content-type'] ?? '';
      if (!/^image\//i.test(contentType.trim())) {
        fail(new ImageFetchError('not-an-image', `Content-Type ${contentType || '(none)'}`));
        return;
      }
      const declared = contentLength(res.headers['content-length']);
      if (declared !== undefined && declared > maxBytes) {
        fail(new ImageFetchError('too-large', `Content-Length ${declared} exceeds ${maxBytes}`));
        return;
      }
      res.on('error', (err) => fail(asFetchError(err)));
      res.on('close', () => {
        if (!res.complete) fail(new ImageFetchError('network', 'connection closed before the body was complete'));
      });
      const read = (): void => {
        const probe = new ImageProbe(declared, maxBytes);
        res.on('data', (chunk: Buffer) => {
          if (settled) return; // already failed; chunks may still be in flight
          try {
            probe.append(chunk);
          } catch (err) {
            fail(asFetchError(err));
          }
        });
        res.on('end', () => {
          if (settled) return;
          let info: ImageInfo;
          try {
            info = probe.finish(contentType);
          } catch (err) {
            fail(asFetchError(err));
            return;
          }
          settle(() => resolve({ kind: 'image', info, filesize: probe.size }));
        });
      };
      if (!budget) {
        read();
        return;
      }
      // Reserved: the most the probe may have to hold (a body whose image header it finds only
      // at the end), the declared length or else the limit. Until granted, nothing reads the
      // body: the stream stays paused and TCP holds the sender back.
      budget.reserve(declared ?? maxBytes, done.signal).then(
        (granted) => {
          if (settled) granted.release();
          else {
            reservation = granted;
            read();
          }
        },
        // After an abort the hop has already failed (settle aborts); otherwise the size can never fit.
        (cause: unknown) => fail(new ImageFetchError('too-large', `${declared ?? maxBytes} bytes exceed the image budget`, { cause })),
      );
    });
    req.end();
  });
}

/** A Content-Length header as a number; `undefined` when absent or not plain digits. */
function contentLength(header: string | undefined): number | undefined {
  return header !== undefined && /^[0-9]+$/.test(header) ? Number(header) : undefined;
}

function asFetchError(err: unknown): ImageFetchError {
  if (err instanceof ImageFetchError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ImageFetchError('network', message, { cause: err });
}
