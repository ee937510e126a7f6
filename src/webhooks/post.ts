import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { stripBrackets } from '../images/address-policy.js';
import { allowsUrl, parseAllowedHost } from '../images/allowed-hosts.js';
import { checkOutboundUrl } from '../images/fetch-image.js';
import { guardedLookup } from '../images/guarded-lookup.js';

/** What a receiver may answer before its reply is no longer read. */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * POSTs a JSON body to a receiver under the image side-loader's SSRF policy (public addresses
 * on web ports only, unless the host is listed in `allowHosts`), without following redirects.
 * Resolves with the status; rejects on a refused URL, a network error or the timeout.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowHosts: readonly string[]; timeoutMs: number; signal?: AbortSignal },
): Promise<number> {
  if (options.signal?.aborted) return Promise.reject(new Error('delivery stopped'));
  const allowed = options.allowHosts.flatMap((entry) => parseAllowedHost(entry) ?? []);
  const target = checkOutboundUrl(url, allowed);
  return new Promise<number>((resolve, reject) => {
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request({
      protocol: target.protocol,
      hostname: stripBrackets(target.hostname),
      port: target.port || undefined,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      // A fresh socket, connected through the guarded lookup.
      agent: false,
      lookup: guardedLookup({ enforce: !allowsUrl(allowed, target) }),
      timeout: options.timeoutMs,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'User-Agent': 'calendar-events-rest webhooks',
        Connection: 'close',
        ...headers,
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    const abort = () => req.destroy(new Error('delivery stopped'));
    options.signal?.addEventListener('abort', abort, { once: true });
    req.on('close', () => options.signal?.removeEventListener('abort', abort));
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('response', (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_REPLY_BYTES) res.destroy();
      });
      res.on('close', () => {
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
      });
    });
    req.end(body);
  });
}
