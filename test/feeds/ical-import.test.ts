import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/harness.js';
import { archive, expandFeed, feedTarget, fixture, type FeedTarget } from './helpers.js';

// iCalendar feeds shaped as Google Calendar, Outlook (Windows zone names, X-MICROSOFT-CDO-*,
// a "Customized Time Zone" matched by its VTIMEZONE rules) and Apple write them (series with an
// edited and a cancelled occurrence, all-day, multi-day, floating times, DST in the middle of a
// series) imported on each database, and the archive compared with ical.js's expansion of the
// same feed. Run again, nothing changes; edited, the events follow; an event gone is trashed.

const FROM = '2027-03-01';
const TO = '2027-06-30';

describe.each(DIALECTS)('iCalendar import on $name', ({ url }) => {
  let t: FeedTarget;
  beforeAll(async () => {
    t = await feedTarget(url);
  });
  afterAll(() => t?.close());

  it.each(['google.ics', 'outlook.ics', 'apple.ics'])('%s: the archive shows what ical.js expands, and a second run changes nothing', async (name) => {
    const text = fixture(name);
    const first = await t.importText(name, text);
    expect(first.report?.skipped).toEqual([]);
    const expected = expandFeed(text, FROM, TO);
    // The calendar holds every fixture's events: this one's are those of its titles.
    const base = (title: string) => title.replace(/ \(.*\)$/, '');
    const titles = new Set(expected.map((e) => base(e.title)));
    const shown = await archive(t, FROM, TO, new Set(['Dentist']));
    expect(shown.filter((e) => titles.has(base(e.title)))).toEqual(expected);
    const again = await t.importText(name, text);
    expect(again.report).toMatchObject({ created: 0, updated: 0, trashed: 0, cancelled: 0, leftAlone: 0 });
  });

  it("gives a venue it creates the feed's coordinates (Apple's structured location)", async () => {
    const venues = (await t.request('GET', '/venues', { query: { per_page: 50 } })).body.venues as { venue: string; geo_lat?: number; geo_lng?: number }[];
    expect(venues.find((v) => v.venue.startsWith('Central Park'))).toMatchObject({ geo_lat: 40.782864, geo_lng: -73.965355 });
    expect(venues.find((v) => v.venue === 'Besprechungsraum 2')?.geo_lat).toBeUndefined();
  });
});

