import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCalendar, signWebhook, verifyWebhook, type WebhookOptions } from '../../src/index.js';

// Issue 28, finding 9: a `whsec_` secret must decode to a key of at least 16 bytes, and no
// signature made with an empty key is genuine. Raw secrets (any other text of 8 characters or
// more, keyed by their UTF-8 bytes) keep signing as before.

const hooks = (secret: string): WebhookOptions => ({ endpoints: [{ url: 'https://hooks.example/calendar', secret }] });
/** What `createCalendar` says of a secret: its error's message, or `undefined` when it takes it. */
const refusal = async (secret: string) => {
  try {
    await createCalendar({ db: ':memory:', webhooks: hooks(secret) }).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};
const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

/** The headers of a delivery signed with `key`'s bytes, now. */
const signedWith = (key: Buffer, body: string) => {
  const id = 'msg_1';
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
};

describe('webhook secrets', () => {
  it('refuses a whsec_ secret whose key is not at least 16 bytes of standard base64', async () => {
    for (const secret of ['whsec_!!!!!!!!', 'whsec_        ', `whsec_${base64Of(15)}`, `whsec_${base64Of(24).replace(/\+/g, '-')}-_-_`, 'whsec_========']) {
      const message = await refusal(secret);
      expect(message, secret).toMatch(/^calendar-events-rest: option `webhooks\.endpoints\[0\]\.secret` is "\(hidden\)"; it takes .*whsec_.*16 bytes/);
      // The secret itself is never shown.
      expect(message).not.toContain(secret.slice(6));
    }
    expect(await refusal(`whsec_${base64Of(16)}`)).toBeUndefined();
    expect(await refusal('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBeUndefined();
    // Raw secrets: 8 characters or more, as before.
    expect(await refusal('sécret-partagé')).toBeUndefined();
    expect(await refusal('short')).toMatch(/at least 8 characters/);
  });

  it('never verifies a signature made with an empty key', () => {
    const body = '{"kind":"event"}';
    const empty = signedWith(Buffer.alloc(0), body);
    for (const secret of ['whsec_!!!!!!!!', 'whsec_', '']) expect(verifyWebhook(secret, body, empty), secret).toBe(false);
    expect(() => signWebhook('whsec_!!!!!!!!', 'msg_1', 1, body)).toThrow(/secret/);
  });

  it('keys raw secrets by their UTF-8 bytes and whsec_ secrets by their base64, as before', () => {
    const body = '{"kind":"venue","item":{"venue":"Salle Pleyel"}}';
    const raw = 'sécret-partagé 日本';
    expect(verifyWebhook(raw, body, signedWith(Buffer.from(raw, 'utf8'), body))).toBe(true);
    expect(verifyWebhook(raw, Buffer.from(body), signedWith(Buffer.from(raw, 'utf8'), body))).toBe(true);
    expect(signWebhook(raw, 'msg_1', 1614265330, body)).toBe(
      `v1,${createHmac('sha256', Buffer.from(raw, 'utf8')).update(`msg_1.1614265330.${body}`).digest('base64')}`,
    );
    const key = Buffer.alloc(32, 9);
    expect(verifyWebhook(`whsec_${key.toString('base64')}`, body, signedWith(key, body))).toBe(true);
    // Several signatures, array headers (Node's), mixed-case names, the tolerance and the clock.
    const headers = signedWith(key, body);
    const secret = `whsec_${key.toString('base64')}`;
    expect(verifyWebhook(secret, body, { ...headers, 'webhook-signature': `v1,AAAA v2,xyz ${headers['webhook-signature']}` })).toBe(true);
    expect(verifyWebhook(secret, body, { ...headers, 'webhook-signature': [headers['webhook-signature']] })).toBe(true);
    expect(
      verifyWebhook(secret, body, {
        'Webhook-Id': headers['webhook-id'],
        'Webhook-Timestamp': headers['webhook-timestamp'],
        'Webhook-Signature': headers['webhook-signature'],
      }),
    ).toBe(true);
    const later = new Date((Number(headers['webhook-timestamp']) + 301) * 1000);
    expect(verifyWebhook(secret, body, headers, { now: later })).toBe(false);
    expect(verifyWebhook(secret, body, headers, { now: later, toleranceSeconds: 400 })).toBe(true);
  });
});
