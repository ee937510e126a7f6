// A host's own roles (issue 32): the roles option maps them to capabilities, a list or a
// built-in role's grants changed; a user naming one gets them. createCalendar refuses a
// capability name the API never checks, with the nearest known one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { field } from '../../src/fields/declare.js';
import { createCalendar, type RolesOption, type User } from '../../src/index.js';
import { createFetchContext } from '../../src/trpc/index.js';
import { DIALECTS, testCalendar, type TestCalendar } from '../helpers/harness.js';

const ROLES: RolesOption = {
  // Editor-like rights on events, spelt out.
  planner: [
    'read',
    'edit_posts',
    'edit_tribe_events',
    'edit_others_tribe_events',
    'edit_published_tribe_events',
    'publish_tribe_events',
    'read_private_tribe_events',
    'delete_tribe_events',
    'delete_others_tribe_events',
    'delete_published_tribe_events',
  ],
  manager: { inherits: 'editor' },
  // An author who may not publish: events wait for review.
  intern: { inherits: 'author', remove: ['publish_tribe_events'] },
  // A host role built on another, with a declared field's capability.
  box_office: { inherits: 'planner', add: ['edit_capacity'] },
};

const FIELDS = { events: { capacity: field({ type: z.number().int().min(0), capability: 'edit_capacity' }) } };

describe.each(DIALECTS)('host roles on $name', ({ url }) => {
  let t: TestCalendar;
  let othersEvent: number;
  const errors: unknown[] = [];
  const as = (user: User) => ({
    call: (method: string, path: string, params: Record<string, unknown> = {}) => t.calendar.call(method, path, { user, params }),
  });
  const planner = as({ id: 30, roles: ['planner'] });
  const manager = as({ id: 31, roles: ['manager'] });
  const intern = as({ id: 32, roles: ['intern'] });
  const boxOffice = as({ id: 33, roles: ['box_office'] });
  const show = (title: string) => ({ title, start_date: '2027-07-01 20:00:00', end_date: '2027-07-01 22:00:00', status: 'publish' });

  beforeAll(async () => {
    t = await testCalendar(url, { roles: ROLES, fields: FIELDS, onError: (e) => errors.push(e) });
    // An author's published event: only a role with edit_others and edit_published may change it.
    const own = await t.request('POST', '/events', { json: show("Author's show"), as: 'author' });
    othersEvent = own.body.id;
  }, 120_000);
  afterAll(() => t?.close());

  it("lets a host role mapped to editor-like capabilities publish and edit others' events", async () => {
    const created = await planner.call('POST', '/events', show('Planned'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'publish' });
    const edited = await planner.call('POST', `/events/${othersEvent}`, { title: 'Planned over' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Planned over' });
    const byManager = await manager.call('POST', `/events/${othersEvent}`, { title: 'Managed' });
    expect(byManager.status).toBe(200);
    expect(errors).toEqual([]);
  });

  it('takes a role as a built-in role with capabilities removed or added', async () => {
    const pending = await intern.call('POST', '/events', show('Intern show'));
    expect(pending.status).toBe(201);
    expect(pending.body).toMatchObject({ status: 'pending' });
    expect((await intern.call('POST', `/events/${othersEvent}`, { title: 'Not mine' })).status).toBe(403);
    // A declared field's capability, granted by a host role.
    const refused = await planner.call('POST', '/events', { ...show('No seats'), capacity: 10 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { capacity: expect.any(String) } } });
    const seats = await boxOffice.call('POST', '/events', { ...show('Seats'), capacity: 10 });
    expect(seats.status).toBe(201);
    expect(seats.body).toMatchObject({ capacity: 10 });
  });

  it("knows the host's roles in tRPC's request context (its CSRF guard), reporting none as unknown", async () => {
    const context = createFetchContext(t.calendar, { getUser: () => ({ id: 30, roles: ['planner'] }) });
    const made = await context({ req: new Request('http://example.org/trpc/events.create', { method: 'POST', headers: { authorization: 'Bearer x' } }) });
    expect(made.user).toEqual({ id: 30, roles: ['planner'] });
    expect(errors).toEqual([]);
  });

  it('grants nothing for a role nobody defined, and says so once', async () => {
    const stranger = as({ id: 34, roles: ['stranger'] });
    expect((await stranger.call('POST', '/events', show('Stranger'))).status).toBe(403);
    expect(errors.map(String)).toEqual([
      expect.stringMatching(/"stranger".*administrator, editor, author, contributor, subscriber, planner, manager, intern, box_office/),
    ]);
    errors.length = 0;
  });
});

describe('the roles option', () => {
  const make = (roles: unknown) => () => createCalendar({ db: ':memory:', roles: roles as RolesOption });

  it('refuses an unknown capability name, with the nearest known one', () => {
    expect(make({ planner: ['edit_other_tribe_events'] })).toThrow(
      /roles\.planner.*unknown capability "edit_other_tribe_events" \(did you mean "edit_others_tribe_events"\?\)/,
    );
    expect(make({ intern: { inherits: 'author', add: ['publish_tribe_event'] } })).toThrow(/roles\.intern\.add.*did you mean "publish_tribe_events"/);
    expect(make({ odd: ['fly'] })).toThrow(/roles\.odd.*unknown capability "fly"; the API checks read, /);
  });

  it('refuses an unknown role to inherit from, a loop, and a definition of the wrong shape', () => {
    expect(make({ manager: { inherits: 'editr' } })).toThrow(/roles\.manager\.inherits.*unknown role "editr" \(did you mean "editor"\?\)/);
    expect(make({ a: { inherits: 'b' }, b: { inherits: 'a' } })).toThrow(/inherits from itself \(a → b → a\)/);
    expect(make({ a: 'editor' })).toThrow(/roles\.a` takes a list of capabilities/);
    expect(make(['editor'])).toThrow(/option `roles`/);
  });

  it('redefines a built-in role from its own grants', async () => {
    const calendar = createCalendar({ db: ':memory:', roles: { author: { inherits: 'author', remove: ['publish_tribe_events'] } } });
    await calendar.migrate();
    const made = await calendar.call('POST', '/events', {
      user: { id: 3, roles: ['author'] },
      params: { title: 'Reviewed first', start_date: '2027-07-01 20:00:00', end_date: '2027-07-01 22:00:00', status: 'publish' },
    });
    expect(made.body).toMatchObject({ status: 'pending' });
    await calendar.close();
  });

  it('accepts a declared field capability', () => {
    expect(() => createCalendar({ db: ':memory:', roles: { seats: ['edit_capacity'] }, fields: FIELDS })).not.toThrow();
    expect(make({ seats: ['edit_capacity'] })).toThrow(/unknown capability "edit_capacity"/);
  });
});
