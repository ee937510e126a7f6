import type { inferRouterOutputs } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { CalendarEvent, Deleted, Venue, WrittenOrganizer, WrittenVenue } from '../../src/index.js';
import { createCalendarContext, createCalendarRouter, type CalendarRouter } from '../../src/trpc/index.js';
import { USERS, testCalendar, type TestCalendar } from '../helpers/harness.js';

// Issue 31, trap 11: a venue just created was typed `string | [] | undefined` (upstream's `[]`
// for a protected venue's name, which its writer never gets), and `events.delete` answered a
// union the caller had to narrow by hand. Writes now answer WrittenVenue / WrittenOrganizer, and
// deletes a union told apart by `deleted`. These lines are type-checked (`tsc`): before, the
// assignments to `string` and the reads of `.deleted` / `.previous` did not compile.

type Out = inferRouterOutputs<CalendarRouter>;

describe('response types of writes and deletes', () => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(':memory:');
  });
  afterAll(() => t.close());

  it('types a written venue’s and organizer’s name as a string', async () => {
    expectTypeOf<Out['venues']['create']['venue']>().toEqualTypeOf<string>();
    expectTypeOf<Out['venues']['update']['venue']>().toEqualTypeOf<string>();
    expectTypeOf<Out['organizers']['create']['organizer']>().toEqualTypeOf<string>();
    expectTypeOf<Out['organizers']['update']['organizer']>().toEqualTypeOf<string>();
    expectTypeOf<WrittenVenue['venue']>().toEqualTypeOf<string>();
    expectTypeOf<WrittenOrganizer['organizer']>().toEqualTypeOf<string>();
    // A read may still meet a protected venue (imported from WordPress): there the name is `[]`.
    expectTypeOf<Out['venues']['get']['venue']>().toEqualTypeOf<Venue['venue']>();

    const author = createCalendarRouter(t.calendar).createCaller(createCalendarContext({ user: USERS.author }));
    const venue = await author.venues.create({ venue: 'Back room' });
    const name: string = venue.venue;
    expect(name).toBe('Back room');
    const organizer = await author.organizers.create({ organizer: 'Night crew' });
    const who: string = organizer.organizer;
    expect(who).toBe('Night crew');
    const renamed: string = (await author.venues.update({ id: venue.id, venue: 'Front room' })).venue;
    expect(renamed).toBe('Front room');
  });

  it('tells a trashed item from a deleted one by `deleted`', async () => {
    expectTypeOf<Extract<Deleted<CalendarEvent>, { deleted: true }>['previous']>().toEqualTypeOf<CalendarEvent>();
    expectTypeOf<Extract<Out['venues']['delete'], { deleted: true }>['previous']['id']>().toEqualTypeOf<number>();
    const summary = (answer: Out['events']['delete']): string => (answer.deleted ? `deleted ${answer.previous.title}` : `${answer.status} ${answer.title}`);

    const admin = createCalendarRouter(t.calendar).createCaller(createCalendarContext({ user: USERS.admin }));
    const make = (title: string) => admin.events.create({ title, start_date: '2031-05-01 20:00:00', end_date: '2031-05-01 22:00:00' });
    const first = await make('Jam');
    expect(summary(await admin.events.delete({ id: first.id }))).toBe('trash Jam');
    const second = await make('Late jam');
    expect(summary(await admin.events.delete({ id: second.id, force: true }))).toBe('deleted Late jam');
  });
});
