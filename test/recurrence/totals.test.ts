import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testCalendar, type TestCalendar } from '../helpers/harness.js';

// With 1,000 series among plain events (issue 19), `total` and `X-TEC-Total` of the archive
// equal a brute-force expansion of every series by ical.js, filtered in JavaScript the way the
// archive's filters read, for a grid of filter combinations, as an editor and anonymously.

const SERIES = 1000;
const PLAIN = 150;
const FREQS = ['DAILY', 'WEEKLY', 'MONTHLY'];

interface Seeded {
  title: string;
  status: 'publish' | 'draft';
  category: boolean;
  featured: boolean;
  venue: boolean;
  /** Local starts (UTC site) and the length in hours. */
  starts: string[];
  hours: number;
}

/** `YYYY-MM-DD HH:MM:SS` of an ical.js time. */
const clock = (t: ICAL.Time) => t.toString().replace('T', ' ');

/** The starts ical.js gives a rule from a start, without the excluded ones. */
function oracle(start: string, rule: string, exdates: readonly string[]): string[] {
  const iterator = ICAL.Recur.fromString(rule).iterator(ICAL.Time.fromDateTimeString(start.replace(' ', 'T')));
  const out: string[] = [];
  for (let next = iterator.next(); next; next = iterator.next()) if (!exdates.includes(clock(next))) out.push(clock(next));
  return out;
}

const addHours = (wallClock: string, hours: number) =>
  new Date(Date.parse(`${wallClock.replace(' ', 'T')}Z`) + hours * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

describe.each(DIALECTS)('archive totals with 1,000 series on $name', ({ url }) => {
  let t: TestCalendar;
  const seeded: Seeded[] = [];
  let category = 0;
  let venue = 0;

  beforeAll(async () => {
    t = await testCalendar(url);
    category = (await t.request('POST', '/categories', { as: 'admin', json: { name: 'Grid' } })).body.id;
    venue = (await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Grid hall' } })).body.id;
    const post = async (i: number, recurrence?: { rule: string; exdates: string[] }) => {
      const day = 1 + (i % 28);
      const month = 1 + (i % 12);
      const start = `2027-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')} ${String(8 + (i % 12)).padStart(2, '0')}:00:00`;
      const hours = 1 + (i % 3);
      const item: Seeded = {
        title: `Grid ${recurrence ? 'series' : 'event'} ${i}${i % 7 === 0 ? ' zebra' : ''}`,
        status: i % 10 === 3 ? 'draft' : 'publish',
        category: i % 3 === 0,
        featured: i % 4 === 0,
        venue: i % 5 === 0,
        starts: recurrence ? oracle(start, recurrence.rule, recurrence.exdates) : [start],
        hours,
      };
      const json: Record<string, unknown> = {
        title: item.title,
        status: item.status,
        start_date: start,
        end_date: addHours(start, hours),
        featured: item.featured,
      };
      if (item.category) json.categories = [category];
      if (item.venue) json.venue = venue;
      if (recurrence) json.recurrence = [`RRULE:${recurrence.rule}`, ...recurrence.exdates.map((d) => `EXDATE:${d.replace(/[-:]/g, '').replace(' ', 'T')}`)];
      const res = await t.request('POST', '/events', { as: 'admin', json });
      expect(res.status, res.text).toBe(201);
      seeded.push(item);
    };
    for (let i = 0; i < SERIES; i++) {
      const freq = FREQS[i % FREQS.length]!;
      const rule = `FREQ=${freq};INTERVAL=${1 + (i % 2)};COUNT=${4 + (i % 9)}`;
      // Now and then the second occurrence is taken out.
      const first = oracle(
        `2027-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')} ${String(8 + (i % 12)).padStart(2, '0')}:00:00`,
        rule,
        [],
      );
      await post(i, { rule, exdates: i % 6 === 0 && first[1] ? [first[1]] : [] });
    }
    for (let i = 0; i < PLAIN; i++) await post(SERIES + i);
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives the totals a brute-force expansion gives, for every combination of filters', { timeout: 300_000 }, async () => {
    const windows: [string, string][] = [
      ['2027-01-01', '2027-03-31'],
      ['2027-06-15', '2027-07-15'],
      ['2026-01-01', '2029-12-31'],
    ];
    const mismatches: string[] = [];
    let checked = 0;
    for (const [from, to] of windows) {
      for (const byCategory of [false, true]) {
        for (const featured of [undefined, true, false]) {
          for (const byVenue of [false, true]) {
            for (const search of [undefined, 'zebra']) {
              for (const as of ['admin', null] as const) {
                const expected = seeded
                  .filter(
                    (s) =>
                      (as === 'admin' || s.status === 'publish') &&
                      (!byCategory || s.category) &&
                      (featured === undefined || s.featured === featured) &&
                      (!byVenue || s.venue) &&
                      (!search || s.title.includes(search)),
                  )
                  .flatMap((s) => s.starts.filter((start) => start >= `${from} 00:00:00` && addHours(start, s.hours) <= `${to} 23:59:59`)).length;
                const query: Record<string, string | number> = { start_date: from, end_date: to, per_page: 1 };
                if (byCategory) query.categories = category;
                if (featured !== undefined) query.featured = String(featured);
                if (byVenue) query.venue = venue;
                if (search) query.search = search;
                const res = await t.request('GET', '/events', { as, query });
                checked++;
                const got = [res.status, res.body.total, Number(res.headers['X-TEC-Total'] ?? res.headers['x-tec-total'])];
                if (got[0] !== 200 || got[1] !== expected || got[2] !== expected)
                  mismatches.push(`${JSON.stringify(query)} as ${as ?? 'anonymous'}: ${JSON.stringify(got)} where ${expected}`);
              }
            }
          }
        }
      }
    }
    expect(checked).toBe(144);
    expect(mismatches).toEqual([]);
  });

  it('lists the same occurrences page by page as in one go', async () => {
    const walk = async (perPage: number) => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const res = await t.request('GET', '/events', { query: { start_date: '2027-02-01', end_date: '2027-02-28', per_page: perPage, page } });
        ids.push(...(res.body.events as { id: number }[]).map((e) => e.id));
        if (page >= res.body.total_pages) return ids;
      }
    };
    const all = await walk(50);
    expect(all.length).toBeGreaterThan(100);
    expect(new Set(all).size).toBe(all.length);
    expect(await walk(7)).toEqual(all);
  });
});
