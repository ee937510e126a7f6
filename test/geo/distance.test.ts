// The distance filter (`geoloc`) of GET /events and GET /venues against a brute-force haversine
// over seeded venues on every database: random points over the sphere, crowded around the
// antimeridian and the poles, and centres there; paging and totals as the archive's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { distanceKm, hasCoordinates, type LatLng } from '../../src/geo/coordinates.js';
import { DIALECTS } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';
import { hardPoints, random, seedVenues, type SeededVenue, type VenuePoint } from './seed.js';

/** Centres where boxes are hard (the antimeridian, the poles, the null island), and ordinary ones. */
const CENTRES: LatLng[] = [
  { lat: 5, lng: 179.8 },
  { lat: -10, lng: -179.9 },
  { lat: 60, lng: 180 },
  { lat: 89.7, lng: 45 },
  { lat: 90, lng: 0 },
  { lat: -89.9, lng: -100 },
  { lat: -86, lng: 179 },
  { lat: 45, lng: 9 },
  { lat: 0, lng: 0 },
  { lat: -33.9, lng: 151.2 },
];

/** Radii in km: a city, a region, a continent; beyond half the circumference (everything) for a few centres. */
const RADII = [40, 400, 3000];
const EVERYWHERE = 20_100;

/** Venues with no coordinates, a zero one (shown as none), and a password-protected one near the centres. */
const ODD: VenuePoint[] = [
  { lat: null, lng: null },
  { lat: 0, lng: 12 },
  { lat: 45.01, lng: 0 },
  { lat: 45.02, lng: 9.01, password: true },
  { lat: 89.8, lng: 44, password: true },
];

const WINDOW = { start_date: '2027-01-01', end_date: '2027-12-31' };

describe.each(DIALECTS)('geoloc distance filter on $name', ({ url }) => {
  let t: StoreCalendar;
  let venues: SeededVenue[];

  beforeAll(async () => {
    t = await storeCalendar(url);
    const points = [...hardPoints(600, random(34)), ...ODD];
    venues = await seedVenues(t.db, t.db as unknown as Kysely<unknown>, t.calendar.options.tablePrefix, points, 1000);
  }, 180_000);
  afterAll(() => t?.close());

  /** What the filter must keep, by brute force: shown coordinates, no password, within `km` of `centre`. */
  const expected = (centre: LatLng | undefined, km: number) =>
    venues.filter((v) => !v.password && hasCoordinates(v.lat, v.lng) && (!centre || distanceKm(centre, { lat: v.lat ?? 0, lng: v.lng ?? 0 }) <= km));

  /** No seeded venue lies within a metre of the circle: the comparison is not decided by rounding. */
  const clearOfEdge = (centre: LatLng, km: number) =>
    venues.every((v) => !hasCoordinates(v.lat, v.lng) || Math.abs(distanceKm(centre, { lat: v.lat ?? 0, lng: v.lng ?? 0 }) - km) > 0.001);

  /** Every page of a listing: the ids in order, and the total each page reported. */
  async function allPages(path: '/events' | '/venues', query: Record<string, string | number>, key: 'events' | 'venues') {
    const ids: number[] = [];
    const totals = new Set<number>();
    for (let page = 1; ; page++) {
      const r = await t.request('GET', path, { query: { ...query, per_page: 50, page } });
      if (page > 1 && r.status === 400) break;
      expect(r.status, r.text).toBe(200);
      totals.add(r.body.total);
      ids.push(...(r.body[key] as { id: number }[]).map((x) => x.id));
      if (page >= r.body.total_pages) break;
    }
    return { ids, totals: [...totals] };
  }

  it('keeps the events whose venue is within the radius, in the archive order, paged with exact totals', async () => {
    for (const [i, centre] of CENTRES.entries()) {
      for (const km of i < 2 ? [...RADII, EVERYWHERE] : RADII) {
        expect(clearOfEdge(centre, km), `${JSON.stringify(centre)} ${km}`).toBe(true);
        const want = expected(centre, km).sort((a, b) => (a.start < b.start ? -1 : 1));
        const got = await allPages('/events', { ...WINDOW, geoloc: 1, geoloc_lat: centre.lat, geoloc_lng: centre.lng, geoloc_radius: km }, 'events');
        expect({ centre, km, ids: got.ids, totals: got.totals }).toEqual({
          centre,
          km,
          ids: want.map((v) => v.eventId),
          totals: [want.length],
        });
      }
    }
  }, 120_000);

  it('keeps the events whose venue shows coordinates with geoloc alone', async () => {
    const got = await t.request('GET', '/events', { query: { ...WINDOW, geoloc: 1, per_page: 1 } });
    expect(got.body.total).toBe(expected(undefined, 0).length);
    const all = await t.request('GET', '/events', { query: { ...WINDOW, per_page: 1 } });
    expect(all.body.total).toBe(venues.length);
  });

  it('filters the venues archive the same way', async () => {
    for (const centre of CENTRES.slice(0, 7)) {
      for (const km of RADII) {
        const want = expected(centre, km)
          .map((v) => v.id)
          .sort((a, b) => b - a);
        const got = await allPages('/venues', { geoloc: 1, geoloc_lat: centre.lat, geoloc_lng: centre.lng, geoloc_radius: km }, 'venues');
        // Same publication date: by id, descending.
        expect({ centre, km, ids: got.ids, totals: got.totals }).toEqual({ centre, km, ids: want, totals: [want.length] });
      }
    }
  }, 120_000);
});
