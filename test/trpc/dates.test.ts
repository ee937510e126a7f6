// Publication dates through the tRPC router (issue 29): a `date` with its own offset keeps its
// digits, and a venue or organizer created inside an event write with an unparsable date is the
// 400 `rest_invalid_date` an HTTP client gets (it used to be dated "now"); nothing is written.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorOf, createCalendarContext, createCalendarRouter, type CalendarRouter, type EventCreateInput } from '../../src/trpc/index.js';
import { DIALECTS, USERS, testCalendar, type TestCalendar } from '../helpers/harness.js';

const EVENT = { title: 'Dated', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' };

/** What a promise threw (fails the test when it resolved). */
async function thrown(promise: Promise<unknown>): Promise<TRPCError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  }
  throw new Error('expected the procedure to fail');
}

describe.each(DIALECTS)('tRPC: publication dates on $name', ({ url }) => {
  let t: TestCalendar;
  let router: CalendarRouter;
  const admin = () => router.createCaller(createCalendarContext({ user: USERS.admin }));

  beforeAll(async () => {
    t = await testCalendar(url, { timezone: 'Europe/Paris' });
    router = createCalendarRouter(t.calendar);
  }, 180_000);
  afterAll(() => t?.close());

  it('keeps the digits of a date with its own offset', async () => {
    const event = await admin().events.create({ ...EVENT, title: 'Offset event', timezone: 'America/New_York', date: '2026-01-05T10:00:00+02:00' });
    expect([event.date, event.date_utc]).toEqual(['2026-01-05 10:00:00', '2026-01-05 09:00:00']);
    const venue = await admin().venues.create({ venue: 'Offset hall', date: '2026-01-05T10:00:00+02:00' });
    expect([venue.date, venue.date_utc]).toEqual(['2026-01-05 10:00:00', '2026-01-05 09:00:00']);
  });

  it('answers 400 rest_invalid_date for a nested venue or organizer with an unparsable date, as HTTP does', async () => {
    const total = async () => ((await t.request('GET', '/venues', { as: 'admin', query: { status: 'any' } })).body.total as number) ?? 0;
    const before = await total();
    const cases: [EventCreateInput, 'date' | 'date_utc'][] = [
      [{ ...EVENT, venue: { venue: 'Nested hall', date: 'foo' } }, 'date'],
      [{ ...EVENT, organizer: [{ organizer: 'Nested org', date_utc: 'bar' }] }, 'date_utc'],
    ];
    for (const [input, param] of cases) {
      const http = await t.request('POST', '/events', { as: 'admin', json: input });
      expect(http.body).toEqual({ code: 'rest_invalid_date', message: 'Invalid date.', data: { status: 400, param } });
      const error = await thrown(admin().events.create(input));
      expect(error.code).toBe('BAD_REQUEST');
      expect(apiErrorOf(error)).toEqual(http.body);
    }
    expect(await total()).toBe(before);
    expect(
      (await t.request('GET', '/events', { as: 'admin', query: { start_date: '2027-01-01', end_date: '2027-12-31', search: 'Dated' } })).body.total ?? 0,
    ).toBe(0);
  });
});
