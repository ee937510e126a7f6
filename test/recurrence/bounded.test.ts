import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar, type Calendar } from '../../src/index.js';
import { DIALECTS, requester, testCalendar, type TestCalendar } from '../helpers/harness.js';

// Bounded work for recurrence (issue 28, finding 1): the outside review's rules that held the
// event loop for 259 s and 40 s are refused before any walk; a rule whose walk would look at
// more candidate dates than recurrence.maxCandidates is refused on write, naming it; a series
// stored under a looser bound keeps working, indexed as far as the budget reaches and reported
// once, and is refused only when edited. Nothing here measures time: the work is counted.

const YEAR_DAYS = Array.from({ length: 366 }, (_, i) => i + 1).join(',');

describe.each(DIALECTS)('recurrence within a budget of work on $name', ({ url }) => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(url, { timezone: 'Europe/Paris', recurrence: { maxCandidates: 5000 } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (recurrence: string[], start = '2026-12-01 10:00:00') =>
    t.request('POST', '/events', { as: 'contributor', json: { title: 'Costly', start_date: start, end_date: start.replace(' 10:', ' 11:'), recurrence } });

  it('refuses the reviewed rules with a 400 naming BYSETPOS, and stores nothing', async () => {
    for (const [rule, part] of [
      [`FREQ=YEARLY;BYYEARDAY=${YEAR_DAYS};BYSETPOS=366;BYMONTH=2`, /BYSETPOS=366 selects from at most 29 instants per year/],
      ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYSETPOS=8', /BYSETPOS=8 selects from at most 7 instants per week/],
    ] as const) {
      const res = await post([`RRULE:${rule}`]);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params.recurrence).toMatch(part);
    }
    expect((await t.request('GET', '/events', { as: 'admin', query: { status: 'draft', start_date: '2026-01-01' } })).body.total).toBe(0);
  });

  it('refuses a rule whose walk would pass recurrence.maxCandidates, naming what multiplies it', async () => {
    // Every hour of every day of the year, picking the last: 9,000 candidate dates a year.
    const res = await post([
      'RRULE:FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYSETPOS=-1;COUNT=3',
    ]);
    expect(res.status, res.text).toBe(400);
    expect(res.body.data.params.recurrence).toMatch(
      /too costly to expand: its BYDAY \(7 values\), BYHOUR \(24 values\) make the rule look at more than 5000 candidate dates \(recurrence\.maxCandidates\)/,
    );
    // The same rule with fewer values is fine.
    const fine = await post(['RRULE:FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=9;BYSETPOS=-1;COUNT=3']);
    expect(fine.status, fine.text).toBe(201);
  });
});

describe('a series stored under a looser bound', () => {
  let dir: string;
  let loose: Calendar;
  let strict: Calendar;
  const reported: unknown[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-bounded-'));
    const db = join(dir, 'calendar.db');
    loose = createCalendar({ db, timezone: 'UTC', baseUrl: 'http://example.org' });
    await loose.migrate();
    strict = createCalendar({
      db,
      timezone: 'UTC',
      baseUrl: 'http://example.org',
      recurrence: { maxCandidates: 800, horizonMonths: 24, maxHorizonMonths: 240 },
      onError: (e) => reported.push(e),
    });
  });
  afterAll(async () => {
    await loose?.close();
    await strict?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps being read and indexed as far as the budget reaches, is reported once, and is refused only when edited', async () => {
    const created = await requester(loose)('POST', '/events', {
      as: 'admin',
      json: { title: 'Daily', start_date: '2026-01-01 09:00:00', end_date: '2026-01-01 10:00:00', recurrence: ['RRULE:FREQ=DAILY'] },
    });
    expect(created.status, created.text).toBe(201);
    const request = requester(strict);
    const listed = await request('GET', '/events', { query: { start_date: '2026-01-01', end_date: '2026-01-31' } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.total).toBe(31);
    // Extended far ahead by the horizon job: the walk stops at its budget (800 units, a few
    // hundred days) and the series is indexed that far; told once, however often it runs.
    await strict.extendOccurrences(new Date('2040-01-01T00:00:00Z'));
    await strict.extendOccurrences(new Date('2041-01-01T00:00:00Z'));
    const about = reported.filter((e) => e instanceof Error && e.message.includes(`event ${created.body.id} are indexed only up to`));
    expect(about).toHaveLength(1);
    const edit = await request('POST', `/events/${created.body.id}`, { as: 'admin', json: { recurrence: ['RRULE:FREQ=DAILY;INTERVAL=1'] } });
    expect(edit.status, edit.text).toBe(400);
    expect(edit.body.data.params.recurrence).toMatch(/too costly to expand/);
    expect((await request('GET', `/events/${created.body.id}`)).status).toBe(200);
  });
});
