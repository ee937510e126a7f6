import { afterEach, describe, expect, it } from 'vitest';
import { ALL_EVENTS } from '../../src/import/events.js';
import { importCalendar, type ImportCalendarOptions, type ImportReport } from '../../src/import/import-calendar.js';
import { testCalendar, type TestCalendar } from '../helpers/harness.js';
import {
  archivePage,
  hostileSource,
  json,
  sourceEvent,
  sourceOrganizer,
  sourceTerm,
  sourceVenue,
  sqliteTarget,
  type Target,
  type TestSite,
} from './hostile-source.js';

// The importer treats its source as untrusted input (issue 28): every item goes through the
// checks and cleaning of an API write of the same fields, against a small HTTP server.

/** Servers and stores a test opened, closed after it. */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});
const open = <T extends { close(): Promise<void> }>(thing: T): T => {
  opened.push(thing);
  return thing;
};

/** Quick to give up: one try per request, no waiting between them. */
const QUICK: Partial<ImportCalendarOptions> = { images: false, requestsPerSecond: 1000, attempts: 1, backoffMs: 0 };

/** Every event of a store as its admin reads it, by title. */
async function eventsOf(target: Target): Promise<Record<string, Record<string, unknown>>> {
  const res = await target.request('GET', '/events', { as: 'admin', query: { ...ALL_EVENTS, per_page: 50 } });
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries((res.body.events as Record<string, unknown>[]).map((e) => [String(e.id), e]));
}

