/**
 * The recurring events' benchmark (issue 19): a calendar of 1,000 events and 1,000 weekly
 * series of 100 occurrences each (100,000 occurrences in the index, about half of them in the
 * archive's default window), and the cases run against it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { resolveOptions } from '../src/options.js';
import { parseRecurrence } from '../src/recurrence/rules.js';
import { SeriesService } from '../src/recurrence/series.js';
import { connectDatabase } from '../src/store/connect.js';
import { Store } from '../src/resources/store.js';
import { API, ADMIN_TOKEN, type BenchCase } from './cases.js';
import { DATA_DIR } from './dataset.js';
import { seedCalendar, type SeedFixtures } from './seed.js';

/** Series, and occurrences per series. */
export const SERIES = 1000;
export const OCCURRENCES = 100;
/** The size the results of these cases are filed under: occurrences in the index. */
export const SERIES_SIZE = SERIES * OCCURRENCES;

/** What the series cases address. */
export interface SeriesFixtures extends SeedFixtures {
  occurrenceIds: number[];
  seriesSeconds: number;
}

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/** Seeds (or, with `reuse`, reuses today's) SQLite calendar of events and weekly series. */
export async function seriesDataset(reuse: boolean): Promise<SeriesFixtures & { reused: boolean }> {
  const file = join(DATA_DIR, 'series.sqlite');
  const saved = join(DATA_DIR, 'series.json');
  if (reuse && existsSync(file) && existsSync(saved)) {
    const fixtures = JSON.parse(readFileSync(saved, 'utf8')) as SeriesFixtures & { day: string };
    if (fixtures.day === day(0)) return { ...fixtures, reused: true };
  }
  const base = await seedCalendar({ target: file, events: 1000 });
  const started = performance.now();
  const raw = await connectDatabase(file);
  try {
    await sql`pragma synchronous = off`.execute(raw);
    const store = Store.open(raw, 'tec_');
    const series = new SeriesService(resolveOptions({ db: raw }).recurrence);
    const recurrence = parseRecurrence([`RRULE:FREQ=WEEKLY;COUNT=${OCCURRENCES}`], 'UTC', { lines: 1, dates: 0 })!;
    for (let i = 0; i < SERIES; i += 50) {
      await store.transaction(async (tx) => {
        for (let j = i; j < Math.min(i + 50, SERIES); j++) {
          // Started up to a year ago: the default window (today on) holds about half of each.
          const start = `${day(-365 + (j % 365))} ${String(8 + (j % 12)).padStart(2, '0')}:00:00`;
          const end = `${start.slice(0, 11)}${String(9 + (j % 12)).padStart(2, '0')}:30:00`;
          const stamp = `${day(-400)} 10:00:00`;
          const id = await tx.posts.insert({
            type: 'event',
            author: 1,
            status: 'publish',
            status_before_trash: null,
            title: `Weekly series ${j}`,
            content: `<p>Every week, number ${j}.</p>`,
            excerpt: '',
            slug: `weekly-series-${j}`,
            password: null,
            date: stamp,
            date_utc: stamp,
            modified: stamp,
            modified_utc: stamp,
            menu_order: 0,
            parent: 0,
            image_id: null,
          });
          await tx.events.insertDetails(id, {
            start_local: start,
            end_local: end,
            start_utc: start,
            end_utc: end,
            timezone: 'UTC',
            timezone_abbr: 'UTC',
            all_day: 0,
            hidden: 0,
            featured: j % 5 === 0 ? 1 : 0,
            show_map: 0,
            show_map_link: 0,
            website: null,
            cost: null,
            currency_symbol: '',
            currency_position: '',
            currency_code: '',
            venue_id: base.venueId,
          });
          await series.create(tx, id, { start, end, zone: 'UTC', recurrence }, new Date());
        }
      });
    }
    const ids = (
      await store.db
        .selectFrom('occurrences')
        .select('id')
        .where('start_local', '>=', `${day(1)} 00:00:00`)
        .orderBy('start_local')
        .limit(200)
        .execute()
    ).map((r) => r.id);
    const fixtures: SeriesFixtures = { ...base, occurrenceIds: ids, seriesSeconds: (performance.now() - started) / 1000 };
    writeFileSync(saved, JSON.stringify({ ...fixtures, day: day(0) }));
    return { ...fixtures, reused: false };
  } finally {
    await raw.destroy();
  }
}

/** A private copy of the series file for one server. */
export function seriesWorkingCopy(label: string): { file: string; remove: () => void } {
  const file = join(DATA_DIR, `series-${label}.sqlite`);
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  };
  remove();
  writeFileSync(file, readFileSync(join(DATA_DIR, 'series.sqlite')));
  return { file, remove };
}

/** Windows years ahead, past the index: anonymous reads there must cost no more memory. */
const FAR = Array.from({ length: 30 }, (_, i) => ({ start_date: `${2040 + i}-01-01`, end_date: `${2040 + i}-12-31` }));

/** The cases of the series calendar. */
export function seriesCases(f: SeriesFixtures): BenchCase[] {
  const q = (params: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const fresh = (path: string) => ({ method: 'GET' as const, path, headers: { 'cache-control': 'no-cache' } });
  const ids = f.occurrenceIds.length ? f.occurrenceIds : [1];
  return [
    { name: 'series: GET /events, no-cache', list: false, status: 200, request: () => fresh(`${API}/events`) },
    {
      name: 'series: GET /events (signed in)',
      list: false,
      status: 200,
      request: () => ({ method: 'GET', path: `${API}/events`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
    },
    {
      name: 'series: GET /events?per_page=50 (signed in)',
      list: false,
      status: 200,
      request: () => ({ method: 'GET', path: `${API}/events?per_page=50`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
    },
    { name: 'series: GET /events?start_date&end_date (month), no-cache', list: false, status: 200, request: () => fresh(`${API}/events?${q(f.month)}`) },
    {
      name: 'series: GET /events/<occurrence id>, no-cache',
      list: false,
      status: 200,
      rotates: true,
      request: (n) => fresh(`${API}/events/${ids[n % ids.length]}`),
    },
    {
      name: 'series: 30 far-future windows (anonymous), no-cache',
      list: false,
      status: 200,
      rotates: true,
      request: (n) => fresh(`${API}/events?${q(FAR[n % FAR.length]!)}`),
    },
  ];
}
