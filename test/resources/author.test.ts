/**
 * `author` on writes (issue 29, item 3). The original lets a contributor, an author and an editor
 * name another user as the author of what they create or update (measured 2026-11-28); with
 * `strictAuthor`, WordPress core's rule: another user only with the kind's `edit_others`, else
 * 403 `rest_cannot_edit_others`. Events, venues, organizers, and venues and organizers created
 * inside an event write, on every database. Occurrences: test/recurrence/author.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { DIALECTS, USERS, testCalendar, type TestCalendar } from '../helpers/harness.js';
import { eventFields, expectError, invalidParamBody } from './events/fixtures.js';

const ROLES = ['contributor', 'author', 'editor'] as const;
type Role = (typeof ROLES)[number];

const userExists = (id: number) => Object.values(USERS).some((u) => u.id === id);
const CREATE = 'Sorry, you are not allowed to create posts as this user.';
const UPDATE = 'Sorry, you are not allowed to update posts as this user.';

/** The status a role's new item gets: a contributor's stays a draft. */
const statusOf = (role: Role) => (role === 'contributor' ? 'draft' : 'publish');

describe('strictAuthor option', () => {
  it('is a boolean, checked by createCalendar', () => {
    expect(() => createCalendar({ db: ':memory:', strictAuthor: 'yes' as unknown as boolean })).toThrow(
      'option `strictAuthor` is "yes"; it takes true or false.',
    );
    expect(() => createCalendar({ db: ':memory:', strictAuthor: true })).not.toThrow();
  });
});

