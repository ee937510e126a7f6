/** Each adapter takes the host's user from the framework's own request, typed, per mount. */
import express, { type Request } from 'express';
import Fastify, { type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { calendarPlugin } from '../../adapters/fastify.js';
import { fetchHandler } from '../../adapters/fetch.js';
import { ApiError, createCalendar, type Calendar, type User } from '../../src/index.js';

const NS = 'calendar/events/v1';
const EDITOR: User = { id: 7, roles: ['editor'] };
const tag = (name: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });

describe('host users through the adapters', () => {
  let calendar: Calendar;
  // The calendar's own hook never lets anyone in: a write that succeeds came through a mount's hook.
  beforeAll(async () => {
    calendar = createCalendar({ db: ':memory:', getUser: () => null });
    await calendar.migrate();
  });
  afterAll(() => calendar.close());

  it('Express: the user a host middleware resolved (req.user), per mount', async () => {
    const app = express();
    app.use((req, _res, next) => {
      (req as Request & { user?: User }).user = req.headers['x-session'] === 'ed' ? EDITOR : undefined;
      next();
    });
    app.use(
      '/wp-json',
      calendarRouter(calendar, {
        getUser: (req) => {
          expectTypeOf(req).toEqualTypeOf<Request>();
          return (req as Request & { user?: User }).user ?? null;
        },
      }),
    );
    app.use('/public/wp-json', calendarRouter(calendar));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await fetch(`${base}/wp-json/${NS}/tags`, { ...tag('Express'), headers: { ...tag('').headers, 'x-session': 'ed' } });
      expect(ok.status).toBe(201);
      expect(((await ok.json()) as { name: string }).name).toBe('Express');
      expect((await fetch(`${base}/wp-json/${NS}/tags`, tag('Nobody'))).status).toBe(401);
      // The other mount has no hook: the calendar's own decides.
      expect((await fetch(`${base}/public/wp-json/${NS}/tags`, { ...tag('Other'), headers: { ...tag('').headers, 'x-session': 'ed' } })).status).toBe(401);
    } finally {
      server.close();
    }
  });

  it('Fastify: a decorated request, and an ApiError from the hook is the API’s JSON error', async () => {
    const app = Fastify();
    await app.register(calendarPlugin, {
      calendar,
      prefix: '/wp-json',
      // The calendar serves the other adapters' tests too: app.close() leaves it open.
      close: false,
      getUser: (request) => {
        expectTypeOf(request).toEqualTypeOf<FastifyRequest>();
        const session = request.headers['x-session'];
        if (session === 'expired') throw new ApiError('rest_session_expired', 'Your session has expired.', { status: 401 });
        return session === 'ed' ? EDITOR : null;
      },
    });
    const ok = await app.inject({
      method: 'POST',
      url: `/wp-json/${NS}/tags`,
      headers: { 'content-type': 'application/json', 'x-session': 'ed' },
      payload: '{"name":"Fastify"}',
    });
    expect(ok.statusCode).toBe(201);
    const expired = await app.inject({ method: 'GET', url: `/wp-json/${NS}/tags`, headers: { 'x-session': 'expired' } });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ code: 'rest_session_expired', message: 'Your session has expired.', data: { status: 401 } });
    await app.close();
  });

  it('Fetch: the Web Request', async () => {
    const handle = fetchHandler(calendar, {
      getUser: (request) => {
        expectTypeOf(request).toEqualTypeOf<globalThis.Request>();
        return request.headers.get('cookie') === 'session=ed' ? EDITOR : null;
      },
    });
    const url = `http://example.org/wp-json/${NS}/tags`;
    // A cookie-authenticated write needs the anti-CSRF nonce, as any other (without it the caller is anonymous, as in WordPress).
    const nonce = calendar.createNonce(EDITOR);
    const ok = await handle(new Request(url, { ...tag('Fetch'), headers: { ...tag('').headers, cookie: 'session=ed', 'x-wp-nonce': nonce } }));
    expect(ok.status).toBe(201);
    expect((await handle(new Request(url, { ...tag('Forged'), headers: { ...tag('').headers, cookie: 'session=ed' } }))).status).toBe(401);
  });
});

describe('roles', () => {
  it('a role that is not one of the five grants nothing and is reported once', async () => {
    const reported: string[] = [];
    const calendar = createCalendar({ db: ':memory:', onError: (e) => reported.push(String(e)) });
    await calendar.migrate();
    // A host's user table is not typed: the role arrives as any string.
    const admin = JSON.parse('{"id":3,"roles":["admin"]}') as User;
    for (let i = 0; i < 3; i++) expect((await calendar.call('POST', '/tags', { user: admin, params: { name: `T${i}` } })).status).toBe(403);
    expect(reported).toEqual([
      'TypeError: calendar-events-rest: user 3 has the role "admin", which grants nothing: the roles are administrator, editor, author, contributor, subscriber (define the host\'s own in the `roles` option, or give a user\'s rights as `capabilities`).',
    ]);
    // A name of Object's prototype is no role either (it used to reach the grants table).
    expect((await calendar.call('GET', '/tags', { user: JSON.parse('{"id":4,"roles":["constructor"]}') as User })).status).toBe(200);
    await calendar.close();
  });

  it('roles are typed as the five role names, or a host role (the `roles` option)', () => {
    expectTypeOf<'editor'>().toMatchTypeOf<NonNullable<User['roles']>[number]>();
    expectTypeOf<'event_manager'>().toMatchTypeOf<NonNullable<User['roles']>[number]>();
    expectTypeOf<number>().not.toMatchTypeOf<NonNullable<User['roles']>[number]>();
  });
});
