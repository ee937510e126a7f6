import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TRPCError, initTRPC } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { inferRouterInputs } from '@trpc/server';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ROUTES } from '../../src/index.js';
import { ORGANIZER, VENUE } from '../../src/posts/kinds.js';
import { eventArchiveArgs, eventScopeArgs, eventWriteArgs, occurrencesArgs } from '../../src/resources/events/args.js';
import { feedArgs } from '../../src/resources/ical/args.js';
import { linkedArchiveArgs, organizerWriteArgs, venueWriteArgs } from '../../src/resources/linked/args.js';
import { CATEGORIES, TAGS, termArchiveArgs, termWriteArgs } from '../../src/resources/terms/args.js';
import {
  apiErrorOf,
  calendarErrorFormatter,
  createCalendarContext,
  createCalendarRouter,
  trpcCode,
  type CalendarContext,
  type CalendarRouter,
  type EventCostInput,
  type EventOrganizerInput,
  type EventTermsInput,
  type EventVenueInput,
  type OrganizerCreateInput,
  type VenueCreateInput,
} from '../../src/trpc/index.js';
import { DIALECTS, USERS, testCalendar, type As, type TestCalendar } from '../helpers/harness.js';

type Caller = ReturnType<CalendarRouter['createCaller']>;
type AnyProcedure = { _def: { type: string; inputs: z.ZodType[]; procedure: true } };

/** The procedures of a router by dotted path. */
function procedures(router: CalendarRouter): Record<string, AnyProcedure> {
  return router._def.procedures as unknown as Record<string, AnyProcedure>;
}

/** The input keys of a procedure, per variant (by id, by slug), each `[key, required]`. */
function inputKeys(p: AnyProcedure): [string, boolean][][] {
  let schema = p._def.inputs[0] as unknown as { def: { type: string; innerType?: unknown; options?: unknown[] }; shape?: Record<string, z.ZodType> };
  if (schema.def.type === 'optional') schema = schema.def.innerType as typeof schema;
  const variants = (schema.def.type === 'union' ? schema.def.options : [schema]) as { shape: Record<string, z.ZodType> }[];
  return variants.map((v) => Object.entries(v.shape).map(([k, s]): [string, boolean] => [k, !s.safeParse(undefined).success]));
}

/** `[key, required]` of declared arguments (path keys are always required). */
function declared(args: Record<string, { required: boolean }>, path: string[] = [], extra: string[] = []): [string, boolean][] {
  const keys: [string, boolean][] = path.map((k) => [k, true]);
  for (const [k, a] of Object.entries(args)) if (!path.includes(k)) keys.push([k, a.required]);
  return [...keys, ...extra.map((k): [string, boolean] => [k, false])];
}

