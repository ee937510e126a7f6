// Routes a host adds inside the namespace (issue 32): declared with calendarRoute() and arg(),
// checked, permitted and answered by the pipeline, listed in the index and both /doc modes, and
// served by every adapter (Express, Fastify, the Node handler, the Fetch handler).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { calendarPlugin } from '../../adapters/fastify.js';
import { fetchHandler } from '../../adapters/fetch.js';
import { calendarNodeHandler } from '../../adapters/node.js';
import { arg } from '../../src/args/arg.js';
import { has } from '../../src/auth/capabilities.js';
import { calendarRoute } from '../../src/http/host-routes.js';
import { createCalendar, type Calendar } from '../../src/index.js';
import { USERS, requester } from '../helpers/harness.js';

const NS = 'calendar/events/v1';

/** `GET /stats`: upcoming events and venues (what the archives' totals say to anyone). */
const stats = calendarRoute({
  path: '/stats',
  methods: ['GET'],
  description: { en: 'How many published events and venues there are.', fr: 'Combien d’évènements et de lieux publiés.' },
  handler: async (ctx) => {
    const events = await ctx.read('/events');
    const venues = await ctx.read('/venues?per_page=1');
    const total = (r: { body: unknown }) => (typeof r.body === 'object' && r.body !== null && 'total' in r.body ? Number(r.body.total) : 0);
    return { body: { events: total(events), venues: total(venues) } };
  },
});

/** `POST /echo/{n}`: a write for editors, with a checked argument and a path parameter. */
const echo = calendarRoute({
  path: '/echo/(?P<n>\\d+)',
  methods: ['POST'],
  args: {
    n: arg({ type: 'integer', description: { en: 'A number.' } }, { required: true, in: 'path' }),
    word: arg({ type: 'string', description: { en: 'A word.' } }, { required: true, check: (v: unknown) => typeof v === 'string' && /^[a-z]+$/.test(v) }),
  },
  permission: (ctx) => has(ctx.principal, 'edit_others_tribe_events'),
  handler: (ctx) => ({ status: 201, body: { said: `${ctx.params.word} ${ctx.params.n}` } }),
});

describe('host routes', () => {
  let calendar: Calendar;
  const servers: Server[] = [];
  let fastify: ReturnType<typeof Fastify>;
  const bases: Record<string, string> = {};

  beforeAll(async () => {
    calendar = createCalendar({
      db: ':memory:',
      baseUrl: 'http://example.org',
      routes: [stats, echo],
      getUser: (req) => (req.headers.authorization === 'Bearer editor' ? USERS.editor : null),
    });
    await calendar.migrate();
    const request = requester(calendar);
    await request('POST', '/events', {
      as: 'admin',
      json: { title: 'One', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', status: 'publish', venue: { venue: 'Hall' } },
    });
    const listen = async (server: Server) => {
      servers.push(server);
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const app = express();
    app.use('/wp-json', ...calendarRouter(calendar, { root: '/wp-json' }));
    bases.express = await listen(createServer(app));
    const node = calendarNodeHandler(calendar, { root: '/wp-json' });
    // Its promise never rejects (failures are answered or reported): nothing to wait for here.
    bases.node = await listen(createServer((req, res) => void node(req, res)));
    fastify = Fastify();
    await fastify.register(calendarPlugin, { calendar, prefix: '/wp-json', close: false });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    bases.fastify = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await new Promise((done) => s.close(done));
    await fastify?.close();
    await calendar?.close();
  });

  const fetchVia = fetchHandler(() => calendar, { root: '/wp-json' });
  const ask = async (server: string, path: string, init: RequestInit = {}) => {
    const url = `${server === 'fetch' ? 'http://example.org' : bases[server]}/wp-json/${NS}${path}`;
    const res = server === 'fetch' ? await fetchVia(new Request(url, init)) : await fetch(url, init);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it.each(['express', 'fastify', 'node', 'fetch'])('answers through %s: reads, checked writes, permissions', async (server) => {
    expect(await ask(server, '/stats')).toEqual({ status: 200, body: { events: 1, venues: 1 } });
    const write = (word: string, auth?: string) =>
      ask(server, '/echo/7', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ word }),
      });
    expect(await write('hello', 'Bearer editor')).toEqual({ status: 201, body: { said: 'hello 7' } });
    const bad = await write('Hello!', 'Bearer editor');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect((await write('hello')).status).toBe(401);
  });

  it('lists them in the index and both /doc modes', async () => {
    const request = requester(calendar);
    const index = await request('GET', '/');
    expect(index.body.routes[`/${NS}/stats`]).toMatchObject({ methods: ['GET'] });
    expect(index.body.routes[`/${NS}/echo/(?P<n>\\d+)`].endpoints[0].args.word).toMatchObject({ type: 'string', description: 'A word.', required: true });
    const doc = await request('GET', '/doc', { query: { locale: 'fr' } });
    expect(doc.body.paths['/stats'].get).toBeDefined();
    expect(doc.body.paths['/echo/{n}'].post).toBeDefined();
    const complete = await request('GET', '/doc/complete');
    expect(JSON.stringify(complete.body.paths['/echo/{n}'].post.requestBody)).toContain('word');
  });

  it('refuses a route that takes a built-in path, or a path that is not one', () => {
    const clash = calendarRoute({ path: '/events', methods: ['GET'], handler: () => ({ body: [] }) });
    expect(() => createCalendar({ db: ':memory:', routes: [clash] })).toThrow(/already a route/);
    expect(() => calendarRoute({ path: 'stats', methods: ['GET'], handler: () => ({ body: [] }) })).toThrow(/not a route path/);
  });
});
