// Hooks around writes (issue 32): beforeChange runs inside the write's transaction, may rewrite
// the input or refuse with a HookError (nothing stored, not even a venue the event write
// created); an unexpected throw is a JSON 500 through onError; afterChange runs once per
// committed change, never for a write that failed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { field } from '../../src/fields/declare.js';
import { HookError, type AfterChangeArgs, type HookKind, type HooksOption } from '../../src/index.js';
import { apiErrorOf, createCalendarContext, createCalendarRouter } from '../../src/trpc/index.js';
import { DIALECTS, testCalendar, USERS, type TestCalendar } from '../helpers/harness.js';

const FIELDS = { events: { capacity: field({ type: z.number().int().min(0).max(100000), filterable: true }) } };

describe.each(DIALECTS)('write hooks on $name', ({ url }) => {
  let t: TestCalendar;
  const changes: AfterChangeArgs<HookKind>[] = [];
  const errors: unknown[] = [];
  /** What the hooks saw of the user (the host's object, as given). */
  const users: unknown[] = [];
  /** What organizers' afterChange read of their item: as the public, and as an administrator. */
  const readBack: { operation: string; public: unknown; admin: unknown }[] = [];
  const hooks: HooksOption = {
    organizers: {
      afterChange: async ({ operation, read }) => {
        readBack.push({ operation, public: await read(), admin: await read(USERS.admin) });
      },
    },
    events: {
      beforeChange: ({ operation, input, item, user }) => {
        users.push(user);
        if (typeof input.capacity === 'number' && input.capacity > 5000) throw new HookError('capacity_too_large', 'At most 5000 seats.', 400);
        if (input.title === 'explode') throw new Error('the host hook broke');
        if (operation === 'delete' && (item?.title === 'Keep me' || item?.title === 'Daily keep')) throw new HookError('kept', 'This event stays.', 409);
        // Rewrites: a title in capitals, a default capacity.
        if (typeof input.title === 'string' && input.title.startsWith('shout:')) return { ...input, title: input.title.slice(6).toUpperCase() };
        if (operation === 'update' && input.capacity === undefined && item?.title === 'Grows') return { ...input, capacity: 42 };
        return undefined;
      },
      afterChange: (args) => {
        changes.push(args);
      },
    },
    venues: {
      beforeChange: ({ operation, input, item }) => {
        if (input.venue === 'Forbidden Hall') throw new HookError('venue_refused', 'Not that hall.', 422);
        if (operation === 'update' && item?.title === 'Renamed Hall') return { ...input, phone: '+33 1 23 45 67 89' };
        return typeof input.venue === 'string' ? { ...input, city: 'Hooked City' } : undefined;
      },
      afterChange: (args) => {
        changes.push(args);
      },
    },
    tags: {
      beforeChange: ({ input }) => {
        if (input.name === 'banned') throw new HookError('tag_refused', 'No such tag.', 400);
      },
      afterChange: (args) => {
        if (args.id === -1) throw new Error('never');
        changes.push(args);
        if (args.operation === 'delete') throw new Error('afterChange failed');
      },
    },
  };
  const event = (title: string, extra: Record<string, unknown> = {}) =>
    t.request('POST', '/events', {
      json: { title, start_date: '2031-05-01 20:00:00', end_date: '2031-05-01 22:00:00', status: 'publish', ...extra },
      as: 'admin',
    });
  const venuesNamed = async (name: string) => (await t.request('GET', '/venues', { query: { search: name, status: 'any' }, as: 'admin' })).body.venues ?? [];
  const eventsNamed = async (name: string) => (await t.request('GET', '/events', { query: { search: name, status: 'any' }, as: 'admin' })).body.events ?? [];
  const feedHead = async () => (await t.calendar.services()).changes.head();

  beforeAll(async () => {
    t = await testCalendar(url, { fields: FIELDS, hooks, onError: (e) => errors.push(e) });
  }, 120_000);
  afterAll(() => t?.close());
  beforeEach(() => {
    changes.length = 0;
    errors.length = 0;
    users.length = 0;
  });

  it('refuses a write with the HookError as the JSON error; nothing is stored, not even the venue the event write created', async () => {
    const before = await feedHead();
    const res = await event('Huge show', { capacity: 6000, venue: { venue: 'Brand New Arena' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'capacity_too_large', message: 'At most 5000 seats.', data: { status: 400 } });
    expect(await venuesNamed('Brand New Arena')).toEqual([]);
    expect(await eventsNamed('Huge show')).toEqual([]);
    expect((await feedHead()).lastSeq).toBe(before.lastSeq);
    expect(changes).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("refuses an event write through the venue's own hook, storing neither", async () => {
    const res = await event('In the forbidden hall', { venue: { venue: 'Forbidden Hall' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('venue_refused');
    expect(await eventsNamed('forbidden hall')).toEqual([]);
    expect(await venuesNamed('Forbidden Hall')).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('rewrites the input inside the transaction: what is stored is what the hook returned', async () => {
    const res = await event('shout:quiet evening', { venue: { venue: 'Rewritten Hall' } });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('QUIET EVENING');
    expect(res.body.venue).toMatchObject({ venue: 'Rewritten Hall', city: 'Hooked City' });
    const grows = await event('Grows');
    const updated = await t.request('POST', `/events/${grows.body.id}`, { json: { description: 'More seats' }, as: 'admin' });
    expect(updated.status).toBe(200);
    expect(updated.body.capacity).toBe(42);
    expect((await t.request('GET', `/events/${grows.body.id}`)).body.capacity).toBe(42);
    // The hook is told the host's user, as getUser gave it.
    expect(users).toContainEqual({ id: 1, roles: ['administrator'] });
  });

  it('tells afterChange of each committed change exactly once, in log order', async () => {
    const res = await event('Counted', { venue: { venue: 'Counted Hall' }, tags: ['counted-tag'] });
    expect(res.status).toBe(201);
    const venueId = res.body.venue.id;
    const created = changes.map(({ kind, operation, id }) => ({ kind, operation, id }));
    expect(created).toEqual([
      { kind: 'venues', operation: 'create', id: venueId },
      { kind: 'tags', operation: 'create', id: res.body.tags[0].id },
      { kind: 'events', operation: 'create', id: res.body.id },
    ]);
    expect(changes.every((c) => c.at instanceof Date)).toBe(true);
    changes.length = 0;
    await t.request('POST', `/events/${res.body.id}`, { json: { title: 'Counted again' }, as: 'admin' });
    await t.request('DELETE', `/events/${res.body.id}`, { as: 'admin' });
    expect(changes.map(({ kind, operation, id }) => ({ kind, operation, id }))).toEqual([
      { kind: 'events', operation: 'update', id: res.body.id },
      // A trash keeps the item: the log says it was updated.
      { kind: 'events', operation: 'update', id: res.body.id },
    ]);
  });

  it('runs no afterChange for a write that failed: refused by a hook, by validation, or by a conflict', async () => {
    expect((await event('Refused', { capacity: 9000 })).status).toBe(400);
    expect((await event('Bad dates', { start_date: 'not a date' })).status).toBe(400);
    const tag = await t.request('POST', '/tags', { json: { name: 'banned' }, as: 'admin' });
    expect(tag.status).toBe(400);
    expect(tag.body.code).toBe('tag_refused');
    const keep = await event('Keep me');
    changes.length = 0;
    const refusedDelete = await t.request('DELETE', `/events/${keep.body.id}`, { query: { force: 'true' }, as: 'admin' });
    expect(refusedDelete.status).toBe(409);
    expect(refusedDelete.body.code).toBe('kept');
    expect((await t.request('GET', `/events/${keep.body.id}`)).status).toBe(200);
    expect(changes).toEqual([]);
  });

  it('answers a hook that throws unexpectedly with a JSON 500 through onError, storing nothing', async () => {
    const before = await feedHead();
    const res = await event('explode', { venue: { venue: 'Exploded Hall' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'rest_internal_error', message: 'The server could not complete the request.', data: { status: 500 } });
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('the host hook broke');
    expect(await venuesNamed('Exploded Hall')).toEqual([]);
    expect((await feedHead()).lastSeq).toBe(before.lastSeq);
    expect(changes).toEqual([]);
  });

  it("reports an afterChange hook's failure to onError, not to the caller, whose write stands", async () => {
    const tag = await t.request('POST', '/tags', { json: { name: 'short-lived' }, as: 'admin' });
    expect(tag.status).toBe(201);
    const removed = await t.request('DELETE', `/tags/${tag.body.id}`, { as: 'admin' });
    expect(removed.status).toBe(200);
    expect(changes.map((c) => c.operation)).toEqual(['create', 'delete']);
    expect(errors.map(String)).toEqual(['Error: afterChange failed']);
    expect((await t.request('GET', `/tags/${tag.body.id}`)).status).not.toBe(200);
  });

  it("refuses the cancellation of a recurring event's occurrence, which stays listed", async () => {
    const series = await event('Daily keep', { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
    expect(series.status).toBe(201);
    const occurrences = (await t.request('GET', `/events/${series.body.id}/occurrences`, { as: 'admin' })).body.events as { id: number }[];
    const second = occurrences[1]?.id;
    changes.length = 0;
    for (const scope of ['this', 'following']) {
      const refused = await t.request('DELETE', `/events/${second}`, { query: { scope }, as: 'admin' });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('kept');
    }
    expect((await t.request('GET', `/events/${second}`)).status).toBe(200);
    expect(changes).toEqual([]);
  });

  it("rewrites a venue's update with the stored item in view", async () => {
    const venue = await t.request('POST', '/venues', { json: { venue: 'Renamed Hall', status: 'publish' }, as: 'admin' });
    expect(venue.status).toBe(201);
    const updated = await t.request('POST', `/venues/${venue.body.id}`, { json: { address: '1 rue de la Paix' }, as: 'admin' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ address: '1 rue de la Paix', phone: '+33 1 23 45 67 89', city: 'Hooked City' });
  });

  it('lets afterChange read the item it was told of, as a given user, after the commit', async () => {
    const draft = await t.request('POST', '/organizers', { json: { organizer: 'Quiet Org', status: 'draft' }, as: 'admin' });
    expect(draft.status).toBe(201);
    await t.request('DELETE', `/organizers/${draft.body.id}`, { query: { force: 'true' }, as: 'admin' });
    expect(readBack).toEqual([
      { operation: 'create', public: null, admin: expect.objectContaining({ id: draft.body.id, organizer: 'Quiet Org', status: 'draft' }) },
      { operation: 'delete', public: null, admin: null },
    ]);
  });

  it("refuses through tRPC as over HTTP: the HookError is the procedure's API error", async () => {
    const caller = createCalendarRouter(t.calendar).createCaller(createCalendarContext({ user: USERS.admin }));
    // The harness' calendar is typed without its fields: the field travels as any extra key would.
    const input = { title: 'Huge over tRPC', start_date: '2031-05-01 20:00:00', end_date: '2031-05-01 22:00:00', capacity: 7000 };
    const refused = await caller.events.create(input).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(apiErrorOf(refused)).toEqual({ code: 'capacity_too_large', message: 'At most 5000 seats.', data: { status: 400 } });
    expect(await eventsNamed('Huge over tRPC')).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('refuses a hook option of the wrong shape when the calendar is made', async () => {
    const { createCalendar } = await import('../../src/index.js');
    expect(() => createCalendar({ db: ':memory:', hooks: { event: {} } as unknown as HooksOption })).toThrow(/hooks\.event.*events, venues/);
    expect(() =>
      createCalendar({ db: ':memory:', hooks: { events: { afterRead: { vary: 'viewer', run: () => undefined } } } as unknown as HooksOption }),
    ).toThrow(/hooks\.events\.afterRead.*vary/);
    expect(() => new HookError('x', 'y', 200)).toThrow(/400–599/);
  });
});
