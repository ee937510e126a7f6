// The declared fields in the host's TypeScript (issue 32): EventOf<typeof calendar> and the tRPC
// router's inputs and outputs carry them, typed by their zod types, with no cast; a misuse does not
// compile (`npm run typecheck` checks this file: each @ts-expect-error must meet an error). At run
// time, the tRPC procedures take and answer them through the calendar's own routes.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { calendarRoute, createCalendar, field, type Calendar, type EventOf, type VenueOf } from '../../src/index.js';
import { createCalendarContext, createCalendarRouter } from '../../src/trpc/index.js';
import { USERS } from '../helpers/harness.js';

const FIELDS = {
  events: { capacity: field({ type: z.number().int().min(0), filterable: true }), dress_code: field({ type: z.enum(['none', 'formal']), default: 'none' }) },
  venues: { wheelchair_access: field({ type: z.boolean() }) },
} as const;

const hello = calendarRoute({ path: '/hello/(?P<name>[a-z]+)', methods: ['GET'], handler: (ctx) => ({ body: { hello: ctx.path('name') } }) });

function makeCalendar() {
  return createCalendar({ db: ':memory:', fields: FIELDS, routes: [hello] });
}

describe('declared fields in the types', () => {
  it('types EventOf and VenueOf from the declarations', () => {
    type Event = EventOf<ReturnType<typeof makeCalendar>>;
    expectTypeOf<Event['capacity']>().toEqualTypeOf<number | null>();
    // A default: never null.
    expectTypeOf<Event['dress_code']>().toEqualTypeOf<'none' | 'formal'>();
    expectTypeOf<Event['title']>().toEqualTypeOf<string>();
    expectTypeOf<VenueOf<ReturnType<typeof makeCalendar>>['wheelchair_access']>().toEqualTypeOf<boolean | null>();
    // @ts-expect-error a capacity is a number
    const seats: Event['capacity'] = 'many';
    // @ts-expect-error no such field on venues
    type Missing = VenueOf<ReturnType<typeof makeCalendar>>['capacity'];
    // A calendar typed as any calendar adds no key.
    expectTypeOf<keyof EventOf<Calendar>>().toEqualTypeOf<keyof EventOf<ReturnType<typeof createCalendar>>>();
    expect(seats).toBe('many');
    expectTypeOf<Missing>().not.toBeNever();
  });
});

describe('declared fields through tRPC', () => {
  const calendar = makeCalendar();
  const router = createCalendarRouter(calendar);
  const admin = router.createCaller(createCalendarContext({ user: USERS.admin }));
  beforeAll(() => calendar.migrate());
  afterAll(() => calendar.close());

  it('takes and answers them, typed', async () => {
    const created = await admin.events.create({
      title: 'Gala',
      start_date: '2027-06-01 20:00:00',
      end_date: '2027-06-01 23:00:00',
      status: 'publish',
      capacity: 120,
    });
    expectTypeOf(created.capacity).toEqualTypeOf<number | null>();
    expect(created).toMatchObject({ capacity: 120, dress_code: 'none' });
    const list = await admin.events.list({ capacity: '120' } as never);
    expect(list.events.map((e) => e.capacity)).toEqual([120]);
    // @ts-expect-error a capacity is a number, not a text
    await expect(admin.events.create({ title: 'Bad', start_date: '2027-06-01 20:00:00', end_date: '2027-06-01 23:00:00', capacity: 'many' })).rejects.toThrow();
    const cleared = await admin.events.update({ id: created.id, capacity: '' });
    expect(cleared.capacity).toBeNull();
  });

  it('reaches the host routes by path', async () => {
    expect(await admin.routes.query({ path: '/hello/world' })).toEqual({ hello: 'world' });
    await expect(admin.routes.query({ path: '/events' })).rejects.toThrow(/No route/);
  });
});
