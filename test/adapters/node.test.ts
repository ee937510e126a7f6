/** The plain Node handler (`calendar-events-rest/node`) on Node's own server, as Connect-style middleware and in Koa. */
import express from 'express';
import Koa from 'koa';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { calendarNodeHandler, type NodeHandler } from '../../adapters/node.js';
import { ApiError, createCalendar, type Calendar, type User } from '../../src/index.js';

const NS = 'calendar/events/v1';
const ADMIN: User = { id: 1, roles: ['administrator'] };
const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };

let calendar: Calendar;
const reported: unknown[] = [];

beforeAll(async () => {
  calendar = createCalendar({
    db: ':memory:',
    baseUrl: 'http://example.org',
    onError: (error) => reported.push(error),
    getUser: (req) => (req.headers.authorization === 'Bearer admin' ? ADMIN : null),
  });
  await calendar.migrate();
});
afterAll(() => calendar.close());

/** Listens on a free port; the base URL and a way to close. */
async function listen(server: Server): Promise<{ base: string; close: () => Promise<void> }> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((done) => server.close(() => done())) };
}

/** A plain server running `handle` for each request (without `next`, its promise never rejects). */
const serve = (handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Server => createServer((req, res) => void handle(req, res));

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer admin' },
  body: JSON.stringify(body),
});

