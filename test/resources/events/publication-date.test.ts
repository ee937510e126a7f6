import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/http/errors.js';
import type { EventRow } from '../../../src/resources/events/store.js';
import type { EventInput } from '../../../src/resources/events/args.js';
import type { Services } from '../../../src/resources/services.js';
import { ADMIN, NOW, sentIn, servicesOf, targetOf } from '../../helpers/direct.js';
import { DIALECTS, USERS } from '../../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

// The publication date of event writes (issue 29): a `date` that names its own offset keeps its
// digits, as measured on the original; and an unparsable `date` or `date_utc` is a 400
// `rest_invalid_date` on every path that reaches the write rules without the REST argument
// check (a venue or organizer created inside an event write, a direct call of the services, an
// occurrence override), where it used to date the item "now".

const EVENT = { title: 'Dated', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' };

/** WordPress' answer to a date it cannot read. */
const invalidDate = (param: 'date' | 'date_utc') => ({ code: 'rest_invalid_date', message: 'Invalid date.', data: { status: 400, param } });

/** The API error a promise was rejected with (fails the test when it resolved). */
async function rejected(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).toJSON();
  }
  throw new Error('expected the write to be refused');
}

describe.each(DIALECTS)('events: publication dates on $name', ({ url }) => {
  /** A UTC site, as in the measurement, and a Paris one (UTC+1 in winter). */
  let utc: StoreCalendar;
  let paris: StoreCalendar;
  let services: Services;

  beforeAll(async () => {
    utc = await storeCalendar(url);
    paris = await storeCalendar(url, { timezone: 'Europe/Paris' });
    services = await servicesOf(paris);
  }, 180_000);
  afterAll(async () => {
    await utc?.close();
    await paris?.close();
  });

  const dates = (body: { date: string; date_utc: string }) => [body.date, body.date_utc];

  describe('a date with its own offset', () => {
    it('keeps its digits, as the original does (measured on a UTC site)', async () => {
      const res = await utc.request('POST', '/events', { as: 'admin', json: { ...EVENT, timezone: 'America/New_York', date: '2026-01-05T10:00:00+02:00' } });
      expect(res.status).toBe(201);
      expect(dates(res.body)).toEqual(['2026-01-05 10:00:00', '2026-01-05 10:00:00']);
    });

    it('then reads the digits in the site zone, as WordPress derives a UTC date from a local one', async () => {
      const created = await paris.request('POST', '/events', {
        as: 'admin',
        json: { ...EVENT, timezone: 'America/New_York', date: '2026-01-05T10:00:00+02:00' },
      });
      expect(dates(created.body)).toEqual(['2026-01-05 10:00:00', '2026-01-05 09:00:00']);
      // An update, a `Z`, and an event without a zone of its own follow the same rule.
      const updated = await paris.request('POST', `/events/${created.body.id}`, { as: 'admin', json: { date: '2026-02-05T10:00:00Z' } });
      expect(dates(updated.body)).toEqual(['2026-02-05 10:00:00', '2026-02-05 09:00:00']);
      const siteZone = await paris.request('POST', '/events', { as: 'admin', json: { ...EVENT, date: '2026-07-05 10:00:00 -08:00' } });
      expect(dates(siteZone.body)).toEqual(['2026-07-05 10:00:00', '2026-07-05 08:00:00']);
      // A draft keeps no UTC date, whatever its `date`.
      const draft = await paris.request('POST', '/events', { as: 'admin', json: { ...EVENT, status: 'draft', date: '2026-01-05T10:00:00+02:00' } });
      expect(dates(draft.body)).toEqual(['2026-01-05 10:00:00', '0000-00-00 00:00:00']);
      // `date_utc` is an instant: its offset is applied.
      const both = await paris.request('POST', '/events', { as: 'admin', json: { ...EVENT, date_utc: '2026-01-05T10:00:00+02:00' } });
      expect(dates(both.body)).toEqual(['2026-01-05 09:00:00', '2026-01-05 08:00:00']);
    });

    it('reads a date in the site zone on an event whose zone names no real zone', async () => {
      // `UTCfoo` passes the zone check (TEC's); the date used to be replaced by now.
      const res = await paris.request('POST', '/events', { as: 'admin', json: { ...EVENT, timezone: 'UTCfoo', date: '2026-01-05 10:00:00' } });
      expect(res.status).toBe(201);
      expect(dates(res.body)).toEqual(['2026-01-05 10:00:00', '2026-01-05 09:00:00']);
    });
  });

  describe('an unparsable date', () => {
    it('is refused by the argument check of a REST write (TEC is_time), as before', async () => {
      const res = await paris.request('POST', '/events', { as: 'admin', json: { ...EVENT, date: 'foo' } });
      expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { date: 'Invalid parameter.' } } });
    });

    it('of a venue or organizer created inside an event write is a 400, and nothing is written', async () => {
      const before = await paris.rows('posts');
      const cases: [Record<string, unknown>, 'date' | 'date_utc'][] = [
        [{ venue: { venue: 'Nested hall', date: 'foo' } }, 'date'],
        [{ venue: { venue: 'Nested hall', date_utc: 'next blue moon' } }, 'date_utc'],
        [{ organizer: [{ organizer: 'Nested org', date: '' }] }, 'date'],
        // The organizer list is written in order: the first one would have been created.
        [{ organizer: [{ organizer: 'Good org' }, { organizer: 'Nested org', date_utc: 'foo' }] }, 'date_utc'],
      ];
      for (const [linked, param] of cases) {
        const http = await paris.request('POST', '/events', { as: 'admin', json: { ...EVENT, ...linked } });
        expect(http.status, JSON.stringify(linked)).toBe(400);
        expect(http.body).toEqual(invalidDate(param));
        // calendar.call (what the tRPC router runs) answers the same.
        const call = await paris.calendar.call('POST', '/events', { params: { ...EVENT, ...linked }, user: USERS.admin });
        expect(call).toMatchObject({ status: 400, body: invalidDate(param) });
      }
      // An update that creates a venue is refused too.
      const event = await paris.request('POST', '/events', { as: 'admin', json: EVENT });
      const after = await paris.rows('posts');
      const update = await paris.request('POST', `/events/${event.body.id}`, {
        as: 'admin',
        json: { title: 'Renamed', venue: { venue: 'Nested hall', date: 'foo' } },
      });
      expect(update.body).toEqual(invalidDate('date'));
      expect(await paris.rows('posts')).toBe(after);
      expect((await paris.request('GET', `/events/${event.body.id}`, { as: 'admin' })).body.title).toBe('Dated');
      expect(after).toBe(before + 1);
    });

    it('of a nested venue that matches an existing one is refused before the match is reused', async () => {
      const hall = await paris.request('POST', '/venues', { as: 'admin', json: { venue: 'Known hall', city: 'Lyon' } });
      const res = await paris.request('POST', '/events', { as: 'admin', json: { ...EVENT, venue: { venue: 'Known hall', city: 'Paris', date: 'foo' } } });
      expect(res.body).toEqual(invalidDate('date'));
      expect((await paris.request('GET', `/venues/${hall.body.id}`, { as: 'admin' })).body.city).toBe('Lyon');
    });

    it('given to the services directly is a 400, and nothing is written', async () => {
      const before = await paris.rows('posts');
      expect(await rejected(services.events.create({ ...EVENT, date: 'foo' }, ADMIN, NOW))).toEqual(invalidDate('date'));
      expect(await rejected(services.events.create({ ...EVENT, date_utc: 'foo' }, ADMIN, NOW))).toEqual(invalidDate('date_utc'));
      expect(await paris.rows('posts')).toBe(before);
      const { row } = await services.events.create({ ...EVENT, date: '2026-01-05 10:00:00' }, ADMIN, NOW);
      const update = (input: EventInput) => services.events.update(targetOf(row), input, sentIn(input), ADMIN, NOW);
      expect(await rejected(update({ title: 'Renamed', date: 'foo' }))).toEqual(invalidDate('date'));
      expect(await rejected(update({ title: 'Renamed', date_utc: 'foo' }))).toEqual(invalidDate('date_utc'));
      const stored = (await services.events.get(row.id)) as EventRow;
      expect([stored.title, stored.date, stored.date_utc]).toEqual(['Dated', '2026-01-05 10:00:00', '2026-01-05 09:00:00']);
      // `null` is not sent (PHP's isset), as before.
      expect((await update({ date: null as unknown as string })).date).toBe('2026-01-05 10:00:00');
    });

    it('of an occurrence edit is a 400 for every scope, and no override or split is written', async () => {
      const { row: series } = await services.events.create({ ...EVENT, title: 'Series', recurrence: ['RRULE:FREQ=DAILY;COUNT=4'] }, ADMIN, NOW);
      const list = await paris.request('GET', `/events/${series.id}/occurrences`, { as: 'admin' });
      const occurrence = (await services.events.get((list.body.events as { id: number }[])[2]!.id)) as EventRow;
      expect(occurrence.occurrence).toBeDefined();
      const [posts, occurrences] = [await paris.rows('posts'), await paris.rows('occurrences')];
      for (const scope of ['this', 'following', 'all'] as const) {
        for (const param of ['date', 'date_utc'] as const) {
          const input: EventInput = { title: 'Moved', scope, [param]: 'foo' };
          expect(await rejected(services.events.update(targetOf(occurrence), input, sentIn(input), ADMIN, NOW)), `${scope} ${param}`).toEqual(
            invalidDate(param),
          );
        }
      }
      expect([await paris.rows('posts'), await paris.rows('occurrences')]).toEqual([posts, occurrences]);
      expect(((await services.events.get(occurrence.id)) as EventRow).title).toBe('Series');
    });
  });
});
