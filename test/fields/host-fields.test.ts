// Fields a host declares (issue 30's field declarations, opened to hosts by issue 32): written
// through the API's arguments, stored, shown in items (single, archive, embedded venue),
// filtered on the archive with its paging and totals, listed in the index and both /doc modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { field } from '../../src/fields/declare.js';
import { createCalendar } from '../../src/calendar.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSite } from '../../src/index.js';
import { DIALECTS, requester, testCalendar, type TestCalendar } from '../helpers/harness.js';
import { httpCalendar } from '../helpers/http.js';

const FIELDS = {
  events: {
    capacity: field({ type: z.number().int().min(0).max(100000), filterable: true, ical: true, description: { en: 'Seats.', fr: 'Places.' } }),
    dress_code: field({ type: z.string().max(40), default: 'none' }),
  },
  venues: { wheelchair_access: field({ type: z.boolean(), filterable: true }) },
  categories: { color: field({ type: z.string().regex(/^#[0-9a-f]{6}$/) }) },
};

describe.each(DIALECTS)('host fields on $name', ({ url }) => {
  let t: TestCalendar;
  const event = (title: string, extra: Record<string, unknown> = {}) =>
    t.request('POST', '/events', {
      json: { title, start_date: '2031-05-01 20:00:00', end_date: '2031-05-01 22:00:00', status: 'publish', ...extra },
      as: 'admin',
    });

  beforeAll(async () => {
    t = await testCalendar(url, { fields: FIELDS });
  }, 120_000);
  afterAll(() => t?.close());

  it('writes, stores and shows a value; an item without one shows its default or null', async () => {
    const created = await event('Concert', { capacity: 120, venue: { venue: 'Hall', wheelchair_access: true } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ capacity: 120, dress_code: 'none' });
    expect(created.body.venue).toMatchObject({ venue: 'Hall', wheelchair_access: true });
    const read = await t.request('GET', `/events/${created.body.id}`);
    expect(read.body).toMatchObject({ capacity: 120, dress_code: 'none' });
    const plain = await event('Lecture');
    expect(plain.body).toMatchObject({ capacity: null, dress_code: 'none' });
    const updated = await t.request('POST', `/events/${plain.body.id}`, { form: 'capacity=80&dress_code=formal', as: 'admin' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ capacity: 80, dress_code: 'formal' });
    const cleared = await t.request('POST', `/events/${plain.body.id}`, { json: { capacity: '' }, as: 'admin' });
    expect(cleared.body).toMatchObject({ capacity: null, dress_code: 'formal' });
  });

  it('hides the values of a password-protected item from who may not unlock it', async () => {
    const locked = await event('Secret gala', {
      capacity: 77,
      start_date: '2031-07-01 20:00:00',
      end_date: '2031-07-01 22:00:00',
      venue: { venue: 'Vault', wheelchair_access: true },
    });
    expect(locked.status, locked.text).toBe(201);
    // The API takes no password on writes (upstream's neither): set as WordPress' editor would.
    await (await t.calendar.services()).posts.update(locked.body.id, { password: 'open sesame' });
    const list = await t.request('GET', '/events', { query: { start_date: '2031-07-01', end_date: '2031-07-31' } });
    const shown = list.body.events.find((e: { id: number }) => e.id === locked.body.id);
    expect(shown).toMatchObject({ capacity: null, dress_code: null, venue: [] });
    const unlocked = await t.request('GET', `/events/${locked.body.id}`, { query: { password: 'open sesame' } });
    expect(unlocked.body).toMatchObject({ capacity: 77 });
  });

  it('refuses a value of the wrong type with rest_invalid_param, storing nothing', async () => {
    const res = await event('Too big', { capacity: 100001 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual(['capacity']);
    const bad = await event('Bad venue', { venue: { venue: 'Annex', wheelchair_access: 'perhaps' } });
    expect(bad.status).toBe(400);
    const venues = await t.request('GET', '/venues', { query: { search: 'Annex' } });
    expect(venues.body.venues ?? []).toEqual([]);
  });

  it('filters the archive by a field, with totals and paging URLs that keep the filter', async () => {
    for (const c of [10, 20, 30]) await event(`Sized ${c}`, { capacity: c });
    const window = { start_date: '2031-05-01', end_date: '2031-05-31' };
    const eq = await t.request('GET', '/events', { query: { ...window, capacity: '20,30' } });
    expect(eq.body.events.map((e: { title: string }) => e.title).sort()).toEqual(['Sized 20', 'Sized 30']);
    expect(eq.body.total).toBe(2);
    const range = await t.request('GET', '/events', { query: { ...window, capacity_min: '15', capacity_max: '120', per_page: '1' } });
    expect(range.body.total).toBe(3);
    expect(range.body.next_rest_url).toContain('capacity_min=15');
    const bad = await t.request('GET', '/events', { query: { ...window, capacity: 'many' } });
    expect(bad.status).toBe(400);
    // A list longer than the bound is refused before any value is read.
    const long = Array.from({ length: 101 }, (_, i) => i).join(',');
    const tooMany = await t.request('GET', '/events', { query: { ...window, capacity: long } });
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'rest_invalid_param']);
    const venues = await t.request('GET', '/venues', { query: { wheelchair_access: 'true' } });
    expect(venues.status).toBe(200);
    // The filter applies to venues as to events (it was accepted and ignored before).
    expect(venues.body.venues.length).toBeGreaterThan(0);
    expect(venues.body.venues.every((v: { wheelchair_access: unknown }) => v.wheelchair_access === true)).toBe(true);
    expect(venues.body.rest_url).toContain('wheelchair_access=true');
    const without = await t.request('GET', '/venues', { query: { wheelchair_access: 'false' } });
    expect(without.body.venues.some((v: { wheelchair_access: unknown }) => v.wheelchair_access === true)).toBe(false);
  });

  it('stores fields of terms', async () => {
    const res = await t.request('POST', '/categories', { json: { name: 'Jazz', color: '#ff0000' }, as: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body.color).toBe('#ff0000');
    const single = await t.request('GET', `/categories/${res.body.id}`);
    expect(single.body.color).toBe('#ff0000');
    const list = await t.request('GET', '/categories', { query: { hide_empty: 'false' } });
    expect(list.body.categories.find((c: { id: number }) => c.id === res.body.id).color).toBe('#ff0000');
    // Embedded in an event, as venues are.
    const filed = await event('Filed under jazz', { categories: [res.body.id] });
    expect(filed.body.categories.map((c: { color: unknown }) => c.color)).toEqual(['#ff0000']);
    expect((await t.request('GET', `/events/${filed.body.id}`)).body.categories[0].color).toBe('#ff0000');
  });

  it('shows them in the change feed and, where marked, in the iCalendar feed', async () => {
    // A token for now, then the change that follows it.
    const now = await t.request('GET', '/changes', { as: 'admin' });
    const created = await event('Feed me', { capacity: 55 });
    const page = await t.request('GET', '/changes', { as: 'admin', query: { sync_token: now.body.next_sync_token } });
    expect(page.status).toBe(200);
    const change = page.body.changes.find((c: { id: number }) => c.id === created.body.id);
    expect(change?.item).toMatchObject({ capacity: 55, dress_code: 'none' });
    const file = await t.request('GET', `/ics/events/${created.body.id}`);
    expect(file.text).toContain('X-CALENDAR-CAPACITY:55');
    expect(file.text).not.toContain('X-CALENDAR-DRESS-CODE');
    const feed = await t.request('GET', '/ics/events', { query: { start_date: '2031-05-01', end_date: '2031-05-31' } });
    expect(feed.text).toContain('X-CALENDAR-CAPACITY:55');
    // The feed takes the archive's field filters too.
    const filtered = await t.request('GET', '/ics/events', { query: { start_date: '2031-05-01', end_date: '2031-05-31', capacity: '55' } });
    expect(filtered.text?.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });

  it('lists the fields in the index and both /doc modes, described in the request language', async () => {
    const index = await t.request('GET', '/', {});
    const post = index.body.routes[`/${t.ns}/events`].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(post.args.capacity).toMatchObject({ type: 'integer', description: 'Seats.' });
    const get = index.body.routes[`/${t.ns}/events`].endpoints.find((e: { methods: string[] }) => e.methods.includes('GET'));
    expect(Object.keys(get.args)).toEqual(expect.arrayContaining(['capacity', 'capacity_min', 'capacity_max']));
    const doc = await t.request('GET', '/doc');
    expect(JSON.stringify(doc.body.paths['/events'])).toContain('capacity');
    expect(doc.body.components.schemas.Event.properties.capacity).toBeDefined();
    const complete = await t.request('GET', '/doc/complete');
    expect(complete.body.components.schemas.Event.properties.capacity).toMatchObject({ type: 'integer' });
  });
});

describe('importing fields from a site running this library with the same declarations', () => {
  it('copies the values it shows, checked by the declarations', async () => {
    const source = await httpCalendar(':memory:', { fields: FIELDS });
    const dir = mkdtempSync(join(tmpdir(), 'calendar-fields-import-'));
    try {
      const made = await source.request('POST', '/events', {
        as: 'admin',
        json: {
          title: 'Gala',
          start_date: '2031-06-01 20:00:00',
          end_date: '2031-06-01 23:00:00',
          status: 'publish',
          capacity: 300,
          venue: { venue: 'Ballroom', wheelchair_access: true },
        },
      });
      expect(made.status, made.text).toBe(201);
      const db = join(dir, 'target.sqlite');
      // The target declares capacity with a lower bound than the source's value: refused, reported.
      const target = { ...FIELDS, events: { ...FIELDS.events, capacity: field({ type: z.number().int().max(100) }) } };
      const report = await importSite(
        { db },
        { root: `${source.origin}/wp-json`, authorization: 'Bearer user-admin', requestsPerSecond: 1000, fields: target },
      );
      expect(report.kinds.event.created).toBe(1);
      expect(report.kinds.event.altered).toEqual([expect.objectContaining({ field: 'capacity', from: '300' })]);
      const calendar = createCalendar({ db, fields: target });
      const res = await requester(calendar)('GET', '/events', { query: { start_date: '2031-06-01', end_date: '2031-06-30' } });
      expect(res.body.events[0]).toMatchObject({ title: 'Gala', capacity: null, dress_code: 'none', venue: { venue: 'Ballroom', wheelchair_access: true } });
      await calendar.close();
    } finally {
      await source.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('declaring fields', () => {
  it('refuses a field named as a built-in field or argument of its kind', () => {
    expect(() => createCalendar({ db: ':memory:', fields: { events: { cost: field({ type: z.string() }) } } })).toThrow(/cost.*already/);
    expect(() => createCalendar({ db: ':memory:', fields: { events: { featured: field({ type: z.string() }) } } })).toThrow(/already/);
    expect(() => createCalendar({ db: ':memory:', fields: { venues: { geo_lat: field({ type: z.number() }) } } })).toThrow(/already/);
    expect(() => createCalendar({ db: ':memory:', fields: { events: { 'Bad-Name': field({ type: z.number() }) } } })).toThrow(/not a field name/);
    expect(() => createCalendar({ db: ':memory:', fields: { events: { seats: field({ type: z.object({ a: z.number() }), filterable: true }) } } })).toThrow(
      /cannot be filterable/,
    );
  });
});