const omit = <T extends object>(o: T, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

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

const run = promisify(execFile);

describe('tRPC router: shape', () => {
  const router = createCalendarRouter({ call: async () => ({ status: 200, body: {}, headers: {} }) });

  it('has one procedure per operation, queries for reads and mutations for writes', () => {
    const kinds = Object.fromEntries(Object.entries(procedures(router)).map(([path, p]) => [path, p._def.type]));
    const crud = (name: string) => ({
      [`${name}.list`]: 'query',
      [`${name}.get`]: 'query',
      [`${name}.create`]: 'mutation',
      [`${name}.update`]: 'mutation',
      [`${name}.delete`]: 'mutation',
    });
    expect(kinds).toEqual({
      index: 'query',
      doc: 'query',
      completeDoc: 'query',
      changes: 'query',
      'ical.feed': 'query',
      'ical.event': 'query',
      occurrences: 'query',
      ...crud('events'),
      ...crud('venues'),
      ...crud('organizers'),
      ...crud('categories'),
      ...crud('tags'),
      // The host's own routes (none here), by path.
      'routes.query': 'query',
      'routes.mutation': 'mutation',
    });
  });

  it('covers every endpoint of ROUTES', () => {
    // Items of events, venues and organizers are addressed by id or by slug: two endpoints per procedure.
    const endpoints = ROUTES.flatMap((r) => r.endpoints.map((e) => `${e.methods[0]} ${r.pattern}`));
    const covered = Object.entries(procedures(router))
      .filter(([path]) => !path.startsWith('routes.'))
      .reduce((n, [, p]) => n + inputKeys(p).length, 0);
    expect(covered).toBe(endpoints.length);
  });

  it('takes its inputs from the same argument declarations as the routes', () => {
    const id = ['id'];
    const slug = ['slug'];
    const p = procedures(router);
    const expected: Record<string, [string, boolean][][]> = {
      'events.list': [declared(eventArchiveArgs)],
      'events.get': [
        [
          ['id', true],
          ['password', false],
        ],
        [['slug', true]],
      ],
      'events.create': [declared(eventWriteArgs(true))],
      'events.update': [
        declared({ password: { required: false }, ...eventWriteArgs(false), ...eventScopeArgs }, id),
        declared({ ...omit(eventWriteArgs(false), 'slug'), ...eventScopeArgs }, slug),
      ],
      'events.delete': [
        [
          ['id', true],
          ['password', false],
          ['scope', false],
          ['force', false],
        ],
        [
          ['slug', true],
          ['scope', false],
          ['force', false],
        ],
      ],
      occurrences: [declared(occurrencesArgs)],
      'categories.list': [declared(termArchiveArgs(CATEGORIES))],
      'categories.create': [declared(termWriteArgs(CATEGORIES, true))],
      'categories.update': [declared(termWriteArgs(CATEGORIES, false), id)],
      'tags.list': [declared(omit(termArchiveArgs(TAGS), 'parent'))],
      'tags.create': [declared(omit(termWriteArgs(TAGS, true), 'parent'))],
      'tags.update': [declared(omit(termWriteArgs(TAGS, false), 'parent'), id)],
      'ical.feed': [declared(feedArgs)],
      'ical.event': [
        [
          ['id', true],
          ['password', false],
        ],
        [['slug', true]],
      ],
    };
    for (const [kind, info, write] of [
      ['venues', VENUE, venueWriteArgs],
      ['organizers', ORGANIZER, organizerWriteArgs],
    ] as const) {
      expected[`${kind}.list`] = [declared(linkedArchiveArgs(info))];
      expected[`${kind}.get`] = [[['id', true]], [['slug', true]]];
      expected[`${kind}.create`] = [declared(write(true))];
      expected[`${kind}.update`] = [declared(write(false), id), declared(write(false), slug)];
      expected[`${kind}.delete`] = [
        [
          ['id', true],
          ['force', false],
        ],
        [
          ['slug', true],
          ['force', false],
        ],
      ];
    }
    for (const kind of ['categories', 'tags']) {
      expected[`${kind}.get`] = [[['id', true]]];
      expected[`${kind}.delete`] = [[['id', true]]];
    }
    for (const [path, variants] of Object.entries(expected)) {
      const sort = (v: [string, boolean][][]) => v.map((keys) => [...keys].sort(([a], [b]) => a.localeCompare(b)));
      const procedure = p[path];
      if (!procedure) throw new Error(`no procedure ${path}`);
      expect(sort(inputKeys(procedure)), path).toEqual(sort(variants));
    }
  });

  it('types the event write arguments without a JSON type as the shapes they accept', () => {
    type Create = inferRouterInputs<CalendarRouter>['events']['create'];
    type Update = inferRouterInputs<CalendarRouter>['events']['update'];
    expectTypeOf<Create['venue']>().toEqualTypeOf<EventVenueInput | undefined>();
    expectTypeOf<Update['venue']>().toEqualTypeOf<EventVenueInput | undefined>();
    expectTypeOf<Create['organizer']>().toEqualTypeOf<EventOrganizerInput | undefined>();
    expectTypeOf<Create['categories']>().toEqualTypeOf<EventTermsInput | undefined>();
    expectTypeOf<Create['tags']>().toEqualTypeOf<EventTermsInput | undefined>();
    expectTypeOf<Create['cost']>().toEqualTypeOf<EventCostInput | undefined>();
    expectTypeOf<Create['website']>().toEqualTypeOf<string | undefined>();

    expectTypeOf<EventCostInput>().toEqualTypeOf<string | number | (string | number)[]>();
    expectTypeOf<EventTermsInput>().toEqualTypeOf<string | number | (string | number)[]>();
    // A venue: an id (number or digits), `{id}`, the fields of a new venue, or a list of one of those.
    type VenueEntry = number | string | { id: number | string } | VenueCreateInput;
    expectTypeOf<EventVenueInput>().toEqualTypeOf<VenueEntry | VenueEntry[]>();
    type OrganizerEntry = number | string | { id: number | string } | OrganizerCreateInput;
    expectTypeOf<EventOrganizerInput>().toEqualTypeOf<OrganizerEntry | OrganizerEntry[]>();
    // A new venue or organizer needs its name.
    expectTypeOf<{ city: string }>().not.toExtend<EventVenueInput>();
    expectTypeOf<{ phone: string }[]>().not.toExtend<EventOrganizerInput>();
    expectTypeOf<{ id: number }[]>().not.toExtend<EventTermsInput>();
    expectTypeOf<boolean>().not.toExtend<EventCostInput>();
  });

  it('maps API statuses to tRPC codes', () => {
    expect([400, 401, 403, 404, 410, 413, 500, 503, 418].map(trpcCode)).toEqual([
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'PRECONDITION_FAILED',
      'PAYLOAD_TOO_LARGE',
      'INTERNAL_SERVER_ERROR',
      'SERVICE_UNAVAILABLE',
      'BAD_REQUEST',
    ]);
  });
});

describe.each(DIALECTS)('tRPC router on $name', ({ url }) => {
  let t: TestCalendar;
  let router: CalendarRouter;
  const as = (who: As, extra: Partial<CalendarContext> = {}): Caller => router.createCaller(createCalendarContext({ user: who ? USERS[who] : null, ...extra }));

  beforeAll(async () => {
    t = await testCalendar(url);
    router = createCalendarRouter(t.calendar);
  });
  afterAll(() => t.close());

  /** Runs the same operation over tRPC and HTTP (JSON parameters); asserts the same error. */
  async function sameError(trpc: (caller: Caller) => Promise<unknown>, method: string, path: string, json: unknown, who: As) {
    const http = await t.request(method, path, { json, as: who });
    expect(http.status).toBeGreaterThanOrEqual(400);
    const error = await thrown(trpc(as(who)));
    expect(error.code).toBe(trpcCode(http.status));
    expect(error.message).toBe(http.body.message);
    expect(apiErrorOf(error)).toEqual(http.body);
    return error;
  }

  it('creates, reads, lists, updates and deletes events like the HTTP API', async () => {
    const admin = as('admin');
    const venue = await admin.venues.create({ venue: 'Blue Note', city: 'New York' });
    // No email: its anti-spam encoding is random, so two reads would differ.
    const organizer = await admin.organizers.create({ organizer: 'Jazz Org', phone: '555-0100' });
    const music = await admin.categories.create({ name: 'Music' });
    const event = await admin.events.create({
      title: 'Jam',
      start_date: '2031-05-01 20:00:00',
      end_date: '2031-05-01 23:00:00',
      venue: venue.id,
      organizer: [organizer.id],
      categories: [music.id],
    });
    expect(event).toMatchObject({ title: 'Jam', start_date: '2031-05-01 20:00:00', venue: { id: venue.id }, organizer: [{ id: organizer.id }] });
    expect(event.categories.map((c) => c.id)).toEqual([music.id]);

    // Reads equal the HTTP answers, by id and by slug.
    const http = await t.request('GET', `/events/${event.id}`);
    expect(await admin.events.get({ id: event.id })).toEqual((await t.request('GET', `/events/${event.id}`, { as: 'admin' })).body);
    expect(await as(null).events.get({ id: event.id })).toEqual(http.body);
    expect(await as(null).events.get({ slug: event.slug })).toEqual((await t.request('GET', `/events/by-slug/${event.slug}`)).body);
    const query = { start_date: '2031-01-01', end_date: '2031-12-31', per_page: 5 };
    const list = await as(null).events.list(query);
    expect(list).toEqual((await t.request('GET', '/events', { query })).body);
    expect(list).toMatchObject({ total: 1, total_pages: 1, events: [{ id: event.id }] });
    expect(list.rest_url).toContain(`${t.base}/events/`);
    expect(await as('subscriber').venues.list()).toEqual((await t.request('GET', '/venues', { as: 'subscriber' })).body);
    const categories = await as(null).categories.list({ hide_empty: false });
    expect(categories).toEqual((await t.request('GET', '/categories', { query: { hide_empty: 'false' } })).body);
    expect(categories.categories.map((c) => c.name)).toEqual(['Music']);
    // Calendar files come as their text, equal to the HTTP answers.
    const feed = await as(null).ical.feed({ start_date: '2031-01-01', end_date: '2031-12-31' });
    expect(feed).toBe((await t.request('GET', '/ics/events', { query: { start_date: '2031-01-01', end_date: '2031-12-31' } })).text);
    expect(feed).toContain(`UID:event-${event.id}@example.org`);
    expect(await as(null).ical.event({ slug: event.slug })).toBe((await t.request('GET', `/ics/events/${event.id}`)).text);

    // Updates: by id `slug` renames; by slug the slug finds the event.
    const renamed = await admin.events.update({ id: event.id, slug: 'jam-session', title: 'Jam session' });
    expect(renamed).toMatchObject({ slug: 'jam-session', title: 'Jam session' });
    const bySlug = await admin.events.update({ slug: 'jam-session', description: 'Late' });
    expect(bySlug).toMatchObject({ id: event.id, slug: 'jam-session' });
    expect(bySlug.description).toContain('Late');
    expect((await t.request('GET', `/events/${event.id}`)).body.title).toBe('Jam session');

    // Delete: trash, then 410 (PRECONDITION_FAILED, the HTTP body as cause), then force.
    const trashed = await admin.events.delete({ slug: 'jam-session' });
    expect(trashed).toMatchObject({ id: event.id, status: 'trash' });
    const gone = await sameError((c) => c.events.delete({ id: event.id }), 'DELETE', `/events/${event.id}`, {}, 'admin');
    expect(gone.code).toBe('PRECONDITION_FAILED');
    expect(apiErrorOf(gone)).toMatchObject({ code: 'event-is-in-trash', data: { status: 410 } });
    expect(await admin.events.delete({ id: event.id, force: true })).toMatchObject({ deleted: true, previous: { id: event.id } });
    await sameError((c) => c.events.get({ id: event.id }), 'GET', `/events/${event.id}`, {}, 'admin');
  });

  it('runs venues, organizers, categories and tags through every procedure', async () => {
    const admin = as('editor');
    for (const [kind, key] of [
      ['venues', 'venue'],
      ['organizers', 'organizer'],
    ] as const) {
      const caller = admin[kind];
      const created = await caller.create({ [key]: `A ${key}` } as never);
      // Venues and organizers drop empty values, so their types leave `slug` optional.
      const slug = created.slug ?? '';
      expect(await caller.get({ slug })).toEqual((await t.request('GET', `/${kind}/${created.id}`)).body);
      expect(await caller.update({ id: created.id, description: 'About' })).toMatchObject({ id: created.id, description: '<p>About</p>' });
      expect(await caller.update({ slug, [key]: 'Renamed' })).toMatchObject({ [key]: 'Renamed' });
      expect(await caller.delete({ id: created.id })).toMatchObject({ status: 'trash' });
      // A trashed item is no longer found by its slug (400 over HTTP too); by id it is.
      await sameError((c) => c[kind].delete({ slug, force: true }), 'DELETE', `/${kind}/by-slug/${slug}`, { force: true }, 'editor');
      expect(await caller.delete({ id: created.id, force: true })).toMatchObject({ deleted: true });
      await sameError((c) => c[kind].get({ id: created.id }), 'GET', `/${kind}/${created.id}`, {}, 'editor');
    }
    for (const kind of ['categories', 'tags'] as const) {
      const caller = admin[kind];
      const created = await caller.create({ name: `A ${kind}`, description: 'd' });
      expect(created).toEqual((await t.request('GET', `/${kind}/${created.id}`, { as: 'editor' })).body);
      expect(await caller.get({ id: created.id })).toEqual(created);
      expect(await caller.update({ id: created.id, name: 'Renamed' })).toMatchObject({ name: 'Renamed' });
      expect(await caller.delete({ id: created.id })).toMatchObject({ id: created.id, name: 'Renamed' });
      await sameError((c) => c[kind].get({ id: created.id }), 'GET', `/${kind}/${created.id}`, {}, 'editor');
    }
  });

  it('accepts every shape the event write unions name, and refuses others as the HTTP API does', async () => {
    const admin = as('admin');
    const hall = await admin.venues.create({ venue: 'Shapes hall' });
    const [org, org2] = [await admin.organizers.create({ organizer: 'Shapes org' }), await admin.organizers.create({ organizer: 'Shapes org two' })];
    const cat = await admin.categories.create({ name: 'Shapes cat' });
    const when = { title: 'Shapes', start_date: '2032-01-01 10:00:00', end_date: '2032-01-01 11:00:00' };
    const venueOf = (e: { venue: unknown }) => (Array.isArray(e.venue) ? e.venue[0] : e.venue) as { id: number; venue?: unknown } | undefined;

    const venues: [EventVenueInput, number | string][] = [
      [hall.id, hall.id],
      [String(hall.id), hall.id],
      [{ id: hall.id }, hall.id],
      [[hall.id], hall.id],
      [[{ id: String(hall.id) }], hall.id],
      [{ venue: 'Shapes new hall', city: 'Lyon' }, 'Shapes new hall'],
      [[{ venue: 'Shapes newer hall' }], 'Shapes newer hall'],
    ];
    for (const [venue, expected] of venues) {
      const e = await admin.events.create({ ...when, venue });
      expect(venueOf(e), JSON.stringify(venue)).toMatchObject(typeof expected === 'number' ? { id: expected } : { venue: expected });
    }
    const updated = await admin.events.update({ id: (await admin.events.create(when)).id, venue: { id: hall.id } });
    expect(venueOf(updated)?.id).toBe(hall.id);

    const organizers: [EventOrganizerInput, (number | string)[]][] = [
      [org.id, [org.id]],
      [`${org.id},${org2.id}`, [org.id, org2.id]],
      [{ organizer: 'Shapes bare org' }, ['Shapes bare org']],
      [
        [org2.id, { id: org.id }, { organizer: 'Shapes listed org', email: 'o@example.org' }, String(org.id)],
        [org2.id, org.id, 'Shapes listed org'],
      ],
    ];
    for (const [organizer, expected] of organizers) {
      const e = await admin.events.create({ ...when, organizer });
      expect(
        e.organizer.map((o) => (typeof o.organizer === 'string' && !expected.includes(o.id) ? o.organizer : o.id)),
        JSON.stringify(organizer),
      ).toEqual(expected);
    }

    const terms: [EventTermsInput, string[]][] = [
      [cat.id, ['Shapes cat']],
      ['Shapes cat, Shapes other', ['Shapes cat', 'Shapes other']],
      [
        [cat.id, 'Shapes third'],
        ['Shapes cat', 'Shapes third'],
      ],
    ];
    for (const [categories, names] of terms) {
      const e = await admin.events.create({ ...when, categories });
      expect(
        e.categories.map((c) => c.name),
        JSON.stringify(categories),
      ).toEqual(names);
    }
    // A draft: a later test counts the tags of published events.
    const tagged = await admin.events.create({ ...when, status: 'draft', tags: ['Shapes tag', 'Shapes tag two'] });
    expect(tagged.tags.map((c) => c.name)).toEqual(['Shapes tag', 'Shapes tag two']);

    const costs: [EventCostInput, string][] = [
      ['$10', '$10'],
      [12, '$12'],
      [['$15', 25], '$15 – $25'],
    ];
    for (const [cost, shown] of costs) expect((await admin.events.create({ ...when, cost })).cost, JSON.stringify(cost)).toBe(shown);

    // Shapes outside the unions: refused before the pipeline, with the error the HTTP API gives.
    for (const fields of [{ venue: true }, { venue: { city: 'No name' } }, { organizer: [{ phone: '1' }] }, { categories: [{ id: cat.id }] }, { website: 5 }]) {
      const error = await sameError((c) => c.events.create({ ...when, ...fields } as never), 'POST', '/events', { ...when, ...fields }, 'admin');
      expect(apiErrorOf(error), JSON.stringify(fields)).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: Object.fromEntries(Object.keys(fields).map((k) => [k, 'Invalid parameter.'])) },
      });
    }
  });

  it('applies the permission rules of the HTTP API with the context user', async () => {
    const event = { title: 'E', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00' };
    for (const who of [null, 'subscriber'] as const) {
      const error = await sameError((c) => c.events.create(event), 'POST', '/events', event, who);
      expect(error.code).toBe(who ? 'FORBIDDEN' : 'UNAUTHORIZED');
      expect(apiErrorOf(error)?.code).toBe('rest_forbidden');
      await sameError((c) => c.venues.create({ venue: 'V' }), 'POST', '/venues', { venue: 'V' }, who);
      await sameError((c) => c.organizers.create({ organizer: 'O' }), 'POST', '/organizers', { organizer: 'O' }, who);
      await sameError((c) => c.categories.create({ name: 'C' }), 'POST', '/categories', { name: 'C' }, who);
      await sameError((c) => c.tags.create({ name: 'T' }), 'POST', '/tags', { name: 'T' }, who);
    }
    // A contributor may not touch another author's event; its own draft it may.
    const theirs = await as('author').events.create(event);
    await sameError((c) => c.events.update({ id: theirs.id, title: 'X' }), 'PATCH', `/events/${theirs.id}`, { title: 'X' }, 'contributor');
    await sameError((c) => c.events.delete({ id: theirs.id }), 'DELETE', `/events/${theirs.id}`, {}, 'contributor');
    const own = await as('contributor').events.create(event);
    expect(own.status).toBe('draft');
    expect(await as('contributor').events.update({ id: own.id, title: 'Mine' })).toMatchObject({ title: 'Mine' });
    // A draft is not readable anonymously.
    await sameError((c) => c.events.get({ id: own.id }), 'GET', `/events/${own.id}`, {}, null);
  });

  it('validates inputs like the HTTP API (BAD_REQUEST with the API error as cause)', async () => {
    const tag = await as('admin').tags.create({ name: 'first' });
    const cases: [string, (c: Caller) => Promise<unknown>, string, string, Record<string, unknown>][] = [
      ['missing', (c) => c.events.create({} as never), 'POST', '/events', {}],
      [
        'bad date',
        (c) => c.events.create({ title: 'x', start_date: 'never', end_date: 'nope' }),
        'POST',
        '/events',
        { title: 'x', start_date: 'never', end_date: 'nope' },
      ],
      ['unknown venue', (c) => c.events.list({ venue: 999999 }), 'GET', '/events', { venue: 999999 }],
      ['bad page', (c) => c.events.list({ page: 0 }), 'GET', '/events', { page: 0 }],
      // Wrong JSON types are refused before the pipeline, with the pipeline's messages.
      ['page type', (c) => c.events.list({ page: 'x' } as never), 'GET', '/events', { page: 'x' }],
      ['boolean type', (c) => c.events.list({ featured: 'yes' } as never), 'GET', '/events', { featured: 'yes' }],
      ['string type', (c) => c.venues.create({ venue: 'V', city: 5 } as never), 'POST', '/venues', { venue: 'V', city: 5 }],
      ['null required', (c) => c.categories.create({ name: null } as never), 'POST', '/categories', { name: null }],
      ['tag parent', (c) => c.tags.update({ id: tag.id, parent: 1 } as never), 'PATCH', `/tags/${tag.id}`, { parent: 1 }],
    ];
    for (const [name, trpc, method, path, json] of cases) {
      const http = await t.request(method, path, { json, as: 'admin' });
      if (name === 'tag parent') {
        // Over HTTP `parent` on a tag is refused; the tRPC input has no such key (its type forbids it, the schema drops it).
        expect(http.body.code).toBe('rest_taxonomy_not_hierarchical');
        continue;
      }
      const error = await sameError(trpc, method, path, json, 'admin');
      expect(error.code, name).toBe('BAD_REQUEST');
    }
    const missing = await thrown(as('admin').events.create({} as never));
    expect(apiErrorOf(missing)).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['title', 'start_date', 'end_date'] } });
    const typed = await thrown(as(null).events.list({ featured: 'yes' } as never));
    expect(apiErrorOf(typed)?.data).toMatchObject({
      params: { featured: 'featured is not of type boolean.' },
      details: { featured: { code: 'rest_invalid_type' } },
    });
    const noKey = await thrown(as(null).venues.get({} as never));
    expect(apiErrorOf(noKey)).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['id'] } });
  });

  it('serves the namespace index and /doc in the context locale and root', async () => {
    const index = await as(null, { root: '/fr/wp-json', locale: 'fr' }).index();
    const http = await t.request('GET', '/', { root: '/fr/wp-json', locale: 'fr' });
    expect(Object.keys(index.routes as object)).toEqual(Object.keys(http.body.routes));
    expect((index.routes as Record<string, unknown>)[`/${t.ns}/venues`]).toEqual(http.body.routes[`/${t.ns}/venues`]);
    expect(index._links).toEqual({ up: [{ href: 'http://example.org/fr/wp-json/' }] });
    const doc = await as(null).doc();
    expect(doc).toEqual((await t.request('GET', '/doc')).body);
    expect(await as(null).completeDoc()).toEqual((await t.request('GET', '/doc/complete')).body);
  });

  it('reports API errors over HTTP in data.api through calendarErrorFormatter', async () => {
    const handle = (path: string, init: RequestInit) =>
      fetchRequestHandler({
        endpoint: '/trpc',
        router,
        req: new Request(`http://localhost/trpc/${path}`, init),
        createContext: () => createCalendarContext({ user: USERS.admin }),
      });
    const res = await handle('venues.create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ venue: 'V', website: 'not a url' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { data: { code: string; api: unknown } } };
    expect(body.error.data.code).toBe('BAD_REQUEST');
    expect(body.error.data.api).toEqual((await t.request('POST', '/venues', { json: { venue: 'V', website: 'not a url' }, as: 'admin' })).body);
    const ok = await handle(`events.list?input=${encodeURIComponent(JSON.stringify({ per_page: 1 }))}`, { method: 'GET' });
    expect(ok.status).toBe(200);
  });

  it('nests in a host router whose context carries more than the user', async () => {
    const host = initTRPC.context<CalendarContext & { requestId: string }>().create({ errorFormatter: calendarErrorFormatter });
    const app = host.router({ calendar: router, ping: host.procedure.query(({ ctx }) => ctx.requestId) });
    const caller = app.createCaller({ user: USERS.subscriber, requestId: 'r1' });
    expect(await caller.ping()).toBe('r1');
    // No tag is on an event yet (the tags created above are empty or deleted), and
    // `hide_empty` defaults to true: the list is empty.
    const empty = await caller.calendar.tags.list();
    expect(empty).toMatchObject({ total: 0, total_pages: 0 });
    expect(empty).toEqual((await t.request('GET', '/tags', { as: 'subscriber' })).body);
    // One tag on one published event: exactly that tag.
    const admin = app.createCaller({ user: USERS.admin, requestId: 'r2' });
    const tag = await admin.calendar.tags.create({ name: 'Nested' });
    await admin.calendar.events.create({ title: 'Tagged', start_date: '2031-07-01 10:00:00', end_date: '2031-07-01 11:00:00', tags: [tag.id] });
    const listed = await caller.calendar.tags.list();
    expect(listed.total).toBe(1);
    expect(listed.tags.map((x) => [x.id, x.count])).toEqual([[tag.id, 1]]);
    expect((await thrown(caller.calendar.tags.create({ name: 'x' }))).code).toBe('FORBIDDEN');
  });
});

describe('examples/trpc/caller.ts', () => {
  it('runs: creates a venue and an event, lists it, shows a refused anonymous write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-trpc-example-'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/trpc/caller.ts'], {
        env: { ...process.env, CALENDAR_DB: join(dir, 'example.sqlite') },
        timeout: 60_000,
      });
      expect(stdout).toMatch(/created venue #\d+ "Blue Note" and event #\d+ "Late-night jam session"/);
      expect(stdout).toMatch(/1 event\(s\):\n- \d{4}-\d\d-\d\d 20:00:00 {2}Late-night jam session @ Blue Note/);
      expect(stdout).toContain('anonymous create refused: UNAUTHORIZED (rest_forbidden, HTTP 401)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
