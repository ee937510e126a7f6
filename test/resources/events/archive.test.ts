import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRow } from '../../helpers/store.js';
import { DIALECTS, type As, type TestCalendar } from '../../helpers/harness.js';
import {
  EVENT_KEYS,
  createEvent,
  createEvent as createEventAt,
  createLinked,
  createTerm,
  expectError,
  idsOf,
  invalidParamBody,
  probedCalendar,
  typeErrorBody,
  utcDay,
  utcWallClock,
  type ProbedCalendar,
} from './fixtures.js';

/** The UTC calendar date 24 months after `d` (PHP and JavaScript overflow months alike). */
function in24Months(d: Date): Date {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + 24);
  return out;
}

/** Query strings are sent exactly as written (raw spaces encoded by the client as %20). */
const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe.each(DIALECTS)('events: archive on $name', ({ url }) => {
  let t: ProbedCalendar;
  beforeAll(async () => {
    t = await probedCalendar(url);
  }, 180_000);
  afterAll(() => t?.close());

  describe('events archive: date window', () => {
    /** Event ids of 2027-02-01 … 2027-02-07, 10:00–11:00 each (index 1 = day 1). */
    const day: number[] = [];
    beforeAll(async () => {
      for (let d = 1; d <= 7; d++) {
        const e = await createEvent(t, { title: `Day ${d}`, start_date: `2027-02-0${d} 10:00:00`, end_date: `2027-02-0${d} 11:00:00` });
        day[d] = e.id;
      }
    }, 180_000);

    const days = (...n: number[]) => n.map((d) => day[d]);
    const list = (query: Record<string, string>) => t.request('GET', '/events', { query: { per_page: '50', ...query } });

    it('reproduces every live example of lists.md §5.1', async () => {
      const b = `${t.base}/events/?page=1&per_page=50`;
      let r = await list({ start_date: '2027-02-03 15:00:00', end_date: '2027-02-05 09:00:00' });
      expect(idsOf(r)).toEqual(days(3, 4, 5));
      expect(r.body.rest_url).toBe(`${b}&start_date=2027-02-03 00:00:00&end_date=2027-02-05 23:59:59&status=publish`);
      r = await list({ start_date: '2027-02-03 09:00:00', end_date: '2027-02-05 10:30:00', strict_dates: 'true' });
      expect(idsOf(r)).toEqual(days(3, 4));
      expect(r.body.rest_url).toBe(`${b}&start_date=2027-02-03 09:00:00&end_date=2027-02-05 10:30:00&status=publish&strict_dates=true`);
      r = await list({ starts_after: '2027-02-03' });
      expect(idsOf(r)).toEqual(days(4, 5, 6, 7));
      expect(r.body.rest_url).toBe(`${b}&status=publish&starts_after=2027-02-03 23:59:59`);
      r = await list({ starts_before: '2027-02-03' });
      expect(idsOf(r)).toEqual(days(1, 2, 3));
      r = await list({ ends_before: '2027-02-02', ends_after: '2027-01-31' });
      expect(idsOf(r)).toEqual(days(1, 2));
      expect(r.body.rest_url).toBe(`${b}&status=publish&ends_before=2027-02-02 23:59:59&ends_after=2027-01-31 23:59:59`);
      r = await list({ starts_after: '2027-02-05 10:00:00', strict_dates: '1' });
      expect(idsOf(r)).toEqual(days(6, 7));
      r = await list({ start_date: '2027-02-03', ends_before: '2027-02-06' });
      expect(idsOf(r)).toEqual(days(3, 4, 5, 6));
      expect(r.body.rest_url).toBe(`${b}&start_date=2027-02-03 00:00:00&status=publish&ends_before=2027-02-06 23:59:59`);
      r = await list({ start_date: '1800000000', end_date: '2027-02-02' });
      expect(r.body.rest_url).toBe(`${b}&start_date=2027-01-15 00:00:00&end_date=2027-02-02 23:59:59&status=publish`);
      expect(idsOf(r)).toEqual(days(1, 2));
      const tomorrow = utcDay(new Date(), 1);
      r = await list({ starts_after: 'tomorrow 9am' });
      expect(r.body.rest_url).toBe(`${b}&status=publish&starts_after=${tomorrow} 23:59:59`);
      expect(idsOf(r)).toEqual(days(1, 2, 3, 4, 5, 6, 7).filter((_, i) => `2027-02-0${i + 1} 10:00:00` > `${tomorrow} 23:59:59`));
      // Strict mode compares with the value as given; non-truthy words select inclusive mode.
      r = await list({ start_date: '2027-02-03 10:00:01', strict_dates: 'false' });
      expect(idsOf(r)).toEqual(days(3, 4, 5, 6, 7));
      r = await list({ start_date: '2027-02-03 10:00:01', strict_dates: 'YES' });
      expect(idsOf(r)).toEqual(days(4, 5, 6, 7));
      r = await list({ starts_before: '2027-02-03 10:00:00', strict_dates: 'on' });
      expect(idsOf(r)).toEqual(days(1, 2));
      r = await list({ ends_after: '2027-02-06 11:00:00', strict_dates: 'true' });
      expect(idsOf(r)).toEqual(days(7));
    });

    it('refuses unparsable dates and an empty strict_dates', async () => {
      for (const [name, value] of [
        ['start_date', 'before my birthday'],
        ['start_date', ''],
        ['end_date', 'nope'],
        ['starts_before', 'x'],
        ['starts_after', ''],
        ['ends_before', '2027-99-99'],
        ['ends_after', 'soon-ish'],
        ['strict_dates', ''],
        ['start_date', '1970-01-01'],
      ] as const) {
        const r = await t.request('GET', '/events', { query: { [name]: value } });
        expect({ name, value, body: r.body }).toEqual({ name, value, body: invalidParamBody(name) });
        expect(r.headers['X-TEC-Total']).toBeUndefined();
      }
      for (const value of ['1970-01-01 00:00:01', '1969-12-31', '0', '1', '-5']) {
        expect((await t.request('GET', '/events', { query: { start_date: value } })).status).toBe(200);
      }
    });

    it('compares inclusive and strict bounds like the upstream unit tests', async () => {
      const a = await createEvent(t, { start_date: '2018-01-01 16:00:00', end_date: '2018-01-01 16:30:00' });
      const c = await createEvent(t, { start_date: '2018-01-01 20:00:00', end_date: '2018-01-01 20:30:00' });
      const multi = await createEvent(t, { start_date: '2017-12-30 10:00:00', end_date: '2018-01-03 10:00:00' });
      const before = await createEvent(t, { start_date: '2017-12-20 10:00:00', end_date: '2017-12-20 11:00:00' });
      const q = { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' };
      expect(idsOf(await list(q))).toEqual([a.id, c.id]);
      expect(idsOf(await list({ ...q, strict_dates: 'true' }))).toEqual([a.id]);
      const overlap = idsOf(await list({ ends_after: '2017-12-31', starts_before: '2018-01-02' }));
      expect(overlap).toEqual([multi.id, a.id, c.id]);
      expect(overlap).not.toContain(before.id);
    });
  });

  describe('events archive: defaults and include', () => {
    let darwin: TestCalendar;
    let newYork: TestCalendar;
    beforeAll(async () => {
      darwin = await t.variant({ timezone: 'Australia/Darwin' });
      newYork = await t.variant({ timezone: 'America/New_York' });
    }, 180_000);

    it('lists events starting yesterday or later and ending within 24 months by default', async () => {
      const now = new Date();
      const yesterday = utcDay(now, -1);
      const endDay = in24Months(now).toISOString().slice(0, 10);
      const startedYesterday = await createEvent(t, { start_date: `${yesterday} 10:00:00`, end_date: `${yesterday} 11:00:00` });
      const startedBefore = await createEvent(t, { start_date: `${utcDay(now, -2)} 23:00:00`, end_date: `${utcDay(now, 1)} 11:00:00` });
      const running = await createEvent(t, { start_date: `${utcDay(now, -20)} 10:00:00`, end_date: `${utcDay(now, 40)} 10:00:00` });
      const soon = await createEvent(t, { start_date: `${utcDay(now, 3)} 10:00:00`, end_date: `${utcDay(now, 3)} 11:00:00` });
      const lastDay = await createEvent(t, { start_date: `${endDay} 10:00:00`, end_date: `${endDay} 23:59:59` });
      const tooLate = await createEvent(t, { start_date: `${endDay} 10:00:00`, end_date: `${utcDay(new Date(`${endDay}T00:00:00Z`), 1)} 00:00:00` });
      // Other tests' events of 2027 are in the window too: check membership and order.
      const r = await t.request('GET', '/events', { query: { per_page: '50' } });
      expect(r.status).toBe(200);
      const listed = idsOf(r);
      expect(listed.filter((id) => [startedYesterday.id, soon.id, lastDay.id].includes(id))).toEqual([startedYesterday.id, soon.id, lastDay.id]);
      expect(listed.indexOf(lastDay.id)).toBe(listed.length - 1);
      expect(r.body.rest_url).toBe(`${t.base}/events/?page=1&per_page=50&start_date=${yesterday} 00:00:00&end_date=${endDay} 23:59:59&status=publish`);
      for (const id of [startedBefore.id, running.id, tooLate.id]) expect(listed).not.toContain(id);
      // An explicit start date finds the running event.
      expect(idsOf(await t.request('GET', '/events', { query: { start_date: utcDay(now, -20) } }))).toContain(running.id);
      // A relative bound drops both default bounds.
      const rel = await t.request('GET', '/events', { query: { starts_after: utcDay(now, -30), per_page: '50' } });
      expect(idsOf(rel)).toEqual(expect.arrayContaining([running.id, tooLate.id, startedBefore.id]));
      expect(rel.body.rest_url).not.toContain('start_date=');
      expect(rel.body.rest_url).not.toContain('end_date=');
      // …unless the default's own parameter is sent too.
      const kept = await t.request('GET', '/events', { query: { starts_after: utcDay(now, -30), end_date: utcDay(now, 40) } });
      expect(kept.body.rest_url).toContain(`end_date=${utcDay(now, 40)} 23:59:59`);
      expect(kept.body.rest_url).not.toContain('start_date=');
    });

    it('computes the default start bound in the site zone', async () => {
      const now = new Date();
      const endDay = in24Months(now).toISOString().slice(0, 10);
      // "yesterday 23:59 UTC" is already today in Darwin, still yesterday in New York.
      const d = await darwin.request('GET', '/events');
      expect(d.body.rest_url).toBe(
        `${darwin.base}/events/?page=1&per_page=10&start_date=${utcDay(now, 0)} 00:00:00&end_date=${endDay} 23:59:59&status=publish`,
      );
      const n = await newYork.request('GET', '/events');
      expect(n.body.rest_url).toBe(
        `${newYork.base}/events/?page=1&per_page=10&start_date=${utcDay(now, -1)} 00:00:00&end_date=${endDay} 23:59:59&status=publish`,
      );
      // Strict bounds: the value read as UTC, shown in the site zone.
      const strict = await darwin.request('GET', '/events', { query: { start_date: '2027-02-03 00:00:00', strict_dates: 'true' } });
      expect(strict.body.rest_url).toContain('start_date=2027-02-03 09:30:00&');
    });

    it('keeps the raw default window for include, ignoring explicit dates, and orders by publication', async () => {
      const now = new Date();
      const yesterday = utcDay(now, -1);
      const old = await createEvent(t, { start_date: '2020-01-01 10:00:00', end_date: '2020-01-01 11:00:00' });
      const yesterdayMorning = await createEvent(t, { start_date: `${yesterday} 10:00:00`, end_date: `${yesterday} 11:00:00` });
      // Upcoming (inside the default window), published in the opposite order.
      const at = (days: number) => ({ start_date: `${utcDay(now, days)} 10:00:00`, end_date: `${utcDay(now, days)} 11:00:00` });
      const laterPublished = await createEvent(t, { date: '2026-01-05 10:00:00', ...at(60) });
      const earlierPublished = await createEvent(t, { date: '2026-01-01 10:00:00', ...at(90) });
      const hidden = await createEvent(t, { hide_from_listings: true, ...at(60) });
      const include = [old.id, yesterdayMorning.id, laterPublished.id, earlierPublished.id, hidden.id, 999999].join(',');
      const before = new Date();
      const r = await t.request('GET', '/events', { query: { include } });
      const after = new Date();
      expect(idsOf(r)).toEqual([earlierPublished.id, laterPublished.id]);
      const m = /^(.*)&start_date=(.*)&end_date=(.*)&status=publish&include=(.*)$/.exec(r.body.rest_url);
      expect(m?.[1]).toBe(`${t.base}/events/?page=1&per_page=10`);
      expect(m?.[2]).toBe(`${yesterday} 23:59:00`);
      const rawEnd = m?.[3] ?? '';
      expect(rawEnd >= utcWallClock(in24Months(new Date(before.getTime() - 1000))) && rawEnd <= utcWallClock(in24Months(after))).toBe(true);
      expect(m?.[4]).toBe(include);
      // Explicit dates are ignored with include.
      expect(idsOf(await t.request('GET', '/events', { query: { include, start_date: '2020-01-01', end_date: '2020-12-31' } }))).toEqual([
        earlierPublished.id,
        laterPublished.id,
      ]);
      // A relative bound drops the defaults; hidden events stay out.
      const rel = await t.request('GET', '/events', { query: { include, starts_after: '2019-01-01' } });
      expect(idsOf(rel)).toEqual([earlierPublished.id, laterPublished.id, old.id, yesterdayMorning.id]);
      expect(idsOf(rel)).not.toContain(hidden.id);
      // Array form.
      const arr = await t.request('GET', '/events', { query: `include[]=${laterPublished.id}&include[]=${earlierPublished.id}` });
      expect(idsOf(arr)).toEqual([earlierPublished.id, laterPublished.id]);
      for (const bad of ['foo-bar,23,89', '', '0', '-1', '1.5', `${old.id},x`]) {
        expect((await t.request('GET', '/events', { query: { include: bad } })).body).toEqual(invalidParamBody('include'));
      }
    });

    it('never lists hidden events, orders by start then id, ignores sticky and featured', async () => {
      const s = '2027-09-09 10:00:00';
      const e = '2027-09-09 11:00:00';
      const a = await createEvent(t, { start_date: s, end_date: e });
      const sticky = await createEvent(t, { start_date: s, end_date: e, sticky: true, featured: true });
      const c = await createEvent(t, { start_date: s, end_date: e, date: '2020-01-01 00:00:00' });
      const earlier = await createEvent(t, { start_date: '2027-09-09 09:59:59', end_date: e });
      const hidden = await createEvent(t, { start_date: s, end_date: e, hide_from_listings: true });
      const r = await t.request('GET', '/events', { query: { start_date: '2027-09-09', end_date: '2027-09-09' }, as: 'admin' });
      expect(idsOf(r)).toEqual([earlier.id, a.id, sticky.id, c.id]);
      expect(r.body.total).toBe(4);
      expect((await t.request('GET', `/events/${hidden.id}`)).body.hide_from_listings).toBe(true);
      // Local start order: a New York event at 09:30 local sorts first, whatever its UTC start.
      const ny = await createEvent(t, { start_date: '2027-09-09 09:30:00', end_date: '2027-09-09 10:30:00', timezone: 'America/New_York' });
      expect(idsOf(await t.request('GET', '/events', { query: { start_date: '2027-09-09', end_date: '2027-09-09' } }))[0]).toBe(ny.id);
    });
  });

  describe('events archive: filters', () => {
    // Events of this block are all on 2027-11-15; other blocks use other days.
    const q = { start_date: '2027-11-01', end_date: '2027-11-30' };
    const createEvent = (t: ProbedCalendar, fields: Record<string, unknown> = {}, as: As = 'admin') =>
      createEventAt(t, { start_date: '2027-11-15 10:00:00', end_date: '2027-11-15 11:00:00', ...fields }, as);

    const list = async (query: Record<string, string> | string, as: As = null) =>
      t.request('GET', '/events', { query: typeof query === 'string' ? `${qs(q)}&${query}` : { ...q, ...query }, as });

    it('searches titles, excerpts and contents word by word', async () => {
      const foo = await createEvent(t, { title: 'foo' });
      const fooBar = await createEvent(t, { title: 'Foo bar' });
      const inContent = await createEvent(t, { title: 'Other', description: 'has FOO inside' });
      const inExcerpt = await createEvent(t, { title: 'Third', excerpt: 'a foobar excerpt' });
      const percent = await createEvent(t, { title: 'Sale 50% off' });
      const fifty = await createEvent(t, { title: 'Sale 500 off' });
      expect(idsOf(await list({ search: 'foo' }))).toEqual([foo.id, fooBar.id, inContent.id, inExcerpt.id]);
      expect(idsOf(await list({ search: 'bar foo' }))).toEqual([fooBar.id, inExcerpt.id]);
      expect(idsOf(await list({ search: 'foo -bar' }))).toEqual([foo.id, inContent.id]);
      expect(idsOf(await list({ search: '"foo bar"' }))).toEqual([fooBar.id]);
      expect(idsOf(await list({ search: 'the foo' }))).toEqual([foo.id, fooBar.id, inContent.id, inExcerpt.id]);
      expect(idsOf(await list({ search: '50%' }))).toEqual([percent.id]);
      expect(idsOf(await list({ search: 'sale_' }))).toEqual([]);
      expect(idsOf(await list({ search: fifty.title }))).toEqual([fifty.id]);
      // Case-insensitive beyond ASCII too.
      const ete = await createEvent(t, { title: 'Été à Zürich' });
      expect(idsOf(await list({ search: 'ÉTÉ' }))).toEqual([ete.id]);
      expect(idsOf(await list({ search: 'ZÜRICH été' }))).toEqual([ete.id]);
      const r = await list({ search: 'a b' });
      expect(r.body.rest_url).toContain('&search=a b&');
      expect((await list({ search: '' })).body).toEqual(invalidParamBody('search'));
      expect((await list('search[]=x')).body).toEqual(invalidParamBody('search'));
    });

    it('filters by categories and tags given as ids, slugs or names, any-of, with children', async () => {
      const music = await createTerm(t, 'categories', { name: 'Music', slug: 'music' });
      const jazz = await createTerm(t, 'categories', { name: 'Jazz', slug: 'jazz-slug', parent: music.id });
      const art = await createTerm(t, 'categories', { name: 'Art' });
      const tagA = await createTerm(t, 'tags', { name: 'Tag A', slug: 'tag-a' });
      const tagB = await createTerm(t, 'tags', { name: 'Tag B' });
      const m = await createEvent(t, { categories: [music.id] });
      const j = await createEvent(t, { categories: [jazz.id], tags: [tagA.id] });
      const a = await createEvent(t, { categories: [art.id], tags: [tagB.id] });
      await createEvent(t, {});
      expect(idsOf(await list({ categories: String(music.id) }))).toEqual([m.id, j.id]);
      expect(idsOf(await list({ categories: 'music' }))).toEqual([m.id, j.id]);
      expect(idsOf(await list({ categories: 'Jazz' }))).toEqual([j.id]);
      expect(idsOf(await list({ categories: 'jazz-slug,art' }))).toEqual([j.id, a.id]);
      expect(idsOf(await list(`categories[]=${art.id}&categories[]=jazz-slug`))).toEqual([j.id, a.id]);
      expect(idsOf(await list({ tags: 'tag-a' }))).toEqual([j.id]);
      // Comma lists are split at commas only: names may contain spaces.
      expect(idsOf(await list({ tags: `Tag B, ${tagA.id}` }))).toEqual([j.id, a.id]);
      expect(idsOf(await list(`tags[]=Tag B&tags[]=${tagA.id}`))).toEqual([j.id, a.id]);
      expect(idsOf(await list({ tags: 'tag-a', categories: 'art' }))).toEqual([]);
      for (const [name, value] of [
        ['categories', 'nope'],
        ['categories', ''],
        ['categories', `${music.id},999999`],
        ['categories', String(tagA.id)],
        ['tags', 'music'],
        ['tags', ''],
      ] as const) {
        expect((await list({ [name]: value })).body).toEqual(invalidParamBody(name));
      }
      // Carried into the paging URLs (recommendation of lists.md §4.1).
      const r = await list({ categories: 'music,jazz-slug', tags: 'tag-a', per_page: '1' });
      expect(r.body.rest_url).toContain('&categories=music,jazz-slug&tags=tag-a');
      expect(r.body.next_rest_url).toBeUndefined();
      const two = await list({ categories: 'music', per_page: '1' });
      expect(two.body.next_rest_url).toBe(
        `${t.base}/events/?per_page=1&start_date=2027-11-01+00%3A00%3A00&end_date=2027-11-30+23%3A59%3A59&status=publish&categories=music&page=2`,
      );
    });

    it('filters by venue and organizer ids', async () => {
      const v1 = await createLinked(t, 'venues', { venue: 'Filter hall 1' });
      const v2 = await createLinked(t, 'venues', { venue: 'Filter hall 2' });
      const o1 = await createLinked(t, 'organizers', { organizer: 'Filter org 1' });
      const o2 = await createLinked(t, 'organizers', { organizer: 'Filter org 2' });
      const a = await createEvent(t, { venue: v1.id, organizer: [o1.id, o2.id] });
      const b = await createEvent(t, { venue: v2.id, organizer: [o2.id] });
      await createEvent(t, {});
      expect(idsOf(await list({ venue: String(v1.id) }))).toEqual([a.id]);
      expect(idsOf(await list({ venue: `${v1.id},${v2.id}` }))).toEqual([a.id, b.id]);
      expect(idsOf(await list(`venue[]=${v2.id}`))).toEqual([b.id]);
      expect(idsOf(await list({ organizer: String(o1.id) }))).toEqual([a.id]);
      expect(idsOf(await list({ organizer: `${o1.id},${o2.id}` }))).toEqual([a.id, b.id]);
      expect(idsOf(await list({ organizer: String(o2.id), venue: String(v2.id) }))).toEqual([b.id]);
      for (const [name, value] of [
        ['venue', '999999'],
        ['venue', String(o1.id)],
        ['venue', ''],
        ['venue', `${v1.id},abc`],
        ['organizer', String(v1.id)],
        ['organizer', '0'],
      ] as const) {
        expect((await list({ [name]: value })).body).toEqual(invalidParamBody(name));
      }
    });

    it('filters by featured and answers the exact 400 bodies of lists.md §5.2', async () => {
      const f = await createEvent(t, { featured: true, title: 'Featured one' });
      const all = idsOf(await list({}));
      const featured = idsOf(await list({ featured: 'true' }));
      expect(featured).toEqual([f.id]);
      expect(idsOf(await list({ featured: 'FALSE' }))).toEqual(all.filter((id) => id !== f.id));
      expect(idsOf(await list({ featured: '1' }))).toEqual([f.id]);
      expect((await t.request('GET', '/events', { query: { featured: 'yes' } })).text).toBe(
        '{"code":"rest_invalid_param","message":"Invalid parameter(s): featured","data":{"status":400,"params":{"featured":"featured is not of type boolean."},"details":{"featured":{"code":"rest_invalid_type","message":"featured is not of type boolean.","data":{"param":"featured"}}}}}',
      );
      expect((await t.request('GET', '/events', { query: { ticketed: 'true' } })).text).toBe(
        '{"code":"rest_invalid_param","message":"Invalid parameter(s): ticketed","data":{"status":400,"params":{"ticketed":"Event Tickets plugin is not activated."},"details":{"ticketed":{"code":"event-tickets-not-active","message":"Event Tickets plugin is not activated.","data":{"status":400}}}}}',
      );
      expect((await t.request('GET', '/events', { query: { ticketed: 'false' } })).status).toBe(200);
      expect((await t.request('GET', '/events', { query: { ticketed: 'maybe' } })).body).toEqual(typeErrorBody('ticketed', 'boolean'));
      expect((await t.request('GET', '/events', { query: { include: 'foo-bar,23,89' } })).text).toBe(
        '{"code":"rest_invalid_param","message":"Invalid parameter(s): include","data":{"status":400,"params":{"include":"Invalid parameter."},"details":[]}}',
      );
      expect((await t.request('GET', '/events', { query: { geoloc: 'foo' } })).body).toEqual(typeErrorBody('geoloc', 'boolean'));
      // Several failing validators are listed together, in declaration order.
      const many = await t.request('GET', '/events', { query: { page: '0', search: '', include: 'x' } });
      expect(many.body.message).toBe('Invalid parameter(s): page, search, include');
    });

    it('applies the status rules of auth.md §3.2', async () => {
      const pub = await createEvent(t, { title: 'Status pub', start_date: '2027-10-10 10:00:00', end_date: '2027-10-10 11:00:00' });
      const draft = await createEvent(t, { status: 'draft', start_date: '2027-10-10 10:00:00', end_date: '2027-10-10 11:00:00' });
      const priv = await createEvent(t, { status: 'private', start_date: '2027-10-10 10:00:00', end_date: '2027-10-10 11:00:00' });
      const pending = await createEvent(t, { status: 'publish', start_date: '2027-10-10 10:00:00', end_date: '2027-10-10 11:00:00' }, 'contributor2');
      expect(pending.status).toBe('pending');
      const future = await createEvent(t, { date: `${utcDay(new Date(), 400)} 10:00:00`, start_date: '2027-10-10 10:00:00', end_date: '2027-10-10 11:00:00' });
      const trashed = await createEvent(t, { start_date: '2027-10-10 10:00:00', end_date: '2027-10-10 11:00:00' });
      await t.request('DELETE', `/events/${trashed.id}`, { as: 'admin' });
      const window = { start_date: '2027-10-10', end_date: '2027-10-10' };
      const get = (query: Record<string, string>, as: As = null) => t.request('GET', '/events', { query: { ...window, ...query }, as });
      expect(idsOf(await get({}))).toEqual([pub.id]);
      expect(idsOf(await get({}, 'subscriber'))).toEqual([pub.id]);
      expect(idsOf(await get({ status: 'publish' }))).toEqual([pub.id]);
      expect(idsOf(await get({ status: 'any' }))).toEqual([pub.id]);
      for (const status of ['draft', 'publish, draft', 'publish,draft', 'trash']) {
        expect((await get({ status })).body).toEqual(invalidParamBody('status'));
        expect((await get({ status }, 'subscriber')).body).toEqual(invalidParamBody('status'));
      }
      const everyone = [pub.id, draft.id, priv.id, pending.id, future.id];
      const admin = await get({}, 'admin');
      expect(idsOf(admin)).toEqual(everyone);
      expect(admin.body.rest_url).toContain('&status=any');
      // Contributors see everyone's non-public events too (upstream, kept).
      expect(idsOf(await get({}, 'contributor'))).toEqual(everyone);
      expect(idsOf(await get({ status: 'draft' }, 'contributor'))).toEqual([draft.id]);
      expect(idsOf(await get({ status: 'any' }, 'admin'))).toEqual(everyone);
      const two = await get({ status: 'publish,draft', per_page: '1' }, 'admin');
      expect(idsOf(two)).toEqual([pub.id]);
      expect(two.body.rest_url).toContain('&status=publish,draft');
      expect(two.body.next_rest_url).toContain('&status=publish%2Cdraft&page=2');
      expect(idsOf(await t.request('GET', '/events', { query: `${qs(window)}&status[]=private&status[]=pending`, as: 'admin' }))).toEqual([
        priv.id,
        pending.id,
      ]);
      expect(idsOf(await get({ status: 'trash' }, 'admin'))).toEqual([trashed.id]);
      expect((await get({ status: 'bogus' }, 'admin')).body).toEqual(invalidParamBody('status'));
      expect((await get({ status: '' }, 'admin')).body).toEqual(invalidParamBody('status'));
    });

    it('filters by post_parent, echoes geoloc and ignores unknown parameters', async () => {
      const parent = await createEvent(t, { title: 'Parent' });
      const child = await createEvent(t, { title: 'Child' });
      await t.db.updateTable('posts').set({ parent: parent.id }).where('id', '=', child.id).execute();
      expect(idsOf(await list({ post_parent: String(parent.id) }))).toEqual([child.id]);
      const venue = await createLinked(t, 'venues', { venue: 'Parent venue' });
      for (const value of ['foo-bar', '999999', String(venue.id), '', '1.5']) {
        expect((await list({ post_parent: value })).body).toEqual(invalidParamBody('post_parent'));
      }
      const geo = await list({ geoloc: '1', geoloc_lat: '45.5', geoloc_lng: '9.1', orderby: 'title', order: 'desc', per_page: '1' });
      expect(geo.status).toBe(200);
      expect(geo.body.rest_url).toBe(
        `${t.base}/events/?page=1&per_page=1&start_date=2027-11-01 00:00:00&end_date=2027-11-30 23:59:59&geoloc=1&geoloc_lat=45.5&geoloc_lng=9.1&status=publish`,
      );
      const noGeo = await list({ geoloc: 'false', geoloc_lat: '45.5', per_page: '1' });
      expect(noGeo.body.rest_url).not.toContain('geoloc');
    });
  });

  describe('events archive: paging', () => {
    const ids: number[] = [];
    let venue: number;
    beforeAll(async () => {
      venue = (await createLinked(t, 'venues', { venue: 'Paging hall' })).id;
      for (let i = 0; i < 7; i++) {
        const e = await createEvent(t, { start_date: `2027-04-0${i + 1} 10:00:00`, end_date: `2027-04-0${i + 1} 11:00:00`, venue: i < 2 ? venue : undefined });
        ids.push(e.id);
      }
    }, 180_000);

    const window = { start_date: '2027-04-01', end_date: '2027-04-30' };
    const rawQ = 'start_date=2027-04-01 00:00:00&end_date=2027-04-30 23:59:59&status=publish';
    const encQ = 'start_date=2027-04-01+00%3A00%3A00&end_date=2027-04-30+23%3A59%3A59&status=publish';

    it('builds rest_url, next_rest_url and previous_rest_url exactly (lists.md §4.1)', async () => {
      const base = `${t.base}/events/`;
      const page = async (n: number) => t.request('GET', '/events', { query: { ...window, per_page: '3', page: String(n) } });
      const p1 = await page(1);
      expect(Object.keys(p1.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(p1.body).toMatchObject({
        rest_url: `${base}?page=1&per_page=3&${rawQ}`,
        next_rest_url: `${base}?per_page=3&${encQ}&page=2`,
        total: 7,
        total_pages: 3,
      });
      expect(idsOf(p1)).toEqual(ids.slice(0, 3));
      expect([p1.headers['X-TEC-Total'], p1.headers['X-TEC-TotalPages']]).toEqual(['7', '3']);
      const p2 = await page(2);
      expect(Object.keys(p2.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(p2.body).toMatchObject({
        rest_url: `${base}?page=2&per_page=3&${rawQ}`,
        next_rest_url: `${base}?per_page=3&${encQ}&page=3`,
        previous_rest_url: `${base}?per_page=3&${encQ}`,
      });
      expect(idsOf(p2)).toEqual(ids.slice(3, 6));
      const p3 = await page(3);
      expect(Object.keys(p3.body)).toEqual(['events', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(p3.body.previous_rest_url).toBe(`${base}?per_page=3&${encQ}&page=2`);
      expect(idsOf(p3)).toEqual(ids.slice(6));
      const p4 = await page(4);
      expect(p4.status).toBe(404);
      expect(p4.text).toBe('{"code":"event-archive-page-not-found","message":"The requested event archive page does not exist","data":{"status":404}}');
      expect(p4.headers['X-TEC-Total']).toBeUndefined();
      expect(p4.headers.Allow).toBe('GET');
      expectError(await t.request('GET', '/events', { query: { ...window, page: '999999999999999' } }), 404, 'event-archive-page-not-found');
      // Following every URL the API emits works.
      for (const link of [p1.body.next_rest_url, p2.body.previous_rest_url, p2.body.rest_url, p3.body.previous_rest_url]) {
        const u = new URL(link);
        const r = await t.request('GET', '/events', { query: u.search.slice(1) });
        expect(r.status).toBe(200);
      }
    });

    it('switches to the encoded form when venue, organizer or featured is sent', async () => {
      const base = `${t.base}/events/`;
      const v = await t.request('GET', '/events', { query: { ...window, venue: String(venue), search: 'a b' } });
      expect(v.body.rest_url).toBe(
        `${base}?page=1&per_page=10&start_date=2027-04-01+00%3A00%3A00&end_date=2027-04-30+23%3A59%3A59&search=a+b&status=publish&venue=${venue}`,
      );
      const f = await t.request('GET', '/events', { query: { ...window, featured: 'false' } });
      expect(f.body.rest_url).toBe(`${base}?page=1&per_page=10&${encQ}`);
      const ft = await t.request('GET', '/events', { query: { ...window, featured: 'true' } });
      expect(ft.body.rest_url).toBe(`${base}?page=1&per_page=10&${encQ}&featured=1`);
      const two = await createLinked(t, 'venues', { venue: 'Second paging hall' });
      const vv = await t.request('GET', '/events', { query: { ...window, venue: `${venue},${two.id}`, per_page: '1' } });
      expect(vv.body.rest_url).toBe(`${base}?page=1&per_page=1&${encQ}&venue=${venue},${two.id}`);
      expect(vv.body.next_rest_url).toBe(`${base}?per_page=1&${encQ}&venue=${venue}%2C${two.id}&page=2`);
      const strict = await t.request('GET', '/events', { query: { ...window, strict_dates: 'true', per_page: '1' } });
      expect(strict.body.rest_url).toBe(
        `${base}?page=1&per_page=1&start_date=2027-04-01 00:00:00&end_date=2027-04-30 00:00:00&status=publish&strict_dates=true`,
      );
    });

    it('validates and clamps page and per_page', async () => {
      for (const name of ['page', 'per_page']) {
        for (const value of ['0', '-1', 'foo', '1.5', '', 'foo bar', '99999999999999999999']) {
          const r = await t.request('GET', '/events', { query: { [name]: value } });
          expect({ name, value, body: r.body }).toEqual({ name, value, body: invalidParamBody(name) });
        }
      }
      for (const perPage of ['500', '51', '999999999999999']) {
        const r = await t.request('GET', '/events', { query: { ...window, per_page: perPage } });
        expect(r.body.rest_url).toContain('?page=1&per_page=50&');
        expect(r.body.events).toHaveLength(7);
      }
      expect((await t.request('GET', '/events', { query: { ...window, per_page: '2', page: '04' } })).body.rest_url).toContain('?page=4&per_page=2&');
      // The mount's default is clamped too.
      const wide = await t.variant({ perPage: 100 });
      expect((await wide.request('GET', '/events', { query: window })).body.rest_url).toContain('?page=1&per_page=50&');
      const narrow = await t.variant({ perPage: 2 });
      const two = await narrow.request('GET', '/events', { query: window });
      expect([two.body.events.length, two.body.total_pages]).toEqual([2, 4]);
    });

    it('answers an empty first page with 200 and no paging links', async () => {
      const r = await t.request('GET', '/events', { query: { start_date: '2031-01-01', end_date: '2031-01-02' } });
      expect(r.status).toBe(200);
      expect(r.text).toBe(
        `{"events":[],"rest_url":"${t.base}/events/?page=1&per_page=10&start_date=2031-01-01 00:00:00&end_date=2031-01-02 23:59:59&status=publish","total":0,"total_pages":0}`,
      );
      expect([r.headers['X-TEC-Total'], r.headers['X-TEC-TotalPages']]).toEqual(['0', '0']);
      expect(r.headers.Vary).toBe('Origin');
    });

    it('answers HEAD like GET without a body', async () => {
      const head = await t.request('HEAD', '/events', { query: { ...window, per_page: '3' } });
      expect([head.status, head.text, head.headers['X-TEC-Total'], head.headers['X-TEC-TotalPages']]).toEqual([200, undefined, '7', '3']);
      expect((await t.request('HEAD', '/events', { query: { ...window, page: '9' } })).status).toBe(404);
    });

    it('lists archive items without json_ld, in the event shape', async () => {
      const r = await t.request('GET', '/events', { query: window });
      for (const e of r.body.events) expect(Object.keys(e)).toEqual(EVENT_KEYS);
      expect(r.body.events[0].venue.json_ld).toBeUndefined();
    });
  });

  describe('venues and organizers archives: event-based filters over real events', () => {
    it('filters by event, has_events and only_with_upcoming', async () => {
      const ids = (r: { body: Record<string, { id: number }[]> }, key: 'venues' | 'organizers') => (r.body[key] ?? []).map((x) => x.id).sort((a, b) => a - b);
      const mk = async (name: string) => ({
        venue: (await createLinked(t, 'venues', { venue: `Xf ${name} hall` })).id as number,
        organizer: (await createLinked(t, 'organizers', { organizer: `Xf ${name} org` })).id as number,
      });
      const upcoming = await mk('upcoming');
      const past = await mk('past');
      const draft = await mk('draft');
      const hidden = await mk('hidden');
      const priv = await mk('private');
      const trashed = await mk('trashed');
      const lonely = await mk('lonely');
      const soon = { start_date: `${utcDay(new Date(), 30)} 10:00:00`, end_date: `${utcDay(new Date(), 30)} 11:00:00` };
      const link = (l: { venue: number; organizer: number }, fields: Record<string, unknown>) =>
        createEvent(t, { venue: l.venue, organizer: [l.organizer], ...fields });
      const e = await link(upcoming, { ...soon });
      await link(past, { start_date: '2020-01-01 10:00:00', end_date: '2020-01-01 11:00:00' });
      await link(draft, { status: 'draft', ...soon });
      await link(hidden, { hide_from_listings: true, ...soon });
      await link(priv, { status: 'private', ...soon });
      const gone = await link(trashed, { ...soon });
      await t.request('DELETE', `/events/${gone.id}`, { as: 'admin' });
      for (const [key, pick] of [
        ['venues', (l: { venue: number }) => l.venue],
        ['organizers', (l: { organizer: number }) => l.organizer],
      ] as const) {
        const get = (query: Record<string, string>) => t.request('GET', `/${key}`, { query: { search: 'Xf', per_page: '50', ...query }, as: 'admin' });
        const all = [upcoming, past, draft, hidden, priv, trashed, lonely].map(pick);
        expect(ids(await get({}), key)).toEqual([...all].sort((a, b) => a - b));
        expect(ids(await t.request('GET', `/${key}`, { query: { event: String(e.id) } }), key)).toEqual([pick(upcoming)]);
        // has_events: publish, private, hidden, past and trashed events count; drafts do not.
        const withEvents = [upcoming, past, hidden, priv, trashed].map(pick).sort((a, b) => a - b);
        expect(ids(await get({ has_events: 'true' }), key)).toEqual(withEvents);
        expect(ids(await get({ has_events: 'false' }), key)).toEqual([pick(draft), pick(lonely)].sort((a, b) => a - b));
        // only_with_upcoming: listed upcoming events, in the statuses the caller's events archive lists (lists.md §6).
        expect(ids(await get({ only_with_upcoming: '1' }), key)).toEqual([upcoming, draft, priv].map(pick).sort((a, b) => a - b));
        const anonymous = await t.request('GET', `/${key}`, { query: { search: 'Xf', per_page: '50', only_with_upcoming: '1' } });
        expect(ids(anonymous, key)).toEqual([pick(upcoming)]);
        expect(ids(await get({ only_with_upcoming: 'false' }), key)).toEqual([...all].sort((a, b) => a - b));
      }
    });
  });

  describe('events archive: bounded queries', () => {
    beforeAll(async () => {
      const now = '2026-01-01 00:00:00';
      const attachment = await t.db
        .insertInto('posts')
        .values(postRow({ type: 'attachment', status: 'inherit', title: 'img', date: now }))
        .execute();
      void attachment;
      const { id: imageId } = await t.db.selectFrom('posts').select('id').where('type', '=', 'attachment').executeTakeFirstOrThrow();
      await t.db
        .insertInto('attachments')
        .values({ post_id: imageId, url: 'http://img.example/a.png', mime_type: 'image/png', width: 1, height: 1, filesize: 10, sizes: '{}' })
        .execute();
      for (let i = 0; i < 24; i++) {
        const e = await createEvent(t, {
          start_date: `2027-08-${String(i + 1).padStart(2, '0')} 10:00:00`,
          end_date: `2027-08-${String(i + 1).padStart(2, '0')} 11:00:00`,
          venue: { venue: `Perf hall ${i}` },
          organizer: [{ organizer: `Perf org ${i}` }, { organizer: `Perf org ${i + 100}` }],
          categories: [`perf-cat-${i}`, 'perf-shared'],
          tags: [`perf-tag-${i}`],
        });
        await t.db.updateTable('posts').set({ image_id: imageId }).where('id', '=', e.id).execute();
      }
    }, 180_000);

    const count = async (query: Record<string, string>, as: 'admin' | null = null) => {
      const { value: r, statements: n } = await t.probe.statementsOf(() =>
        t.request('GET', '/events', { query: { start_date: '2027-08-01', end_date: '2027-08-31', ...query }, as }),
      );
      expect(r.status).toBe(200);
      return { n, events: r.body.events.length as number };
    };

    it('runs the same number of queries whatever the page size', async () => {
      const small = await count({ per_page: '1' });
      const large = await count({ per_page: '24' });
      expect([small.events, large.events]).toEqual([1, 24]);
      // The second archive may reuse the first one's total (cached until the next write).
      expect(large.n).toBeLessThanOrEqual(small.n);
      expect(small.n).toBeLessThanOrEqual(12);
      const filtered = await count({ per_page: '24', categories: 'perf-shared', search: 'event' }, 'admin');
      expect(filtered.events).toBe(24);
      const filteredSmall = await count({ per_page: '2', categories: 'perf-shared', search: 'event' }, 'admin');
      expect(filteredSmall.n).toBeLessThanOrEqual(filtered.n);
      // Every event carries its image, venue, organizers and terms.
      const r = await t.request('GET', '/events', { query: { start_date: '2027-08-01', end_date: '2027-08-31', per_page: '24' } });
      for (const e of r.body.events) {
        expect(e.image).toMatchObject({ url: 'http://img.example/a.png', extension: 'png' });
        expect(e.venue.venue).toMatch(/^Perf hall/);
        expect(e.organizer).toHaveLength(2);
        expect(e.categories).toHaveLength(2);
        expect(e.tags).toHaveLength(1);
      }
    });

    it('reads a single event with a bounded number of queries', async () => {
      const [first] = (await t.request('GET', '/events', { query: { start_date: '2027-08-01', end_date: '2027-08-31', per_page: '1' } })).body.events;
      const { value: read, statements } = await t.probe.statementsOf(() => t.request('GET', `/events/${first.id}`));
      expect(read.status).toBe(200);
      expect(statements).toBeLessThanOrEqual(12);
    });
  });
});
