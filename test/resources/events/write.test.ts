import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As, type TestCalendar } from '../../helpers/harness.js';
import { ADMIN, NOW } from '../../helpers/direct.js';
import {
  EVENT_KEYS,
  createEvent,
  createLinked,
  createTerm,
  eventFields,
  expectError,
  invalidParamBody,
  probedCalendar,
  typeErrorBody,
  utcDay,
  withoutJsonLd,
  type ProbedCalendar,
} from './fixtures.js';

const FORBIDDEN = (status: 401 | 403) => ({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status } });
const COULD_NOT_CREATE_VENUE = { code: 'could-not-create-venue', message: 'The venue could not be created from the provided data', data: { status: 400 } };
const COULD_NOT_CREATE_ORGANIZER = {
  code: 'could-not-create-organizer',
  message: 'The organizer could not be created from the provided data',
  data: { status: 400 },
};

describe.each(DIALECTS)('events: writes on $name', ({ name: dialect, url }) => {
  let t: ProbedCalendar;
  beforeAll(async () => {
    t = await probedCalendar(url);
  }, 180_000);
  afterAll(() => t?.close());

  describe('event writes: parameters and types', () => {
    it('requires title, start_date and end_date, before any permission check', async () => {
      const missing = {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title, start_date, end_date',
        data: { status: 400, params: ['title', 'start_date', 'end_date'] },
      };
      expect(await t.request('POST', '/events', { json: {}, as: 'admin' })).toMatchObject({ status: 400, body: missing });
      expect(await t.request('POST', '/events')).toMatchObject({ status: 400, body: missing });
      // A text/plain body is not read.
      expect((await t.request('POST', '/events', { body: 'title=x', headers: { 'content-type': 'text/plain' }, as: 'admin' })).body).toEqual(missing);
      // `null` counts as absent for the required check; missing beats invalid.
      const res = await t.request('POST', '/events', { json: { title: null, start_date: 'not a date', end_date: '2027-01-01' }, as: 'admin' });
      expect(res.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): title', data: { status: 400, params: ['title'] } });
    });

    it('lists every invalid parameter of the first pass, in declaration order', async () => {
      const res = await t.request('POST', '/events', { json: { title: 'x', start_date: 'foo', end_date: 'before my birthday' }, as: 'admin' });
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): start_date, end_date',
        data: { status: 400, params: { start_date: 'Invalid parameter.', end_date: 'Invalid parameter.' }, details: [] },
      });
      // A failing validator hides type errors of the second pass.
      const mixed = await t.request('POST', '/events', { json: eventFields({ title: '', all_day: 'yes' }), as: 'admin' });
      expect(mixed.body).toEqual(invalidParamBody('title'));
      for (const [name, value] of [
        ['title', '0'],
        ['description', ''],
        ['excerpt', ''],
        ['slug', ''],
        ['status', 'kinda'],
        ['timezone', 'Mars/Base'],
        ['author', ''],
        ['author', 'foo'],
        ['date', 'foo'],
        ['date_utc', 'foo'],
        ['website', 'foo'],
        ['start_date', '1970-01-01'],
        ['start_date', ''],
        ['image', ''],
        ['image', 'foo bar'],
      ] as const) {
        const r = await t.request('POST', '/events', { json: eventFields({ [name]: value }), as: 'admin' });
        expect({ name, value, body: r.body }).toEqual({ name, value, body: invalidParamBody(name) });
      }
      expect(
        (await t.request('POST', '/events', { json: eventFields({ start_date: '1970-01-01 00:00:01', end_date: '1970-01-01 00:00:02' }), as: 'admin' })).status,
      ).toBe(201);
    });

    it('checks that the author exists', async () => {
      const known = await t.variant({ userExists: (id) => id >= 1 && id <= 7 });
      expect((await known.request('POST', '/events', { json: eventFields({ author: 23 }), as: 'admin' })).body).toEqual(invalidParamBody('author'));
      const ok = await known.request('POST', '/events', { json: eventFields({ author: '3' }), as: 'admin' });
      expect([ok.status, ok.body.author]).toEqual([201, '3']);
      const moved = await known.request('PATCH', `/events/${ok.body.id}`, { json: { author: 2 }, as: 'admin' });
      expect(moved.body.author).toBe('2');
    });

    it('applies the typing rules of writes.md §1', async () => {
      const json = await t.request('POST', '/events', { json: { title: 'x', start_date: 1800000000, end_date: 1800003600 }, as: 'admin' });
      expect(json.status).toBe(400);
      expect(json.body.message).toBe('Invalid parameter(s): start_date, end_date');
      expect(json.body.data.params.start_date).toBe('start_date is not of type string.');
      expect(json.body.data.details.start_date).toEqual({
        code: 'rest_invalid_type',
        message: 'start_date is not of type string.',
        data: { param: 'start_date' },
      });
      // As form values, timestamps work; they are converted to the event zone.
      const form = await t.request('POST', '/events', { form: 'title=Stamp&start_date=1800000000&end_date=1800003600&timezone=America/New_York', as: 'admin' });
      expect(form.status).toBe(201);
      expect([form.body.start_date, form.body.utc_start_date, form.body.end_date]).toEqual([
        '2027-01-15 03:00:00',
        '2027-01-15 08:00:00',
        '2027-01-15 04:00:00',
      ]);

      expect((await t.request('POST', '/events', { json: eventFields({ all_day: 'yes' }), as: 'admin' })).body).toEqual(typeErrorBody('all_day', 'boolean'));
      expect((await t.request('POST', '/events', { json: eventFields({ featured: null }), as: 'admin' })).body).toEqual(typeErrorBody('featured', 'boolean'));
      expect((await t.request('POST', '/events', { json: eventFields({ description: null }), as: 'admin' })).body).toEqual(
        typeErrorBody('description', 'string'),
      );
      // `title` has a string validator: a number fails the first pass.
      expect((await t.request('POST', '/events', { json: eventFields({ title: 12 }), as: 'admin' })).body).toEqual(invalidParamBody('title'));
      expect((await t.request('POST', '/events', { json: eventFields({ slug: 12 }), as: 'admin' })).body).toEqual(invalidParamBody('slug'));
      expect((await t.request('POST', '/events', { json: eventFields({ date: 1800000000 }), as: 'admin' })).body).toEqual(typeErrorBody('date', 'string'));
      expect((await t.request('POST', '/events', { json: eventFields({ sticky: 'on' }), as: 'admin' })).body).toEqual(typeErrorBody('sticky', 'boolean'));
      expect((await t.request('POST', '/events', { json: eventFields({ author: 1.5 }), as: 'admin' })).status).toBe(400);
      // `image: 12` fails in the image validator, before the type pass.
      expect((await t.request('POST', '/events', { json: eventFields({ image: 12 }), as: 'admin' })).body).toEqual(invalidParamBody('image'));

      const ok = await t.request('POST', '/events', {
        json: eventFields({
          show_map_link: 'true',
          featured: '0',
          sticky: 1,
          hide_from_listings: 0,
          cost: null,
          venue: null,
          organizer: null,
          website: null,
          categories: null,
          tags: null,
        }),
        as: 'admin',
      });
      expect(ok.status).toBe(201);
      expect([ok.body.show_map_link, ok.body.featured, ok.body.sticky, ok.body.hide_from_listings]).toEqual([true, false, true, false]);
      const formBool = await t.request('POST', '/events', { form: 'title=F&start_date=2027-01-01&end_date=2027-01-01&all_day=1&show_map=TRUE', as: 'admin' });
      expect([formBool.status, formBool.body.all_day, formBool.body.show_map]).toEqual([201, true, true]);
    });

    it('ignores output-only fields', async () => {
      const e = await createEvent(t, {
        url: 'http://evil.example/',
        rest_url: 'x',
        utc_start_date: '2000-01-01 00:00:00',
        start_date_details: { year: '1999' },
        timezone_abbr: 'XYZ',
        cost_details: { values: ['99'] },
        id: 12345,
        global_id: 'evil',
      });
      expect(e.url).toBe('http://example.org/event/an-event/'.replace('an-event', e.slug));
      expect(e.utc_start_date).toBe('2027-03-01 10:00:00');
      expect(e.timezone_abbr).toBe('UTC');
      expect(e.cost_details.values).toEqual([]);
      expect(e.id).not.toBe(12345);
      expect(e.global_id).toBe(`example.org?id=${e.id}`);
    });

    it('takes JSON over form over query', async () => {
      const res = await t.request('POST', '/events', {
        query: { title: 'From query' },
        json: eventFields({ title: 'From JSON' }),
        as: 'admin',
      });
      expect(res.body.title).toBe('From JSON');
      const q = await t.request('POST', '/events', { query: eventFields({ title: 'Only query' }) as Record<string, string>, as: 'admin' });
      expect([q.status, q.body.title]).toEqual([201, 'Only query']);
    });
  });

  describe('event writes: status, slugs and publication dates', () => {
    it('scales the status back per role (writes.md §2.3)', async () => {
      for (const as of ['admin', 'editor', 'author'] as const) {
        const e = await createEvent(t, {}, as);
        expect({ as, status: e.status }).toEqual({ as, status: 'publish' });
      }
      expect((await createEvent(t, {}, 'contributor')).status).toBe('draft');
      expect((await createEvent(t, { status: 'publish' }, 'contributor')).status).toBe('pending');
      expect((await createEvent(t, { status: 'future' }, 'contributor')).status).toBe('pending');
      expect((await createEvent(t, { status: 'private' }, 'contributor')).status).toBe('private');
      expect((await createEvent(t, { status: 'draft' }, 'author')).status).toBe('draft');
      expect(await t.request('POST', '/events', { json: eventFields(), as: 'subscriber' })).toMatchObject({ status: 403, body: FORBIDDEN(403) });
      expect(await t.request('POST', '/events', { json: eventFields() })).toMatchObject({ status: 401, body: FORBIDDEN(401) });
      // `author` may be any existing user; the contributor then cannot read it.
      const foreign = await createEvent(t, { author: 1 }, 'contributor');
      expect([foreign.author, foreign.status]).toEqual(['1', 'draft']);
      expect((await t.request('GET', `/events/${foreign.id}`, { as: 'contributor' })).status).toBe(403);
    });

    it('schedules future publication dates and floats drafts', async () => {
      const ahead = `${utcDay(new Date(), 400)} 10:00:00`;
      const future = await createEvent(t, { date: ahead, title: 'Far future' });
      expect(future.status).toBe('future');
      expect(future.date_utc).toBe(ahead);
      expect(future.url).toBe(`http://example.org/?post_type=tribe_events&p=${future.id}`);
      expect(future.slug).toBe('far-future');
      const past = await createEvent(t, { status: 'future', date: '2020-01-01 10:00:00' });
      expect(past.status).toBe('publish');
      expect(past.date).toBe('2020-01-01 10:00:00');
      const draft = await createEvent(t, { status: 'draft' });
      expect(draft.date_utc).toBe('0000-00-00 00:00:00');
      expect(draft.slug).toBe('');
      // Partial updates keep the status; publishing gives the draft a slug and a date.
      const kept = await t.request('PATCH', `/events/${draft.id}`, { json: { excerpt: 'x' }, as: 'editor' });
      expect(kept.body.status).toBe('draft');
      const published = await t.request('PATCH', `/events/${draft.id}`, { json: { status: 'publish', title: 'Now public' }, as: 'editor' });
      expect(published.body.status).toBe('publish');
      expect(published.body.slug).toBe('now-public');
      expect(published.body.date_utc).not.toBe('0000-00-00 00:00:00');
    });

    it('derives unique slugs for public events only', async () => {
      expect((await createEvent(t, { title: 'Slug test' })).slug).toBe('slug-test');
      expect((await createEvent(t, { title: 'Slug test' })).slug).toBe('slug-test-2');
      const third = await createEvent(t, { title: 'Slug test' });
      expect(third.slug).toBe('slug-test-3');
      // The answer shows the slug stored (on PostgreSQL, picked after the insert found its own taken).
      expect((await t.request('GET', `/events/${third.id}`)).body.slug).toBe('slug-test-3');
      expect((await createEvent(t, { title: 'Été à Zürich x' })).slug).toBe('ete-a-zurich-x');
      expect((await createEvent(t, { title: `It's -- "q" ... & <b>b</b>` })).slug).toBe('its-q-b');
      expect((await createEvent(t, { title: 'Draft slug', status: 'draft' })).slug).toBe('');
      expect((await createEvent(t, { title: 'Contributor slug' }, 'contributor')).slug).toBe('');
      // Drafts are not made unique; later public events are made unique against them.
      expect((await createEvent(t, { status: 'pending', slug: 'pend-slug' })).slug).toBe('pend-slug');
      expect((await createEvent(t, { slug: 'pend-slug' })).slug).toBe('pend-slug-2');
      // Slugs are unique among events only.
      await createLinked(t, 'venues', { venue: 'Shared name' });
      expect((await createEvent(t, { title: 'Shared name' })).slug).toBe('shared-name');
      // A trashed event frees its slug.
      const old = await createEvent(t, { title: 'Reborn' });
      await t.request('DELETE', `/events/${old.id}`, { as: 'admin' });
      expect((await createEvent(t, { title: 'Reborn' })).slug).toBe('reborn');
      // A title without slug characters gets the id.
      const odd = await createEvent(t, { title: '!!!' });
      expect(odd.slug).toBe(String(odd.id));
    });

    it('stores the publication date as writes.md §2.2 says', async () => {
      const ny = await createEvent(t, { date: '2026-01-01 10:00:00', timezone: 'America/New_York' });
      expect([ny.date, ny.date_utc]).toEqual(['2026-01-01 10:00:00', '2026-01-01 10:00:00']);
      const stamp = await t.request('POST', '/events', { form: 'title=S&start_date=2027-01-01&end_date=2027-01-01&date=1700000000', as: 'admin' });
      expect(stamp.body.date).toBe('2023-11-14 22:13:20');
      const utc = await createEvent(t, { date_utc: '2026-01-02 10:00:00' });
      expect([utc.date, utc.date_utc]).toEqual(['2026-01-02 10:00:00', '2026-01-02 10:00:00']);
      const both = await createEvent(t, { date: '2026-01-03 10:00:00', date_utc: '2026-01-03 08:00:00' });
      expect([both.date, both.date_utc]).toEqual(['2026-01-03 10:00:00', '2026-01-03 08:00:00']);
    });
  });

  describe('event writes: dates, zones and all-day', () => {
    let darwin: TestCalendar;
    beforeAll(async () => {
      darwin = await t.variant({ timezone: 'Australia/Darwin' });
    }, 180_000);

    const times = (e: Record<string, unknown>) => [e.start_date, e.end_date, e.utc_start_date, e.utc_end_date, e.timezone, e.timezone_abbr];

    it('computes Hong Kong times on a Darwin site (EventInsertionCest)', async () => {
      const e = await createEvent(darwin, { timezone: 'Asia/Hong_Kong', start_date: '2018-01-01 4pm', end_date: '2018-01-01 6pm' });
      expect(times(e)).toEqual(['2018-01-01 16:00:00', '2018-01-01 18:00:00', '2018-01-01 08:00:00', '2018-01-01 10:00:00', 'Asia/Hong_Kong', 'HKT']);
      // Without a zone the site's is used and stored.
      const site = await createEvent(darwin, { start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00' });
      expect(times(site)).toEqual(['2027-06-01 10:00:00', '2027-06-01 11:00:00', '2027-06-01 00:30:00', '2027-06-01 01:30:00', 'Australia/Darwin', 'ACST']);
      // The publication date follows the site zone too.
      const pub = await createEvent(darwin, { date_utc: '2026-01-02 10:00:00' });
      expect([pub.date, pub.date_utc]).toEqual(['2026-01-02 19:30:00', '2026-01-02 10:00:00']);
      const pub2 = await createEvent(darwin, { date: '2026-01-02 19:30:00' });
      expect([pub2.date, pub2.date_utc]).toEqual(['2026-01-02 19:30:00', '2026-01-02 10:00:00']);
    });

    it('snaps all-day events to whole days', async () => {
      const e = await createEvent(t, { all_day: true, start_date: '2027-03-02 09:00', end_date: '2027-03-04 11:00' });
      expect(times(e)).toEqual(['2027-03-02 00:00:00', '2027-03-04 23:59:59', '2027-03-02 00:00:00', '2027-03-04 23:59:59', 'UTC', 'UTC']);
      expect(e.all_day).toBe(true);
      const now = new Date();
      const rel = await createEvent(t, { all_day: true, start_date: 'tomorrow 9am', end_date: '+5 days 11am' });
      expect([rel.start_date, rel.end_date]).toEqual([`${utcDay(now, 1)} 00:00:00`, `${utcDay(now, 5)} 23:59:59`]);
      const ny = await createEvent(t, { all_day: true, timezone: 'America/New_York', start_date: '2027-07-04', end_date: '2027-07-04' });
      expect(times(ny)).toEqual(['2027-07-04 00:00:00', '2027-07-04 23:59:59', '2027-07-04 04:00:00', '2027-07-05 03:59:59', 'America/New_York', 'EDT']);
    });

    it('moves an end before the start to the start', async () => {
      const e = await createEvent(t, { start_date: '2027-03-05 10:00:00', end_date: '2027-03-04 10:00:00' });
      expect([e.start_date, e.end_date, e.utc_end_date]).toEqual(['2027-03-05 10:00:00', '2027-03-05 10:00:00', '2027-03-05 10:00:00']);
    });

    it('handles offset zones, IANA zones across DST, abbreviations and offsets', async () => {
      const plus2 = await createEvent(t, { timezone: 'UTC+2', start_date: '2027-07-01 10:00:00', end_date: '2027-07-01 11:00:00' });
      expect(times(plus2)).toEqual(['2027-07-01 10:00:00', '2027-07-01 11:00:00', '2027-07-01 08:00:00', '2027-07-01 09:00:00', 'UTC+2', 'UTC+2']);
      const minus530 = await createEvent(t, { timezone: 'UTC-5:30', start_date: '2027-07-01 10:00:00', end_date: '2027-07-01 11:00:00' });
      expect(times(minus530).slice(2)).toEqual(['2027-07-01 15:30:00', '2027-07-01 16:30:00', 'UTC-5:30', 'UTC-5:30']);
      const jan = await createEvent(t, { timezone: 'America/New_York', start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 11:00:00' });
      expect(times(jan).slice(2)).toEqual(['2027-01-10 15:00:00', '2027-01-10 16:00:00', 'America/New_York', 'EST']);
      const jul = await createEvent(t, { timezone: 'America/New_York', start_date: '2027-07-10 10:00:00', end_date: '2027-07-10 11:00:00' });
      expect(times(jul).slice(2)).toEqual(['2027-07-10 14:00:00', '2027-07-10 15:00:00', 'America/New_York', 'EDT']);
      // Each end is converted at its own instant: across the spring and autumn changes.
      const spring = await createEvent(t, { timezone: 'America/New_York', start_date: '2027-03-13 12:00:00', end_date: '2027-03-14 12:00:00' });
      expect(times(spring).slice(2)).toEqual(['2027-03-13 17:00:00', '2027-03-14 16:00:00', 'America/New_York', 'EST']);
      const autumn = await createEvent(t, { timezone: 'America/New_York', start_date: '2027-11-06 12:00:00', end_date: '2027-11-07 12:00:00' });
      expect(times(autumn).slice(2)).toEqual(['2027-11-06 16:00:00', '2027-11-07 17:00:00', 'America/New_York', 'EDT']);
      const paris = await createEvent(t, { timezone: 'Europe/Paris', start_date: '2027-05-10 10:00:00', end_date: '2027-05-10 11:00:00' });
      expect(paris.timezone_abbr).toBe('CEST');
      const sao = await createEvent(t, { timezone: 'America/Sao_Paulo', start_date: '2027-05-10 10:00:00', end_date: '2027-05-10 11:00:00' });
      expect([sao.utc_start_date, sao.timezone_abbr]).toEqual(['2027-05-10 13:00:00', '-03']);
      const est = await createEvent(t, { timezone: 'EST', start_date: '2027-07-10 10:00:00', end_date: '2027-07-10 11:00:00' });
      expect([est.timezone, est.timezone_abbr, est.utc_start_date]).toEqual(['EST', 'EST', '2027-07-10 15:00:00']);
      const offset = await createEvent(t, { timezone: '+02:00', start_date: '2027-07-10 10:00:00', end_date: '2027-07-10 11:00:00' });
      expect([offset.timezone, offset.timezone_abbr, offset.utc_start_date]).toEqual(['+02:00', 'GMT+0200', '2027-07-10 08:00:00']);
      // An empty timezone means the site's.
      const empty = await createEvent(t, { timezone: '' });
      expect([empty.timezone, empty.timezone_abbr]).toEqual(['UTC', 'UTC']);
    });

    it('reads the date forms of writes.md §2.4', async () => {
      const dateOnly = await createEvent(t, { start_date: '2027-01-15', end_date: '2027-01-15' });
      expect([dateOnly.start_date, dateOnly.end_date]).toEqual(['2027-01-15 00:00:00', '2027-01-15 00:00:00']);
      const tokyoTomorrow = utcDay(new Date(Date.now() + 9 * 3_600_000), 1);
      const tokyo = await createEvent(t, { timezone: 'Asia/Tokyo', start_date: 'tomorrow 9am', end_date: 'tomorrow 10am' });
      expect([tokyo.start_date, tokyo.end_date]).toEqual([`${tokyoTomorrow} 09:00:00`, `${tokyoTomorrow} 10:00:00`]);
      // A string with its own offset keeps its digits, then is read in the event zone.
      const own = await createEvent(t, { timezone: 'America/New_York', start_date: '2027-01-01T10:00:00+02:00', end_date: '2027-01-01T12:00:00+02:00' });
      expect([own.start_date, own.utc_start_date, own.end_date]).toEqual(['2027-01-01 10:00:00', '2027-01-01 15:00:00', '2027-01-01 12:00:00']);
      const words = await createEvent(t, { start_date: 'January 5 2027 3pm', end_date: '2027/01/05 17:30' });
      expect([words.start_date, words.end_date]).toEqual(['2027-01-05 15:00:00', '2027-01-05 17:30:00']);
    });

    it('refuses impossible dates and unknown zones with a 400, leaving nothing behind', async () => {
      const before = await t.rows('posts');
      for (const [name, value] of [
        ['start_date', '2026-02-30'],
        ['start_date', '2026-02-30 10:00:00'],
        ['end_date', '2026-04-31'],
        ['start_date', '2026-13-01'],
        ['end_date', '2026-00-10'],
        ['timezone', 'Mars/Base'],
        ['timezone', 'America/Nowhere'],
      ] as const) {
        const res = await t.request('POST', '/events', { json: eventFields({ [name]: value, venue: { venue: 'Leaky hall' } }), as: 'admin' });
        expect({ name, value, body: res.body }).toEqual({ name, value, body: invalidParamBody(name) });
      }
      expect(await t.rows('posts')).toBe(before);
      // 2028 is a leap year.
      expect((await createEvent(t, { start_date: '2028-02-29', end_date: '2028-02-29' })).start_date).toBe('2028-02-29 00:00:00');
    });

    it('ignores a lone date on update; a zone alone keeps local and UTC times (writes.md §2.4)', async () => {
      const e = await createEvent(t, { start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' });
      const upd = (json: Record<string, unknown>) => t.request('POST', `/events/${e.id}`, { json, as: 'admin' }).then((r) => r.body);
      const stored = ['2027-03-01 10:00:00', '2027-03-01 12:00:00', '2027-03-01 10:00:00', '2027-03-01 12:00:00', 'UTC', 'UTC'];
      expect(times(await upd({ start_date: '2027-03-01 11:00:00' }))).toEqual(stored);
      expect(times(await upd({ end_date: '2027-03-01 15:00:00' }))).toEqual(stored);
      expect(times(await upd({ start_date: '2027-03-02 09:00:00', end_date: '2027-03-02 18:00:00' })).slice(0, 2)).toEqual([
        '2027-03-02 09:00:00',
        '2027-03-02 18:00:00',
      ]);
      const zoned = await upd({ timezone: 'America/New_York' });
      expect(times(zoned)).toEqual(['2027-03-02 09:00:00', '2027-03-02 18:00:00', '2027-03-02 09:00:00', '2027-03-02 18:00:00', 'America/New_York', 'EST']);
      // Dates sent later are read in the stored zone.
      const moved = await upd({ start_date: '2027-07-02 09:00:00', end_date: '2027-07-02 10:00:00' });
      expect(times(moved)).toEqual(['2027-07-02 09:00:00', '2027-07-02 10:00:00', '2027-07-02 13:00:00', '2027-07-02 14:00:00', 'America/New_York', 'EDT']);
      // Turning all_day on snaps the stored dates (or the ones sent with it) to whole days.
      const allDay = await upd({ all_day: true });
      expect(times(allDay).slice(0, 4)).toEqual(['2027-07-02 00:00:00', '2027-07-02 23:59:59', '2027-07-02 04:00:00', '2027-07-03 03:59:59']);
      expect(allDay.all_day).toBe(true);
      const snapped = await upd({ all_day: true, end_date: '2027-07-04 10:00:00' });
      expect(times(snapped).slice(0, 2)).toEqual(['2027-07-02 00:00:00', '2027-07-04 23:59:59']);
      const back = await upd({ timezone: '' });
      expect(times(back)).toEqual(['2027-07-02 00:00:00', '2027-07-04 23:59:59', '2027-07-02 04:00:00', '2027-07-05 03:59:59', 'UTC', 'UTC']);
      // Turning it off alone keeps the times.
      const off = await upd({ all_day: false });
      expect([off.all_day, ...times(off).slice(0, 2)]).toEqual([false, '2027-07-02 00:00:00', '2027-07-04 23:59:59']);
      // An impossible date is refused by its check, alone too (a decision: upstream rolls it over).
      expect((await t.request('POST', `/events/${e.id}`, { json: { start_date: '2027-02-30' }, as: 'admin' })).body).toEqual(invalidParamBody('start_date'));
      const impossible = { start_date: '2027-03-01', end_date: '2027-02-30' };
      expect((await t.request('POST', `/events/${e.id}`, { json: impossible, as: 'admin' })).body).toEqual(invalidParamBody('end_date'));
    });
  });

  describe('event writes: linked venue and organizers', () => {
    it('links a venue by id, numeric string, {id}, one-element array, or creates one from data', async () => {
      const v = await createLinked(t, 'venues', { venue: 'Main hall' });
      expect((await createEvent(t, { venue: v.id })).venue.id).toBe(v.id);
      expect((await createEvent(t, { venue: String(v.id) })).venue.id).toBe(v.id);
      const withId = await createEvent(t, { venue: { id: v.id, venue: 'ignored name' } });
      expect([withId.venue.id, withId.venue.venue]).toEqual([v.id, 'Main hall']);
      expect((await createEvent(t, { venue: [v.id] })).venue.id).toBe(v.id);
      expect((await createEvent(t, { venue: [String(v.id)] })).venue.id).toBe(v.id);
      const form = await t.request('POST', '/events', { form: `title=F&start_date=2027-01-01&end_date=2027-01-01&venue=${v.id}`, as: 'admin' });
      expect(form.body.venue.id).toBe(v.id);
      const data = await createEvent(t, { venue: { venue: 'New hall', city: 'Rome', show_map: 'false' } });
      expect(data.venue).toMatchObject({ venue: 'New hall', city: 'Rome', status: 'publish', show_map: false });
      expect(data.venue.id).not.toBe(v.id);
      // A duplicate name reuses the venue.
      expect((await createEvent(t, { venue: { venue: 'new HALL' } })).venue.id).toBe(data.venue.id);
      expect((await createEvent(t, { venue: [{ venue: 'Array hall' }] })).venue.venue).toBe('Array hall');
      const formData = await t.request('POST', '/events', {
        form: 'title=F&start_date=2027-01-01&end_date=2027-01-01&venue[venue]=Form hall&venue[zip]=123',
        as: 'admin',
      });
      expect(formData.body.venue).toMatchObject({ venue: 'Form hall', zip: '123' });
      // A contributor's new venue is a draft.
      const byContributor = await createEvent(t, { venue: { venue: 'Contributor hall' } }, 'contributor');
      expect(byContributor.venue.status).toBe('draft');
    });

    it('has no venue for empty values and refuses several venues or unknown ones', async () => {
      for (const venue of ['', 0, '0', [], {}, { venue: '' }]) expect((await createEvent(t, { venue })).venue).toEqual([]);
      const a = await createLinked(t, 'venues', { venue: 'Hall A' });
      const b = await createLinked(t, 'venues', { venue: 'Hall B' });
      const before = await t.rows('posts');
      expect((await t.request('POST', '/events', { json: eventFields({ venue: [a.id, b.id] }), as: 'admin' })).body).toEqual(COULD_NOT_CREATE_VENUE);
      expect((await t.request('POST', '/events', { json: eventFields({ venue: `${a.id},${b.id}` }), as: 'admin' })).body).toEqual(COULD_NOT_CREATE_VENUE);
      expect((await t.request('POST', '/events', { json: eventFields({ venue: [{ venue: 'X1' }, { venue: 'X2' }] }), as: 'admin' })).body).toEqual(
        COULD_NOT_CREATE_VENUE,
      );
      expect(await t.rows('posts')).toBe(before);
      const organizer = await createLinked(t, 'organizers', { organizer: 'Not a venue' });
      for (const venue of [
        999999,
        '999999',
        { id: 999999 },
        organizer.id,
        { id: organizer.id },
        { address: 'no name' },
        { venue: 'Bad site', website: 'foo' },
        -1,
        'abc',
        true,
        [[a.id]],
      ]) {
        const res = await t.request('POST', '/events', { json: eventFields({ venue }), as: 'admin' });
        expect({ venue, body: res.body }).toEqual({ venue, body: invalidParamBody('venue') });
      }
    });

    it('replaces, keeps or removes the venue on update', async () => {
      const a = await createLinked(t, 'venues', { venue: 'Update hall A' });
      const b = await createLinked(t, 'venues', { venue: 'Update hall B' });
      const e = await createEvent(t, { venue: a.id });
      const upd = (json: Record<string, unknown>) => t.request('POST', `/events/${e.id}`, { json, as: 'admin' }).then((r) => r.body.venue);
      expect((await upd({ title: 'kept' })).id).toBe(a.id);
      expect((await upd({ venue: b.id })).id).toBe(b.id);
      for (const empty of [0, '', [], '0']) {
        await upd({ venue: a.id });
        expect(await upd({ venue: empty })).toEqual([]);
      }
      expect((await upd({ venue: { venue: 'Created on update' } })).venue).toBe('Created on update');
    });

    it('links organizers by id, list, comma string or data, in order and without duplicates', async () => {
      const o5 = await createLinked(t, 'organizers', { organizer: 'Org five' });
      const o6 = await createLinked(t, 'organizers', { organizer: 'Org six' });
      const ids = (e: Record<string, unknown>) => (e.organizer as { id: number }[]).map((o) => o.id);
      expect(ids(await createEvent(t, { organizer: o5.id }))).toEqual([o5.id]);
      expect(ids(await createEvent(t, { organizer: String(o5.id) }))).toEqual([o5.id]);
      expect(ids(await createEvent(t, { organizer: [o5.id, o6.id] }))).toEqual([o5.id, o6.id]);
      expect(ids(await createEvent(t, { organizer: [o6.id, o5.id, o6.id] }))).toEqual([o6.id, o5.id]);
      expect(ids(await createEvent(t, { organizer: `${o6.id},${o5.id}` }))).toEqual([o6.id, o5.id]);
      const mixed = await createEvent(t, { organizer: [{ organizer: 'Org A' }, { id: o5.id }, o6.id, { organizer: 'Org C' }] });
      expect(mixed.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Org A', 'Org five', 'Org six', 'Org C']);
      // A bare object is a one-element list.
      const bare = await createEvent(t, { organizer: { organizer: 'Bare org', email: 'x@y.z' } });
      expect(bare.organizer).toHaveLength(1);
      expect(bare.organizer[0]).toMatchObject({ organizer: 'Bare org', email: 'x@y.z' });
      const form = await t.request('POST', '/events', {
        form: `title=F&start_date=2027-01-01&end_date=2027-01-01&organizer[]=${o6.id}&organizer[]=${o5.id}`,
        as: 'admin',
      });
      expect(ids(form.body)).toEqual([o6.id, o5.id]);
      // Empty values, and objects whose values are all empty, link nothing.
      for (const organizer of ['', 0, [], { organizer: '' }, [{ organizer: '', email: '' }]])
        expect((await createEvent(t, { organizer })).organizer).toEqual([]);
      const venue = await createLinked(t, 'venues', { venue: 'Not an organizer' });
      for (const organizer of [
        999999,
        [o5.id, 999999],
        venue.id,
        { organizer: '', phone: '1' },
        [{ phone: '1' }],
        [{ organizer: 'Bad', website: 'foo' }],
        [[o5.id]],
        'x,y',
      ]) {
        const res = await t.request('POST', '/events', { json: eventFields({ organizer }), as: 'admin' });
        expect({ organizer, body: res.body }).toEqual({ organizer, body: invalidParamBody('organizer') });
      }
      expect(COULD_NOT_CREATE_ORGANIZER.code).toBe('could-not-create-organizer');
    });

    it('keeps organizers when omitted on update and replaces or clears them when sent', async () => {
      const a = await createLinked(t, 'organizers', { organizer: 'Keep A' });
      const b = await createLinked(t, 'organizers', { organizer: 'Keep B' });
      const e = await createEvent(t, { organizer: [a.id, b.id] });
      const upd = (json: Record<string, unknown>) =>
        t.request('PATCH', `/events/${e.id}`, { json, as: 'admin' }).then((r) => r.body.organizer.map((o: { id: number }) => o.id));
      expect(await upd({ title: 'x' })).toEqual([a.id, b.id]);
      expect(await upd({ organizer: [b.id] })).toEqual([b.id]);
      expect(await upd({ organizer: [] })).toEqual([]);
      expect(await upd({ organizer: [a.id, b.id] })).toEqual([a.id, b.id]);
      expect(await upd({ organizer: '' })).toEqual([]);
      expect(await upd({ organizer: b.id })).toEqual([b.id]);
      expect(await upd({ organizer: 0 })).toEqual([]);
    });
  });

  describe('event writes: categories and tags', () => {
    const names = (list: { name: string }[]) => list.map((x) => x.name);
    const total = async (kind: 'categories' | 'tags') => (await t.request('GET', `/${kind}`, { query: { hide_empty: 'false' } })).body.total as number;

    it('resolves ids, slugs and names, creating missing terms by name', async () => {
      const e = await createEvent(t, { categories: 'cat1,cat2' });
      expect(names(e.categories)).toEqual(['cat1', 'cat2']);
      const cat1 = e.categories[0].id as number;
      const before = await total('categories');
      const again = await createEvent(t, { categories: [cat1, 'cat2', 'CAT2'] });
      expect(again.categories.map((c: { id: number }) => c.id)).toEqual(e.categories.map((c: { id: number }) => c.id));
      expect(await total('categories')).toBe(before);
      const live = await createTerm(t, 'categories', { name: 'Live Music', slug: 'lm' });
      expect((await createEvent(t, { categories: ['Live Music'] })).categories[0].id).toBe(live.id);
      expect((await createEvent(t, { categories: ['lm'] })).categories[0].id).toBe(live.id);
      expect((await createEvent(t, { categories: [999999, 'lm'] })).categories.map((c: { id: number }) => c.id)).toEqual([live.id]);
      expect((await createEvent(t, { categories: String(live.id) })).categories[0].id).toBe(live.id);
      // A comma list splits at commas only: `Live Music` stays one name.
      expect((await createEvent(t, { categories: 'Live Music, cat1' })).categories.map((c: { id: number }) => c.id)).toEqual([cat1, live.id]);
      expect(names((await createEvent(t, { tags: 'two words' })).tags)).toEqual(['two words']);
      // Tags by the name or slug of an existing tag resolve to it (no upstream bug).
      const tag = await createTerm(t, 'tags', { name: 'My Tag', slug: 'my-tag' });
      const tagsBefore = await total('tags');
      for (const tags of [['my-tag'], ['My Tag'], [tag.id], [String(tag.id)], 'my-tag']) {
        const ev = await createEvent(t, { tags });
        expect({ tags, ids: ev.tags.map((x: { id: number }) => x.id) }).toEqual({ tags, ids: [tag.id] });
      }
      expect(await total('tags')).toBe(tagsBefore);
      // An id of the other taxonomy is not a category.
      expect((await createEvent(t, { categories: [tag.id] })).categories).toEqual([]);
      // Names are sanitised as term names.
      const html = await createEvent(t, { categories: ['A & B <b>x</b>'] });
      expect(html.categories[0].name).toBe('A &amp; B x');
      const form = await t.request('POST', '/events', { form: 'title=F&start_date=2027-01-01&end_date=2027-01-01&tags[]=form-a&tags[]=form-b', as: 'admin' });
      expect(names(form.body.tags)).toEqual(['form-a', 'form-b']);
    });

    it('links terms named by slug, by name and new ones in one write, with their counts, on create and update', async () => {
      const a = await createTerm(t, 'categories', { name: 'Mix A', slug: 'mix-a' });
      const bee = await createTerm(t, 'categories', { name: 'Bee Name', slug: 'bee' });
      const count = async (id: number) => (await t.request('GET', `/categories/${id}`)).body.count as number;
      const before = await total('categories');
      // A slug, a name whose slug is another, a new name, and a text with the new term's slug.
      const mixed = ['mix-a', 'bee name', 'Mix New', 'MIX NEW!', 'mix-a'];
      const e = await createEvent(t, { status: 'publish', categories: mixed });
      expect(names(e.categories)).toEqual(['Bee Name', 'Mix A', 'Mix New']);
      expect(await total('categories')).toBe(before + 1);
      const made = e.categories.find((c: { name: string }) => c.name === 'Mix New').id as number;
      expect([await count(a.id), await count(bee.id), await count(made)]).toEqual([1, 1, 1]);
      expect(e.categories.map((c: { count: number }) => c.count)).toEqual([1, 1, 1]);
      const upd = (categories: unknown) => t.request('POST', `/events/${e.id}`, { json: { categories }, as: 'admin' }).then((r) => r.body);
      // A term the event has by slug, one it has by name alone (unlinked by the first step, linked
      // again by the second), and a new one; then by id and slug only.
      expect(names((await upd(['mix-a', 'Bee Name', 'Other New'])).categories)).toEqual(['Bee Name', 'Mix A', 'Other New']);
      const other = (await t.request('GET', '/categories', { query: { search: 'Other New', hide_empty: 'false' } })).body.categories[0].id as number;
      expect([await count(a.id), await count(bee.id), await count(made), await count(other)]).toEqual([1, 1, 0, 1]);
      expect(names((await upd([made, 'bee'])).categories)).toEqual(['Bee Name', 'Mix New']);
      expect([await count(a.id), await count(bee.id), await count(made), await count(other)]).toEqual([0, 1, 1, 0]);
      expect(await total('categories')).toBe(before + 2);
    });

    it('lets contributors assign and create terms, keeps them when omitted, clears them with empty values', async () => {
      const c = await createEvent(t, { categories: ['contrib-new'], tags: ['contrib-tag'] }, 'contributor');
      expect(names(c.categories)).toEqual(['contrib-new']);
      expect(names(c.tags)).toEqual(['contrib-tag']);
      const e = await createEvent(t, { categories: ['keep-cat'], tags: ['keep-tag'] });
      const upd = (json: Record<string, unknown>) => t.request('POST', `/events/${e.id}`, { json, as: 'admin' }).then((r) => r.body);
      const kept = await upd({ title: 'other' });
      expect([names(kept.categories), names(kept.tags)]).toEqual([['keep-cat'], ['keep-tag']]);
      const cleared = await upd({ categories: '' });
      expect([cleared.categories, names(cleared.tags)]).toEqual([[], ['keep-tag']]);
      expect((await upd({ tags: [] })).tags).toEqual([]);
      expect(names((await upd({ categories: ['b-new', 'a-new'] })).categories)).toEqual(['a-new', 'b-new']);
    });
  });

  describe('event writes: cost, website and flags', () => {
    it('stores and formats the cost examples of responses.md §2.2 and writes.md §2.8', async () => {
      const cases: [unknown, string, string[], string, string][] = [
        ['23', '$23', ['23'], '', ''],
        ['20$', '20$', ['20'], '$', 'postfix'],
        [['0$', '20$', '30$'], 'Free – 30$', ['0', '20', '30'], '$', 'postfix'],
        ['20', '$20', ['20'], '', ''],
        ['Free', 'Free', ['free'], '', ''],
        [12, '$12', ['12'], '', ''],
        ['25,55', '$25,55', ['25.55'], '', ''],
        ['$10 - $20', '$10 – $20', ['10', '20'], '', ''],
        [['$15', '$25'], '$15 – $25', ['15', '25'], '$', 'prefix'],
        ['€6.50 - €8.50', '$6.50 – $8.50', ['6.50', '8.50'], '', ''],
        ['5,50 7,50', 'Free', ['5.50', '7.50'], '', ''],
        ['1,000', '$1,000', ['1000'], '', ''],
        ['Donation', 'Donation', ['donation'], '', ''],
        [['0', '15'], 'Free – $15', ['0', '15'], '', ''],
        ['0', '', [], '', ''],
        ['', '', [], '', ''],
      ];
      for (const [cost, formatted, values, symbol, position] of cases) {
        const e = await createEvent(t, { cost });
        expect({ cost, got: [e.cost, e.cost_details] }).toEqual({
          cost,
          got: [formatted, { currency_symbol: symbol, currency_code: '', currency_position: position, values }],
        });
      }
      const form = await t.request('POST', '/events', { form: 'title=F&start_date=2027-01-01&end_date=2027-01-01&cost[]=$5&cost[]=$9', as: 'admin' });
      expect(form.body.cost).toBe('$5 – $9');
    });

    it('keeps the cost when omitted on update and clears it with an empty value', async () => {
      const e = await createEvent(t, { cost: '20$' });
      const upd = (json: Record<string, unknown>) => t.request('POST', `/events/${e.id}`, { json, as: 'admin' }).then((r) => r.body);
      expect((await upd({ title: 'x' })).cost).toBe('20$');
      expect((await upd({ cost: '30' })).cost_details).toEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: ['30'] });
      const cleared = await upd({ cost: '' });
      expect([cleared.cost, cleared.cost_details.values]).toEqual(['', []]);
    });

    it('falls back to the event url for an unset website', async () => {
      const none = await createEvent(t, { title: 'No site' });
      expect(none.website).toBe('http://example.org/event/no-site/');
      const empty = await createEvent(t, { title: 'Empty site', website: '' });
      expect(empty.website).toBe('http://example.org/event/empty-site/');
      const draft = await createEvent(t, { status: 'draft' });
      expect(draft.website).toBe(`http://example.org/?post_type=tribe_events&p=${draft.id}`);
      const site = await createEvent(t, { website: 'https://example.com/page' });
      expect(site.website).toBe('https://example.com/page');
      const upd = await t.request('POST', `/events/${site.id}`, { json: { title: 'x' }, as: 'admin' });
      expect(upd.body.website).toBe('https://example.com/page');
      // The stored value was URL-sanitised (esc_url_raw) before the HTML escaping of the output.
      const spaced = await createEvent(t, { website: 'http://example.com/a"b' });
      expect(spaced.website).not.toContain('"');
    });

    it('sets and clears the presentation flags', async () => {
      const e = await createEvent(t, { show_map: true, show_map_link: true, hide_from_listings: true, sticky: true, featured: true });
      const flags = (x: Record<string, unknown>) => [x.show_map, x.show_map_link, x.hide_from_listings, x.sticky, x.featured];
      expect(flags(e)).toEqual([true, true, true, true, true]);
      const kept = await t.request('POST', `/events/${e.id}`, { json: { title: 'kept' }, as: 'admin' });
      expect(flags(kept.body)).toEqual([true, true, true, true, true]);
      const off = await t.request('POST', `/events/${e.id}`, {
        json: { show_map: false, show_map_link: 'false', hide_from_listings: 0, sticky: '0', featured: false },
        as: 'admin',
      });
      expect(flags(off.body)).toEqual([false, false, false, false, false]);
      // Authors may set them too.
      expect(flags(await createEvent(t, { featured: true, sticky: true }, 'author')).slice(3)).toEqual([true, true]);
    });
  });

  describe('event writes: partial updates, deletes and by-slug writes', () => {
    it('changes only the fields sent (writes.md §2.11 recommendations)', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Partial hall' });
      const organizer = await createLinked(t, 'organizers', { organizer: 'Partial org' });
      const e = await createEvent(t, {
        title: 'Partial',
        description: 'Desc',
        excerpt: 'Exc',
        date: '2026-01-05 10:00:00',
        timezone: 'Europe/Paris',
        start_date: '2027-05-01 10:00:00',
        end_date: '2027-05-01 12:00:00',
        all_day: true,
        cost: '20$',
        website: 'https://partial.example',
        show_map: true,
        show_map_link: true,
        sticky: true,
        featured: true,
        categories: ['partial-cat'],
        tags: ['partial-tag'],
        venue: venue.id,
        organizer: [organizer.id],
        status: 'private',
      });
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const res = await t.request(method, `/events/${e.id}`, { json: { title: `Partial ${method}` }, as: 'admin' });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
        const { title, modified, modified_utc: _modifiedUtc, ...rest } = res.body;
        const { title: _t, modified: _m, modified_utc: _mu, ...expected } = e;
        expect(title).toBe(`Partial ${method}`);
        expect(modified >= e.modified).toBe(true);
        expect(rest).toEqual(expected);
      }
    });

    it('trashes, answers 410 the second time, and deletes for good with force', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Survives' });
      const e = await createEvent(t, { title: 'Doomed', venue: venue.id });
      const res = await t.request('DELETE', `/events/${e.id}`, { as: 'admin' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
      const plain = `http://example.org/?post_type=tribe_events&p=${e.id}`;
      expect([res.body.status, res.body.slug, res.body.url, res.body.website]).toEqual(['trash', 'doomed__trashed', plain, plain]);
      expect(res.body.venue.id).toBe(venue.id);
      const gone = { code: 'event-is-in-trash', message: 'The event is already trashed', data: { status: 410 } };
      expect(await t.request('DELETE', `/events/${e.id}`, { as: 'admin' })).toMatchObject({ status: 410, body: gone });
      expect(await t.request('DELETE', '/events/by-slug/doomed__trashed', { as: 'admin' })).toMatchObject({ status: 410, body: gone });
      // Not listed any more, even for admins.
      const list = await t.request('GET', '/events', { query: { include: String(e.id), starts_after: '2027-01-01' }, as: 'admin' });
      expect(list.body.total).toBe(0);

      const f = await createEvent(t, { title: 'Forced', venue: venue.id, organizer: [{ organizer: 'Forced org' }], categories: ['forced-cat'] });
      const before = (await t.request('GET', `/events/${f.id}`, { as: 'admin' })).body;
      const previous = withoutJsonLd(before);
      const forced = await t.request('DELETE', `/events/${f.id}`, { query: { force: 'true' }, as: 'admin' });
      expect(forced.status).toBe(200);
      expect(forced.body).toEqual({ deleted: true, previous });
      expect(Object.keys(forced.body)).toEqual(['deleted', 'previous']);
      expectError(await t.request('GET', `/events/${f.id}`, { as: 'admin' }), 404, 'rest-event-not-found');
      expectError(await t.request('DELETE', `/events/${f.id}`, { as: 'admin' }), 404, 'rest-event-not-found');
      // Linked items and terms stay; the term no longer counts the event.
      expect((await t.request('GET', `/venues/${venue.id}`)).status).toBe(200);
      expect((await t.request('GET', `/organizers/${before.organizer[0].id}`)).status).toBe(200);
      expect((await t.request('GET', `/categories/${before.categories[0].id}`)).body.count).toBe(0);
      // `force` also removes an event already in the trash.
      const twice = await createEvent(t);
      await t.request('DELETE', `/events/${twice.id}`, { as: 'admin' });
      expect((await t.request('DELETE', `/events/${twice.id}`, { json: { force: true }, as: 'admin' })).body.deleted).toBe(true);
    });

    it('answers the delete errors of writes.md §2.12', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Delete me not' });
      expect(await t.request('DELETE', `/events/${venue.id}`, { as: 'admin' })).toMatchObject({
        status: 400,
        body: { code: 'rest-invalid-event-id', message: 'The specified ID is not a valid event.', data: { status: 400 } },
      });
      expect(await t.request('DELETE', '/events/999999', { as: 'admin' })).toMatchObject({
        status: 404,
        body: { code: 'rest-event-not-found', message: 'Event with ID 999999 does not exist.', data: { status: 404 } },
      });
      expect((await t.request('DELETE', '/events/999999')).body).toEqual(FORBIDDEN(401));
      expect((await t.request('DELETE', '/events/by-slug/no-such-event', { as: 'admin' })).body).toEqual(invalidParamBody('slug'));
      expect((await t.request('DELETE', '/events/by-slug/no-such-event')).body).toEqual(invalidParamBody('slug'));
      const e = await createEvent(t);
      expect((await t.request('DELETE', `/events/${e.id}`)).body).toEqual(FORBIDDEN(401));
      expect((await t.request('DELETE', `/events/${e.id}`, { as: 'subscriber' })).body).toEqual(FORBIDDEN(403));
      expect((await t.request('DELETE', `/events/${e.id}`, { as: 'contributor' })).body).toEqual(FORBIDDEN(403));
      expect((await t.request('DELETE', `/events/${e.id}`, { as: 'author' })).body).toEqual(FORBIDDEN(403));
      expect((await t.request('DELETE', `/events/${e.id}`, { as: 'editor' })).status).toBe(200);
      expectError(await t.request('DELETE', '/events'), 404, 'rest_no_route');
    });

    it('updates by slug: path slug finds, body slug renames, unknown slug is 404 with ID 0', async () => {
      expect(await t.request('PATCH', '/events/by-slug/unknown-slug', { json: { title: 'x' }, as: 'admin' })).toMatchObject({
        status: 404,
        body: { code: 'rest-event-not-found', message: 'Event with ID 0 does not exist.', data: { status: 404 } },
      });
      const e = await createEvent(t, { title: 'Slug writes' });
      const put = await t.request('PUT', '/events/by-slug/slug-writes', { json: { description: 'By slug' }, as: 'admin' });
      expect([put.status, put.body.id, put.body.description, put.body.slug]).toEqual([200, e.id, '<p>By slug</p>', 'slug-writes']);
      const renamed = await t.request('POST', '/events/by-slug/slug-writes', { json: { slug: 'renamed-slug' }, as: 'admin' });
      expect([renamed.status, renamed.body.id, renamed.body.slug]).toEqual([200, e.id, 'renamed-slug']);
      expect((await t.request('GET', '/events/by-slug/slug-writes')).body).toEqual(invalidParamBody('slug'));
      expect((await t.request('GET', '/events/by-slug/renamed-slug')).body.id).toBe(e.id);
      // A renamed slug that is taken gets a suffix.
      await createEvent(t, { title: 'Taken slug' });
      expect((await t.request('PATCH', `/events/${e.id}`, { json: { slug: 'taken-slug' }, as: 'admin' })).body.slug).toBe('taken-slug-2');
      const del = await t.request('DELETE', '/events/by-slug/taken-slug-2', { as: 'admin' });
      expect([del.status, del.body.status]).toEqual([200, 'trash']);
    });

    it('answers 404/400 for updates of unknown or non-event ids', async () => {
      expectError(
        await t.request('POST', '/events/999999', { json: { title: 'x' }, as: 'admin' }),
        404,
        'rest-event-not-found',
        'Event with ID 999999 does not exist.',
      );
      expectError(await t.request('POST', '/events/999999', { json: { title: 'x' }, as: 'contributor' }), 404, 'rest-event-not-found');
      expect((await t.request('POST', '/events/999999', { json: { title: 'x' } })).body).toEqual(FORBIDDEN(401));
      const venue = await createLinked(t, 'venues', { venue: 'Update not' });
      expectError(
        await t.request('PATCH', `/events/${venue.id}`, { json: { title: 'x' }, as: 'admin' }),
        400,
        'rest-invalid-event-id',
        'The specified ID is not a valid event.',
      );
      // Validation still comes first.
      expect((await t.request('PATCH', '/events/999999', { json: { title: '' }, as: 'admin' })).body).toEqual(invalidParamBody('title'));
    });
  });

  describe('event writes: permissions per role', () => {
    it('follows auth.md §1.1 for updates and deletes by id', async () => {
      const admins = await createEvent(t);
      const upd = (id: number, as: As) => t.request('POST', `/events/${id}`, { json: { excerpt: 'changed' }, as }).then((r) => r.status);
      expect(await upd(admins.id, null)).toBe(401);
      expect(await upd(admins.id, 'subscriber')).toBe(403);
      expect(await upd(admins.id, 'contributor')).toBe(403);
      expect(await upd(admins.id, 'author')).toBe(403);
      expect(await upd(admins.id, 'editor')).toBe(200);
      const ownDraft = await createEvent(t, {}, 'contributor');
      expect(await upd(ownDraft.id, 'contributor')).toBe(200);
      expect(await upd(ownDraft.id, 'contributor2')).toBe(403);
      const ownPublished = await createEvent(t, { author: 4 });
      expect(ownPublished.author).toBe('4');
      expect(await upd(ownPublished.id, 'contributor')).toBe(403);
      expect((await t.request('DELETE', `/events/${ownPublished.id}`, { as: 'contributor' })).status).toBe(403);
      const authors = await createEvent(t, {}, 'author');
      expect(await upd(authors.id, 'author')).toBe(200);
      expect(await upd(authors.id, 'author2')).toBe(403);
      // A contributor's update scales `publish` back.
      const scaled = await t.request('POST', `/events/${ownDraft.id}`, { json: { status: 'publish' }, as: 'contributor' });
      expect(scaled.body.status).toBe('pending');
      expect((await t.request('DELETE', `/events/${ownDraft.id}`, { as: 'contributor' })).status).toBe(200);
      expect((await t.request('DELETE', `/events/${authors.id}`, { as: 'author' })).status).toBe(200);
      // The Allow header reflects the per-event check.
      expect((await t.request('GET', `/events/${admins.id}`, { as: 'contributor' })).headers.Allow).toBe('GET');
      expect((await t.request('GET', `/events/${ownPublished.id}`, { as: 'editor' })).headers.Allow).toBe('GET, DELETE, POST, PUT, PATCH');
    });

    it('applies the same per-event check to by-slug writes', async () => {
      await createEvent(t, { title: 'Admin slug event' });
      expect((await t.request('DELETE', '/events/by-slug/admin-slug-event', { as: 'contributor' })).body).toEqual(FORBIDDEN(403));
      expect((await t.request('PATCH', '/events/by-slug/admin-slug-event', { json: { excerpt: 'x' }, as: 'contributor' })).body).toEqual(FORBIDDEN(403));
      expect((await t.request('PATCH', '/events/by-slug/admin-slug-event', { json: { excerpt: 'x' } })).body).toEqual(FORBIDDEN(401));
      await createEvent(t, { title: 'Contrib published', slug: 'contrib-published', author: 4 });
      expect((await t.request('PATCH', '/events/by-slug/contrib-published', { json: { excerpt: 'x' }, as: 'contributor' })).status).toBe(403);
      const pending = await createEvent(t, { slug: 'contrib-pending', status: 'publish' }, 'contributor');
      expect(pending.status).toBe('pending');
      const ok = await t.request('PATCH', '/events/by-slug/contrib-pending', { json: { excerpt: 'mine' }, as: 'contributor' });
      expect([ok.status, ok.body.excerpt, ok.body.status]).toEqual([200, '<p>mine</p>', 'pending']);
      expect((await t.request('DELETE', '/events/by-slug/contrib-pending', { as: 'contributor2' })).status).toBe(403);
      expect((await t.request('DELETE', '/events/by-slug/contrib-pending', { as: 'contributor' })).status).toBe(200);
    });
  });

  describe('event writes: the answer', () => {
    it('shows a new event as a read of it then does, however the write stored it', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Answer hall' });
      const organizer = await createLinked(t, 'organizers', { organizer: 'Answer org' });
      const second = await createLinked(t, 'organizers', { organizer: 'Answer org two' });
      const every = eventFields({
        title: 'Answer test',
        description: '<p>Its body</p>',
        excerpt: 'Short',
        timezone: 'Europe/Paris',
        venue: venue.id,
        // Not in the order of their ids: the links keep the order given.
        organizer: [second.id, organizer.id],
        categories: ['answer-cat'],
        tags: ['answer-tag'],
        cost: '15',
        website: 'https://example.org/answer',
        featured: true,
        hide_from_listings: true,
        show_map: true,
        show_map_link: true,
        sticky: true,
      });
      const cases: Record<string, Record<string, unknown>> = {
        'every column sent': every,
        'a slug made of its id': { ...every, title: '!!!' },
        'a series': { ...every, title: 'Answer series', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] },
        'a draft': { ...every, title: 'Answer draft', status: 'draft' },
        'all day, nothing optional': eventFields({ title: 'Answer all day', all_day: true }),
      };
      for (const [name, json] of Object.entries(cases)) {
        const created = await t.request('POST', '/events', { json, as: 'admin' });
        expect({ name, status: created.status }).toEqual({ name, status: 201 });
        const read = await t.request('GET', `/events/${created.body.id}`, { as: 'admin' });
        expect({ name, body: created.body }).toEqual({ name, body: withoutJsonLd(read.body) });
      }
    });
  });

  describe('event writes: statements', () => {
    it('makes an event with its venue, organizer and category in a bounded number of statements', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Budget hall' });
      const organizer = await createLinked(t, 'organizers', { organizer: 'Budget org' });
      await createTerm(t, 'categories', { name: 'Budget cat' });
      const json = (title: string) => eventFields({ title, venue: venue.id, organizer: [organizer.id], categories: ['budget-cat'] });
      expect((await t.request('POST', '/events', { json: json('Budget one'), as: 'admin' })).status).toBe(201);
      const { value: created, statements } = await t.probe.statementsOf(() => t.request('POST', '/events', { json: json('Budget two'), as: 'admin' }));
      expect(created.body).toMatchObject({ venue: { id: venue.id }, organizer: [{ id: organizer.id }], categories: [{ slug: 'budget-cat', count: 2 }] });
      // Where a WITH may write (PostgreSQL), the event's two inserts with its slug's check and its
      // organizers' links, its terms' look-up by slug with their links and counts, and its
      // change-log entry each take one statement, and the answer reads nothing again; the checks
      // of `venue` and `organizer` look both ids up in one query.
      const budget: Record<string, number> = { sqlite: 13, postgres: 6, mysql: 15 };
      expect(statements).toBeLessThanOrEqual(budget[dialect] ?? 0);
    });

    it('looks up the organizers and terms a write names by id or slug at once, whatever their number', async () => {
      const orgs = await Promise.all([1, 2, 3].map((i) => createLinked(t, 'organizers', { organizer: `Many org ${i}` })));
      const cats = await Promise.all([1, 2, 3, 4].map((i) => createTerm(t, 'categories', { name: `Many cat ${i}` })));
      const tags = await Promise.all([1, 2, 3].map((i) => createTerm(t, 'tags', { name: `Many tag ${i}` })));
      const statementsFor = async (title: string, organizer: unknown[], categories: unknown[], tagList: unknown[]) => {
        const json = eventFields({ title, organizer, categories, tags: tagList });
        const { value, statements } = await t.probe.statementsOf(() => t.request('POST', '/events', { json, as: 'admin' }));
        expect(value.status).toBe(201);
        return { statements, linked: [value.body.organizer.length, value.body.categories.length, value.body.tags.length] };
      };
      const one = await statementsFor('Many one', [orgs[0]!.id], [cats[0]!.slug], [tags[0]!.slug]);
      const many = await statementsFor(
        'Many two',
        [orgs[2]!.id, orgs[0]!.id, orgs[1]!.id, orgs[0]!.id],
        [cats[0]!.id, cats[1]!.slug, String(cats[2]!.id), cats[3]!.slug, 999999],
        [tags[0]!.slug, tags[1]!.id, tags[2]!.slug],
      );
      expect([one.linked, many.linked]).toEqual([
        [1, 1, 1],
        [3, 4, 3],
      ]);
      expect(many.statements).toBe(one.statements);
    });

    it('answers a new event with its row as stored (on PostgreSQL, as its insert returned it)', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Returned hall' });
      const organizer = await createLinked(t, 'organizers', { organizer: 'Returned org' });
      const events = (await t.calendar.services()).events;
      const input = { title: 'Returned', description: '<p>Said</p>', cost: '10', all_day: true, venue: venue.id, organizer: [organizer.id], featured: true };
      const { row } = await events.create({ ...eventFields(input) }, ADMIN, NOW);
      const stored = await t.db
        .selectFrom('posts')
        .innerJoin('events', 'events.post_id', 'posts.id')
        .selectAll('posts')
        .selectAll('events')
        .where('posts.id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(row).toStrictEqual(stored);
    });

    it('checks the venue and the organizers looked up together each against its own type', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Together hall' });
      const organizer = await createLinked(t, 'organizers', { organizer: 'Together org' });
      const before = await t.rows('posts');
      const refused = async (json: Record<string, unknown>) => (await t.request('POST', '/events', { json: eventFields(json), as: 'admin' })).body;
      expect(await refused({ venue: organizer.id, organizer: [organizer.id] })).toEqual(invalidParamBody('venue'));
      expect(await refused({ venue: venue.id, organizer: [venue.id] })).toEqual(invalidParamBody('organizer'));
      expect(await refused({ venue: venue.id, organizer: [organizer.id, 999_999] })).toEqual(invalidParamBody('organizer'));
      expect(await refused({ venue: `${venue.id}`, organizer: `${organizer.id},${venue.id}` })).toEqual(invalidParamBody('organizer'));
      // An organizer list over the size limit is refused for its size; the venue is still checked (and passes).
      const tooMany = Array.from({ length: 201 }, () => organizer.id);
      const over = await refused({ venue: venue.id, organizer: tooMany });
      expect(over).toMatchObject({ code: 'rest_invalid_param', message: 'Invalid parameter(s): organizer' });
      expect(over.data.details.organizer.code).toBe('rest_param_too_large');
      expect(await refused({ venue: 999_999, organizer: tooMany })).toMatchObject({ message: 'Invalid parameter(s): venue, organizer' });
      expect(await t.rows('posts')).toBe(before);
      const made = await t.request('POST', '/events', { json: eventFields({ venue: `${venue.id}`, organizer: `${organizer.id}` }), as: 'admin' });
      expect(made.body).toMatchObject({ venue: { id: venue.id }, organizer: [{ id: organizer.id }] });
    });
  });

  describe('event writes: one transaction', () => {
    const counts = async () => ({
      posts: await t.rows('posts'),
      events: await t.rows('events'),
      venues: await t.rows('venues'),
      organizers: await t.rows('organizers'),
      links: await t.rows('event_organizers'),
      terms: await t.rows('terms'),
      relationships: await t.rows('term_relationships'),
    });
    const full = () =>
      eventFields({
        venue: { venue: 'Rolled back hall' },
        organizer: [{ organizer: 'Rolled back org' }, { organizer: 'Second rolled back org' }],
        categories: ['rolled-back-cat'],
        tags: ['rolled-back-tag'],
      });

    it('leaves no venue, organizer, term or event behind when a later step fails', async () => {
      await createEvent(t, { title: 'Baseline' });
      for (const table of ['event_organizers', 'organizers', 'term_relationships', 'terms', 'events']) {
        const before = await counts();
        t.probe.failOnInsertInto = table;
        const res = await t.request('POST', '/events', { json: full(), as: 'admin' });
        t.probe.failOnInsertInto = undefined;
        expect({ table, status: res.status }).toEqual({ table, status: 500 });
        expect({ table, counts: await counts() }).toEqual({ table, counts: before });
      }
      // The same write then succeeds and creates everything once.
      const ok = await t.request('POST', '/events', { json: full(), as: 'admin' });
      expect(ok.status).toBe(201);
      expect(ok.body.organizer).toHaveLength(2);
    });

    it('leaves the event unchanged when an update fails half-way', async () => {
      const e = await createEvent(t, { title: 'Stable', organizer: [{ organizer: 'Stable org' }], categories: ['stable-cat'] });
      const before = await counts();
      t.probe.failOnInsertInto = 'term_relationships';
      const res = await t.request('POST', `/events/${e.id}`, {
        json: { title: 'Changed', venue: { venue: 'Update rolled back hall' }, organizer: [{ organizer: 'New org' }], categories: ['new-cat'] },
        as: 'admin',
      });
      t.probe.failOnInsertInto = undefined;
      expect(res.status).toBe(500);
      expect(await counts()).toEqual(before);
      const after = await t.request('GET', `/events/${e.id}`, { as: 'admin' });
      expect(withoutJsonLd(after.body)).toEqual(e);
    });

    it('leaves nothing behind when validation or a linked entry fails', async () => {
      const before = await counts();
      const bad = [
        { organizer: [{ organizer: 'Org ok' }, 999999] },
        { organizer: [{ organizer: 'Org ok' }, { organizer: '', phone: '555' }] },
        { venue: [{ venue: 'One' }, { venue: 'Two' }] },
        { start_date: '2026-02-30' },
        { image: 'http://127.0.0.1:9/nothing.png' },
        { timezone: 'Nowhere/Land' },
        { website: 'not a url' },
      ];
      for (const extra of bad) {
        const res = await t.request('POST', '/events', { json: { ...full(), ...extra }, as: 'admin' });
        expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
      }
      expect(await counts()).toEqual(before);
    });
  });
});
