import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { classifyAddress, normalizeHost, stripBrackets } from './address-policy.js';
import { ImageFetchError } from './errors.js';
import { guardedLookup } from './guarded-lookup.js';
import { inspectImage } from './inspect-image.js';

export { ImageFetchError, type ImageFetchErrorCode } from './errors.js';

/** Limits and exceptions for `fetchImage`. */
export type FetchImageOptions = {
  /** Host names (case-insensitive, exact) that may be contacted whatever their address. */
  allowHosts?: readonly string[];
  /** Largest accepted body in bytes; default 10 MiB. */
  maxBytes?: number;
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
const USER_AGENT = 'calendar-events-rest image fetcher';

/** Downloads an image URL under an SSRF policy and reports its type, size and final URL. */
export async function fetchImage(url: string, options: FetchImageOptions = {}): Promise<FetchedImage> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const allowed = new Set((options.allowHosts ?? []).map(normalizeHost));
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    let current = checkUrl(url, allowed);
    for (let redirects = 0; ; redirects++) {
      const hop = await get(current, allowed.has(stripBrackets(current.hostname)), maxBytes, deadline.signal);
      if (hop.kind === 'body') return describe(current, hop.body, hop.contentType);
      if (redirects >= maxRedirects) throw new ImageFetchError('too-many-redirects', `more than ${maxRedirects} redirects`);
      let next: string;
      try {
        next = new URL(hop.location, current).href;
      } catch (cause) {
        throw new ImageFetchError('http-status', 'redirect to an unusable Location', { cause });
      }
      // Every hop faces the same policy as the first URL.
      current = checkUrl(next, allowed);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Parses a URL and refuses what may not be fetched before any connection is made. */
function checkUrl(raw: string, allowed: ReadonlySet<string>): URL {
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
  // The URL parser has already turned 2130706433, 0x7f.1, 0177.0.0.1 … into dotted form.
  // Node connects to IP literals without calling `lookup`, so they are judged here.
  if (isIP(host) && !allowed.has(host)) {
    const cls = classifyAddress(host);
    if (cls !== 'public') throw new ImageFetchError('not-allowed', `${host} is a ${cls} address`);
  }
  return url;
}

type Hop = { kind: 'redirect'; location: string } | { kind: 'body'; body: Buffer; contentType: string };

/** One GET: a redirect target, or a 200 `image/*` body within the byte limit. */
function get(url: URL, hostAllowed: boolean, maxBytes: number, deadline: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    if (deadline.aborted) {
      reject(new ImageFetchError('timeout', 'image download timed out'));
      return;
    }
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onTimeout);
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
      const declared = res.headers['content-length'];
      if (declared !== undefined && Number(declared) > maxBytes) {
        fail(new ImageFetchError('too-large', `Content-Length ${declared} exceeds ${maxBytes}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (settled) return; // already failed; chunks may still be in flight
        size += chunk.length;
        // Checked per chunk so a lying or absent Content-Length cannot make us buffer more.
        if (size > maxBytes) fail(new ImageFetchError('too-large', `body exceeds ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => settle(() => resolve({ kind: 'body', body: Buffer.concat(chunks, size), contentType })));
      res.on('error', (err) => fail(asFetchError(err)));
      res.on('close', () => {
        if (!res.complete) fail(new ImageFetchError('network', 'connection closed before the body was complete'));
      });
    });
    req.end();
  });
}

/** Checks the downloaded bytes really are an accepted image. */
function describe(url: URL, body: Buffer, contentType: string): FetchedImage {
  const info = inspectImage(body);
  if (!info) throw new ImageFetchError('not-an-image', `${contentType} body is not a supported image`);
  return {
    url: url.href,
    mimeType: info.mimeType,
    width: info.width,
    height: info.height,
    filesize: body.length,
    extension: info.extension,
  };
}

function asFetchError(err: unknown): ImageFetchError {
  if (err instanceof ImageFetchError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ImageFetchError('network', message, { cause: err });
}
