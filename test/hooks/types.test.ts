// Hooks are typed with the kind they act on (issue 32): checked by tsc (`npx tsc --noEmit`,
// which type-checks the tests) and by vitest's expectTypeOf; a misuse is a compile error.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { field } from '../../src/fields/declare.js';
import type { HostKindName } from '../../src/kinds.js';
import { createCalendar, HookError, type CalendarEvent, type ChangeEvent, type HooksOption, type Term, type User, type Venue } from '../../src/index.js';

describe('hook types', () => {
  it('give each kind its own items, and the user where a hook varies by it', () => {
    const hooks: HooksOption = {
      events: {
        beforeChange: ({ kind, operation, input, user }) => {
          expectTypeOf(kind).toEqualTypeOf<'events'>();
          expectTypeOf(operation).toEqualTypeOf<'create' | 'update' | 'delete'>();
          expectTypeOf(input).toEqualTypeOf<Readonly<Record<string, unknown>>>();
          expectTypeOf(user).toEqualTypeOf<User | null>();
          if (input.title === '') throw new HookError('empty', 'A title, please.');
          return { ...input, title: 'x' };
        },
        afterChange: ({ kind, id }) => {
          expectTypeOf(kind).toEqualTypeOf<'events'>();
          expectTypeOf(id).toEqualTypeOf<number>();
        },
        afterRead: {
          vary: 'user',
          run: ({ item, user }) => {
            expectTypeOf(item).toMatchTypeOf<CalendarEvent>();
            expectTypeOf(user).toEqualTypeOf<User | null>();
            return { ...item, seen: true };
          },
        },
      },
      venues: {
        afterRead: {
          vary: 'none',
          run: ({ kind, item }) => {
            expectTypeOf(kind).toEqualTypeOf<'venues'>();
            expectTypeOf(item).toMatchTypeOf<Venue>();
          },
        },
      },
      tags: {
        afterChange: async ({ read }) => {
          expectTypeOf(await read()).toMatchTypeOf<Term | null>();
        },
      },
    };
    expectTypeOf(hooks).toMatchTypeOf<HooksOption>();
  });

  it("type the items' host fields by the calendar's fields option", async () => {
    const calendar = createCalendar({
      db: ':memory:',
      fields: { events: { capacity: field({ type: z.number().int() }) }, venues: { step_free: field({ type: z.boolean(), default: false }) } },
      hooks: {
        events: {
          afterRead: {
            vary: 'none',
            run: ({ item }) => {
              expectTypeOf(item.capacity).toEqualTypeOf<number | null>();
              // @ts-expect-error -- a venue's field is no event's
              expectTypeOf(item.step_free).toEqualTypeOf<boolean>();
            },
          },
        },
        venues: {
          afterChange: async ({ read }) => {
            const venue = await read();
            if (venue) expectTypeOf(venue.step_free).toEqualTypeOf<boolean>();
          },
        },
      },
    });
    await calendar.close();
  });

  it('refuse a misuse at compile time', () => {
    // @ts-expect-error -- no such kind
    const kind: HooksOption = { event: {} };
    const noUser: HooksOption = {
      // @ts-expect-error -- a hook that varies by nothing is not told the user
      events: { afterRead: { vary: 'none', run: ({ user }: { user: User }) => ({ id: user.id }) } },
    };
    // @ts-expect-error -- afterRead declares what it depends on
    const noVary: HooksOption = { events: { afterRead: { run: () => undefined } } };
    expectTypeOf([kind, noUser, noVary]).not.toBeAny();
  });

  it('type change events and the unsubscribe function', () => {
    const calendar = createCalendar({ db: ':memory:' });
    const off = calendar.on('change', (event) => {
      expectTypeOf(event).toEqualTypeOf<ChangeEvent>();
      // A host's own kinds' changes name their noun (`kinds` option).
      expectTypeOf(event.kind).toEqualTypeOf<'event' | 'venue' | 'organizer' | 'category' | 'tag' | HostKindName>();
      expectTypeOf(event.change).toEqualTypeOf<'created' | 'updated' | 'deleted'>();
    });
    expectTypeOf(off).toBeCallableWith();
    expectTypeOf(off.ready).toEqualTypeOf<Promise<void>>();
    off();
    return calendar.close();
  });
});
