// examples/extensions (issue 32), started as `npm run start:extensions` is, with the Express
// example's environment: its field, filter, hook, log line and route, over HTTP, on both roots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS, send, startExample, type RunningServer } from '../adapters/servers.js';

const NS = '/wp-json/calendar/events/v1';
const ADMIN = { authorization: `Bearer ${TOKENS.admin}`, 'content-type': 'application/json' };

describe('examples/extensions', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startExample('extensions');
  }, 120_000);
  afterAll(() => server?.stop());

  const post = (path: string, json: unknown) => send(server.base, 'POST', `${NS}${path}`, ADMIN, JSON.stringify(json));
  const event = (title: string, capacity: number) =>
    post('/events', {
      title,
      status: 'publish',
      start_date: '2027-05-01 20:00:00',
      end_date: '2027-05-01 22:00:00',
      capacity,
      venue: { venue: 'Hall', wheelchair_access: true },
    });

  it('stores and filters capacity, refuses more than 5000 seats, logs each change, and counts', async () => {
    const made = await event('Concert', 120);
    expect(made.status, made.text).toBe(201);
    expect(JSON.parse(made.text)).toMatchObject({ capacity: 120, venue: { venue: 'Hall', wheelchair_access: true } });
    expect((await event('Smaller', 80)).status).toBe(201);
    const filtered = JSON.parse((await send(server.base, 'GET', `${NS}/events?capacity=120&start_date=2027-05-01&end_date=2027-05-02`)).text);
    expect(filtered.events.map((e: { title: string }) => e.title)).toEqual(['Concert']);
    const refused = await event('Stadium', 6000);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'capacity_too_large', data: { status: 400 } });
    expect((await event('Too many', 100001)).status).toBe(400);
    const stats = await send(server.base, 'GET', `${NS}/stats`);
    expect(JSON.parse(stats.text)).toEqual({ events: 2, venues: 1 });
    const fr = await send(server.base, 'GET', `/fr${NS}/stats`);
    expect(JSON.parse(fr.text)).toEqual({ events: 2, venues: 1 });
    // One line per change: the venue (created, then reused), and the two events.
    expect(server.output()).toMatch(/change: create events \d+/);
    expect(server.output().match(/change: create events/g)).toHaveLength(2);
  });
});
