import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { calendarPlugin } from '../../adapters/fastify.js';
import { createCalendar, type Calendar, type User } from '../../src/index.js';

const NS = 'calendar/events/v1';
const admin: User = { id: 1, roles: ['administrator'] };

describe('the Fastify plugin inside a host app', () => {
  let app: FastifyInstance;
  let calendar: Calendar;

  async function host(register: (app: FastifyInstance) => Promise<void>): Promise<FastifyInstance> {
    calendar = createCalendar({ db: ':memory:', baseUrl: 'http://example.org', getUser: (req) => (req.headers.authorization ? admin : null) });
    await calendar.migrate();
    app = Fastify();
    await register(app);
    await app.ready();
    return app;
  }

  afterEach(async () => {
    await app?.close();
    await calendar?.close();
  });

  it('leaves the host’s content-type parsers alone, and parses its own bodies in the core', async () => {
    await host(async (a) => {
      a.post('/host', async (req) => ({ got: req.body }));
      await a.register(calendarPlugin, { calendar, prefix: '/wp-json' });
    });
    const hostOk = await app.inject({ method: 'POST', url: '/host', payload: { a: 1 } });
    expect(hostOk.json()).toEqual({ got: { a: 1 } });
    const hostBad = await app.inject({ method: 'POST', url: '/host', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(hostBad.json().code).toBe('FST_ERR_CTP_INVALID_JSON_BODY');

    const ours = await app.inject({
      method: 'POST',
      url: `/wp-json/${NS}/tags`,
      headers: { 'content-type': 'application/json', authorization: 'x' },
      payload: '{',
    });
    expect(ours.statusCode).toBe(400);
    expect(ours.json().code).toBe('rest_invalid_json');
    // A media type Fastify has no parser for reaches the core too.
    const form = await app.inject({
      method: 'POST',
      url: `/wp-json/${NS}/tags`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'x' },
      payload: 'name=Jazz',
    });
    expect(form.statusCode).toBe(201);
    expect(form.json().name).toBe('Jazz');
  });

  it('answers 413 itself for a body over the calendar’s limit', async () => {
    await host(async (a) => a.register(calendarPlugin, { calendar, prefix: '/wp-json' }));
    const limit = calendar.options.limits.bodyBytes;
    const res = await app.inject({
      method: 'POST',
      url: `/wp-json/${NS}/tags`,
      headers: { 'content-type': 'text/plain', authorization: 'x' },
      payload: 'a'.repeat(limit + 1),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('rest_request_too_large');
  });

  it('takes its root from the prefix, nested or explicit, once per registration', async () => {
    await host(async (a) => {
      await a.register(
        async (site) => {
          await site.register(calendarPlugin, { calendar, prefix: '/wp-json' });
          await site.register(calendarPlugin, { calendar, prefix: '/api', root: '/public/wp-json' });
        },
        { prefix: '/site' },
      );
    });
    const nested = await app.inject({ url: `/site/wp-json/${NS}/tags` });
    expect(nested.json().rest_url).toBe(`http://example.org/site/wp-json/${NS}/tags/`);
    const explicit = await app.inject({ url: `/site/api/${NS}/tags` });
    expect(explicit.json().rest_url).toBe(`http://example.org/public/wp-json/${NS}/tags/`);
  });

  it('hands paths outside the namespace to the host’s not-found handler', async () => {
    await host(async (a) => {
      a.setNotFoundHandler((_req, reply) => reply.code(404).send({ host: 'not found' }));
      await a.register(calendarPlugin, { calendar, prefix: '/wp-json' });
    });
    for (const url of ['/wp-json/other/v2', '/wp-json/nothing']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ host: 'not found' });
    }
    // The root itself answers the root index, unless the calendar leaves it to the host.
    for (const url of ['/wp-json/', '/wp-json']) expect((await app.inject({ url })).json(), url).toMatchObject({ namespaces: ['calendar/events/v1'] });
    const rootless = createCalendar({ db: ':memory:', rootIndex: false });
    const other = Fastify();
    other.setNotFoundHandler((_req, reply) => reply.code(404).send({ host: 'not found' }));
    await other.register(calendarPlugin, { calendar: rootless, prefix: '/wp-json' });
    for (const url of ['/wp-json/', '/wp-json']) expect((await other.inject({ url })).json(), url).toEqual({ host: 'not found' });
    await other.close();
    await rootless.close();
  });

  it('answers HEAD with the GET headers and no body', async () => {
    await host(async (a) => a.register(calendarPlugin, { calendar, prefix: '/wp-json' }));
    const get = await app.inject({ url: `/wp-json/${NS}/tags` });
    const head = await app.inject({ method: 'HEAD', url: `/wp-json/${NS}/tags` });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.link).toBe(get.headers.link);
    expect(head.headers.allow).toBe(get.headers.allow);
  });
});
