/**
 * Issue 12: the cases where a side-by-side run against the original (The Events Calendar
 * 6.17.2 on WordPress 7.0.4) found a different answer. Each test states the original's
 * answer as the spec records it, over real HTTP, on every database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { typeErrorBody } from '../resources/events/fixtures.js';

const ZERO = '0000-00-00 00:00:00';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const TIMES = { start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 12:00:00' };
/** A `YYYY-MM-DD HH:MM:SS` wall clock within two minutes of now, in UTC. */
const isNowUtc = (value: string) => Math.abs(Date.parse(`${value.replace(' ', 'T')}Z`) - Date.now()) < 120_000;

describe.each(DIALECTS)('answers as the original gives them ($name, over HTTP)', ({ url }) => {
  let t: HttpCalendar;
  const create = async (path: string, json: Record<string, unknown>, as: As = 'admin') => {
    const r = await t.request('POST', path, { as, json });
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  beforeAll(async () => {
    t = await httpCalendar(url);
  });
  afterAll(() => t.close());

  describe('1. event dates on update (writes.md §2.4, §2.11)', () => {
    it('ignores a lone start_date or end_date', async () => {
      const event = await create('/events', { title: 'Lone date party', ...TIMES });
      for (const json of [{ start_date: '2027-01-14 18:00:00' }, { end_date: '2027-01-20 18:00:00' }]) {
        const r = await t.request('PATCH', `/events/${event.id}`, { as: 'admin', json });
        expect(r.status, r.text).toBe(200);
        expect([r.body.start_date, r.body.end_date, r.body.utc_start_date, r.body.utc_end_date]).toEqual([
          '2027-01-10 10:00:00',
          '2027-01-10 12:00:00',
          '2027-01-10 10:00:00',
          '2027-01-10 12:00:00',
        ]);
      }
      const both = await t.request('PATCH', `/events/${event.id}`, {
        as: 'admin',
        json: { start_date: '2027-01-14 18:00:00', end_date: '2027-01-14 20:00:00' },
      });
      expect([both.body.start_date, both.body.end_date]).toEqual(['2027-01-14 18:00:00', '2027-01-14 20:00:00']);
    });

    it('changes only the zone and its abbreviation when timezone comes alone', async () => {
      const event = await create('/events', { title: 'Zone party', ...TIMES });
      const r = await t.request('PATCH', `/events/${event.id}`, { as: 'admin', json: { timezone: 'America/New_York' } });
      expect(r.status, r.text).toBe(200);
      expect([r.body.timezone, r.body.timezone_abbr, r.body.start_date, r.body.utc_start_date, r.body.utc_end_date]).toEqual([
        'America/New_York',
        'EST',
        '2027-01-10 10:00:00',
        '2027-01-10 10:00:00',
        '2027-01-10 12:00:00',
      ]);
    });

    it('snaps the stored dates to whole days when all_day is turned on alone', async () => {
      const event = await create('/events', { title: 'All day party', ...TIMES });
      const r = await t.request('PATCH', `/events/${event.id}`, { as: 'admin', json: { all_day: true } });
      expect([r.body.all_day, r.body.start_date, r.body.end_date]).toEqual([true, '2027-01-10 00:00:00', '2027-01-10 23:59:59']);
    });
  });

  describe('2. venue show_map sent as a JSON boolean (writes.md §3.1)', () => {
    it('is a type error, on create and update', async () => {
      const created = await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Boolean hall', show_map: false } });
      expect([created.status, created.body]).toEqual([400, typeErrorBody('show_map', 'string')]);
      const venue = await create('/venues', { venue: 'String hall', show_map: 'false' });
      const updated = await t.request('PATCH', `/venues/${venue.id}`, { as: 'admin', json: { show_map_link: true } });
      expect([updated.status, updated.body]).toEqual([400, typeErrorBody('show_map_link', 'string')]);
    });

    it('is no error in a venue given as data in an event write (no check runs there)', async () => {
      const event = await create('/events', {
        title: 'Nested hall party',
        ...TIMES,
        venue: { venue: 'Nested boolean hall', show_map: false, show_map_link: true },
      });
      expect([event.venue.venue, event.venue.show_map, event.venue.show_map_link]).toEqual(['Nested boolean hall', false, true]);
    });
  });

  describe('3. trashing a post never published', () => {
    it('dates it and gives its empty slug the __trashed form', async () => {
      const first = await create('/events', { title: 'Draft party', ...TIMES, status: 'draft' });
      const second = await create('/events', { title: 'Pending party', ...TIMES, status: 'pending' });
      expect([first.slug, first.date_utc, second.slug, second.date_utc]).toEqual(['', ZERO, '', ZERO]);
      const a = await t.request('DELETE', `/events/${first.id}`, { as: 'admin' });
      const b = await t.request('DELETE', `/events/${second.id}`, { as: 'admin' });
      expect([a.status, a.body.status, a.body.slug, b.status, b.body.status, b.body.slug]).toEqual([200, 'trash', '__trashed', 200, 'trash', '__trashed-2']);
      for (const trashed of [a.body, b.body]) {
        expect(isNowUtc(trashed.date_utc), trashed.date_utc).toBe(true);
        expect(trashed.date).toBe(trashed.date_utc); // the site zone is UTC
      }
      // Out of the trash it has no slug again until it is published.
      const draft = await t.request('PATCH', `/events/${first.id}`, { as: 'admin', json: { status: 'draft' } });
      expect([draft.body.status, draft.body.slug]).toEqual(['draft', '']);
      const published = await t.request('PATCH', `/events/${second.id}`, { as: 'admin', json: { status: 'publish' } });
      expect([published.body.status, published.body.slug]).toEqual(['publish', 'pending-party']);
    });

    it('dates a draft venue too', async () => {
      const venue = await create('/venues', { venue: 'Draft hall', status: 'draft' });
      expect(venue.date_utc).toBe(ZERO);
      const r = await t.request('DELETE', `/venues/${venue.id}`, { as: 'admin' });
      expect([r.status, r.body.slug]).toEqual([200, 'draft-hall__trashed']);
      expect(isNowUtc(r.body.date_utc), r.body.date_utc).toBe(true);
    });
  });

  describe('4. page and per_page as PHP reads numbers (lists.md §3)', () => {
    beforeAll(async () => {
      for (const n of [1, 2])
        await create('/events', { title: `Paged party ${n}`, start_date: `${day(30 + n)} 10:00:00`, end_date: `${day(30 + n)} 11:00:00` });
    });

    it.each([' 1', '1 ', '+1', '1e0', '1.0'])('accepts %j', async (value) => {
      const events = await t.request('GET', '/events', { query: { per_page: value, page: value } });
      expect(events.status, events.text).toBe(200);
      expect(events.body.events).toHaveLength(1);
      expect(events.body.rest_url).toContain('per_page=1');
      const venues = await t.request('GET', '/venues', { query: { per_page: value } });
      expect(venues.status, venues.text).toBe(200);
      const tags = await t.request('GET', '/tags', { query: { page: value } });
      expect(tags.status, tags.text).toBe(200);
    });

    it.each(['1.5', '0', '-1', '0x1', '1e-1', ''])('still refuses %j', async (value) => {
      const r = await t.request('GET', '/events', { query: { per_page: value } });
      expect([r.status, r.body.data?.params]).toEqual([400, { per_page: 'Invalid parameter.' }]);
    });
  });

  describe('5. invalid JSON bodies (errors.md §3)', () => {
    it.each([
      ['{"title": "broken', 3, 'Control character error, possibly incorrectly encoded'],
      ['{"title": 1,}', 4, 'Syntax error'],
      ['{"title": "a"', 4, 'Syntax error'],
      ['{"title": "a"]', 2, 'State mismatch (invalid or malformed JSON)'],
      ['{"title": "\\ud800"}', 10, 'Single unpaired UTF-16 surrogate in unicode escape'],
    ])('%s → json_error_code %i', async (body, code, message) => {
      const r = await t.request('POST', '/events', { as: 'admin', body, headers: { 'content-type': 'application/json' } });
      expect([r.status, r.body]).toEqual([
        400,
        { code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400, json_error_code: code, json_error_message: message } },
      ]);
    });

    it('reports bytes that are not UTF-8 inside a string as code 5', async () => {
      const r = await fetch(`${t.base}/events`, {
        method: 'POST',
        headers: { authorization: 'Bearer user-admin', 'content-type': 'application/json' },
        body: Buffer.concat([Buffer.from('{"title": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
      });
      expect(await r.json()).toEqual({
        code: 'rest_invalid_json',
        message: 'Invalid JSON body passed.',
        data: { status: 400, json_error_code: 5, json_error_message: 'Malformed UTF-8 characters, possibly incorrectly encoded' },
      });
    });
  });

  describe('6. only_with_upcoming counts what the caller may list (lists.md §6)', () => {
    const venues = new Map<string, number>();
    beforeAll(async () => {
      const soon = { start_date: `${day(40)} 10:00:00`, end_date: `${day(40)} 11:00:00` };
      const cases: [string, Record<string, unknown>][] = [
        ['publish', {}],
        ['password', {}],
        ['draft', { status: 'draft' }],
        ['pending', { status: 'pending' }],
        ['private', { status: 'private' }],
        ['future', { date: `${day(10)} 10:00:00` }],
        ['hidden', { hide_from_listings: true }],
        ['past', { start_date: `${day(-40)} 10:00:00`, end_date: `${day(-40)} 11:00:00` }],
        ['trashed', {}],
      ];
      for (const [name, extra] of cases) {
        const venue = await create('/venues', { venue: `Upcoming ${name} hall` });
        venues.set(name, venue.id);
        const event = await create('/events', { title: `Upcoming ${name} party`, ...soon, ...extra, venue: venue.id });
        if (name === 'future') expect(event.status).toBe('future');
        if (name === 'password') await t.db.updateTable('posts').set({ password: 'secret' }).where('id', '=', event.id).execute();
        if (name === 'trashed') expect((await t.request('DELETE', `/events/${event.id}`, { as: 'admin' })).status).toBe(200);
      }
    });

    it.each<[As, string[]]>([
      [null, ['publish', 'password']],
      ['subscriber', ['publish', 'password']],
      ['contributor', ['publish', 'password', 'draft', 'pending', 'private', 'future']],
      ['author', ['publish', 'password', 'draft', 'pending', 'private', 'future']],
      ['editor', ['publish', 'password', 'draft', 'pending', 'private', 'future']],
      ['admin', ['publish', 'password', 'draft', 'pending', 'private', 'future']],
    ])('as %s', async (as, expected) => {
      const r = await t.request('GET', '/venues', { as, query: { only_with_upcoming: 1, per_page: 50, search: 'Upcoming' } });
      expect(r.status, r.text).toBe(200);
      const ids = new Set(r.body.venues.map((v: { id: number }) => v.id));
      const listed = [...venues].filter(([, id]) => ids.has(id)).map(([name]) => name);
      expect(listed.sort()).toEqual([...expected].sort());
    });
  });

  describe('7. duplicates compare title and content in any case (writes.md §3.2, §4.2)', () => {
    it.each([
      ['/venues', 'venue', { city: 'Lyon' }],
      ['/organizers', 'organizer', { phone: '555' }],
    ] as const)('%s', async (path, key, extra) => {
      const first = await create(path, { [key]: `A ${key} CI`, description: `A ${key} description` });
      const again = await create(path, { [key]: `a ${key} ci`, description: `a ${key} DESCRIPTION`, ...extra });
      expect(again.id).toBe(first.id);
      const other = await create(path, { [key]: `a ${key} ci`, description: 'another description' });
      expect(other.id).not.toBe(first.id);
    });
  });

  describe('8. publication and modification dates of a new post (writes.md §2.2)', () => {
    const date = '2020-01-03 10:00:00';
    // Distinct names: a venue or organizer with the name of an earlier one would be that one (§3.2).
    it.each([
      ['/events', (n: string) => ({ title: `Dated party ${n}`, ...TIMES })],
      ['/venues', (n: string) => ({ venue: `Dated hall ${n}` })],
      ['/organizers', (n: string) => ({ organizer: `Dated org ${n}` })],
    ] as const)('%s', async (path, body) => {
      const published = await create(path, { ...body('published'), date });
      expect([published.date, published.date_utc, published.modified, published.modified_utc]).toEqual([date, date, date, date]);
      const draft = await create(path, { ...body('draft'), date }, 'contributor');
      expect([draft.status, draft.date, draft.date_utc, draft.modified, draft.modified_utc]).toEqual(['draft', date, ZERO, date, ZERO]);
      const pending = await create(path, { ...body('pending'), date, date_utc: '2020-01-03 09:00:00', status: 'pending' });
      expect([pending.status, pending.date_utc, pending.modified_utc]).toEqual(['pending', '2020-01-03 09:00:00', '2020-01-03 09:00:00']);
      // Published later without a date, the draft is dated then (WordPress clears a draft's unset date).
      const published2 = await t.request('PATCH', `${path}/${draft.id}`, { as: 'admin', json: { status: 'publish' } });
      expect([published2.body.status, isNowUtc(published2.body.date_utc), published2.body.date]).toEqual(['publish', true, published2.body.date_utc]);
    });
  });
});
