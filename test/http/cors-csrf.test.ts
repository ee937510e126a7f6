/**
 * Issue 11, CORS, CSRF and verbs: every origin was once echoed with
 * `Access-Control-Allow-Credentials: true`, and `GET …?_method=DELETE` deleted, so with a host
 * that signs callers in by a session cookie any page on any site could read and write as the
 * visitor. Credentialed CORS is now for listed origins only, a cookie-authenticated write
 * needs the nonce (`X-WP-Nonce` / `_wpnonce`) or a trusted origin, and only a POST is ever
 * overridden.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { USERS } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

const EVIL = 'https://evil.example';
const APP = 'https://app.example';

describe('CORS', () => {
  const calendars: HttpCalendar[] = [];
  const open = async (options: Parameters<typeof httpCalendar>[1]) => {
    const t = await httpCalendar(':memory:', options);
    calendars.push(t);
    return t;
  };
  afterAll(() => Promise.all(calendars.map((t) => t.close())));

  it('lets any origin read by default, never with credentials', async () => {
    const t = await open({});
    const r = await t.request('GET', '/categories', { headers: { origin: EVIL, cookie: 'session=admin' } });
    expect(r.headers['access-control-allow-origin']).toBe(EVIL);
    expect(r.headers).not.toHaveProperty('access-control-allow-credentials');
    expect(r.headers['access-control-expose-headers']).toBe('X-WP-Total, X-WP-TotalPages, Link');
  });

  it('gives credentials to listed origins only, and nothing to others', async () => {
    for (const origins of [[APP], (origin: string) => origin === APP]) {
      const t = await open({ cors: { origins } });
      const listed = await t.request('GET', '/categories', { headers: { origin: APP } });
      expect(listed.headers).toMatchObject({ 'access-control-allow-origin': APP, 'access-control-allow-credentials': 'true' });
      const other = await t.request('GET', '/categories', { headers: { origin: EVIL } });
      expect(other.status).toBe(200);
      for (const h of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods'])
        expect(other.headers).not.toHaveProperty(h);
    }
    const plain = await open({ cors: { origins: [APP], credentials: false } });
    const r = await plain.request('GET', '/categories', { headers: { origin: APP } });
    expect(r.headers['access-control-allow-origin']).toBe(APP);
    expect(r.headers).not.toHaveProperty('access-control-allow-credentials');
  });

  it('answers a preflight with the configured headers, methods and max age', async () => {
    const t = await open({ cors: { origins: [APP], allowHeaders: ['Content-Type', 'X-WP-Nonce'], allowMethods: ['GET', 'POST'], maxAge: 600 } });
    const r = await t.request('OPTIONS', '/events', { headers: { origin: APP, 'access-control-request-method': 'POST' } });
    expect(r.status).toBe(200);
    expect(r.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'Content-Type, X-WP-Nonce',
      'access-control-allow-methods': 'GET, POST',
      'access-control-max-age': '600',
    });
  });

  it('sends no Access-Control header at all with `cors: false`', async () => {
    const t = await open({ cors: false });
    const r = await t.request('GET', '/categories', { headers: { origin: APP } });
    expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('CSRF guard for cookie-authenticated writes', () => {
  let t: HttpCalendar;
  let n = 0;
  const name = () => `Cookie category ${++n}`;
  const create = (headers: Record<string, string>, query?: string, form?: string) =>
    t.request(
      'POST',
      '/categories',
      form !== undefined ? { headers, query, form: `name=${encodeURIComponent(name())}&${form}` } : { headers, query, json: { name: name() } },
    );

  beforeAll(async () => {
    t = await httpCalendar(':memory:', { cors: { origins: [APP] }, csrf: { trustedOrigins: ['https://admin.example'] } });
  });
  afterAll(() => t.close());

  it('runs a cookie write without nonce or trusted origin as anonymous', async () => {
    const attempts: Record<string, string>[] = [
      { cookie: 'session=admin' },
      { cookie: 'session=admin', origin: EVIL },
      { cookie: 'session=admin', 'sec-fetch-site': 'cross-site', origin: EVIL },
    ];
    for (const headers of attempts) {
      const r = await create(headers);
      expect([r.status, r.body.code], JSON.stringify(headers)).toEqual([401, 'rest_forbidden']);
    }
    expect(await t.rows('terms')).toBe(0);
  });

  it('lets it through with a nonce (header, query or form body) or from a trusted page', async () => {
    const nonce = t.calendar.createNonce(USERS.admin);
    for (const [headers, query, form] of [
      [{ cookie: 'session=admin', 'x-wp-nonce': nonce }],
      [{ cookie: 'session=admin' }, `_wpnonce=${nonce}`],
      [{ cookie: 'session=admin' }, undefined, `_wpnonce=${nonce}`],
      [{ cookie: 'session=admin', 'sec-fetch-site': 'same-origin' }],
      [{ cookie: 'session=admin', origin: t.origin }],
      [{ cookie: 'session=admin', origin: APP }],
      [{ cookie: 'session=admin', origin: 'https://admin.example' }],
    ] as [Record<string, string>, string?, string?][]) {
      const r = await create(headers, query, form);
      expect(r.status, `${JSON.stringify(headers)} ${query} ${form}: ${r.text}`).toBe(201);
    }
  });

  it('refuses a wrong, foreign or expired nonce with rest_cookie_invalid_nonce', async () => {
    const expired = t.calendar.createNonce(USERS.admin);
    const spy = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 2 * 86_400_000);
    try {
      const r = await create({ cookie: 'session=admin', 'x-wp-nonce': expired, origin: t.origin });
      expect([r.status, r.body]).toEqual([
        403,
        {
          code: 'rest_cookie_invalid_nonce',
          message: 'Cookie check failed',
          data: { status: 403, csrf: { reason: 'invalid_nonce', message: expect.any(String) } },
        },
      ]);
    } finally {
      spy.mockRestore();
    }
    for (const nonce of ['0123456789abcdef', t.calendar.createNonce(USERS.editor)]) {
      const r = await create({ cookie: 'session=admin', 'x-wp-nonce': nonce });
      expect([r.status, r.body.code]).toEqual([403, 'rest_cookie_invalid_nonce']);
    }
  });

  it('leaves reads and token-authenticated writes alone', async () => {
    const draft = await t.request('POST', '/events', {
      as: 'admin',
      json: { title: 'Draft', status: 'draft', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' },
    });
    expect(draft.status).toBe(201);
    const read = await t.request('GET', `/events/${draft.body.id}`, { headers: { cookie: 'session=admin', origin: EVIL } });
    expect(read.status).toBe(200);
    const bearer = await create({ cookie: 'session=subscriber', authorization: 'Bearer user-admin', origin: EVIL });
    expect(bearer.status).toBe(201);
  });

  it('guards a cookie write that also carries credentials a browser sends by itself (Basic)', async () => {
    const r = await create({ cookie: 'session=admin', authorization: `Basic ${Buffer.from('admin:secret').toString('base64')}`, origin: EVIL });
    expect([r.status, r.body.code]).toEqual([401, 'rest_forbidden']);
  });

  it("runs a cross-site POST `?_method=DELETE` with the visitor's cookie as anonymous", async () => {
    const id = (await t.request('POST', '/categories', { as: 'admin', json: { name: 'Not yours to delete' } })).body.id;
    const r = await t.request('POST', `/categories/${id}`, { query: '_method=DELETE', headers: { cookie: 'session=admin', origin: EVIL } });
    expect([r.status, r.body.code]).toEqual([401, 'rest_forbidden']);
    expect((await t.request('GET', `/categories/${id}`)).status).toBe(200);
  });

  it('never lets a GET with `_method=DELETE` delete, with or without a nonce', async () => {
    const id = (await t.request('POST', '/categories', { as: 'admin', json: { name: 'Keep me' } })).body.id;
    const nonce = t.calendar.createNonce(USERS.admin);
    const r = await t.request('GET', `/categories/${id}`, {
      query: `_method=DELETE&_wpnonce=${nonce}`,
      headers: { cookie: 'session=admin', 'x-http-method-override': 'DELETE' },
    });
    expect(r.status).toBe(200);
    expect((await t.request('GET', `/categories/${id}`)).status).toBe(200);
  });

  it('binds nonces to the session when the host says how to read it', async () => {
    const bound = await httpCalendar(':memory:', { csrf: { session: (req) => /sid=(\w+)/.exec(String(req.headers.cookie))?.[1] } });
    try {
      const nonce = bound.calendar.createNonce(USERS.admin, 'one');
      const ok = await bound.request('POST', '/categories', { headers: { cookie: 'session=admin; sid=one', 'x-wp-nonce': nonce }, json: { name: 'Bound' } });
      expect(ok.status).toBe(201);
      const other = await bound.request('POST', '/categories', { headers: { cookie: 'session=admin; sid=two', 'x-wp-nonce': nonce }, json: { name: 'Other' } });
      expect([other.status, other.body.code]).toEqual([403, 'rest_cookie_invalid_nonce']);
    } finally {
      await bound.close();
    }
  });

  it('does not trust with cookies an origin listed for reads without credentials', async () => {
    const plain = await httpCalendar(':memory:', { cors: { origins: [APP], credentials: false } });
    try {
      const r = await plain.request('POST', '/categories', { headers: { cookie: 'session=admin', origin: APP }, json: { name: 'Plain' } });
      expect([r.status, r.body.code]).toEqual([401, 'rest_forbidden']);
    } finally {
      await plain.close();
    }
  });

  it('refuses a nonce lifetime it cannot honour', async () => {
    await expect(httpCalendar(':memory:', { csrf: { lifetime: 0 } })).rejects.toThrow(/csrf.lifetime/);
  });

  it('trusts every cookie write with `csrf: false` (a host that guards them itself)', async () => {
    const off = await httpCalendar(':memory:', { csrf: false });
    try {
      const r = await off.request('POST', '/categories', { headers: { cookie: 'session=admin', origin: EVIL }, json: { name: 'Unguarded' } });
      expect(r.status).toBe(201);
    } finally {
      await off.close();
    }
  });
});
