import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { dialectOf } from '../../src/store/dialects/index.js';
import { postRow } from '../helpers/store.js';

/** A venue seeded for the distance tests, with the one event held there. */
export interface SeededVenue {
  id: number;
  lat: number | null;
  lng: number | null;
  password: boolean;
  eventId: number;
  /** The event's start, a wall clock: the archive's order. */
  start: string;
}

/** What to seed: a venue's coordinates (and whether it is password-protected). */
export interface VenuePoint {
  lat: number | null;
  lng: number | null;
  password?: boolean;
}

/** A small deterministic random source (mulberry32), so that a failing case can be run again. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Points over the whole sphere, and crowded where boxes are hard: around the antimeridian and
 * both poles; `n` of them.
 */
export function hardPoints(n: number, next: () => number): VenuePoint[] {
  const points: VenuePoint[] = [];
  const between = (a: number, b: number) => a + (b - a) * next();
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    if (kind === 0) points.push({ lat: (Math.asin(between(-1, 1)) * 180) / Math.PI, lng: between(-180, 180) });
    else if (kind === 1) points.push({ lat: between(-70, 70), lng: next() < 0.5 ? between(175, 180) : between(-180, -175) });
    else if (kind === 2) points.push({ lat: next() < 0.5 ? between(84, 90) : between(-90, -84), lng: between(-180, 180) });
    else points.push({ lat: between(40, 50), lng: between(0, 20) });
  }
  return points;
}

/** Wall clock `minutes` after 2027-03-01 00:00. */
export function startAt(minutes: number): string {
  return new Date(Date.UTC(2027, 2, 1) + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

const CHUNK = 200;

/**
 * Seeds venues at `points` directly (posts with explicit ids from `firstId`, inserted in chunks)
 * and one published event at each, starting a minute apart; the id sequences are moved past them.
 */
export async function seedVenues(
  db: Kysely<Database>,
  raw: Kysely<unknown>,
  prefix: string,
  points: readonly VenuePoint[],
  firstId: number,
): Promise<SeededVenue[]> {
  const seeded = points.map((p, i) => ({
    id: firstId + 2 * i,
    eventId: firstId + 2 * i + 1,
    lat: p.lat,
    lng: p.lng,
    password: p.password ?? false,
    start: startAt(i),
  }));
  const date = '2026-01-01 10:00:00';
  for (let i = 0; i < seeded.length; i += CHUNK) {
    const part = seeded.slice(i, i + CHUNK);
    await db
      .insertInto('posts')
      .values(
        part.flatMap((v) => [
          { ...postRow({ type: 'venue', title: `Venue ${v.id}`, date, slug: `venue-${v.id}`, password: v.password ? 'secret' : null }), id: v.id },
          { ...postRow({ type: 'event', title: `Event ${v.eventId}`, date, slug: `event-${v.eventId}` }), id: v.eventId },
        ]),
      )
      .execute();
    await db
      .insertInto('venues')
      .values(
        part.map((v) => ({
          post_id: v.id,
          address: '',
          city: '',
          country: '',
          province: '',
          state: '',
          zip: '',
          phone: '',
          stateprovince: '',
          website: '',
          show_map: 1,
          show_map_link: 1,
          geo_lat: v.lat,
          geo_lng: v.lng,
        })),
      )
      .execute();
    await db
      .insertInto('events')
      .values(
        part.map((v) => ({
          post_id: v.eventId,
          start_local: v.start,
          end_local: v.start,
          start_utc: v.start,
          end_utc: v.start,
          timezone: 'UTC',
          timezone_abbr: 'UTC',
          all_day: 0,
          hidden: 0,
          featured: 0,
          show_map: 1,
          show_map_link: 1,
          website: null,
          cost: null,
          currency_symbol: '',
          currency_position: '',
          currency_code: '',
          venue_id: v.id,
          series_id: null,
        })),
      )
      .execute();
  }
  await dialectOf(raw).followExplicitIds(raw, `${prefix}posts`);
  return seeded;
}
