/** A host's own body parser in front of the router: its failures under the namespace get the API's JSON errors. */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { createCalendar, type Calendar } from '../../src/index.js';

const NS = 'calendar/events/v1';

describe('Express with express.json() and express.urlencoded() before the router', () => {
  let calendar: Calendar;
  let server: Server;
  let base: string;
  const post = (path: string, type: string, body: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type, authorization: 'Bearer admin' }, body });

  beforeAll(async () => {
    calendar = createCalendar({ db: ':memory:', getUser: (req) => (req.headers.authorization ? { id: 1, roles: ['administrator'] } : null) });
    await calendar.migrate();
    const app = express();
    app.use(express.json({ limit: '1kb' }));
    app.use(express.urlencoded({ extended: true }));
    app.use('/wp-json', calendarRouter(calendar));
    app.post('/elsewhere', (_req, res) => res.send('ok'));
    server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await calendar.close();
  });

  it('malformed JSON: rest_invalid_json with PHP’s error code, not an HTML page', async () => {
    const res = await post(`/wp-json/${NS}/tags`, 'application/json', '{"name":');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.json()).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
  });

  it('what the host parser reads well reaches the calendar', async () => {
    expect((await post(`/wp-json/${NS}/tags`, 'application/json', '{"name":"Parsed"}')).status).toBe(201);
    const form = await post(`/wp-json/${NS}/tags`, 'application/x-www-form-urlencoded', 'name=Form');
    expect(form.status).toBe(201);
    expect(((await form.json()) as { name: string }).name).toBe('Form');
  });

  it('a body over the host parser’s limit: the API’s 413', async () => {
    const res = await post(`/wp-json/${NS}/tags`, 'application/json', JSON.stringify({ name: 'x'.repeat(2000) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('rest_request_too_large');
  });

  it('outside the namespace the host’s own error handling stays', async () => {
    const res = await post('/elsewhere', 'application/json', '{"a":');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const other = await post('/wp-json/other/v1/things', 'application/json', '{"a":');
    expect(other.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('Express with express.json({ strict: false }) before the router', () => {
  it('a bare JSON number or boolean is a body without parameters, not a 500', async () => {
    const reported: unknown[] = [];
    const calendar = createCalendar({ db: ':memory:', onError: (e) => reported.push(e), getUser: () => ({ id: 1, roles: ['administrator'] }) });
    await calendar.migrate();
    const app = express();
    app.use(express.json({ strict: false }));
    app.use('/wp-json', calendarRouter(calendar));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const body of ['5', 'true']) {
        const res = await fetch(`${base}/wp-json/${NS}/tags`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(res.status, body).toBe(400);
        expect(((await res.json()) as { code: string }).code, body).toBe('rest_missing_callback_param');
      }
      expect(reported).toEqual([]);
    } finally {
      server.close();
      await calendar.close();
    }
  });
});
