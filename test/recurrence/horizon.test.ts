import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { HorizonKeeper } from '../../src/recurrence/horizon.js';
import { SeriesService } from '../../src/recurrence/series.js';
import { buildCli, lines, type BuiltCli } from '../cli/run-cli.js';
import { DIALECTS, requester, testCalendar, type TestCalendar } from '../helpers/harness.js';

// How far ahead the occurrences of never-ending series are indexed (issue 19): the horizon of
// a write, `calendar.extendOccurrences`, an editor's far window (in the background, up to the
// furthest horizon), never an anonymous one; and the `occurrences` command.

const day = 86_400_000;
const date = (offsetDays: number) => new Date(Date.now() + offsetDays * day).toISOString().slice(0, 10);

describe.each(DIALECTS)('the occurrence index horizon on $name', ({ url }) => {
  let t: TestCalendar;

  beforeAll(async () => {
    t = await testCalendar(url, { recurrence: { horizonMonths: 2, maxHorizonMonths: 6 } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const count = async (as: 'admin' | null, end: string, id: number) => {
    const res = await t.request('GET', `/events/${id}/occurrences`, { as, query: { end_date: end, per_page: 50 } });
    expect(res.status, res.text).toBe(200);
    return res.body.total as number;
  };

  it('indexes a never-ending series to the horizon, then further on demand, never past the furthest', async () => {
    const res = await t.request('POST', '/events', {
      as: 'admin',
      json: { title: 'Weekly forever', start_date: `${date(1)} 10:00:00`, end_date: `${date(1)} 11:00:00`, recurrence: ['RRULE:FREQ=WEEKLY'] },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as number;
    const far = date(400);
    const first = await count(null, far, id);
    // About two months of weeks.
    expect(first).toBeGreaterThanOrEqual(8);
    expect(first).toBeLessThanOrEqual(10);
    // An anonymous far window lists what is indexed, and starts no work.
    const services = await t.calendar.services();
    expect((await t.request('GET', '/events', { query: { start_date: date(0), end_date: far, per_page: 50 } })).body.total).toBe(first);
    await services.horizon.settled();
    expect(await count(null, far, id)).toBe(first);
    // Asked by the host: indexed further now.
    const added = await t.calendar.extendOccurrences(new Date(Date.now() + 120 * day));
    expect(added).toBeGreaterThan(4);
    expect(await count(null, far, id)).toBe(first + added);
    // An editor's far window extends it in the background, up to the furthest horizon (6 months).
    await count('admin', far, id);
    await services.horizon.settled();
    const most = await count(null, far, id);
    expect(most).toBeGreaterThanOrEqual(25);
    expect(most).toBeLessThanOrEqual(28);
    expect(await t.calendar.extendOccurrences(new Date(Date.now() + 3000 * day))).toBe(0);
  });
});

describe('an editor window past the horizon', () => {
  it('is told by the horizon of its own second, at any clock', () => {
    const series = new SeriesService({
      idBase: 1e9,
      horizonMonths: 2,
      maxHorizonMonths: 6,
      maxOccurrences: 1000,
      maxLines: 10,
      maxDates: 100,
      maxCandidates: 1e5,
    });
    const keeper = new HorizonKeeper(
      series,
      () => Promise.resolve(0),
      () => undefined,
    );
    // At 2027-01-30 10:00:00.250 UTC the horizon is two months after the next day: 2027-03-31 10:00:00.
    const now = new Date('2027-01-30T10:00:00.250Z');
    expect(keeper.beyond('2027-03-31 10:00:00', now)).toBe(false);
    expect(keeper.beyond('2027-03-31 10:00:01', now)).toBe(true);
    // Later in the same second, and in the next one: the horizon moves with the clock.
    expect(keeper.beyond('2027-03-31 10:00:01', new Date('2027-01-30T10:00:00.999Z'))).toBe(true);
    expect(keeper.beyond('2027-03-31 10:00:01', new Date('2027-01-30T10:00:01.000Z'))).toBe(false);
    // A month later, and back again (a clock that goes back is not kept from).
    expect(keeper.beyond('2027-04-30 10:00:00', new Date('2027-02-28T10:00:00Z'))).toBe(false);
    expect(keeper.beyond('2027-04-30 10:00:00', now)).toBe(true);
  });
});

describe('calendar-events-rest occurrences', () => {
  let cli: BuiltCli;
  const dir = mkdtempSync(join(tmpdir(), 'calendar-occurrences-'));

  beforeAll(async () => {
    cli = await buildCli();
  }, 120_000);
  afterAll(() => {
    cli?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes never-ending series up to a date', async () => {
    const db = join(dir, 'cal.sqlite');
    const calendar = createCalendar({ db, autoMigrate: true, recurrence: { horizonMonths: 1 } });
    const request = requester(calendar);
    const res = await request('POST', '/events', {
      as: 'admin',
      json: { title: 'Daily', start_date: `${date(1)} 08:00:00`, end_date: `${date(1)} 09:00:00`, recurrence: ['RRULE:FREQ=DAILY'] },
    });
    expect(res.status, res.text).toBe(201);
    await calendar.close();
    const run = await cli.run(['occurrences', '--db', db, '--until', date(90)]);
    expect(run.code, run.stderr).toBe(0);
    const [line] = lines(run.stdout);
    const added = Number(/: (\d+) occurrences indexed up to /.exec(line ?? '')?.[1]);
    expect(added).toBeGreaterThanOrEqual(55);
    expect(added).toBeLessThanOrEqual(62);
    expect((await cli.run(['occurrences', '--db', db, '--until', 'soon'])).code).not.toBe(0);
  }, 120_000);
});
