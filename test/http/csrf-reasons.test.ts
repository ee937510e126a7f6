/**
 * Issue 31, trap 1: a cookie-session write refused by the CSRF guard answered only
 * `401 rest_forbidden "Sorry, you are not allowed to do that."`, with no hint that the guard
 * was why (a cookie, and no nonce nor trusted Origin). The answer keeps its status, code and
 * message, and now says why in `data.csrf`; outside production the host also hears of it once
 * per reason through `onError`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { USERS } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

const EVIL = 'https://evil.example';

describe('a cookie write the CSRF guard refused says why', () => {
  let t: HttpCalendar;
  const reported: unknown[] = [];
  let n = 0;
  const create = (headers: Record<string, string>) => t.request('POST', '/categories', { headers, json: { name: `Reasoned ${++n}` } });

  beforeAll(async () => {
    t = await httpCalendar(':memory:', { onError: (error) => reported.push(error) });
  });
  afterAll(() => t.close());

  it('names the missing nonce, then the untrusted Origin, keeping status, code and message', async () => {
    const missing = await create({ cookie: 'session=admin' });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status: 401, csrf: { reason: 'missing_nonce', message: expect.stringContaining('no nonce (X-WP-Nonce header or _wpnonce parameter)') } },
    });
    const foreign = await create({ cookie: 'session=admin', origin: EVIL });
    expect([foreign.status, foreign.body.code]).toEqual([401, 'rest_forbidden']);
    expect(foreign.body.data.csrf).toEqual({
      reason: 'untrusted_origin',
      message: expect.stringContaining(`from the origin ${EVIL}, which the calendar does not trust`),
    });
  });

  it('names a wrong nonce in the 403', async () => {
    const r = await create({ cookie: 'session=admin', 'x-wp-nonce': t.calendar.createNonce(USERS.editor) });
    expect([r.status, r.body.code, r.body.message]).toEqual([403, 'rest_cookie_invalid_nonce', 'Cookie check failed']);
    expect(r.body.data.csrf.reason).toBe('invalid_nonce');
  });

  it('reports each reason once through onError outside production', async () => {
    await create({ cookie: 'session=admin' });
    await create({ cookie: 'session=admin', origin: EVIL });
    const messages = reported.map(String);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(
      /^Error: calendar-events-rest: a write authenticated by a cookie \(user 1\) was refused its user \(missing_nonce\): .*docs\/concepts\/sessions-and-csrf\.md/,
    );
    expect(messages[1]).toContain('(untrusted_origin)');
    expect(messages[2]).toContain('(invalid_nonce)');
  });

  it('adds nothing to a refusal that is not the guard’s', async () => {
    const anonymous = await create({});
    expect(anonymous.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    // A guarded write that fails for another reason keeps its own error.
    const invalid = await t.request('POST', '/categories', { headers: { cookie: 'session=admin' }, json: {} });
    expect(invalid.body.data).not.toHaveProperty('csrf');
  });
});

describe('in production', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('says why in the answer, and reports nothing', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const reported: unknown[] = [];
    const t = await httpCalendar(':memory:', { onError: (error) => reported.push(error) });
    try {
      const r = await t.request('POST', '/categories', { headers: { cookie: 'session=admin' }, json: { name: 'Prod' } });
      expect(r.body.data.csrf.reason).toBe('missing_nonce');
      expect(reported).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