describe.each(DIALECTS)('iCalendar feeds that change, on $name', ({ url }) => {
  let t: FeedTarget;
  beforeAll(async () => {
    t = await feedTarget(url);
  });
  afterAll(() => t?.close());

  /** The event a feed's UID became. */
  const eventOf = async (uid: string) => {
    const row = await t.store.db.selectFrom('feed_items').select('item_id').where('uid', '=', uid).where('kind', '=', 'event').executeTakeFirst();
    return row && (await t.request('GET', `/events/${row.item_id}`, { as: 'admin' })).body;
  };
  /** The status of the event a feed's UID became. */
  const statusOf = async (uid: string) => {
    const row = await t.store.db.selectFrom('feed_items').select('item_id').where('uid', '=', uid).where('kind', '=', 'event').executeTakeFirst();
    return row && (await t.store.posts.get(row.item_id))?.status;
  };

  it('updates what changed, trashes what left, leaves events edited here alone unless overwrite', async () => {
    const v1 = fixture('google.ics');
    await t.importText('google.ics', v1);
    const festival = await eventOf('5h2j4k6l8m0n1b3v5c7x9z@google.com');
    expect(festival).toMatchObject({ title: 'Street festival', all_day: true, website: 'https://example.org/festival' });
    expect((festival.categories as { name: string }[]).map((c) => c.name).sort()).toEqual(['Festival', 'Outdoor']);
    const board = await eventOf('3f9q1d8m0k2c5v7b4n6x8z0a1s@google.com');
    // Plain text escaped; Google's HTML filtered as an API write filters it.
    expect(board.description).toContain('5 &lt; 6 &amp; so on');
    expect(board.organizer[0]).toMatchObject({ organizer: 'Community Centre', email: 'board@example.org' });
    // A secret address's private event: imported private, which the public does not see.
    expect(await statusOf('9p8o7i6u5z4t3r2e1w0q@google.com')).toBe('private');
    const jam = await eventOf('7kukuqrfedlm2f9t0vr8ta6gf0@google.com');
    expect(jam.description).toContain('<b>instrument</b>');
    expect(jam.description).not.toContain('<script>');
    expect(jam.venue.venue).toBe('Kulturhaus, Hauptstraße 5, 10115 Berlin, Germany');
    // One venue for both events that name it.
    expect(board.venue.id).toBe(jam.venue.id);

    // The board meeting moves, the late start moves again, the festival leaves the feed.
    const v2 = v1
      .replace('DTSTART:20270315T170000Z', 'DTSTART:20270316T170000Z')
      .replace('DTEND:20270315T183000Z', 'DTEND:20270316T183000Z')
      .replace('DTSTART;TZID=Europe/Berlin:20270324T200000', 'DTSTART;TZID=Europe/Berlin:20270324T203000')
      .replace(/BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20270320[\s\S]*?END:VEVENT\r\n/, '');
    const second = await t.importText('google.ics', v2);
    expect(second.report).toMatchObject({ created: 0, updated: 2, trashed: 1, leftAlone: 0, skipped: [] });
    expect(await archive(t, FROM, TO)).toEqual(expandFeed(v2, FROM, TO));
    expect(await statusOf('5h2j4k6l8m0n1b3v5c7x9z@google.com')).toBe('trash');
    const again = await t.importText('google.ics', v2);
    expect(again.report).toMatchObject({ created: 0, updated: 0, trashed: 0 });

    // Edited through the API: the next change of the feed leaves it, unless overwrite.
    const edited = await t.request('POST', `/events/${board.id}`, { as: 'admin', json: { title: 'Board meeting (room 2)' } });
    expect(edited.status).toBe(200);
    const v3 = v2.replace('SUMMARY:Board meeting', 'SUMMARY:Board meeting, members only');
    expect((await t.importText('google.ics', v3)).report).toMatchObject({ updated: 0, leftAlone: 1 });
    expect((await eventOf('3f9q1d8m0k2c5v7b4n6x8z0a1s@google.com')).title).toBe('Board meeting (room 2)');
    expect((await t.importText('google.ics', v3, { overwrite: true })).report).toMatchObject({ updated: 1, leftAlone: 0 });
    expect((await eventOf('3f9q1d8m0k2c5v7b4n6x8z0a1s@google.com')).title).toBe('Board meeting, members only');

    // Back in the feed: out of the trash.
    expect((await t.importText('google.ics', v1, { overwrite: true })).report).toMatchObject({ updated: 3, trashed: 0 });
    expect(await statusOf('5h2j4k6l8m0n1b3v5c7x9z@google.com')).toBe('publish');
    expect(await archive(t, FROM, TO)).toEqual(expandFeed(v1, FROM, TO));

    // The edited and the cancelled occurrence leave the feed: both show the series again.
    const v4 = v1
      .replace(/BEGIN:VEVENT\r\nDTSTART;TZID=Europe\/Berlin:2027032[\s\S]*?END:VEVENT\r\n/, '')
      .replace(/BEGIN:VEVENT\r\nDTSTART;TZID=Europe\/Berlin:20270414[\s\S]*?END:VEVENT\r\n/, '');
    expect(v4.match(/RECURRENCE-ID/g)).toBeNull();
    expect((await t.importText('google.ics', v4)).report).toMatchObject({ updated: 1, skipped: [] });
    expect(await archive(t, FROM, TO)).toEqual(expandFeed(v4, FROM, TO));
    expect((await t.importText('google.ics', v4)).report).toMatchObject({ updated: 0 });

    // No longer recurring: one event.
    const v5 = v4.replace(/RRULE:FREQ=WEEKLY[^\r]*\r\n/, '').replace(/EXDATE[^\r]*\r\n/, '');
    expect((await t.importText('google.ics', v5)).report).toMatchObject({ updated: 1, skipped: [] });
    expect(await archive(t, FROM, TO)).toEqual(expandFeed(v5, FROM, TO));
  });

  it("imports this library's own feed (/ics/events) as ical.js expands it", async () => {
    const source = await feedTarget(':memory:', { timezone: 'America/Chicago' });
    try {
      const post = async (path: string, json: Record<string, unknown>) => {
        const res = await source.request('POST', path, { as: 'admin', json });
        expect(res.status, res.text).toBeLessThan(300);
        return res.body;
      };
      const series = await post('/events', {
        title: 'Yoga',
        start_date: '2027-03-08 18:00:00',
        end_date: '2027-03-08 19:00:00',
        timezone: 'America/Chicago',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
        venue: { venue: 'Studio' },
      });
      const occurrences = (await source.request('GET', `/events/${series.id}/occurrences`, { as: 'admin' })).body.events as { id: number }[];
      await post(`/events/${occurrences[2]?.id}`, {
        title: 'Yoga outdoors',
        start_date: '2027-03-22 17:00:00',
        end_date: '2027-03-22 18:30:00',
        scope: 'this',
      });
      expect((await source.request('DELETE', `/events/${occurrences[4]?.id}`, { as: 'admin' })).status).toBe(200);
      await post('/events', { title: 'Open day', start_date: '2027-04-10', end_date: '2027-04-11', all_day: true });
      const feed = await source.request('GET', '/ics/events', { query: { start_date: '2027-01-01', end_date: '2027-12-31' } });
      expect(feed.status).toBe(200);
      const text = feed.text ?? '';
      const report = (await t.importText('own.ics', text)).report;
      expect(report?.skipped).toEqual([]);
      const expected = expandFeed(text, FROM, TO);
      expect(expected.map((e) => e.title)).toContain('Yoga outdoors');
      const titles = new Set(expected.map((e) => e.title));
      expect((await archive(t, FROM, TO)).filter((e) => titles.has(e.title) || e.title === 'Yoga')).toEqual(expected);
    } finally {
      await source.close();
    }
  });
});
