/**
 * Webhook signatures, as the Standard Webhooks specification has them (standardwebhooks.com):
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 of
 * HMAC-SHA256 of "<id>.<timestamp>.<body>">`. Its libraries verify these deliveries; so does
 * {@link verifyWebhook}, exported for receivers written against this package.
 *
 * Keys and signatures come from the specification's own package, `standardwebhooks` (1.1.x, by
 * its maintainers, released August 2026; CommonJS, which Node's ESM imports by name; MIT, with
 * two small dependencies: base64 and a JavaScript SHA-256). It decodes a `whsec_` secret as the
 * other implementations do (strict base64, where Node's decoder skipped what it could not read,
 * so that `whsec_!!!!!!!!` gave an empty key that signed anything) and refuses an empty key.
 * Two things it does otherwise stay here:
 * - Raw secrets (any other text): its `raw` format reads a string's UTF-16 code units as bytes,
 *   while this library has always keyed them by their UTF-8 bytes; those bytes are passed to it.
 * - Verification: its `verify` checks against the host's clock with a fixed five minutes, parses
 *   the JSON, throws, and reads no header given as a list (as Node gives repeated ones).
 *   `verifyWebhook` keeps its own tolerance, instant and boolean answer: it checks the timestamp,
 *   then compares each `v1,…` value given with the package's signature, in constant time.
 * Its SHA-256 runs in JavaScript: about 10 ms per MB of body here (node:crypto, 2 ms); a
 * delivery carries one item, far less.
 */
import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const PREFIX = 'whsec_';

/** The fewest bytes the key of a `whsec_` secret may have (the specification's secrets are 24 to 64 random bytes). */
export const MIN_KEY_BYTES = 16;

/** The package's signer for a secret: a `whsec_…` secret's base64 key, any other's UTF-8 bytes; throws when it names no key. */
function signer(secret: string): Webhook {
  try {
    return secret.startsWith(PREFIX) ? new Webhook(secret) : new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
  } catch {
    throw new TypeError(`calendar-events-rest: the webhook secret names no key (a ${PREFIX} secret is standard base64, of at least ${MIN_KEY_BYTES} bytes)`);
  }
}

/** How many bytes the key of a `whsec_` secret has; 0 when it names none (not standard base64, or empty). */
export function whsecKeyBytes(secret: string): number {
  try {
    signer(secret);
  } catch {
    return 0;
  }
  // The package keeps its key to itself; for the base64 it takes, Node's decoder gives the same bytes.
  return Buffer.from(secret.slice(PREFIX.length), 'base64').length;
}

/** The `webhook-signature` value of a delivery. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return signer(secret).sign(id, new Date(timestamp * 1000), body);
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
 * exactly as received, before any JSON parsing. A secret that names no key (empty, or a
 * `whsec_` one that is not base64) verifies nothing.
 */
export function verifyWebhook(
  secret: string,
  body: string | Uint8Array,
  headers: Record<string, string | string[] | undefined>,
  options: VerifyOptions = {},
): boolean {
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
  let expected: Buffer;
  try {
    expected = Buffer.from(signWebhook(secret, id, timestamp, text));
  } catch {
    return false;
  }
  return signatures.split(' ').some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
