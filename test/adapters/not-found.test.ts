/**
 * Issue 31, trap 10: a path under the mount but outside the namespace got the framework's HTML
 * 404 (`<pre>Cannot GET /wp-json/nope</pre>` in Express), where WordPress answers JSON
 * `rest_no_route` for anything under its REST root. By default such paths still go on to the
 * host (hosts share prefixes); the mount option `notFound: 'json'` answers as WordPress does.
 */
import express from 'express';
import Fastify from 'fastify';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { calendarPlugin } from '../../adapters/fastify.js';
import { calendarNodeHandler } from '../../adapters/node.js';
import { createCalendar, type Calendar } from '../../src/index.js';

const NS = 'calendar/events/v1';
const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };

let calendar: Calendar;
beforeAll(async () => {
  calendar = createCalendar({ db: ':memory:' });
  await calendar.migrate();
});
afterAll(() => calendar.close());

async function listen(server: Server): Promise<{ base: string; close: () => Promise<void> }> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((done) => server.close(() => done())) };
}

describe('Express', () => {
  it('falls through to the host by default, and answers rest_no_route with notFound: json', async () => {
    const app = express();
    app.use('/wp-json', calendarRouter(calendar));
    app.get('/wp-json/host', (_req, res) => void res.send('host'));
    app.use('/json/wp-json', calendarRouter(calendar, { notFound: 'json' }));
    app.get('/json/wp-json/host', (_req, res) => void res.send('host'));
    const { base, close } = await listen(createServer(app));
    try {
      // What the trial saw: Express' HTML page.
      const html = await fetch(`${base}/wp-json/nope`);
      expect(html.status).toBe(404);
      expect(await html.text()).toContain('Cannot GET /wp-json/nope');
      expect(await (await fetch(`${base}/wp-json/host`)).text()).toBe('host');

      for (const path of ['/json/wp-json/nope', '/json/wp-json/host', '/json/wp-json/wp/v2/posts']) {
        const res = await fetch(`${base}${path}`, { method: 'POST' });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
        expect(await res.json()).toEqual(NO_ROUTE);
      }
      const head = await fetch(`${base}/json/wp-json/nope`, { method: 'HEAD' });
      expect(head.status).toBe(404);
      // The namespace and the root index answer as before.
      expect((await fetch(`${base}/json/wp-json/${NS}/tags`)).status).toBe(200);
      expect((await fetch(`${base}/json/wp-json/`)).status).toBe(200);
    } finally {
      await close();
    }
  });
});

describe('Fastify', () => {
  it('goes to the host’s not-found handler by default, and answers rest_no_route with notFound: json', async () => {
    const app = Fastify();
    app.setNotFoundHandler((_request, reply) => reply.code(404).send('host 404'));
    await app.register(calendarPlugin, { calendar, prefix: '/wp-json', close: false });
    await app.register(calendarPlugin, { calendar, prefix: '/json/wp-json', notFound: 'json', close: false });
    try {
      const host = await app.inject({ url: '/wp-json/nope' });
      expect([host.statusCode, host.body]).toEqual([404, 'host 404']);
      const ours = await app.inject({ method: 'DELETE', url: '/json/wp-json/nope' });
      expect(ours.statusCode).toBe(404);
      expect(ours.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(ours.json()).toEqual(NO_ROUTE);
      expect((await app.inject({ url: `/json/wp-json/${NS}/tags` })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the Node handler as Connect-style middleware', () => {
  it('with notFound: json keeps the paths below its root, and passes on the others', async () => {
    const handle = calendarNodeHandler(calendar, { root: '/wp-json', notFound: 'json' });
    const server = createServer((req, res) => {
      void handle(req, res, () => {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('host');
      });
    });
    const { base, close } = await listen(server);
    try {
      const ours = await fetch(`${base}/wp-json/nope`);
      expect(ours.status).toBe(404);
      expect(await ours.json()).toEqual(NO_ROUTE);
      expect(await (await fetch(`${base}/elsewhere`)).text()).toBe('host');
    } finally {
      await close();
    }
  });
});
