import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLinked } from '../../src/import/linked.js';
import type { ImportCalendarOptions } from '../../src/import/import-calendar.js';
import type { Store } from '../../src/resources/store.js';
import { DIALECTS, type TestCalendar } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { importTarget, type ImportTarget } from './target.js';

// Importing a source's venues and organizers (issue 18) from a calendar under tribe/events/v1
// into a fresh store on every database, compared through the API.

const FIELDS = ['author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'description', 'excerpt', 'slug', 'show_map', 'show_map_link'];
const VENUE = ['venue', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince', 'geo_lat', 'geo_lng', ...FIELDS];
const ORGANIZER = ['organizer', 'phone', 'website', 'email', ...FIELDS];

describe.each(DIALECTS)('importing venues and organizers into $name', ({ url }) => {
  let source: HttpCalendar;
  let target: ImportTarget;
  let request: TestCalendar['request'];
  let store: Store;
  const options: Partial<ImportCalendarOptions> = { authors: (id) => (id === 1 ? 1 : undefined), fallbackAuthor: 2 };
  const run = () => target.run(options, { status: 'publish,future,draft,pending,private' });

  /** Every item of an archive as the admin sees it, by slug, with the compared fields. */
  const items = async (ask: TestCalendar['request'], collection: 'venues' | 'organizers') => {
    const keys = collection === 'venues' ? VENUE : ORGANIZER;
    const out: Record<string, unknown>[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await ask('GET', `/${collection}`, { as: 'admin', query: { per_page: 50, page } });
      if (res.status !== 200) break;
      out.push(...(res.body[collection] as Record<string, unknown>[]).map((item) => Object.fromEntries(keys.map((k) => [k, item[k]]))));
    }
    return out.sort((a, b) => String(a.slug).localeCompare(String(b.slug)));
  };

  beforeAll(async () => {
    source = await httpCalendar(':memory:', { namespace: 'tribe/events/v1' });
    const statuses = ['publish', 'draft', 'pending', 'private'];
    for (let i = 0; i < 60; i++) {
      const res = await source.request('POST', '/venues', {
        as: i % 5 === 0 ? 'author' : 'admin',
        json: {
          venue: `Salle n°${i} “L’Été”`,
          description: `<p>Première <strong>ligne</strong> ${i}</p>\n\nDeuxième`,
          address: `${i} rue de la Paix`,
          city: 'Paris',
          zip: '75002',
          country: 'France',
          phone: '+33 1 23',
          website: 'https://salle.example',
          show_map: i % 2 === 0 ? 'true' : 'false',
          status: statuses[i % 4],
          // Coordinates on a third of them (issue 34): copied as the source shows them.
          ...(i % 3 === 0 ? { geo_lat: 48.8566 + i / 1000, geo_lng: 2.3522 } : {}),
        },
      });
      expect(res.status, res.text).toBe(201);
    }
    for (let i = 0; i < 7; i++) {
      const res = await source.request('POST', '/organizers', {
        as: 'admin',
        json: { organizer: `Orga ${i} & Co`, email: `orga${i}@example.org`, phone: '555', website: 'https://orga.example', status: statuses[i % 4] },
      });
      expect(res.status, res.text).toBe(201);
    }
    target = await importTarget(url, source, { authorization: 'Bearer user-admin' });
    ({ store, request } = target);
  }, 60_000);
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  it('copies every venue and organizer of every status, as the API shows them, then changes nothing on a second run', async () => {
    const venues = await importLinked(run(), 'venue');
    expect(venues.report).toMatchObject({ created: 60, updated: 0, unchanged: 0, skipped: [] });
    // Items of the source's author 3 have no user here: they get the fallback author, reported.
    expect(venues.report.warnings).toEqual(['author 3 of the source has no user here']);
    const organizers = await importLinked(run(), 'organizer');
    expect(organizers.report).toMatchObject({ created: 7, skipped: [] });
    const expected = (await items(source.request, 'venues')).map((v) => (v.author === '3' ? { ...v, author: '2' } : v));
    expect(await items(request, 'venues')).toEqual(expected);
    expect(await items(request, 'organizers')).toEqual(await items(source.request, 'organizers'));
    const before = await store.db.selectFrom('posts').selectAll().orderBy('id').execute();
    expect((await importLinked(run(), 'venue')).report).toMatchObject({ created: 0, updated: 0, unchanged: 60 });
    expect((await importLinked(run(), 'organizer')).report).toMatchObject({ created: 0, updated: 0, unchanged: 7 });
    expect(await store.db.selectFrom('posts').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('updates what the source changed since', async () => {
    const first = (await source.request('GET', '/organizers', { as: 'admin' })).body.organizers[0];
    // Modification dates have a second's precision.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await source.request('POST', `/organizers/${first.id}`, { as: 'admin', json: { phone: '999' } })).status).toBe(200);
    const again = await importLinked(run(), 'organizer');
    expect(again.report).toMatchObject({ created: 0, updated: 1, unchanged: 6 });
    expect(await items(request, 'organizers')).toEqual(await items(source.request, 'organizers'));
  });
});
