import { invalidOption } from '../option-error.js';
import { KIND_NAMES, type AnyKind } from '../kinds.js';
import type { ResolvedWebhooks, WebhookOptions } from './deliverer.js';
import { MIN_KEY_BYTES, whsecKeyBytes } from './signature.js';

const CHANGE_TYPES = ['created', 'updated', 'deleted'];

const wholeMs = (name: string, value: number | undefined, fallback: number): number => {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1) throw invalidOption(name, v, 'a whole number of milliseconds (1 or more)');
  return v;
};

/** Checks the `webhooks` option once, naming what is wrong; `imageHosts` join its allowed hosts. */
export function resolveWebhooks(
  o: WebhookOptions | undefined,
  imageHosts: readonly string[],
  kinds: readonly AnyKind[] = KIND_NAMES,
): ResolvedWebhooks | undefined {
  if (o === undefined) return undefined;
  if (!Array.isArray(o.endpoints)) throw invalidOption('webhooks.endpoints', o.endpoints, 'a list of { url, secret } endpoints');
  const keys = new Set<string>();
  const endpoints = o.endpoints.map((e, i) => {
    const name = `webhooks.endpoints[${i}]`;
    let url: URL | undefined;
    try {
      url = new URL(e.url);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw invalidOption(`${name}.url`, e.url, 'an http or https URL');
    if (typeof e.secret !== 'string' || e.secret.length < 8)
      throw invalidOption(`${name}.secret`, e.secret ? '(hidden)' : e.secret, 'a secret of at least 8 characters');
    // A key too short to sign with, or none at all (an empty key would make any signature genuine).
    if (e.secret.startsWith('whsec_') && whsecKeyBytes(e.secret) < MIN_KEY_BYTES) {
      throw invalidOption(
        `${name}.secret`,
        '(hidden)',
        `a whsec_ secret whose standard base64 decodes to at least ${MIN_KEY_BYTES} bytes (or any other text of at least 8 characters, used as it is)`,
      );
    }
    if (e.kinds && !e.kinds.every((k) => kinds.includes(k))) throw invalidOption(`${name}.kinds`, e.kinds, `kinds among ${kinds.join(', ')}`);
    if (e.changes && !e.changes.every((c) => CHANGE_TYPES.includes(c)))
      throw invalidOption(`${name}.changes`, e.changes, `changes among ${CHANGE_TYPES.join(', ')}`);
    const key = (e.name ?? url.href).slice(0, 190);
    if (keys.has(key)) throw invalidOption(`${name}.name`, key, 'a name no other endpoint has');
    keys.add(key);
    return { ...e, key };
  });
  const timeoutMs = wholeMs('webhooks.timeoutMs', o.timeoutMs, 10_000);
  const leaseMs = wholeMs('webhooks.leaseMs', o.leaseMs, 30_000);
  // The lease is renewed after each delivery: it must outlast the slowest one, or another
  // instance could take over while a delivery is still under way.
  if (leaseMs <= timeoutMs + 1000) throw invalidOption('webhooks.leaseMs', leaseMs, `more than timeoutMs + 1000 (${timeoutMs + 1000})`);
  return {
    endpoints,
    allowHosts: [...imageHosts, ...(o.allowHosts ?? []).map((h) => h.toLowerCase())],
    root: o.root ?? '/wp-json',
    pollMs: wholeMs('webhooks.pollMs', o.pollMs, 1000),
    retryMs: wholeMs('webhooks.retryMs', o.retryMs, 1000),
    timeoutMs,
    leaseMs,
  };
}
