import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_EVENTS, importEvents } from '../../src/import/events.js';
import { importLinked } from '../../src/import/linked.js';
import type { ImportCalendarOptions } from '../../src/import/import-calendar.js';
import { importTerms } from '../../src/import/terms.js';
import { CATEGORIES, TAGS } from '../../src/resources/terms/args.js';
import type { Store } from '../../src/resources/store.js';
import { DIALECTS, type TestCalendar } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { importTarget, type ImportTarget } from './target.js';

// Importing a source's events with everything they link (issue 18) from a calendar under
// tribe/events/v1 into a fresh store on every database, compared through the API.

const FIELDS = [
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'title',
  'description',
  'excerpt',
  'slug',
  'all_day',
  'start_date',
  'end_date',
  'utc_start_date',
  'utc_end_date',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
];

describe.each(DIALECTS)('importing events into $name', ({ url }) => {
  let source: HttpCalendar;
  let target: ImportTarget;
  let request: TestCalendar['request'];
  let store: Store;
  const options: Partial<ImportCalendarOptions> = { authors: (id) => id, fallbackAuthor: 1 };

  /** Every event as the admin sees it, by slug, with linked items named by slug (ids differ). */
  const events = async (ask: TestCalendar['request']) => {
    const out: Record<string, unknown>[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await ask('GET', '/events', { as: 'admin', query: { ...ALL_EVENTS, per_page: 50, page } });
      if (res.status !== 200) break;
      for (const e of res.body.events as Record<string, unknown>[]) {
        const slugs = (list: unknown) => (Array.isArray(list) ? list.map((t: { slug: string }) => t.slug).sort() : []);
        out.push({
          ...Object.fromEntries(FIELDS.map((k) => [k, e[k]])),
          website: e.website === e.url ? '(its url)' : e.website,
          categories: slugs(e.categories),
          tags: slugs(e.tags),
          venue: Array.isArray(e.venue) ? null : (e.venue as { slug: string }).slug,
          organizer: (e.organizer as { slug: string }[]).map((o) => o.slug),
        });
      }
    }
    return out.sort((a, b) => String(a.slug).localeCompare(String(b.slug)));
  };
  const importAll = async () => {
    const run = target.run(options, { status: 'publish,future,draft,pending,private' });
    const categories = await importTerms(run, CATEGORIES);
    const tags = await importTerms(run, TAGS);
    const venues = await importLinked(run, 'venue');
    const organizers = await importLinked(run, 'organizer');
    return importEvents(run, { categories: categories.ids, tags: tags.ids, venues, organizers });
  };

  beforeAll(async () => {
    source = await httpCalendar(':memory:', { namespace: 'tribe/events/v1', timezone: 'Europe/Paris' });
    const post = async (path: string, json: Record<string, unknown>) => {
      const res = await source.request('POST', path, { as: 'admin', json });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const music = await post('/categories', { name: 'Music' });
    await post('/categories', { name: 'Jazz', parent: music.id });
    const venue = await post('/venues', { venue: 'Salle Pleyel', city: 'Paris' });
    const organizers = [await post('/organizers', { organizer: 'First' }), await post('/organizers', { organizer: 'Second' })];
    const statuses = ['publish', 'draft', 'pending', 'private'];
    for (let i = 0; i < 55; i++) {
      await post('/events', {
        title: `Concert n°${i} “en plein air”`,
        description: `<p>Programme ${i} &amp; suite</p>`,
        excerpt: 'Court',
        status: statuses[i % 4],
        // Past, far-future, all-day, multi-day and zoned events.
        start_date: `${1995 + i * 2}-03-${String(1 + (i % 27)).padStart(2, '0')} ${i % 3 === 0 ? '00:00:00' : '20:30:00'}`,
        end_date: `${1995 + i * 2}-03-${String(1 + (i % 27) + (i % 5 === 0 ? 1 : 0)).padStart(2, '0')} 22:00:00`,
        all_day: i % 3 === 0,
        timezone: ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC+2'][i % 4],
        categories: i % 2 ? ['Jazz'] : ['Music', 'Jazz'],
        tags: i % 3 ? [`tag-${i % 4}`] : [],
        venue: i % 4 === 1 ? undefined : venue.id,
        organizer: i % 2 ? [organizers[1].id, organizers[0].id] : [organizers[0].id],
        cost: i % 5 === 0 ? '' : `${10 + i}`,
        featured: i % 6 === 0,
        sticky: i % 7 === 0,
        website: i % 8 === 0 ? 'https://tickets.example' : undefined,
      });
    }
    target = await importTarget(url, source, { authorization: 'Bearer user-admin' }, { timezone: 'Europe/Paris' });
    ({ store, request } = target);
  }, 120_000);
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  it('copies every event with its dates, zones, flags, cost, terms, venue and organizers, then changes nothing on a second run', async () => {
    const run = await importAll();
    expect(run.report).toMatchObject({ created: 55, updated: 0, unchanged: 0, skipped: [], warnings: [], altered: [] });
    const expected = await events(source.request);
    expect(expected).toHaveLength(55);
    expect(await events(request)).toEqual(expected);
    // Term counts follow the published events, as the source's do.
    const counts = async (ask: TestCalendar['request']) =>
      ((await ask('GET', '/categories', { query: { hide_empty: 'false' } })).body.categories as { slug: string; count: number }[])
        .map((c) => [c.slug, c.count])
        .sort();
    expect(await counts(request)).toEqual(await counts(source.request));
    const before = await store.db.selectFrom('posts').selectAll().orderBy('id').execute();
    const again = await importAll();
    expect(again.report).toMatchObject({ created: 0, updated: 0, unchanged: 55 });
    expect(await store.db.selectFrom('posts').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('follows an event the source modified since: its status, terms and counts', async () => {
    const one = (await source.request('GET', '/events', { as: 'admin', query: { ...ALL_EVENTS, status: 'draft', per_page: 1 } })).body.events[0];
    await new Promise((r) => setTimeout(r, 1100));
    expect(
      (await source.request('POST', `/events/${one.id}`, { as: 'admin', json: { status: 'publish', categories: ['Music'], title: 'Now public' } })).status,
    ).toBe(200);
    const run = await importAll();
    expect(run.report).toMatchObject({ created: 0, updated: 1, unchanged: 54 });
    expect(await events(request)).toEqual(await events(source.request));
    const counts = async (ask: TestCalendar['request']) =>
      ((await ask('GET', '/categories', { query: { hide_empty: 'false' } })).body.categories as { slug: string; count: number }[])
        .map((c) => [c.slug, c.count])
        .sort();
    expect(await counts(request)).toEqual(await counts(source.request));
  });
});