describe('calendarNodeHandler on http.createServer', () => {
  it('serves the namespace below its root, with the root in its URLs, and the API’s JSON 404 elsewhere', async () => {
    const { base, close } = await listen(serve(calendarNodeHandler(calendar, { root: '/wp-json/' })));
    try {
      const created = await fetch(`${base}/wp-json/${NS}/tags`, json({ name: 'Plain' }));
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      expect(created.headers.get('location')).toBe(`http://example.org/wp-json/${NS}/tags/${id}`);
      expect(((await (await fetch(`${base}/wp-json/${NS}/tags/${id}`)).json()) as { name: string }).name).toBe('Plain');
      // The REST root's index, with and without its slash.
      for (const path of ['/wp-json', '/wp-json/'])
        expect(((await (await fetch(`${base}${path}`)).json()) as { namespaces: string[] }).namespaces, path).toEqual([NS]);
      for (const path of ['/elsewhere', '/wp-jsonx', '/wp-json/other/v2/things', '/', `/fr/wp-json/${NS}`]) {
        const res = await fetch(`${base}${path}`);
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type'), path).toBe('application/json; charset=UTF-8');
        expect(await res.json(), path).toEqual(NO_ROUTE);
      }
      const head = await fetch(`${base}/elsewhere`, { method: 'HEAD' });
      expect(head.status).toBe(404);
      expect(await head.text()).toBe('');
    } finally {
      await close();
    }
  });

  it('writes a list from its pieces, then from the buffer joined for the same bytes, each with its Content-Length', async () => {
    for (const title of ['Written in pieces', 'Second piece']) {
      const params = { title, status: 'publish', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' };
      expect((await calendar.call('POST', '/events', { user: ADMIN, params })).status).toBe(201);
    }
    const query = 'start_date=2031-05-01&end_date=2031-05-02';
    const { base, close } = await listen(serve(calendarNodeHandler(calendar, { root: '/wp-json/' })));
    const read = async (headers: Record<string, string>) => {
      const res = await fetch(`${base}/wp-json/${NS}/events?${query}`, { headers });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      expect(res.headers.get('transfer-encoding')).toBeNull();
      return { res, bytes };
    };
    try {
      for (const [user, headers] of [
        [null, {}],
        [ADMIN, { authorization: 'Bearer admin' }],
      ] as const) {
        // The first answer of these bytes is written from its pieces (nothing has joined them
        // yet); the second from one buffer: joined on this second time (signed in), or the answer
        // the first request kept, joined on its first reuse (logged out).
        const { res, bytes } = await read(headers);
        expect((JSON.parse(bytes.toString('utf8')) as { events: { title: string }[] }).events.map((e) => e.title)).toEqual([
          'Written in pieces',
          'Second piece',
        ]);
        expect((await read(headers)).bytes.equals(bytes)).toBe(true);
        // The same answer from the core: the buffer joined for those bytes.
        const direct = await calendar.handle({ method: 'GET', path: `/${NS}/events`, query, headers: { host: 'example.org' }, root: '/wp-json', user });
        expect(direct?.chunks).toBeUndefined();
        expect(Buffer.from(direct!.body!).equals(bytes)).toBe(true);
        expect(res.headers.get('etag')).toBe(direct!.headers.ETag);
        const again = await fetch(`${base}/wp-json/${NS}/events?${query}`, { headers: { ...headers, 'if-none-match': res.headers.get('etag')! } });
        expect(again.status).toBe(304);
        expect((await again.arrayBuffer()).byteLength).toBe(0);
        const head = await fetch(`${base}/wp-json/${NS}/events?${query}`, { method: 'HEAD', headers });
        expect(head.status).toBe(200);
        expect((await head.arrayBuffer()).byteLength).toBe(0);
      }
    } finally {
      await close();
    }
  });

  it('mounted at the server’s root, and reached by an absolute request target', async () => {
    const { base, close } = await listen(serve(calendarNodeHandler(calendar, { root: '/' })));
    try {
      const res = await fetch(`${base}/${NS}/tags`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { rest_url: string }).rest_url).toBe(`http://example.org/${NS}/tags/`);
      // As a proxy sends it: `GET http://host/path HTTP/1.1`.
      const absolute = await new Promise<number>((done, fail) => {
        const { port } = new URL(base);
        const req = httpRequest({ host: '127.0.0.1', port, path: `http://example.org/${NS}/tags?per_page=1`, agent: false }, (r) => {
          r.resume();
          done(r.statusCode ?? 0);
        });
        req.on('error', fail);
        req.end();
      });
      expect(absolute).toBe(200);
    } finally {
      await close();
    }
  });

  it('a body over the calendar’s limit: the API’s 413', async () => {
    const { base, close } = await listen(serve(calendarNodeHandler(calendar)));
    try {
      const res = await fetch(`${base}/wp-json/${NS}/tags`, { ...json({}), body: 'x'.repeat(calendar.options.limits.bodyBytes + 1) });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { code: string }).code).toBe('rest_request_too_large');
    } finally {
      await close();
    }
  });

  it('getUser gets the Node request, typed (or the host’s own type), and may refuse with an ApiError', async () => {
    type SessionRequest = IncomingMessage & { session?: string };
    const handle = calendarNodeHandler<SessionRequest>(calendar, {
      getUser: (req) => {
        expectTypeOf(req).toEqualTypeOf<SessionRequest>();
        if (req.session === 'expired') throw new ApiError('rest_session_expired', 'Your session has expired.', { status: 401 });
        return req.session === 'ed' ? { id: 7, roles: ['editor'] } : null;
      },
    });
    expectTypeOf(handle).toEqualTypeOf<NodeHandler<SessionRequest>>();
    const { base, close } = await listen(
      createServer((req: SessionRequest, res) => {
        req.session = String(req.headers['x-session'] ?? '');
        void handle(req, res);
      }),
    );
    try {
      const tag = (session: string) =>
        fetch(`${base}/wp-json/${NS}/tags`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session': session },
          body: '{"name":"Session"}',
        });
      expect((await tag('ed')).status).toBe(201);
      expect((await tag('none')).status).toBe(401);
      const expired = await tag('expired');
      expect(expired.status).toBe(401);
      expect(await expired.json()).toEqual({ code: 'rest_session_expired', message: 'Your session has expired.', data: { status: 401 } });
    } finally {
      await close();
    }
  });

  it('notFound answers what is not the calendar’s when there is no next', async () => {
    const handle = calendarNodeHandler(calendar, { notFound: (_req, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('host page') });
    const { base, close } = await listen(serve(handle));
    try {
      for (const path of ['/', '/wp-json/other/v2']) {
        const res = await fetch(`${base}${path}`);
        expect(res.status, path).toBe(404);
        expect(await res.text(), path).toBe('host page');
      }
      expect((await fetch(`${base}/wp-json/${NS}/nothing`)).headers.get('content-type')).toBe('application/json; charset=UTF-8');
    } finally {
      await close();
    }
  });

  it('a request its client abandons mid-body settles the handler quietly, and the server goes on', async () => {
    reported.length = 0;
    const settled: Promise<void>[] = [];
    const handle = calendarNodeHandler(calendar);
    const server = createServer((req, res) => void settled.push(handle(req, res)));
    const { base, close } = await listen(server);
    try {
      const { port } = new URL(base);
      const socket = connect(Number(port), '127.0.0.1');
      const arrived = new Promise<void>((done) => server.once('request', () => done()));
      socket.write(`POST /wp-json/${NS}/tags HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
      await arrived;
      socket.destroy();
      await expect(settled[0]).resolves.toBeUndefined();
      expect(reported).toEqual([]);
      expect((await fetch(`${base}/wp-json/${NS}/tags`)).status).toBe(200);
    } finally {
      await close();
    }
  });
});

describe('calendarNodeHandler as Connect-style middleware', () => {
  /** A chain of `(req, res, next)` middleware on a plain server; the last `next` answers 404 text. */
  function chain(...steps: ((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => unknown)[]): Server {
    return createServer((req, res) => {
      const run = (i: number, error?: unknown): void => {
        if (error !== undefined) return void res.writeHead(500, { 'content-type': 'text/plain' }).end(`host error: ${String(error)}`);
        const step = steps[i];
        if (!step) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('host 404');
        void step(req, res, (e) => run(i + 1, e));
      };
      run(0);
    });
  }

  it('passes what is not the calendar’s to next, untouched', async () => {
    const { base, close } = await listen(
      chain(calendarNodeHandler(calendar), (req, res, next) => (req.url === '/hello' ? res.end('hello from the host') : next())),
    );
    try {
      expect(await (await fetch(`${base}/hello`)).text()).toBe('hello from the host');
      const other = await fetch(`${base}/wp-json/other/v2`);
      expect([other.status, await other.text()]).toEqual([404, 'host 404']);
      expect((await fetch(`${base}/wp-json/${NS}/tags`)).status).toBe(200);
    } finally {
      await close();
    }
  });

  it('takes what a host body parser in front of it produced (req.body)', async () => {
    const { base, close } = await listen(chain(express.json(), express.urlencoded({ extended: true }), calendarNodeHandler(calendar)));
    try {
      const parsed = await fetch(`${base}/wp-json/${NS}/tags`, json({ name: 'Parsed' }));
      expect(parsed.status).toBe(201);
      const form = await fetch(`${base}/wp-json/${NS}/tags`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer admin' },
        body: 'name=Form',
      });
      expect(((await form.json()) as { name: string }).name).toBe('Form');
    } finally {
      await close();
    }
  });

  it('hands a failure outside the core to next(error): a request its client abandons mid-body', async () => {
    const errors: unknown[] = [];
    const settled: Promise<void>[] = [];
    const handle = calendarNodeHandler(calendar);
    const server = createServer((req, res) => void settled.push(handle(req, res, (error) => void errors.push(error))));
    const { base, close } = await listen(server);
    try {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      const arrived = new Promise<void>((done) => server.once('request', () => done()));
      socket.write(`POST /wp-json/${NS}/tags HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nname=`);
      await arrived;
      socket.destroy();
      await settled[0];
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(Error);
    } finally {
      await close();
    }
  });
});

describe('calendarNodeHandler in Koa', () => {
  it('answers through ctx.req/ctx.res with ctx.respond = false, and leaves other paths to Koa', async () => {
    const handle = calendarNodeHandler(calendar, { root: '/wp-json' });
    const app = new Koa();
    app.use((ctx, next) => {
      ctx.respond = false;
      return handle(ctx.req, ctx.res, (error) => {
        if (error) throw error;
        ctx.respond = true;
        return next();
      });
    });
    app.use((ctx) => {
      ctx.body = { koa: ctx.path };
    });
    const { base, close } = await listen(serve(app.callback()));
    try {
      const created = await fetch(`${base}/wp-json/${NS}/tags`, json({ name: 'Koa' }));
      expect(created.status).toBe(201);
      expect(created.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(((await created.json()) as { name: string }).name).toBe('Koa');
      const head = await fetch(`${base}/wp-json/${NS}/tags`, { method: 'HEAD' });
      expect([head.status, await head.text()]).toEqual([200, '']);
      for (const path of ['/about', '/wp-json/other/v2']) expect(await (await fetch(`${base}${path}`)).json(), path).toEqual({ koa: path });
    } finally {
      await close();
    }
  });
});
