import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { isoOf, parseCalendar } from '../ical/helpers.js';

// Recurring events in the iCalendar feed (issue 19): one VEVENT per series with its rules, its
// cancelled occurrences as EXDATEs and its edited ones as RECURRENCE-ID VEVENTs of the same UID;
// ical.js expanding the feed finds the instants the JSON archive lists for a window.

/** Every instant ical.js finds in a calendar file between `from` and `to` (ISO), with its summary; the day of all-day ones. */
function expand(text: string, from: string, to: string): string[] {
  const { events } = parseCalendar(text);
  const byUid = new Map<string, ICAL.Component[]>();
  for (const e of events) byUid.set(e.uid, [...(byUid.get(e.uid) ?? []), e.component]);
  const out: string[] = [];
  const inWindow = (iso: string) => iso >= from.slice(0, iso.length) && iso <= to;
  const at = (t: ICAL.Time) => (t.isDate ? t.toString() : new Date(t.toUnixTime() * 1000).toISOString());
  for (const components of byUid.values()) {
    const master = components.find((c) => !c.hasProperty('recurrence-id'));
    if (!master) continue;
    const event = new ICAL.Event(master);
    for (const c of components) if (c !== master) event.relateException(c);
    if (!event.isRecurring()) {
      const start = at(event.startDate);
      if (inWindow(start)) out.push(`${start} ${event.summary}`);
      continue;
    }
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = event.getOccurrenceDetails(next);
      const start = at(details.startDate);
      if (start > to && new Date(next.toUnixTime() * 1000).toISOString() > to) break;
      if (inWindow(start)) out.push(`${start} ${details.item.summary}`);
    }
  }
  return out.sort();
}

describe.each(DIALECTS)('recurring events in the iCalendar feed on $name', ({ url }) => {
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
    return res.body as { id: number; title: string };
  };
  const archive = async (as: 'admin' | null, start: string, end: string) => {
    const out: string[] = [];
    for (let page = 1; ; page++) {
      const res = await t.request('GET', '/events', { as, query: { start_date: start, end_date: end, per_page: 50, page } });
      expect(res.status).toBe(200);
      out.push(
        ...(res.body.events as { utc_start_date: string; start_date: string; all_day: boolean; title: string }[]).map(
          (e) => `${e.all_day ? e.start_date.slice(0, 10) : isoOf(e.utc_start_date)} ${e.title}`,
        ),
      );
      if (page >= res.body.total_pages) return out.sort();
    }
  };

  it('writes each series once, and ical.js expands the feed to what the archive lists', async () => {
    // Across the spring change in Paris, with an edit, a cancellation and an extra date.
    await create({
      title: 'Paris choir',
      start_date: '2027-03-15 09:00:00',
      end_date: '2027-03-15 10:00:00',
      timezone: 'Europe/Paris',
      recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20270510T000000Z', 'RDATE;TZID=Europe/Paris:20270401T180000'],
    });
    await create({
      title: 'New York night',
      start_date: '2027-03-12 02:30:00',
      end_date: '2027-03-12 03:30:00',
      timezone: 'America/New_York',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=4'],
    });
    await create({
      title: 'Harvest fair',
      start_date: '2027-04-03 00:00:00',
      end_date: '2027-04-04 23:59:59',
      all_day: true,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    await create({ title: 'Plain talk', start_date: '2027-04-07 18:00:00', end_date: '2027-04-07 19:00:00' });
    const listed = (await t.request('GET', '/events', { as: 'admin', query: { start_date: '2027-03-01', end_date: '2027-05-31', per_page: 50 } })).body
      .events as { id: number; title: string; start_date: string }[];
    const choir = listed.filter((e) => e.title === 'Paris choir');
    expect(choir.map((e) => e.start_date)).toContain('2027-03-29 09:00:00');
    expect(
      (
        await t.request('POST', `/events/${choir[2]!.id}`, {
          as: 'admin',
          json: { title: 'Paris choir: guest conductor', start_date: '2027-03-29 11:00:00', end_date: '2027-03-29 12:00:00' },
        })
      ).status,
    ).toBe(200);
    expect((await t.request('DELETE', `/events/${choir[4]!.id}`, { as: 'admin' })).status).toBe(200);

    const window = { start_date: '2027-03-01', end_date: '2027-05-31' };
    for (const as of ['admin', null] as const) {
      const feed = await t.request('GET', '/ics/events', { as, query: window });
      expect(feed.status, feed.text).toBe(200);
      const text = feed.text ?? '';
      const { events } = parseCalendar(text);
      // One master per series, the edit as a RECURRENCE-ID of the same UID.
      const masters = events.filter((e) => e.component.hasProperty('rrule'));
      expect(masters.map((e) => e.summary).sort()).toEqual(['Harvest fair', 'New York night', 'Paris choir']);
      const choirMaster = masters.find((e) => e.summary === 'Paris choir')!;
      expect(choirMaster.tzid).toBe('Europe/Paris');
      expect(text).toMatch(/EXDATE;TZID=Europe\/Paris:20270405T090000/);
      const edit = events.find((e) => e.summary === 'Paris choir: guest conductor')!;
      expect(edit.uid).toBe(choirMaster.uid);
      expect(String(edit.component.getFirstPropertyValue('recurrence-id'))).toBe('2027-03-29T09:00:00');
      // New York's 02:30 on the day clocks skip it is written with its own time, which readers otherwise misplace.
      const gap = events.find((e) => e.summary === 'New York night' && e.component.hasProperty('recurrence-id'))!;
      expect(gap.start).toBe('2027-03-14T07:30:00.000Z');
      const from = '2027-03-01T00:00:00.000Z';
      const to = '2027-05-31T21:59:59.000Z';
      expect(expand(text, from, to), `as ${as ?? 'anonymous'}`).toEqual(await archive(as, window.start_date, window.end_date));
    }
  });

  it("gives a series' own file its rules, and an occurrence's file that occurrence", async () => {
    const series = await create({
      title: 'Film club',
      start_date: '2027-06-02 20:00:00',
      end_date: '2027-06-02 22:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const file = await t.request('GET', `/ics/events/${series.id}`);
    expect(file.status).toBe(200);
    expect(file.text).toMatch(/RRULE:FREQ=WEEKLY;COUNT=3/);
    const occurrence = ((await t.request('GET', `/events/${series.id}/occurrences`)).body.events as { id: number }[])[1]!;
    const one = await t.request('GET', `/ics/events/${occurrence.id}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toMatch(/RRULE/);
    expect(one.text).toMatch(/DTSTART;TZID=Europe\/Paris:20270609T200000/);
  });
});
