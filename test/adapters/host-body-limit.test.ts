/**
 * Issue 31, trap 9: with `express.json()` (100 KB by default) in front of the router, a 200 KB
 * event answered `413 rest_request_too_large "The request body is too large."` although the
 * calendar's `limits.bodyBytes` is 1 MiB; nothing said which limit applied. The 413 now names
 * the host parser's limit, and the calendar's.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { createCalendar, type Calendar } from '../../src/index.js';

const NS = 'calendar/events/v1';
/** The trial's event: a 200 KB description. */
const EVENT = JSON.stringify({ title: 'Big', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 11:00:00', description: 'x'.repeat(200_000) });

describe('a host body parser’s limit', () => {
  let calendar: Calendar;
  let server: Server;
  let base: string;
  const post = (path: string, type: string, body: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type, authorization: 'Bearer admin' }, body });

  beforeAll(async () => {
    calendar = createCalendar({ db: ':memory:', getUser: (req) => (req.headers.authorization ? { id: 1, roles: ['administrator'] } : null) });
    await calendar.migrate();
    const app = express();
    // Without a parser of its own: the calendar reads the body.
    app.use('/own/wp-json', calendarRouter(calendar));
    app.use(express.json());
    app.use(express.urlencoded({ extended: true, limit: '1kb' }));
    app.use('/wp-json', calendarRouter(calendar));
    server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await calendar.close();
  });

  it('is named in the 413, with the calendar’s own', async () => {
    const res = await post(`/wp-json/${NS}/events`, 'application/json', EVENT);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.json()).toEqual({
      code: 'rest_request_too_large',
      message:
        "The request body is too large: the host's body parser accepts at most 102400 bytes (the calendar's own limit, limits.bodyBytes, is 1048576 bytes).",
      data: { status: 413, limit_source: 'host', limit: 102400 },
    });
    const form = await post(`/wp-json/${NS}/tags`, 'application/x-www-form-urlencoded', `name=${'x'.repeat(2000)}`);
    expect(form.status).toBe(413);
    expect(((await form.json()) as { data: unknown }).data).toEqual({ status: 413, limit_source: 'host', limit: 1024 });
  });

  it('does not apply where the calendar reads the body: its own limits decide', async () => {
    const res = await post(`/own/wp-json/${NS}/events`, 'application/json', EVENT);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('rest_invalid_param');
  });
});
