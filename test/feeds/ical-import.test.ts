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
});
