/**
 * Webhook signatures, as the Standard Webhooks specification has them (standardwebhooks.com):
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 of
 * HMAC-SHA256 of "<id>.<timestamp>.<body>">`. Its libraries verify these deliveries; so does
 * {@link verifyWebhook}, exported for receivers written against this package.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The key of a secret: a `whsec_…` secret is base64 after its prefix (the standard's form); any other, its UTF-8 bytes. */
function keyOf(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** The `webhook-signature` value of a delivery. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers a delivery carries besides its content type. */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, id, timestamp, body) };
}

/** Options of {@link verifyWebhook}. */
export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds (replays are refused); default 300. */
  toleranceSeconds?: number;
  /** The instant to check against; default now. */
  now?: Date;
}

/**
 * Whether a received webhook is genuine: its signature (any of the space-separated `v1,…`
 * values) matches the raw body for `secret`, and its timestamp is recent. Pass the body
 * exactly as received, before any JSON parsing.
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: Record<string, string | string[] | undefined>, options: VerifyOptions = {}): boolean {
  const header = (name: string) => {
    const v = headers[name] ?? headers[name.toLowerCase()] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
    return Array.isArray(v) ? v[0] : v;
  };
  const id = header('webhook-id');
  const timestamp = Number(header('webhook-timestamp'));
  const signatures = header('webhook-signature');
  if (!id || !signatures || !Number.isSafeInteger(timestamp)) return false;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const expected = Buffer.from(signWebhook(secret, id, timestamp, text));
  return signatures.split(' ').some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
