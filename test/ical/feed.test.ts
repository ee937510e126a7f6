import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { isoOf, lineChecks, parseCalendar, type ParsedEvent } from './helpers.js';

// The iCalendar feeds (issue 17) over real HTTP on every database, read back by ical.js.

const WINDOW = { start_date: '2027-01-01', end_date: '2027-12-31' };
const LONG_TITLE = Array.from({ length: 6 }, () => 'Fête de la musique — 音楽祭 🎵').join(' / ');

describe.each(DIALECTS)('iCalendar feeds on $name', ({ url }) => {
  let t: HttpCalendar;
  let domain: string;
  const id: Record<string, number> = {};
  let concerts: number;

  const create = async (key: string, json: Record<string, unknown>) => {
    const res = await t.request('POST', '/events', { as: 'admin', json: { status: 'publish', ...json } });
    expect(res.status, res.text).toBe(201);
    id[key] = res.body.id as number;
    return res.body;
  };
  const feed = async (as: As = null, query: Record<string, string | number> = WINDOW) => {
    const res = await t.request('GET', '/ics/events', { as, query });
    expect(res.status, res.text).toBe(200);
    return { res, calendar: parseCalendar(res.text ?? '') };
  };
  const byId = (events: ParsedEvent[], eventId: number) => events.find((e) => e.uid === `event-${eventId}@${domain}`);
  const json = async (eventId: number, as: As = 'admin') => (await t.request('GET', `/events/${eventId}`, { as })).body;

  beforeAll(async () => {
    // The site is in Paris; events carry their own zones.
    t = await httpCalendar(url, { timezone: 'Europe/Paris', ical: { maxEvents: 500 } });
    domain = new URL(t.origin).hostname;
    concerts = (await t.request('POST', '/categories', { as: 'admin', json: { name: 'Concerts & récitals' } })).body.id;
    await create('paris', {
      title: 'Quartet at the Pleyel',
      description:
        '<p>Première partie &amp; <strong>entracte</strong></p><ul><li>Haydn</li><li>Ravel</li></ul><p><img src="https://example.org/a.png" alt="x"></p>',
      start_date: '2027-03-28 09:00:00',
      end_date: '2027-03-28 11:00:00',
      timezone: 'Europe/Paris',
      categories: [concerts],
      venue: { venue: 'Salle Pleyel', address: '252 Rue du Faubourg Saint-Honoré', city: 'Paris', zip: '75008', country: 'France' },
      organizer: { organizer: 'Orchestre de Paris', email: 'billets@example.org' },
    });
    await create('before', { title: 'Day before the change', start_date: '2027-03-27 09:00:00', end_date: '2027-03-27 10:00:00', timezone: 'Europe/Paris' });
    await create('across', { title: 'Across the spring change', start_date: '2027-03-27 20:00:00', end_date: '2027-03-29 10:00:00', timezone: 'Europe/Paris' });
    await create('gap', { title: 'In the New York gap', start_date: '2027-03-14 02:30:00', end_date: '2027-03-14 04:00:00', timezone: 'America/New_York' });
    await create('nyRepeat', {
      title: 'Repeated hour in New York',
      start_date: '2027-11-07 01:30:00',
      end_date: '2027-11-07 03:00:00',
      timezone: 'America/New_York',
    });
    await create('parisRepeat', {
      title: 'Repeated hour in Paris',
      start_date: '2027-10-31 02:30:00',
      end_date: '2027-10-31 04:00:00',
      timezone: 'Europe/Paris',
    });
    await create('tokyo', { title: 'Tokyo night', start_date: '2027-06-01 20:00:00', end_date: '2027-06-01 23:00:00', timezone: 'Asia/Tokyo' });
    await create('utc', { title: 'In UTC', start_date: '2027-06-02 12:00:00', end_date: '2027-06-02 13:00:00', timezone: 'UTC' });
    await create('offset', { title: 'At a fixed offset', start_date: '2027-06-03 12:00:00', end_date: '2027-06-03 13:00:00', timezone: 'UTC+5:30' });
    await create('allDay', { title: 'Three whole days', start_date: '2027-05-01', end_date: '2027-05-03', all_day: true });
    await create('oneDay', { title: 'One whole day', start_date: '2027-05-10', end_date: '2027-05-10', all_day: true });
    await create('long', {
      title: LONG_TITLE,
      description: `<p>${'Texte non ASCII : éàü — ß — 日本語 — 🎉. '.repeat(20)}</p>`,
      start_date: '2027-07-01 18:00:00',
      end_date: '2027-07-01 19:00:00',
    });
    await create('escaped', { title: 'A, B; C \\ D & E', start_date: '2027-07-02 18:00:00', end_date: '2027-07-02 19:00:00' });
    await create('secret', {
      title: 'Locked evening',
      description: '<p>The secret program</p>',
      start_date: '2027-08-01 18:00:00',
      end_date: '2027-08-01 19:00:00',
      categories: [concerts],
      venue: { venue: 'Hidden hall', city: 'Lyon' },
    });
    await create('draft', { title: 'Draft event', status: 'draft', start_date: '2027-08-02 18:00:00', end_date: '2027-08-02 19:00:00' });
    await create('private', { title: 'Private event', status: 'private', start_date: '2027-08-03 18:00:00', end_date: '2027-08-03 19:00:00' });
    await create('hidden', { title: 'Hidden from listings', hide_from_listings: true, start_date: '2027-08-04 18:00:00', end_date: '2027-08-04 19:00:00' });
    await create('trashed', {
      title: 'Called off',
      description: '<p>Withdrawn: the reason</p>',
      start_date: '2027-08-05 18:00:00',
      end_date: '2027-08-05 19:00:00',
      categories: [concerts],
      venue: { venue: 'Withdrawn hall' },
    });
    await create('instant', { title: 'An instant', start_date: '2027-08-07 12:00:00', end_date: '2027-08-07 12:00:00' });
    await create('broken', { title: 'Broken dates', start_date: '2027-08-08 12:00:00', end_date: '2027-08-08 13:00:00' });
    await create('trashedDraft', { title: 'Draft called off', status: 'draft', start_date: '2027-08-06 18:00:00', end_date: '2027-08-06 19:00:00' });
    // Set before anything reads these events: what the API cannot write.
    await t.db.updateTable('posts').set({ password: 'pw' }).where('id', '=', id.secret!).execute();
    // A legacy zero date the JSON shows as it is stored: the feed leaves the event out, not the whole feed.
    await t.db.updateTable('events').set({ start_utc: '0000-00-00 00:00:00', end_utc: '0000-00-00 00:00:00' }).where('post_id', '=', id.broken!).execute();
    const venue = (await json(id.paris!)).venue.id as number;
    await t.db.updateTable('venues').set({ geo_lat: 48.8768, geo_lng: 2.3008 }).where('post_id', '=', venue).execute();
    for (const key of ['trashed', 'trashedDraft']) expect((await t.request('DELETE', `/events/${id[key]}`, { as: 'admin' })).status).toBe(200);
  }, 120_000);
  afterAll(() => t.close());

  it('answers a calendar file with its own type, name and tag', async () => {
    const { res, calendar } = await feed();
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="events.ics"');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(calendar.name).toBe(`Events – ${domain}`);
    expect(res.text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:/);
    expect(res.text).toContain('\r\nMETHOD:PUBLISH\r\n');
    expect(res.text).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n');
    const lines = lineChecks(res.text ?? '');
    expect(lines).toEqual({ endsInCrlf: true, bareLineFeeds: 0, longest: expect.any(Number), splitCharacters: false });
    expect(lines.longest).toBeLessThanOrEqual(75);
  });

  it('writes each event at the instants the JSON gives, in its own zone', async () => {
    const { calendar } = await feed('admin');
    const timed = ['paris', 'before', 'across', 'gap', 'nyRepeat', 'parisRepeat', 'tokyo', 'utc', 'offset', 'long', 'escaped'];
    for (const key of timed) {
      const event = await json(id[key]!);
      const written = byId(calendar.events, id[key]!);
      expect(written, key).toBeDefined();
      expect({ key, start: written!.start, end: written!.end, allDay: written!.allDay }).toEqual({
        key,
        start: isoOf(event.utc_start_date),
        end: isoOf(event.utc_end_date),
        allDay: false,
      });
    }
    // Every zone used has its VTIMEZONE; UTC and fixed offsets are written in UTC.
    expect(calendar.zones.sort()).toEqual(['America/New_York', 'Asia/Tokyo', 'Europe/Paris']);
    expect(byId(calendar.events, id.utc!)!.tzid).toBeNull();
    expect(byId(calendar.events, id.offset!)!.tzid).toBeNull();
    expect(byId(calendar.events, id.tokyo!)!.tzid).toBe('Asia/Tokyo');
  });

  it('keeps wall clocks across DST transitions', async () => {
    const { calendar, res } = await feed();
    const at = (key: string) => byId(calendar.events, id[key]!)!;
    // 09:00 in Paris is 08:00 UTC the day before the spring change and 07:00 UTC on the day.
    expect(at('before').start).toBe('2027-03-27T08:00:00.000Z');
    expect(at('paris')).toMatchObject({ start: '2027-03-28T07:00:00.000Z', end: '2027-03-28T09:00:00.000Z', tzid: 'Europe/Paris' });
    expect(at('across')).toMatchObject({ start: '2027-03-27T19:00:00.000Z', end: '2027-03-29T08:00:00.000Z' });
    // 02:30 does not exist in New York on 2027-03-14: the event starts at 03:30 EDT.
    expect(at('gap')).toMatchObject({ start: '2027-03-14T07:30:00.000Z', tzid: 'America/New_York' });
    expect(res.text).toContain('DTSTART;TZID=America/New_York:20270314T033000');
    // A local time that happens twice is written in UTC: readers disagree on which one a TZID
    // time means. 01:30 in New York on 2027-11-07 is stored as the first (EDT)…
    expect(at('nyRepeat')).toMatchObject({ start: '2027-11-07T05:30:00.000Z', tzid: null });
    // … and Paris' repeated 02:30 on 2027-10-31 as the second (CET).
    expect(at('parisRepeat')).toMatchObject({ start: '2027-10-31T01:30:00.000Z', tzid: null });
  });

  it('writes an event that does not last as an instant, and leaves out one without a start', async () => {
    const { calendar, res } = await feed();
    const instant = byId(calendar.events, id.instant!)!;
    expect(instant.component.getFirstProperty('dtend')).toBeNull();
    expect(instant.end).toBe(instant.start);
    expect(byId(calendar.events, id.broken!)).toBeUndefined();
    expect(res.text).not.toContain('Broken dates');
  });

  it('writes all-day events as dates with an exclusive end', async () => {
    const { calendar, res } = await feed();
    expect(byId(calendar.events, id.allDay!)).toMatchObject({ allDay: true, start: '2027-05-01', end: '2027-05-04' });
    expect(byId(calendar.events, id.oneDay!)).toMatchObject({ allDay: true, start: '2027-05-10', end: '2027-05-11' });
    expect(res.text).toContain('DTSTART;VALUE=DATE:20270501\r\nDTEND;VALUE=DATE:20270504\r\n');
  });

  it('writes the text, place, organizer, categories and address of an event', async () => {
    const { calendar } = await feed();
    const paris = byId(calendar.events, id.paris!)!;
    const source = await json(id.paris!, null);
    expect(paris.summary).toBe('Quartet at the Pleyel');
    expect(paris.description).toContain('Première partie & entracte');
    expect(paris.description).toMatch(/Haydn[\s\S]*Ravel/);
    expect(paris.description).not.toMatch(/[<>]|&amp;/);
    expect(paris.location).toBe('Salle Pleyel, 252 Rue du Faubourg Saint-Honoré, Paris, 75008, France');
    expect(paris.geo).toEqual([48.8768, 2.3008]);
    expect(paris.organizer).toBe('mailto:billets@example.org');
    expect(paris.organizerName).toBe('Orchestre de Paris');
    expect(paris.categories).toEqual(['Concerts & récitals']);
    expect(paris.url).toBe(source.url);
    expect(paris.status).toBe('CONFIRMED');
    expect(paris.lastModified).toBe(isoOf(source.modified_utc));
    expect(paris.stamp).toBe(isoOf(source.modified_utc));
    // Escaped text and non-ASCII text read back as they were.
    expect(byId(calendar.events, id.escaped!)!.summary).toBe('A, B; C \\ D & E');
    const long = byId(calendar.events, id.long!)!;
    expect(long.summary).toBe(LONG_TITLE);
    expect(long.description).toBe('Texte non ASCII : éàü — ß — 日本語 — 🎉. '.repeat(20).trim());
  });

  it('shows each caller only what they may list, and never a locked description', async () => {
    const anonymous = (await feed()).calendar.events;
    const admin = (await feed('admin')).calendar.events;
    const has = (events: ParsedEvent[], key: string) => byId(events, id[key]!) !== undefined;
    expect(['draft', 'private', 'hidden', 'trashedDraft'].filter((k) => has(anonymous, k))).toEqual([]);
    expect(has(admin, 'draft') && has(admin, 'private')).toBe(true);
    expect(has(admin, 'hidden')).toBe(false);
    expect(byId(admin, id.draft!)!.status).toBe('TENTATIVE');
    expect(byId(admin, id.private!)!.component.getFirstPropertyValue('class')).toBe('PRIVATE');
    // Password-protected: the title and times only for those who may not unlock it; no description for anyone.
    const locked = byId(anonymous, id.secret!)!;
    expect(locked).toMatchObject({ summary: 'Locked evening', description: null, location: null, categories: [] });
    // As in the archive, an editor unlocks it with context=edit; even then, no description.
    expect(byId(admin, id.secret!)).toMatchObject({ description: null, location: null });
    const editor = byId((await feed('admin', { ...WINDOW, context: 'edit' })).calendar.events, id.secret!)!;
    expect(editor).toMatchObject({ description: null, location: 'Hidden hall, Lyon', categories: ['Concerts & récitals'] });
  });

  it('writes a trashed event the caller could list as cancelled, under the same UID', async () => {
    const anonymous = (await feed()).calendar.events;
    // Nobody may read a trashed event: only what matches it (UID, times, SEQUENCE) is written.
    const cancelled = byId(anonymous, id.trashed!)!;
    expect(cancelled).toMatchObject({ status: 'CANCELLED', description: null, location: null, url: null, categories: [], start: '2027-08-05T16:00:00.000Z' });
    expect(cancelled.summary || '').toBe('');
    expect(byId(anonymous, id.trashedDraft!)).toBeUndefined();
    expect(byId((await feed('admin')).calendar.events, id.trashedDraft!)).toMatchObject({ status: 'CANCELLED' });
    // Restored, it is confirmed again.
    expect((await t.request('POST', `/events/${id.trashed}`, { as: 'admin', json: { status: 'publish' } })).status).toBe(200);
    expect(byId((await feed()).calendar.events, id.trashed!)).toMatchObject({ status: 'CONFIRMED' });
  });

  it('keeps the UID across edits, raises SEQUENCE and changes the tag; a held tag answers 304', async () => {
    const first = await feed();
    const before = byId(first.calendar.events, id.tokyo!)!;
    const unchanged = await t.request('GET', '/ics/events', { query: WINDOW, headers: { 'if-none-match': first.res.headers.etag! } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    // Modification dates have a second's precision.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.request('POST', `/events/${id.tokyo}`, { as: 'admin', json: { title: 'Tokyo late night' } })).status).toBe(200);
    const second = await feed();
    const after = byId(second.calendar.events, id.tokyo!)!;
    expect(after.uid).toBe(before.uid);
    expect(after.summary).toBe('Tokyo late night');
    expect(after.sequence).toBeGreaterThan(before.sequence);
    expect(second.res.headers.etag).not.toBe(first.res.headers.etag);
    expect((await t.request('GET', '/ics/events', { query: WINDOW, headers: { 'if-none-match': first.res.headers.etag! } })).status).toBe(200);
  });

  it('takes the archive filters, with the same checks and errors', async () => {
    const { calendar } = await feed(null, { ...WINDOW, categories: concerts });
    expect(calendar.events.map((e) => e.uid).sort()).toEqual([id.paris, id.secret, id.trashed].map((n) => `event-${n}@${domain}`).sort());
    const search = await feed(null, { ...WINDOW, search: 'Tokyo' });
    expect(search.calendar.events.map((e) => e.uid)).toEqual([`event-${id.tokyo}@${domain}`]);
    const bad: Record<string, string | number>[] = [{ categories: 'no-such-category' }, { start_date: 'not a date' }, { venue: 999999 }, { status: 'draft' }];
    for (const query of bad) {
      const asJson = await t.request('GET', '/events', { query });
      const asCalendar = await t.request('GET', '/ics/events', { query });
      expect(asCalendar.status, JSON.stringify(query)).toBe(asJson.status);
      expect(asCalendar.status).toBeGreaterThanOrEqual(400);
      expect(asCalendar.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(asCalendar.body).toEqual(asJson.body);
    }
  });

  it('names each event file and each selection in the JSON, and answers them', async () => {
    const read = await t.request('GET', `/events/${id.paris}`);
    expect(read.headers['x-calendar-ical']).toBe(`${t.base}/ics/events/${id.paris}`);
    const file = await t.request('GET', `/ics/events/${id.paris}`);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="quartet-at-the-pleyel.ics"');
    const single = parseCalendar(file.text ?? '');
    expect(single.events.map((e) => e.uid)).toEqual([`event-${id.paris}@${domain}`]);
    expect(single.zones).toEqual(['Europe/Paris']);
    const bySlug = parseCalendar((await t.request('GET', '/ics/events/by-slug/quartet-at-the-pleyel')).text ?? '');
    expect(bySlug.events[0]!.start).toBe(single.events[0]!.start);
    // A file is refused as the event is.
    for (const key of ['secret', 'draft']) {
      const asJson = await t.request('GET', `/events/${id[key]}`);
      const asFile = await t.request('GET', `/ics/events/${id[key]}`);
      expect(asFile.status).toBe(403);
      expect(asFile.body).toEqual(asJson.body);
    }
    expect((await t.request('GET', '/ics/events/999999')).status).toBe(404);
    const list = await t.request('GET', '/events', { query: { categories: concerts, per_page: 5, page: 1 } });
    expect(list.headers['x-calendar-ical']).toBe(`${t.base}/ics/events?categories=${concerts}`);
  });

  it("writes the same bytes whatever the host process's TZ", async () => {
    const files = async () => Promise.all(['paris', 'gap', 'allDay', 'tokyo'].map(async (key) => (await t.request('GET', `/ics/events/${id[key]}`)).text));
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      const utc = await files();
      for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
        process.env.TZ = zone;
        expect(new Date(Date.UTC(2027, 0, 1)).getHours(), zone).not.toBe(0);
        expect(await files(), zone).toEqual(utc);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('lists the feeds in the index and in /doc', async () => {
    const index = (await t.request('GET', '')).body;
    for (const path of ['/ics/events', '/ics/events/(?P<id>\\d+)', '/ics/events/by-slug/(?P<slug>[^/]+)'])
      expect(index.routes[`/${t.ns}${path}`], path).toBeDefined();
    expect(Object.keys(index.routes[`/${t.ns}/ics/events`].endpoints[0].args)).toEqual(
      expect.arrayContaining(['start_date', 'categories', 'venue', 'featured']),
    );
    const doc = (await t.request('GET', '/doc')).body;
    expect(doc.paths['/ics/events'].get.responses['200'].content).toEqual({ 'text/calendar': { schema: { type: 'string' } } });
    expect(doc.paths['/ics/events/{id}'].get.responses['403']).toBeDefined();
  });

  it('starts the default window ical.pastDays (30) ago and ends it where the archive does', async () => {
    const day = 86_400_000;
    const at = (offsetDays: number) => new Date(Date.now() + offsetDays * day).toISOString().slice(0, 10);
    const ids: number[] = [];
    for (const offset of [-45, -10, 20, 800]) {
      const res = await t.request('POST', '/events', {
        as: 'admin',
        json: { title: `At ${offset}`, status: 'publish', start_date: `${at(offset)} 12:00:00`, end_date: `${at(offset)} 13:00:00` },
      });
      ids.push(res.body.id);
    }
    // The 2027 events of the other tests are in the default window too.
    const uids = (await feed(null, {})).calendar.events.map((e) => e.uid);
    expect(ids.map((n) => uids.includes(`event-${n}@${domain}`))).toEqual([false, true, true, false]);
  });

  it('holds ical.maxEvents (500) events, and says so when more match', async () => {
    for (let i = 0; i < 501; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const res = await t.request('POST', '/events', {
        as: 'admin',
        json: {
          title: `Event ${i} — ${'é'.repeat(i % 7)}`,
          status: 'publish',
          start_date: `2031-03-${day} 10:00:00`,
          end_date: `2031-03-${day} 11:00:00`,
          timezone: 'Europe/Paris',
        },
      });
      expect(res.status).toBe(201);
    }
    const res = await t.request('GET', '/ics/events', { query: { start_date: '2031-01-01', end_date: '2031-12-31' } });
    const calendar = parseCalendar(res.text ?? '');
    expect(calendar.events).toHaveLength(500);
    expect(new Set(calendar.events.map((e) => e.uid)).size).toBe(500);
    expect(res.headers['x-tec-total']).toBe('501');
    expect(res.headers['x-calendar-feed-limit']).toBe('500');
    expect(calendar.description).toBe('The first 500 of 501 events: narrow the feed with end_date or a filter to see the others.');
    // The earliest first: what is left out starts no earlier than what is in.
    const starts = calendar.events.map((e) => e.start).sort();
    expect(starts[0]).toBe('2031-03-01T09:00:00.000Z');
    const narrowed = await t.request('GET', '/ics/events', { query: { start_date: '2031-01-01', end_date: '2031-03-27' } });
    expect(narrowed.headers['x-tec-total']).toBe(String(parseCalendar(narrowed.text ?? '').events.length));
    expect(parseCalendar(narrowed.text ?? '').description).toBeNull();
  }, 120_000);
});

describe('iCalendar feed options (SQLite)', () => {
  it('names the calendar as ical.name says', async () => {
    const t = await httpCalendar(':memory:', { ical: { name: 'Concerts' } });
    try {
      const res = await t.request('GET', '/ics/events');
      expect(parseCalendar(res.text ?? '').name).toBe('Concerts');
    } finally {
      await t.close();
    }
  });
});
