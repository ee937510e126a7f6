// afterRead (issue 32): a hook adds or hides fields of rendered items for a viewer, with the
// response cache on; what it depends on is declared (`vary`), and no viewer is ever answered
// what another was shown, before or after a write, nor a 304 for another viewer's ETag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HooksOption, User } from '../../src/index.js';
import { DIALECTS, testCalendar, USERS, type TestCalendar } from '../helpers/harness.js';
import { withinOneVersion } from '../helpers/still-version.js';
import { storeCalendar } from '../helpers/store.js';

/** A host's user carries more than the calendar reads: here a plan. */
type HostUser = User & { plan?: string };

/** The plan of a host's user, read as the host's own hook would. */
const planOf = (user: User | null): string | undefined => (user && 'plan' in user && typeof user.plan === 'string' ? user.plan : undefined);

describe.each(DIALECTS)('afterRead hooks on $name', ({ name, url }) => {
  let t: TestCalendar;
  let eventId: number;
  let reads = 0;
  const hooks: HooksOption = {
    events: {
      afterRead: {
        vary: 'user',
        run: ({ item, user }) => {
          reads++;
          const plan = planOf(user);
          const { website: _hidden, ...shown } = item;
          // The website is for signed-in viewers only; every viewer is told who they are.
          return { ...(user ? item : shown), viewer: user ? `${user.id}:${plan ?? 'none'}` : 'anonymous' };
        },
      },
    },
    categories: {
      afterRead: { vary: 'user', run: ({ item, user }) => ({ ...item, viewer: user ? user.id : 'anonymous' }) },
    },
    venues: {
      afterRead: { vary: 'none', run: ({ item }) => ({ ...item, label: `${String(item.venue)} (${String(item.city ?? '')})` }) },
    },
  };
  const gold: HostUser = { id: 10, roles: ['editor'], plan: 'gold' };
  const free: HostUser = { id: 10, roles: ['editor'], plan: 'free' };
  const read = (user: User | null, headers: Record<string, string> = {}) =>
    t.calendar.handle({ method: 'GET', path: `/${t.ns}/events/${eventId}`, query: '', headers: { host: 'example.org', ...headers }, root: '/wp-json', user });
  const json = (res: Awaited<ReturnType<typeof read>>) => JSON.parse(Buffer.from(res?.body ?? '').toString('utf8'));

  beforeAll(async () => {
    t = await testCalendar(url, { hooks, responseCache: { maxBytes: 1 << 20 } });
    const created = await t.request('POST', '/events', {
      json: {
        title: 'Read me',
        start_date: '2027-06-01 20:00:00',
        end_date: '2027-06-01 22:00:00',
        status: 'publish',
        website: 'https://example.org/tickets',
        venue: { venue: 'Hall', city: 'Lyon' },
      },
      as: 'admin',
    });
    eventId = created.body.id;
  }, 120_000);
  afterAll(() => t?.close());

  it('shows each viewer their own item, cache on, before and after a write', async () => {
    const anonymous = await read(null);
    const again = await read(null);
    const signedIn = await read(USERS.editor);
    expect(json(anonymous)).toMatchObject({ title: 'Read me', viewer: 'anonymous' });
    expect(json(anonymous)).not.toHaveProperty('website');
    expect(json(again)).toEqual(json(anonymous));
    expect(json(signedIn)).toMatchObject({ title: 'Read me', viewer: '2:none', website: 'https://example.org/tickets' });
    // The venue's hook does not depend on the viewer: it shows alike, embedded too.
    expect(json(anonymous).venue.label).toBe('Hall (Lyon)');
    expect(json(signedIn).venue.label).toBe('Hall (Lyon)');
    // Tags follow the bytes each was sent: one viewer's tag is no 304 for the other.
    expect(anonymous?.headers.ETag).not.toBe(signedIn?.headers.ETag);
    expect((await read(USERS.editor, { 'if-none-match': anonymous?.headers.ETag ?? '' }))?.status).toBe(200);
    expect((await read(null, { 'if-none-match': anonymous?.headers.ETag ?? '' }))?.status).toBe(304);

    const updated = await t.request('POST', `/events/${eventId}`, { json: { title: 'Read me again' }, as: 'admin' });
    expect(updated.status).toBe(200);
    const after = [json(await read(null)), json(await read(USERS.editor))];
    expect(after[0]).toMatchObject({ title: 'Read me again', viewer: 'anonymous' });
    expect(after[0]).not.toHaveProperty('website');
    expect(after[1]).toMatchObject({ title: 'Read me again', viewer: '2:none', website: 'https://example.org/tickets' });
  });

  it('renders for the host user itself when the hook varies by user: two users the calendar would see alike stay apart', async () => {
    expect(json(await read(gold)).viewer).toBe('10:gold');
    expect(json(await read(free)).viewer).toBe('10:free');
    expect(json(await read(gold)).viewer).toBe('10:gold');
  });

  it("shares a signed-in viewer's rendered items only by the hook's key of the user", async () => {
    let runs = 0;
    const keyed = await storeCalendar(url, {
      hooks: {
        events: {
          afterRead: {
            vary: 'user',
            key: (user) => planOf(user) ?? '',
            run: ({ item, user }) => {
              runs++;
              return { ...item, plan: planOf(user) ?? 'none' };
            },
          },
        },
      },
    });
    try {
      const made = await keyed.request('POST', '/events', {
        json: { title: 'Keyed', start_date: '2027-06-02 20:00:00', end_date: '2027-06-02 22:00:00', status: 'publish' },
        as: 'admin',
      });
      const readAs = async (user: User) => {
        const res = await keyed.calendar.handle({
          method: 'GET',
          path: `/${keyed.ns}/events/${made.body.id}`,
          query: '',
          headers: { host: 'example.org' },
          root: '/wp-json',
          user,
        });
        return json(res).plan;
      };
      // Five reads within one store version (another test file's write would drop what is kept).
      const plans = await withinOneVersion(name, keyed.db, async () => {
        runs = 0;
        return [await readAs(gold), await readAs(gold), await readAs(free), await readAs(free), await readAs(gold)];
      });
      expect(plans).toEqual(['gold', 'gold', 'free', 'free', 'gold']);
      // Where the store has a version, each (user, plan) is rendered once and kept; else every time.
      expect(runs).toBe(name === 'mysql' ? 5 : 2);
    } finally {
      await keyed.close();
    }
  });

  it('applies to archives and to the answer of a write', async () => {
    const list = await t.request('GET', '/events');
    expect(list.body.events.map((e: { viewer: string }) => e.viewer)).toEqual(['anonymous']);
    const written = await t.request('POST', `/events/${eventId}`, { json: { description: 'x' }, as: 'editor' });
    expect(written.body.viewer).toBe('2:none');
    const venues = await t.request('GET', '/venues');
    expect(venues.body.venues[0].label).toBe('Hall (Lyon)');
    expect(reads).toBeGreaterThan(0);
  });

  it('applies to terms, archive and single, for their viewer', async () => {
    const made = await t.request('POST', '/categories', { json: { name: 'Jazz' }, as: 'admin' });
    expect(made.body.viewer).toBe(1);
    expect((await t.request('GET', `/categories/${made.body.id}`)).body.viewer).toBe('anonymous');
    const listed = await t.request('GET', '/categories', { query: { hide_empty: 'false' }, as: 'editor' });
    expect(listed.body.categories.map((c: { viewer: unknown }) => c.viewer)).toEqual([2]);
    const anonymous = await t.request('GET', '/categories', { query: { hide_empty: 'false' } });
    expect(anonymous.body.categories.map((c: { viewer: unknown }) => c.viewer)).toEqual(['anonymous']);
    // Embedded in an event, for the event's viewer, the response cache on.
    const times = { start_date: '2027-06-03 20:00:00', end_date: '2027-06-03 22:00:00', status: 'publish' };
    const tagged = await t.request('POST', '/events', { json: { title: 'Filed', categories: [made.body.id], ...times }, as: 'admin' });
    expect(tagged.body.categories.map((c: { viewer: unknown }) => c.viewer)).toEqual([1]);
    for (const [as, viewer] of [
      [undefined, 'anonymous'],
      ['editor', 2],
      [undefined, 'anonymous'],
    ] as const) {
      const single = await t.request('GET', `/events/${tagged.body.id}`, as ? { as } : {});
      expect(single.body.categories.map((c: { viewer: unknown }) => c.viewer)).toEqual([viewer]);
    }
  });
});