describe('the API write rules', () => {
  let api: TestCalendar;
  afterEach(async () => api?.close());

  /** The events the source shows: each with one thing an API write refuses or cleans. */
  const HOSTILE = [
    sourceEvent(101, { website: 'javascript:alert(7)' }),
    sourceEvent(102, { slug: '../../etc/passwd\r\nX-Evil: 1' }),
    sourceEvent(103, {
      title: '<script>alert(1)</script>Concert<iframe src="https://evil.example/"></iframe>',
      description: '<p>Fine</p><script>alert(2)</script><iframe src="https://evil.example/"></iframe>',
      excerpt: '<img src=x onerror=alert(3)>Short',
    }),
    sourceEvent(104, { timezone: 'Mars/Olympus_Mons' }),
    sourceEvent(105, { start_date: '2027-99-99 99:99:99' }),
    sourceEvent(106, { slug: 'a'.repeat(100_000) }),
    sourceEvent(107, { date: '2027-99-99 99:99:99' }),
    sourceEvent(108, { title: 'x'.repeat(100_001) }),
  ];

  /** The fields of events 102, 103 and 106 as an API write gives them (`as` writes them), by source id. */
  const written = async (as: 'author' | 'admin') => {
    api = await testCalendar(':memory:');
    const out: Record<number, Record<string, unknown>> = {};
    for (const e of HOSTILE.filter((h) => [102, 103, 106].includes(h.id as number))) {
      const { title, description, excerpt, slug, start_date, end_date, timezone } = e;
      // The fields the source shows empty are not sent (a write refuses them empty).
      const sent = Object.fromEntries(Object.entries({ title, description, excerpt, slug, start_date, end_date, timezone }).filter(([, v]) => v !== ''));
      const res = await api.request('POST', '/events', { as, json: { ...sent, status: 'publish' } });
      expect(res.status, res.text).toBe(201);
      out[e.id as number] = res.body;
    }
    // And what it refuses, it refuses.
    for (const [field, value] of [
      ['website', 'javascript:alert(7)'],
      ['timezone', 'Mars/Olympus_Mons'],
      ['start_date', '2027-99-99 99:99:99'],
      ['date', '2027-99-99 99:99:99'],
      ['title', 'x'.repeat(100_001)],
    ]) {
      const res = await api.request('POST', '/events', {
        as,
        json: { title: 'T', start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 22:00:00', [field!]: value },
      });
      expect(res.status, field).toBe(400);
    }
    return out;
  };

  const importHostile = async (options: Partial<ImportCalendarOptions> = {}): Promise<{ report: ImportReport; target: Target; source: TestSite }> => {
    const source = open(await hostileSource({ events: (res) => json(res, 200, archivePage('events', HOSTILE)) }));
    const target = open(await sqliteTarget());
    const report = await importCalendar(target.store, { root: source.root, ...QUICK, authors: { 1: 1 }, ...options });
    return { report, target, source };
  };

  it('skips what an API write refuses, naming the item and field, and cleans what it cleans, listing what changed', async () => {
    const { report, target } = await importHostile();
    const skipped = Object.fromEntries(report.kinds.event.skipped.map((s) => [s.sourceId, s.reason]));
    expect(Object.keys(skipped).map(Number).sort()).toEqual([101, 104, 105, 107, 108]);
    expect(skipped[101]).toMatch(/^website: /);
    expect(skipped[104]).toMatch(/^timezone: /);
    expect(skipped[105]).toMatch(/^start_date: /);
    expect(skipped[107]).toMatch(/^date: /);
    expect(skipped[108]).toMatch(/^title: .*too large/);
    expect(report.kinds.event.created).toBe(3);

    const api = await written('author');
    const events = Object.values(await eventsOf(target));
    const bySource = (title: string) => events.find((e) => e.title === title)!;
    // Imported as an author's API write stores the same fields.
    for (const id of [102, 103, 106]) {
      const apiEvent = api[id]!;
      const imported = bySource(String(apiEvent.title));
      expect(imported, String(id)).toBeDefined();
      for (const field of ['title', 'description', 'excerpt', 'slug']) expect(imported[field], `${id} ${field}`).toEqual(apiEvent[field]);
    }
    const traversal = bySource('Event 102');
    expect(traversal.slug).toMatch(/^[a-z0-9-]+$/);
    expect(traversal.url).not.toMatch(/\.\.|[\r\n]/);
    const ics = await target.request('GET', `/ics/events/${traversal.id}`);
    expect(ics.status).toBe(200);
    expect(ics.text).not.toMatch(/^X-Evil/m);
    expect(String(bySource('Event 106').slug).length).toBeLessThanOrEqual(200);
    const concert = bySource('alert(1)Concert');
    expect(`${concert.title} ${concert.description} ${concert.excerpt}`).not.toMatch(/<script|<iframe|onerror/);

    // What the rules changed, item by item.
    const altered = report.kinds.event.altered.map((a) => `${a.sourceId} ${a.field}`).sort();
    expect(altered).toEqual(['102 slug', '103 description', '103 excerpt', '103 title', '106 slug']);
    expect(report.kinds.event.altered.find((a) => a.sourceId === 103 && a.field === 'title')).toMatchObject({ from: HOSTILE[2]!.title, to: 'alert(1)Concert' });
  });

  it("keeps the source HTML with keepHtml, as an administrator's write would, and still refuses what it refuses", async () => {
    const { report, target } = await importHostile({ keepHtml: true });
    expect(report.kinds.event.skipped.map((s) => s.sourceId).sort()).toEqual([101, 104, 105, 107, 108]);
    const api = await written('admin');
    const events = Object.values(await eventsOf(target));
    const concert = events.find((e) => e.title === api[103]!.title)!;
    expect(concert.title).toContain('<script>');
    for (const field of ['title', 'description', 'excerpt']) expect(concert[field]).toEqual(api[103]![field]);
  });

  it('venues, organizers and terms: refused and cleaned as their API writes are', async () => {
    const source = open(
      await hostileSource({
        venues: (res) =>
          json(
            res,
            200,
            archivePage('venues', [
              sourceVenue(201, { website: 'javascript:alert(7)' }),
              sourceVenue(202, { venue: 'Hall<script>alert(1)</script>', phone: '<b>555</b>\r\n1', address: 'x'.repeat(70_000) }),
              sourceVenue(203, { venue: '<iframe src="x"></iframe>Hall', phone: '<b>555</b>\r\n1' }),
            ]),
          ),
        organizers: (res) =>
          json(
            res,
            200,
            archivePage('organizers', [
              sourceOrganizer(301, { organizer: '<iframe src="x"></iframe>', description: '' }),
              sourceOrganizer(302, { email: '<a href="x">a@b.example</a>' }),
            ]),
          ),
        categories: (res) =>
          json(
            res,
            200,
            archivePage('categories', [
              sourceTerm(401, { name: '<b></b>' }),
              sourceTerm(402, { description: 'x'.repeat(70_000) }),
              sourceTerm(403, { slug: '../../x\r\ny' }),
            ]),
          ),
      }),
    );
    const target = open(await sqliteTarget());
    const report = await importCalendar(target.store, { root: source.root, ...QUICK, authors: { 1: 1 } });
    const reasons = (kind: keyof ImportReport['kinds']) => Object.fromEntries(report.kinds[kind].skipped.map((s) => [s.sourceId, s.reason]));
    expect(reasons('venue')).toEqual({ 201: expect.stringMatching(/^website: /), 202: expect.stringMatching(/^address: .*too large/) });
    expect(reasons('organizer')).toEqual({ 301: expect.stringMatching(/^organizer: /) });
    expect(reasons('category')).toEqual({ 401: expect.stringMatching(/^name: /), 402: expect.stringMatching(/^description: .*too large/) });
    const venue = (await target.request('GET', '/venues', { as: 'admin' })).body.venues[0];
    expect(venue).toMatchObject({ venue: 'Hall', phone: '555 1' });
    expect(report.kinds.venue.altered.map((a) => a.field).sort()).toEqual(['phone', 'venue']);
    const organizer = (await target.request('GET', '/organizers', { as: 'admin' })).body.organizers[0];
    expect(organizer.email).not.toContain('<');
    const category = (await target.request('GET', '/categories', { query: { hide_empty: 'false' } })).body.categories[0];
    expect(category.slug).toBe('x-y');
  });
});
