/** The benchmark cases (issue 6): what each one requests in a seeded calendar. */
import type { SeedFixtures } from './seed.js';
import { geolocCases } from './geoloc.js';

/** The namespace the example servers serve under their `/wp-json` root. */
export const API = '/wp-json/calendar/events/v1';

/** The administrator's bearer token the servers are started with (`CALENDAR_TOKENS`). */
export const ADMIN_TOKEN = 'bench-administrator-token';

/** One request shape of a case: the request sent is built anew for each call (ids rotate). */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A benchmark case. */
export interface BenchCase {
  name: string;
  /** List cases are held to the growth target (100k no slower than 1.3 × 1k). */
  list: boolean;
  /** Status every response must have. */
  status: number;
  /** Writes change the calendar: they run last. */
  writes?: boolean;
  /** Whether successive requests differ (ids, slugs, titles): more of them are probed for the size. */
  rotates?: boolean;
  /** The `n`-th request of the case. */
  request(n: number): BenchRequest;
}

const get = (path: string): BenchRequest => ({ method: 'GET', path });
/** The same read, asking for a fresh answer: what the request costs when nothing is reused. */
const fresh = (path: string): BenchRequest => ({ method: 'GET', path, headers: { 'cache-control': 'no-cache' } });
/** The same read by a signed-in caller (editors and administrators see drafts too): never from the response cache. */
const signedIn = (path: string): BenchRequest => ({ method: 'GET', path, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

/** A `YYYY-MM-DD` some days from now. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The cases of the issue, in the order they run (the write last). `fields`: the server declares
 * the bench's host fields (bench/fields.ts), and the write sends a capacity too.
 */
export function benchCases(f: SeedFixtures, { fields = false }: { fields?: boolean } = {}): BenchCase[] {
  const q = (params: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const ids = f.eventIds.length ? f.eventIds : [1];
  const slugs = f.eventSlugs.length ? f.eventSlugs : ['none'];
  // A stable start far enough ahead to be in every default window, unique titles (one slug query each).
  const day = dayFromNow(10);
  const run = Date.now().toString(36);
  return [
    { name: 'GET /events', list: true, status: 200, request: () => get(`${API}/events`) },
    { name: 'GET /events?per_page=50', list: true, status: 200, request: () => get(`${API}/events?per_page=50`) },
    {
      name: 'GET /events?categories&venue&search',
      list: true,
      status: 200,
      request: () => get(`${API}/events?${q({ categories: f.filter.categories, venue: f.filter.venue, search: f.filter.search })}`),
    },
    { name: 'GET /events?start_date&end_date (month)', list: true, status: 200, request: () => get(`${API}/events?${q(f.month)}`) },
    { name: 'GET /events/<id>', list: false, status: 200, rotates: true, request: (n) => get(`${API}/events/${ids[n % ids.length]}`) },
    // Issue 17: a month of one category as a calendar to subscribe to.
    {
      name: 'GET /ics/events?categories (month)',
      list: true,
      status: 200,
      request: () => get(`${API}/ics/events?${q({ ...f.month, categories: f.filter.categories })}`),
    },
    {
      name: 'GET /ics/events?categories (month), no-cache',
      list: true,
      status: 200,
      request: () => fresh(`${API}/ics/events?${q({ ...f.month, categories: f.filter.categories })}`),
    },
    { name: 'GET /events/by-slug/<slug>', list: false, status: 200, rotates: true, request: (n) => get(`${API}/events/by-slug/${slugs[n % slugs.length]}`) },
    { name: 'GET /venues', list: true, status: 200, request: () => get(`${API}/venues`) },
    // A client that holds the answer already (`*` matches whatever tag is current): a 304 must
    // cost less than the cached 200.
    { name: 'GET /events → 304', list: false, status: 304, request: () => ({ method: 'GET', path: `${API}/events`, headers: { 'if-none-match': '*' } }) },
    // The logged-out reads above are answered from the response cache after their first time in
    // each second; these two show what computing every answer costs.
    { name: 'GET /events, no-cache', list: true, status: 200, request: () => fresh(`${API}/events`) },
    { name: 'GET /events/<id>, no-cache', list: false, status: 200, rotates: true, request: (n) => fresh(`${API}/events/${ids[n % ids.length]}`) },
    { name: 'GET /events (signed in)', list: true, status: 200, request: () => signedIn(`${API}/events`) },
    { name: 'GET /events?per_page=50 (signed in)', list: true, status: 200, request: () => signedIn(`${API}/events?per_page=50`) },
    { name: 'GET /events/<id> (signed in)', list: false, status: 200, rotates: true, request: (n) => signedIn(`${API}/events/${ids[n % ids.length]}`) },
    // Issue 34: the distance filter (bench/geoloc.ts).
    ...geolocCases(API),
    {
      name: 'POST /events (administrator)',
      list: false,
      status: 201,
      writes: true,
      rotates: true,
      request: (n) => ({
        method: 'POST',
        path: `${API}/events`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Benchmark Concert ${run}-${n}`,
          description: 'A new event written by the benchmark.\n\nSecond paragraph of its description.',
          status: 'publish',
          start_date: `${day} 19:00:00`,
          end_date: `${day} 21:30:00`,
          timezone: 'Europe/Paris',
          venue: f.venueId,
          organizer: [f.organizerId],
          categories: [f.categorySlug],
          cost: '15',
          ...(fields ? { capacity: 20 + (n % 400) } : {}),
        }),
      }),
    },
  ];
}
