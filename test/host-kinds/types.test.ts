// A host's kind in the tRPC router's types (issue 30): its procedures are typed from the `kinds`
// option and its fields from `fields`, with no cast; a misuse does not compile (`npm run typecheck`
// checks this file: each @ts-expect-error must meet an error). At run time they go through the
// calendar's own routes.
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createCalendar, field, kind } from '../../src/index.js';
import { createCalendarContext, createCalendarRouter } from '../../src/trpc/index.js';
import { USERS } from '../helpers/harness.js';

const calendar = createCalendar({
  db: ':memory:',
  autoMigrate: true,
  kinds: { sponsors: kind({ noun: 'sponsor' }) },
  fields: { sponsors: { tier: field({ type: z.enum(['gold', 'silver']) }) } },
});
const router = createCalendarRouter(calendar);
const admin = router.createCaller(createCalendarContext({ user: USERS.admin }));

describe('a host kind in the hooks', () => {
  it('types its items and their fields', () => {
    const typed = createCalendar({
      db: ':memory:',
      kinds: { sponsors: kind({ noun: 'sponsor' }) },
      fields: { sponsors: { tier: field({ type: z.enum(['gold', 'silver']) }) } },
      hooks: {
        sponsors: {
          afterRead: {
            vary: 'none',
            run: ({ kind: name, item }) => {
              expectTypeOf(name).toEqualTypeOf<'sponsors'>();
              expectTypeOf(item.tier).toEqualTypeOf<'gold' | 'silver' | null>();
              expectTypeOf(item.id).toEqualTypeOf<number>();
            },
          },
        },
      },
    });
    expect(typed.routes.some((r) => r.pattern === '/sponsors')).toBe(true);
  });
});

describe('a host kind in the router', () => {
  afterAll(() => calendar.close());

  it('types its inputs and outputs from the declarations, and runs them', async () => {
    const created = await admin.sponsors.create({ sponsor: 'Acme', tier: 'gold', status: 'publish' });
    expectTypeOf(created.tier).toEqualTypeOf<'gold' | 'silver' | null>();
    expectTypeOf(created.sponsor).toEqualTypeOf<string | undefined>();
    expectTypeOf(created.id).toEqualTypeOf<number>();
    expect(created).toMatchObject({ sponsor: 'Acme', tier: 'gold' });
    const page = await admin.sponsors.list({ per_page: 5 });
    expectTypeOf(page.sponsors).toEqualTypeOf<(typeof created)[]>();
    expect(page.total).toBe(1);
    expect((await admin.sponsors.get({ id: created.id })).tier).toBe('gold');
    // @ts-expect-error a tier is gold or silver
    await expect(admin.sponsors.create({ sponsor: 'Bolt', tier: 'bronze' })).rejects.toThrow();
    // @ts-expect-error a sponsor's name is required
    await expect(admin.sponsors.create({ tier: 'gold' })).rejects.toThrow();
    // @ts-expect-error no kind of that collection
    type Missing = (typeof admin)['patrons'];
    expectTypeOf<Missing>().not.toBeNever();
    expect(Object.keys(router._def.procedures)).toEqual(
      expect.arrayContaining(['sponsors.list', 'sponsors.get', 'sponsors.create', 'sponsors.update', 'sponsors.delete']),
    );
  });
});
