import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES_PER_SLICE } from '../../src/resources/ical/service.js';
import { turnsYielded } from '../../src/scheduling/turns.js';
import { testCalendar, type TestCalendar } from '../helpers/harness.js';

// Bounded work for feeds (issue 28, findings 2 and 3): a series' VTIMEZONE carries the
// observances of the years its occurrences fall in, not of the span between them; a feed is
// written a slice of events at a time, the event loop turning between two; and a feed read
// again under the same store version is the file kept, whatever Cache-Control says. What is
// counted shows it: observances, turns, slices. The time it took shows only in the soak bench.

const observances = (text: string) => (text.match(/BEGIN:(?:STANDARD|DAYLIGHT)/g) ?? []).length;

describe('feeds within a budget of work', () => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(':memory:', { timezone: 'Europe/Paris' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("writes a series' zone for the years of its occurrences only", async () => {
    // The review's series: a contributor's draft from the year 1001 with one date in 9998
    // (74–93 s and 25,102 observances before, one per year of the span).
    const created = await t.request('POST', '/events', {
      as: 'contributor',
      json: {
        title: 'Millennia',
        start_date: '1001-06-01 10:00:00',
        end_date: '1001-06-01 11:00:00',
        timezone: 'Europe/Paris',
        recurrence: ['RDATE:99980601T100000'],
      },
    });
    expect(created.status, created.text).toBe(201);
    const file = await t.request('GET', `/ics/events/${created.body.id}`, { as: 'contributor', headers: { 'cache-control': 'no-cache' } });
    expect(file.status, file.text?.slice(0, 300)).toBe(200);
    expect(file.text).toContain('RDATE;TZID=Europe/Paris:99980601T100000');
    expect(observances(file.text!)).toBeLessThanOrEqual(4);
    expect(file.text).toContain('DTSTART:10010101T000000');
    const feed = await t.request('GET', '/ics/events', {
      as: 'admin',
      query: { start_date: '9997-01-01', end_date: '9999-01-01', status: 'draft' },
      headers: { 'cache-control': 'no-cache' },
    });
    expect(feed.status).toBe(200);
    expect(observances(feed.text!)).toBeLessThanOrEqual(4);
  });

  it('writes a feed a slice of events at a time, and keeps it until the next write', async () => {
    const count = ENTRIES_PER_SLICE * 3 + 7;
    for (let i = 0; i < count; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const res = await t.request('POST', '/events', {
        as: 'admin',
        json: { title: `Concert ${i}`, status: 'publish', start_date: `2027-03-${day} 20:00:00`, end_date: `2027-03-${day} 22:00:00` },
      });
      expect(res.status).toBe(201);
    }
    const window = { start_date: '2027-03-01', end_date: '2027-03-31' };
    const before = turnsYielded();
    const first = await t.request('GET', '/ics/events', { query: window, headers: { 'cache-control': 'no-cache' } });
    expect(first.status).toBe(200);
    expect(first.text!.match(/BEGIN:VEVENT/g)).toHaveLength(count);
    // Four slices of events: the loop turned at least between each two.
    expect(turnsYielded() - before).toBeGreaterThanOrEqual(3);
    // Read again before any write: the same file, not written again (no turn), even with no-cache.
    const kept = turnsYielded();
    const again = await t.request('GET', '/ics/events', { query: window, headers: { 'cache-control': 'no-cache' } });
    expect(again.text).toBe(first.text);
    expect(turnsYielded()).toBe(kept);
    // Another caller's view is another file.
    const admin = await t.request('GET', '/ics/events', { as: 'admin', query: window, headers: { 'cache-control': 'no-cache' } });
    expect(admin.status).toBe(200);
    // A write retires it: the next read has the new event.
    expect(
      (
        await t.request('POST', '/events', {
          as: 'admin',
          json: { title: 'Late addition', status: 'publish', start_date: '2027-03-30 20:00:00', end_date: '2027-03-30 22:00:00' },
        })
      ).status,
    ).toBe(201);
    const after = await t.request('GET', '/ics/events', { query: window });
    expect(after.text!.match(/BEGIN:VEVENT/g)).toHaveLength(count + 1);
    expect(after.text).toContain('SUMMARY:Late addition');
  });
});
