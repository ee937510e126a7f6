import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

// Recurring events through HTTP on every database (issue 19): a series lists its occurrences in
// the archive with ids of their own; one occurrence is edited, cancelled, or the series split or
// moved from it, and ids, totals, ETags and the change feed follow.

const BASE = 10_000_000;

interface Item {
  id: number;
  title: string;
  slug: string;
  status: string;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  url: string;
  rest_url: string;
  recurrence?: string[];
  series?: { id: number; rest_url: string; occurrences_url: string; original_start?: string; overridden?: boolean };
}

describe.each(DIALECTS)('recurring events on $name', ({ url }) => {
  let t: HttpCalendar;

  beforeAll(async () => {
    t = await httpCalendar(url, { timezone: 'Europe/Paris' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const create = async (json: Record<string, unknown>) => {
    const res = await t.request('POST', '/events', { as: 'admin', json });
    expect(res.status, res.text).toBe(201);
    return res.body as Item;
  };
  /** Every item of the archive in a window, as `as` sees it. */
  const listed = async (start: string, end: string, as: 'admin' | null = 'admin', extra: Record<string, string> = {}) => {
    const out: Item[] = [];
    for (let page = 1; ; page++) {
      const res = await t.request('GET', '/events', { as, query: { start_date: start, end_date: end, per_page: 50, page, ...extra } });
      expect(res.status, res.text).toBe(200);
      expect(Number(res.headers['x-tec-total'])).toBe(res.body.total);
      out.push(...(res.body.events as Item[]));
      if (page >= res.body.total_pages) return { items: out, total: res.body.total as number };
    }
  };
  const ofSeries = (items: Item[], id: number) => items.filter((e) => e.series?.id === id);

  it('lists each occurrence as an item, with stable ids above the base, among events that do not recur', async () => {
    const plain = await create({ title: 'Plain evening', start_date: '2027-03-03 19:00:00', end_date: '2027-03-03 21:00:00' });
    expect(plain.recurrence).toBeUndefined();
    expect(plain.series).toBeUndefined();
    expect(Object.keys(plain)).not.toContain('recurrence');
    const series = await create({
      title: 'Morning swim',
      start_date: '2027-03-01 09:00:00',
      end_date: '2027-03-01 10:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6'],
    });
    expect(series.recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6']);
    expect(series.series).toEqual({ id: series.id, rest_url: `${t.base}/events/${series.id}`, occurrences_url: `${t.base}/events/${series.id}/occurrences` });
    const { items, total } = await listed('2027-03-01', '2027-03-31');
    const occurrences = ofSeries(items, series.id);
    expect(occurrences.map((o) => o.start_date)).toEqual([
      '2027-03-01 09:00:00',
      '2027-03-03 09:00:00',
      '2027-03-08 09:00:00',
      '2027-03-10 09:00:00',
      '2027-03-15 09:00:00',
      '2027-03-17 09:00:00',
    ]);
    // Ordered by start, an event before an occurrence at the same start; the plain event is unchanged.
    expect(items.map((e) => e.id)).toContain(plain.id);
    expect(items.findIndex((e) => e.id === plain.id)).toBe(2);
    expect(total).toBe(items.length);
    for (const o of occurrences) {
      expect(o.id).toBeGreaterThanOrEqual(BASE);
      expect(o.slug).toBe(series.slug);
      expect(o.rest_url).toBe(`${t.base}/events/${o.id}`);
      expect(o.url).toBe(`${t.origin}/event/${series.slug}/${o.start_date.slice(0, 10)}/`);
      expect(o.series?.original_start).toBe(o.start_date);
    }
    // An occurrence by its id, the series (its first occurrence) by id and slug, the occurrences route.
    const one = await t.request('GET', `/events/${occurrences[2]!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: occurrences[2]!.id, start_date: '2027-03-08 09:00:00', title: 'Morning swim', recurrence: series.recurrence });
    expect((await t.request('GET', `/events/${series.id}`)).body).toMatchObject({
      id: series.id,
      start_date: '2027-03-01 09:00:00',
      series: { id: series.id },
    });
    expect((await t.request('GET', `/events/by-slug/${series.slug}`)).body.id).toBe(series.id);
    const route = await t.request('GET', `/events/${occurrences[3]!.id}/occurrences`, { query: { per_page: 4, page: 2 } });
    expect(route.status, route.text).toBe(200);
    expect(route.body.total).toBe(6);
    expect(route.headers['x-tec-totalpages']).toBe('2');
    expect((route.body.events as Item[]).map((o) => o.id)).toEqual(occurrences.slice(4).map((o) => o.id));
    expect((await t.request('GET', `/events/${plain.id}/occurrences`)).status).toBe(400);
    // `include` takes an occurrence's id, or the series' for all of them.
    expect((await listed('2027-01-01', '2027-12-31', 'admin', { include: String(series.id) })).total).toBe(6);
    expect((await listed('2027-01-01', '2027-12-31', 'admin', { include: String(occurrences[1]!.id) })).items.map((e) => e.id)).toEqual([occurrences[1]!.id]);
    // The ids do not move when the archive is read again.
    expect(ofSeries((await listed('2027-03-01', '2027-03-31')).items, series.id).map((o) => o.id)).toEqual(occurrences.map((o) => o.id));
  });

  it("edits one occurrence: it keeps its id, the series' ETag changes, and the change feed has one entry for it", async () => {
    const series = await create({
      title: 'Reading club',
      start_date: '2027-05-04 18:00:00',
      end_date: '2027-05-04 19:30:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    });
    const [, second] = ofSeries((await listed('2027-05-01', '2027-05-31')).items, series.id);
    const seriesTag = (await t.request('GET', `/events/${series.id}`)).headers.etag;
    const occurrenceTag = (await t.request('GET', `/events/${second!.id}`)).headers.etag;
    const token = (await t.request('GET', '/changes', { as: 'admin' })).body.next_sync_token as string;
    const edit = await t.request('POST', `/events/${second!.id}`, {
      as: 'admin',
      json: { title: 'Reading club: the author visits', start_date: '2027-05-11 19:00:00', end_date: '2027-05-11 21:00:00' },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toMatchObject({
      id: second!.id,
      title: 'Reading club: the author visits',
      start_date: '2027-05-11 19:00:00',
      slug: series.slug,
      series: { id: series.id, original_start: '2027-05-11 18:00:00', overridden: true },
    });
    const after = ofSeries((await listed('2027-05-01', '2027-05-31')).items, series.id);
    expect(after.map((o) => [o.id, o.title, o.start_date])).toEqual([
      [after[0]!.id, 'Reading club', '2027-05-04 18:00:00'],
      [second!.id, 'Reading club: the author visits', '2027-05-11 19:00:00'],
      [after[2]!.id, 'Reading club', '2027-05-18 18:00:00'],
      [after[3]!.id, 'Reading club', '2027-05-25 18:00:00'],
    ]);
    // Search finds the edited occurrence by its own title.
    expect((await listed('2027-05-01', '2027-05-31', 'admin', { search: 'author visits' })).items.map((e) => e.id)).toEqual([second!.id]);
    expect((await t.request('GET', `/events/${series.id}`)).headers.etag).not.toBe(seriesTag);
    expect((await t.request('GET', `/events/${second!.id}`)).headers.etag).not.toBe(occurrenceTag);
    const changes = (await t.request('GET', '/changes', { as: 'admin', query: { sync_token: token } })).body.changes as {
      id: number;
      kind: string;
      scope?: string;
    }[];
    expect(changes.filter((c) => c.id === second!.id)).toHaveLength(1);
    expect(changes.filter((c) => c.id === second!.id)[0]).toMatchObject({ scope: 'this' });
    // The event behind the edit is never read nor listed by its own id.
    expect((await listed('2027-05-01', '2027-05-31')).items.filter((e) => e.title.includes('author visits'))).toHaveLength(1);
  });

  it('cancels one occurrence: it leaves the archive and answers 404', async () => {
    const series = await create({
      title: 'Yoga',
      start_date: '2027-06-01 07:00:00',
      end_date: '2027-06-01 08:00:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
    });
    const before = await listed('2027-06-01', '2027-06-30');
    const third = ofSeries(before.items, series.id)[2]!;
    const del = await t.request('DELETE', `/events/${third.id}`, { as: 'admin' });
    expect(del.status, del.text).toBe(200);
    const after = await listed('2027-06-01', '2027-06-30');
    expect(after.total).toBe(before.total - 1);
    expect(ofSeries(after.items, series.id).map((o) => o.start_date)).toEqual([
      '2027-06-01 07:00:00',
      '2027-06-02 07:00:00',
      '2027-06-04 07:00:00',
      '2027-06-05 07:00:00',
    ]);
    const gone = await t.request('GET', `/events/${third.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('rest-event-occurrence-cancelled');
    expect((await t.request('POST', `/events/${third.id}`, { as: 'admin', json: { title: 'Back' } })).status).toBe(404);
  });

  it('splits a series at an occurrence ("following"): later occurrences keep their ids and edits, in a new series', async () => {
    const series = await create({
      title: 'Choir',
      start_date: '2027-09-06 20:00:00',
      end_date: '2027-09-06 22:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
    });
    const original = ofSeries((await listed('2027-09-01', '2027-10-31')).items, series.id);
    // An edit later than the split point travels with it.
    expect((await t.request('POST', `/events/${original[4]!.id}`, { as: 'admin', json: { title: 'Choir: concert' } })).status).toBe(200);
    const split = await t.request('POST', `/events/${original[2]!.id}`, { as: 'admin', json: { scope: 'following', title: 'Choir (new season)' } });
    expect(split.status, split.text).toBe(200);
    expect(split.body.id).toBe(original[2]!.id);
    const newSeries = split.body.series.id as number;
    expect(newSeries).not.toBe(series.id);
    const { items } = await listed('2027-09-01', '2027-10-31');
    expect(ofSeries(items, series.id).map((o) => o.id)).toEqual(original.slice(0, 2).map((o) => o.id));
    const moved = ofSeries(items, newSeries);
    expect(moved.map((o) => o.id)).toEqual(original.slice(2).map((o) => o.id));
    expect(moved.map((o) => o.title)).toEqual(['Choir (new season)', 'Choir (new season)', 'Choir: concert', 'Choir (new season)']);
    expect(moved.map((o) => o.start_date)).toEqual(original.slice(2).map((o) => o.start_date));
    expect(moved[0]!.slug).not.toBe(series.slug);
    // The old series now ends before the split; the new one has what COUNT left.
    const old = (await t.request('GET', `/events/${series.id}`)).body as Item;
    // A second after the occurrence before the split.
    expect(old.recurrence?.[0]).toBe('RRULE:FREQ=WEEKLY;UNTIL=20270913T180001Z');
    expect(((await t.request('GET', `/events/${newSeries}`)).body as Item).recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4']);
  });

  it('moves every occurrence ("all") from one of them, keeping edits unless asked to reset them', async () => {
    const series = await create({
      title: 'Team sync',
      start_date: '2027-11-01 10:00:00',
      end_date: '2027-11-01 10:30:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const [first, second, third] = ofSeries((await listed('2027-11-01', '2027-11-30')).items, series.id);
    expect((await t.request('POST', `/events/${third!.id}`, { as: 'admin', json: { title: 'Team sync: retro' } })).status).toBe(200);
    const all = await t.request('POST', `/events/${second!.id}`, {
      as: 'admin',
      json: { scope: 'all', start_date: '2027-11-02 11:00:00', end_date: '2027-11-02 11:30:00', description: 'Room 4' },
    });
    expect(all.status, all.text).toBe(200);
    let now = ofSeries((await listed('2027-11-01', '2027-11-30')).items, series.id);
    expect(now.map((o) => [o.id, o.start_date, o.title])).toEqual([
      [first!.id, '2027-11-01 11:00:00', 'Team sync'],
      [second!.id, '2027-11-02 11:00:00', 'Team sync'],
      // The edited one keeps its edit (and its times).
      [third!.id, '2027-11-03 10:00:00', 'Team sync: retro'],
    ]);
    const reset = await t.request('POST', `/events/${series.id}`, { as: 'admin', json: { reset_overrides: true, title: 'Team standup' } });
    expect(reset.status, reset.text).toBe(200);
    now = ofSeries((await listed('2027-11-01', '2027-11-30')).items, series.id);
    expect(now.map((o) => [o.id, o.start_date, o.title])).toEqual([
      [first!.id, '2027-11-01 11:00:00', 'Team standup'],
      [second!.id, '2027-11-02 11:00:00', 'Team standup'],
      [third!.id, '2027-11-03 11:00:00', 'Team standup'],
    ]);
  });

  it("moves a long-running series' time without losing an occurrence, and refuses a move that would put too much in the index", async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    // The index reaches a horizon at this time of day some months ahead: the series' two times
    // of day are both before it (or both after it, early in the UTC day), so that the last day's
    // occurrence is on the same side of the horizon before and after the move.
    const [from, to] = new Date().getUTCHours() >= 3 ? ['00', '01'] : ['22', '23'];
    // Daily for 600 days already: well over 1,000 occurrences from its start to the horizon.
    const series = await create({
      title: 'Daily news',
      start_date: `${day(-600)} ${from}:00:00`,
      end_date: `${day(-600)} ${from}:30:00`,
      recurrence: ['RRULE:FREQ=DAILY'],
    });
    const count = async () => (await t.request('GET', `/events/${series.id}/occurrences`, { as: 'admin', query: { per_page: 1 } })).body.total as number;
    const before = await count();
    expect(before).toBeGreaterThan(1200);
    const first = (
      (await t.request('GET', `/events/${series.id}/occurrences`, { as: 'admin', query: { start_date: day(10), end_date: day(10) } })).body.events as Item[]
    )[0]!;
    const moved = await t.request('POST', `/events/${series.id}`, {
      as: 'admin',
      json: { start_date: `${day(-600)} ${to}:00:00`, end_date: `${day(-600)} ${to}:30:00` },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await count()).toBe(before);
    const again = (
      (await t.request('GET', `/events/${series.id}/occurrences`, { as: 'admin', query: { start_date: day(10), end_date: day(10) } })).body.events as Item[]
    )[0]!;
    expect([again.id, again.start_date.slice(11)]).toEqual([first.id, `${to}:00:00`]);
    // Back to 1960: 24,000 daily occurrences to index: refused, and nothing changes.
    const far = await t.request('POST', `/events/${series.id}`, { as: 'admin', json: { start_date: '1960-01-01 10:00:00', end_date: '1960-01-01 10:30:00' } });
    expect(far.status, far.text).toBe(400);
    expect(await count()).toBe(before);
  }, 60_000);

  it('takes the edited occurrences along when the series is made a draft, and trashes it when cancelled from its first occurrence on', async () => {
    const series = await create({
      title: 'Garden tour',
      start_date: '2028-05-01 10:00:00',
      end_date: '2028-05-01 11:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const [first, second] = ofSeries((await listed('2028-05-01', '2028-05-31')).items, series.id);
    expect((await t.request('POST', `/events/${second!.id}`, { as: 'admin', json: { title: 'Garden tour: roses' } })).status).toBe(200);
    expect((await t.request('POST', `/events/${series.id}`, { as: 'admin', json: { status: 'draft' } })).status).toBe(200);
    expect(ofSeries((await listed('2028-05-01', '2028-05-31', null)).items, series.id)).toEqual([]);
    expect((await t.request('GET', `/events/${second!.id}`)).status).toBe(403);
    expect((await t.request('DELETE', `/events/${first!.id}`, { as: 'admin', query: { scope: 'following' } })).status).toBe(200);
    // In the trash: its read says so.
    expect((await t.request('GET', `/events/${series.id}`, { as: 'admin' })).body.code).toBe('event-no-longer-available');
    expect(ofSeries((await listed('2028-05-01', '2028-05-31')).items, series.id)).toEqual([]);
  });

  it('shows the public only the occurrences of series it may read, and refuses what would list too much', async () => {
    const draft = await create({
      title: 'Secret rehearsal',
      status: 'draft',
      start_date: '2028-01-03 20:00:00',
      end_date: '2028-01-03 21:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const anonymous = await listed('2028-01-01', '2028-01-31', null);
    expect(ofSeries(anonymous.items, draft.id)).toEqual([]);
    const occurrence = ofSeries((await listed('2028-01-01', '2028-01-31')).items, draft.id)[0]!;
    expect((await t.request('GET', `/events/${occurrence.id}`)).status).toBe(403);
    expect((await t.request('GET', `/events/${draft.id}/occurrences`)).status).toBe(403);
    expect((await t.request('POST', `/events/${occurrence.id}`, { json: { title: 'x' } })).status).toBe(401);
    const refused = async (recurrence: unknown) => {
      const res = await t.request('POST', '/events', {
        as: 'admin',
        json: { title: 'Too much', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00', recurrence },
      });
      expect(res.status, res.text).toBe(400);
      return res.body.data.params.recurrence as string;
    };
    expect(await refused(['RRULE:FREQ=HOURLY'])).toMatch(/more often than daily/);
    expect(await refused(['RRULE:FREQ=DAILY;COUNT=5000'])).toMatch(/more than 1000 occurrences/);
    expect(await refused(['RRULE:FREQ=DAILY;BYHOUR=8,9,10'])).toMatch(/more than 1000 occurrences within 24 months/);
    expect(await refused('not a rule')).toMatch(/NAME:VALUE/);
    expect(await refused(['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'])).toMatch(/never matches: BYMONTH=2 with BYMONTHDAY=30 name no day/);
    expect(await refused(['RRULE:FREQ=DAILY;BYHOUR=25'])).toMatch(/out of range/);
  });
});