describe.each(DIALECTS)('author on writes on $name', ({ url }) => {
  let loose: TestCalendar;
  let strict: TestCalendar;

  beforeAll(async () => {
    loose = await testCalendar(url, { userExists });
    strict = await testCalendar(url, { userExists, strictAuthor: true });
  });
  afterAll(async () => {
    await loose?.close();
    await strict?.close();
  });

  /** How many items of each kind the store holds, as an administrator sees them. */
  const counts = async (t: TestCalendar) => {
    const total = async (path: string) =>
      (await t.request('GET', path, { as: 'admin', query: { status: 'any', per_page: 1, start_date: '2000-01-01' } })).body.total as number;
    return [await total('/events'), await total('/venues'), await total('/organizers')];
  };

  describe.each(ROLES)('as %s', (role) => {
    const me = USERS[role].id;

    it('may name another user as the author of a new event, venue or organizer by default; the item keeps it', async () => {
      const event = await loose.request('POST', '/events', { as: role, json: eventFields({ title: `By ${role} for 1`, author: 1 }) });
      expect([event.status, event.body.author, event.body.status]).toEqual([201, '1', statusOf(role)]);
      const venue = await loose.request('POST', '/venues', { as: role, json: { venue: `Hall of ${role}`, author: 1 } });
      expect([venue.status, venue.body.author, venue.body.status]).toEqual([201, '1', statusOf(role)]);
      const organizer = await loose.request('POST', '/organizers', { as: role, json: { organizer: `Club of ${role}`, author: 1 } });
      expect([organizer.status, organizer.body.author, organizer.body.status]).toEqual([201, '1', statusOf(role)]);
    });

    it('may name another user when updating its own event, venue or organizer by default', async () => {
      for (const [path, json] of [
        ['/events', eventFields({ title: `${role}'s own` })],
        ['/venues', { venue: `${role}'s own hall` }],
        ['/organizers', { organizer: `${role}'s own club` }],
      ] as const) {
        const own = await loose.request('POST', path, { as: role, json });
        expect([own.status, own.body.author]).toEqual([201, String(me)]);
        const moved = await loose.request('POST', `${path}/${own.body.id}`, { as: role, json: { author: 1 } });
        expect([moved.status, moved.body.author, moved.body.status], moved.text).toEqual([200, '1', statusOf(role)]);
      }
    });

    it('may name another user as the author of a venue or organizer created inside an event write by default', async () => {
      const res = await loose.request('POST', '/events', {
        as: role,
        json: eventFields({
          title: `Nested by ${role}`,
          venue: { venue: `Nested hall ${role}`, author: 1 },
          organizer: [{ organizer: `Nested club ${role}`, author: 1 }],
        }),
      });
      expect(res.status, res.text).toBe(201);
      expect([res.body.author, res.body.venue.author, res.body.organizer[0].author]).toEqual([String(me), '1', '1']);
    });

    it('with strictAuthor: names another user only with edit_others (403 rest_cannot_edit_others), and writes nothing when refused', async () => {
      const allowed = role === 'editor';
      const before = await counts(strict);
      for (const [path, json] of [
        ['/events', eventFields({ title: `Strict ${role}`, author: 1 })],
        ['/venues', { venue: `Strict hall ${role}`, author: 1 }],
        ['/organizers', { organizer: `Strict club ${role}`, author: 1 }],
        // Inside an event write: the venue or organizer is created, so the rule of its kind applies.
        ['/events', eventFields({ title: `Strict nested venue ${role}`, venue: { venue: `Strict nested hall ${role}`, author: 1 } })],
        ['/events', eventFields({ title: `Strict nested organizer ${role}`, organizer: { organizer: `Strict nested club ${role}`, author: 1 } })],
      ] as const) {
        const res = await strict.request('POST', path, { as: role, json });
        if (allowed) expect(res.status, res.text).toBe(201);
        else expectError(res, 403, 'rest_cannot_edit_others', CREATE);
      }
      expect(await counts(strict)).toEqual(allowed ? before.map((n, i) => n + [3, 2, 2][i]!) : before);
      // Naming oneself is no other user.
      for (const [path, json] of [
        ['/events', eventFields({ title: `Strict self ${role}`, author: me })],
        ['/venues', { venue: `Strict self hall ${role}`, author: me }],
        ['/organizers', { organizer: `Strict self club ${role}`, author: me }],
        ['/events', eventFields({ title: `Strict self nested ${role}`, venue: { venue: `Strict self nested hall ${role}`, author: me } })],
      ] as const) {
        const res = await strict.request('POST', path, { as: role, json });
        expect([res.status, res.body.author], res.text).toEqual([201, String(me)]);
      }
    });

    it('with strictAuthor: updates its own event, venue or organizer to another author only with edit_others', async () => {
      const allowed = role === 'editor';
      for (const [path, json] of [
        ['/events', eventFields({ title: `Strict own ${role}` })],
        ['/venues', { venue: `Strict own hall ${role}` }],
        ['/organizers', { organizer: `Strict own club ${role}` }],
      ] as const) {
        const own = await strict.request('POST', path, { as: role, json });
        expect(own.status, own.text).toBe(201);
        const res = await strict.request('POST', `${path}/${own.body.id}`, { as: role, json: { author: 1, description: 'Changed' } });
        if (allowed) expect([res.status, res.body.author], res.text).toEqual([200, '1']);
        else {
          expectError(res, 403, 'rest_cannot_edit_others', UPDATE);
          const after = await strict.request('GET', `${path}/${own.body.id}`, { as: 'admin' });
          expect([after.body.author, after.body.description ?? '']).toEqual([String(me), own.body.description ?? '']);
        }
        // Naming oneself passes (the editor's item is user 1's by now: it may edit others' items).
        expect((await strict.request('POST', `${path}/${own.body.id}`, { as: role, json: { author: me } })).body.author).toBe(String(me));
      }
    });
  });

  it('checks the author of a venue or organizer given as data as the author parameter is checked (400, never a 500)', async () => {
    for (const author of [1e12, 1.5, -3, 0, '', 'one', 23, true, {}]) {
      for (const field of ['venue', 'organizer'] as const) {
        const res = await loose.request('POST', '/events', {
          as: 'admin',
          json: eventFields({ [field]: { [field]: `Bad author ${JSON.stringify(author)}`, author } }),
        });
        expect(res.body, `${field} author ${JSON.stringify(author)}`).toEqual(invalidParamBody(field));
      }
    }
    // A digit string names its user, as the author parameter does; null names nobody: the caller.
    const named = await loose.request('POST', '/events', {
      as: 'editor',
      json: eventFields({ venue: { venue: 'Named by string', author: '3' }, organizer: { organizer: 'Named by null', author: null } }),
    });
    expect([named.status, named.body.venue.author, named.body.organizer[0].author], named.text).toEqual([201, '3', '2']);
  });
});
