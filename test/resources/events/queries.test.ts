import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventListQuery, EventRow } from '../../../src/resources/events/store.js';
import type { Services } from '../../../src/resources/services.js';
import type { Store } from '../../../src/resources/store.js';
import { ADMIN, NOW, servicesOf, storeOf } from '../../helpers/direct.js';
import { DIALECTS } from '../../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

// EventStore (src/resources/events/store.ts) read directly: archive filters, paging and
// totals, single reads and the batch reads of links. Events are created through the service,
// so that the rows are the ones the API writes (slugs, term counts, organizer positions).

const ALL_LISTED = ['publish', 'private', 'draft'];

describe.each(DIALECTS)('EventStore queries on $name', ({ url }) => {
  let t: StoreCalendar;
  let store: Store;
  let services: Services;
  /** Ids of the seeded rows, by name (set once in `beforeAll`). */
  const id = { hallA: 0, hallB: 0, ann: 0, bob: 0, alpha: 0, beta: 0, gamma: 0, delta: 0, epsilon: 0, music: 0, outdoor: 0, talks: 0 };

  /** Creates an event as an administrator; returns its row. */
  const createEvent = (title: string, start: string, end: string, more: Record<string, unknown> = {}): Promise<EventRow> =>
    services.events.create({ title, start_date: start, end_date: end, ...more }, ADMIN, NOW).then((c) => c.row);

  /** An archive query: given statuses, first page of 50, ordered by start. */
  const query = (q: Partial<EventListQuery> = {}): EventListQuery => ({ statuses: ALL_LISTED, offset: 0, limit: 50, orderByPublication: false, ...q });

  /** The titles of one page and the total, for exact comparisons. */
  const titles = async (q: Partial<EventListQuery> = {}) => {
    const { keys, total } = await store.events.list(query(q), undefined);
    const rows = await store.events.getMany(keys.map((k) => k.id));
    expect(rows.map((r) => r.id)).toEqual(keys.map((k) => k.id));
    return { titles: rows.map((r) => r.title), total };
  };

  beforeAll(async () => {
    t = await storeCalendar(url);
    store = storeOf(t);
    services = await servicesOf(t);
    id.hallA = (await services.venues.create({ venue: 'Hall A' }, ADMIN, 'UTC', NOW)).id;
    id.hallB = (await services.venues.create({ venue: 'Hall B' }, ADMIN, 'UTC', NOW)).id;
    id.ann = (await services.organizers.create({ organizer: 'Ann' }, ADMIN, 'UTC', NOW)).id;
    id.bob = (await services.organizers.create({ organizer: 'Bob' }, ADMIN, 'UTC', NOW)).id;
    // Organizers are linked in the order sent: Bob before Ann on Alpha.
    const alpha = await createEvent('Alpha', '2026-03-01 10:00:00', '2026-03-01 12:00:00', {
      venue: id.hallA,
      organizer: [id.bob, id.ann],
      categories: ['Music'],
      tags: ['Outdoor'],
    });
    const beta = await createEvent('Beta', '2026-03-05 09:00:00', '2026-03-06 17:00:00', { venue: id.hallB, organizer: [id.ann], categories: ['Talks'] });
    const gamma = await createEvent('Gamma', '2026-04-01 10:00:00', '2026-04-01 11:00:00', { status: 'draft' });
    const delta = await createEvent('Delta', '2026-02-01 10:00:00', '2026-02-01 11:00:00', { hide_from_listings: true, venue: id.hallA });
    const epsilon = await createEvent('Epsilon', '2026-03-10 10:00:00', '2026-03-10 11:00:00', { status: 'private', categories: ['Music'] });
    Object.assign(id, { alpha: alpha.id, beta: beta.id, gamma: gamma.id, delta: delta.id, epsilon: epsilon.id });
    const terms = await store.events.termIds([alpha.id, beta.id]);
    const termId = (eventId: number, taxonomy: string) => terms.get(eventId)?.find((x) => x.taxonomy === taxonomy)?.id ?? 0;
    Object.assign(id, { music: termId(alpha.id, 'tribe_events_cat'), outdoor: termId(alpha.id, 'post_tag'), talks: termId(beta.id, 'tribe_events_cat') });
  }, 180_000);
  afterAll(() => t?.close());

  it('lists only the statuses asked for, never hidden events, by start', async () => {
    expect(await titles({ statuses: ['publish'] })).toEqual({ titles: ['Alpha', 'Beta'], total: 2 });
    expect(await titles()).toEqual({ titles: ['Alpha', 'Beta', 'Epsilon', 'Gamma'], total: 4 });
    expect(await titles({ statuses: ['private', 'draft'] })).toEqual({ titles: ['Epsilon', 'Gamma'], total: 2 });
    // No status at all lists nothing (rather than every status).
    expect(await titles({ statuses: [] })).toEqual({ titles: [], total: 0 });
  });

  it('bounds starts and ends by local wall clock, inclusive and strict', async () => {
    expect(await titles({ startsOnOrAfter: '2026-03-05 09:00:00' })).toEqual({ titles: ['Beta', 'Epsilon', 'Gamma'], total: 3 });
    expect(await titles({ startsAfter: '2026-03-05 09:00:00' })).toEqual({ titles: ['Epsilon', 'Gamma'], total: 2 });
    expect(await titles({ startsBefore: '2026-03-05 09:00:00' })).toEqual({ titles: ['Alpha'], total: 1 });
    expect(await titles({ endsOnOrBefore: '2026-03-06 17:00:00' })).toEqual({ titles: ['Alpha', 'Beta'], total: 2 });
    expect(await titles({ endsBefore: '2026-03-06 17:00:00' })).toEqual({ titles: ['Alpha'], total: 1 });
    expect(await titles({ endsAfter: '2026-03-06 17:00:00' })).toEqual({ titles: ['Epsilon', 'Gamma'], total: 2 });
    // A multi-day event overlapping a window is kept only by the bounds that hold for it.
    expect(await titles({ startsOnOrAfter: '2026-03-02 00:00:00', endsOnOrBefore: '2026-03-10 23:59:59' })).toEqual({ titles: ['Beta', 'Epsilon'], total: 2 });
  });

  it('restricts to included ids, ignoring ids no row can have, ordered by publication when asked', async () => {
    expect(await titles({ include: [id.beta, id.alpha, 0, -3], orderByPublication: true })).toEqual({ titles: ['Alpha', 'Beta'], total: 2 });
    // Hidden events stay out even when named.
    expect(await titles({ include: [id.delta, id.epsilon] })).toEqual({ titles: ['Epsilon'], total: 1 });
    expect(await titles({ include: [] })).toEqual({ titles: [], total: 0 });
    expect(await titles({ include: [0] })).toEqual({ titles: [], total: 0 });
  });

  it('filters by venue, organizer and category or tag', async () => {
    expect(await titles({ venueIds: [id.hallA] })).toEqual({ titles: ['Alpha'], total: 1 });
    expect(await titles({ venueIds: [id.hallA, id.hallB] })).toEqual({ titles: ['Alpha', 'Beta'], total: 2 });
    expect(await titles({ venueIds: [] })).toEqual({ titles: [], total: 0 });
    expect(await titles({ organizerIds: [id.ann] })).toEqual({ titles: ['Alpha', 'Beta'], total: 2 });
    expect(await titles({ organizerIds: [id.bob] })).toEqual({ titles: ['Alpha'], total: 1 });
    expect(await titles({ organizerIds: [] })).toEqual({ titles: [], total: 0 });
    expect(await titles({ categoryIds: [id.music] })).toEqual({ titles: ['Alpha', 'Epsilon'], total: 2 });
    expect(await titles({ categoryIds: [id.music, id.talks] })).toEqual({ titles: ['Alpha', 'Beta', 'Epsilon'], total: 3 });
    expect(await titles({ tagIds: [id.outdoor] })).toEqual({ titles: ['Alpha'], total: 1 });
    // Filters combine with AND.
    expect(await titles({ categoryIds: [id.music], organizerIds: [id.ann] })).toEqual({ titles: ['Alpha'], total: 1 });
    expect(await titles({ venueIds: [id.hallB], statuses: ['draft'] })).toEqual({ titles: [], total: 0 });
  });

  it('pages with offset and limit while the total counts every match', async () => {
    expect(await titles({ offset: 1, limit: 2 })).toEqual({ titles: ['Beta', 'Epsilon'], total: 4 });
    expect(await titles({ offset: 3, limit: 2 })).toEqual({ titles: ['Gamma'], total: 4 });
    expect(await titles({ offset: 10, limit: 2 })).toEqual({ titles: [], total: 4 });
  });

  it('recounts a kept total after a write', async () => {
    const q = { statuses: ['future'] };
    expect(await titles(q)).toEqual({ titles: [], total: 0 });
    // A publication date ahead of the clock makes the event `future`.
    const zeta = await createEvent('Zeta', '2027-01-01 10:00:00', '2027-01-01 11:00:00', { date: '2026-12-01 00:00:00' });
    expect(zeta.status).toBe('future');
    expect(await titles(q)).toEqual({ titles: ['Zeta'], total: 1 });
    await store.events.deletePermanently(zeta.id);
    expect(await titles(q)).toEqual({ titles: [], total: 0 });
  });

  it('reads one event by id and by slug, and nothing for other ids, slugs or post types', async () => {
    const alpha = await store.events.get(id.alpha);
    expect(alpha).toMatchObject({
      id: id.alpha,
      type: 'event',
      status: 'publish',
      title: 'Alpha',
      slug: 'alpha',
      start_local: '2026-03-01 10:00:00',
      end_local: '2026-03-01 12:00:00',
      start_utc: '2026-03-01 10:00:00',
      timezone: 'UTC',
      venue_id: id.hallA,
    });
    expect((await store.events.get(id.alpha, { lock: true }))?.title).toBe('Alpha');
    for (const missing of [0, -1, 1.5, 2 ** 53, 999_999]) expect(await store.events.get(missing)).toBeUndefined();
    // A venue is a post, but not an event.
    expect(await store.events.get(id.hallA)).toBeUndefined();
    expect((await store.events.bySlug('beta'))?.id).toBe(id.beta);
    expect(await store.events.bySlug('hall-a')).toBeUndefined();
    expect(await store.events.bySlug('BETA')).toBeUndefined();
    // Drafts get no slug from their title.
    expect((await store.events.get(id.gamma))?.slug).toBeNull();
  });

  it('reads organizer ids of many events at once, in link order', async () => {
    const ids = await store.events.organizerIds([id.alpha, id.beta, id.gamma, 0, -1]);
    expect([...ids.entries()].sort(([a], [b]) => a - b)).toEqual([
      [id.alpha, [id.bob, id.ann]],
      [id.beta, [id.ann]],
    ]);
    expect((await store.events.organizerIds([])).size).toBe(0);
    expect((await store.events.organizerIds([0, -5])).size).toBe(0);
  });

  it('reads term ids of many events at once, with their taxonomy', async () => {
    const terms = await store.events.termIds([id.alpha, id.beta, id.gamma, id.epsilon]);
    const sorted = (eventId: number) => [...(terms.get(eventId) ?? [])].sort((a, b) => a.id - b.id);
    expect(terms.size).toBe(3);
    expect(sorted(id.alpha)).toEqual(
      [
        { taxonomy: 'tribe_events_cat', id: id.music },
        { taxonomy: 'post_tag', id: id.outdoor },
      ].sort((a, b) => a.id - b.id),
    );
    expect(sorted(id.beta)).toEqual([{ taxonomy: 'tribe_events_cat', id: id.talks }]);
    expect(sorted(id.epsilon)).toEqual([{ taxonomy: 'tribe_events_cat', id: id.music }]);
    expect(terms.has(id.gamma)).toBe(false);
    expect((await store.events.termIds([])).size).toBe(0);
  });

  it('renderJson leaves out an event whose status or password changed after its key was read', async () => {
    const row = await createEvent('Keyed', '2031-03-01 10:00:00', '2031-03-01 11:00:00');
    const key = { id: row.id, author: row.author, status: row.status, status_before_trash: row.status_before_trash, password: row.password };
    const view = {
      urls: {
        home: 'http://example.org',
        root: 'http://example.org/wp-json/',
        base: 'http://example.org/wp-json/calendar/events/v1',
        globalIdOrigin: 'example.org',
      },
      principal: null,
      single: false,
    };
    const [same] = await services.events.renderJson([key], view, async () => [row]);
    expect((same!.parse() as { title: string }).title).toBe('Keyed');
    expect(await services.events.renderJson([key], view, async () => [{ ...row, status: 'private' }])).toEqual([undefined]);
    expect(await services.events.renderJson([key], view, async () => [{ ...row, password: 'secret' }])).toEqual([undefined]);
    expect(await services.events.renderJson([key], view, async () => [])).toEqual([undefined]);
  });
});
