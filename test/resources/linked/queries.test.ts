import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkedListQuery, LinkedPostStore, LinkedTable } from '../../../src/resources/linked/store.js';
import type { LinkedPostService } from '../../../src/resources/linked/service.js';
import type { Services } from '../../../src/resources/services.js';
import type { Store } from '../../../src/resources/store.js';
import { ADMIN, NOW, servicesOf, storeOf, targetOf } from '../../helpers/direct.js';
import { DIALECTS } from '../../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

// LinkedPostStore (src/resources/linked/store.ts) read directly, for venues and organizers
// alike: archive filters and `findDuplicates`, the lookup that lets a create reuse an item.
// Every seeded event links one venue and one organizer of the same name, so one set of rows
// checks both the `events.venue_id` and the `event_organizers` paths.

const KINDS = ['venues', 'organizers'] as const;
const TITLE_KEY = { venues: 'venue', organizers: 'organizer' } as const;

/** Upcoming from the tests' point of view. */
const AFTER_UTC = '2026-03-01 00:00:00';

/**
 * More than 32 distinct non-ASCII cased letters (Greek and Cyrillic): `foldCase` gives up on
 * them, and capitals that SQLite's `lower()` leaves alone keep the folded comparison from
 * matching: only the exact comparison can find this text.
 */
const MANY_LETTERS = 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ абвгдежзийклмнопрст';

describe.each(DIALECTS)('LinkedPostStore queries on $name', ({ url }) => {
  let t: StoreCalendar;
  let store: Store;
  let services: Services;
  /** Item ids by kind and name. */
  const ids = { venues: {} as Record<string, number>, organizers: {} as Record<string, number> };
  let publishedEvent = 0;

  // One handle type for both kinds, as `services.linked()` gives it.
  const table = (kind: LinkedTable) => store[kind] as unknown as LinkedPostStore<LinkedTable>;
  const service = (kind: LinkedTable) => services[kind] as unknown as LinkedPostService<LinkedTable>;

  /** Moves an item to the trash as an administrator. */
  const trashItem = async (kind: LinkedTable, id: number) => {
    const row = await service(kind).get(id);
    if (!row) throw new Error(`no ${kind} ${id}`);
    await service(kind).trash(targetOf(row), ADMIN, 'UTC', NOW);
  };

  /** Creates an item as an administrator (an existing one with the same title and description is reused). */
  const createItem = async (kind: LinkedTable, title: string, more: Record<string, unknown> = {}) =>
    (await service(kind).create({ [TITLE_KEY[kind]]: title, ...more }, ADMIN, 'UTC', NOW)).id;

  /** The titles of one page and the total (publication date descending, then id descending). */
  const titles = async (kind: LinkedTable, q: Partial<LinkedListQuery>) => {
    const { rows, total } = await table(kind).list({ statuses: ['publish'], offset: 0, limit: 50, ...q });
    return { titles: rows.map((r) => r.title), total };
  };

  /** Titles of the duplicates found, in id order. */
  const duplicates = async (kind: LinkedTable, title: string, content?: string, limit = 20) =>
    (await table(kind).findDuplicates(title, content, limit)).map((r) => `${r.title}/${r.content}`);

  beforeAll(async () => {
    t = await storeCalendar(url);
    store = storeOf(t);
    services = await servicesOf(t);
    // One event per name, linking the venue and the organizer of that name; `Lonely` has none.
    const events: [string, Record<string, unknown>][] = [
      ['Published link', {}],
      ['Draft link', { status: 'draft' }],
      ['Pending link', { status: 'pending' }],
      ['Past link', { start_date: '2025-06-01 10:00:00', end_date: '2025-06-01 11:00:00' }],
      ['Hidden link', { hide_from_listings: true }],
      ['Lonely', { none: true }],
    ];
    for (const [name, fields] of events) {
      for (const kind of KINDS) ids[kind][name] = await createItem(kind, name, kind === 'venues' ? { city: 'Zürich' } : { email: 'x@example.org' });
      if (fields.none) continue;
      const event = await services.events.create(
        {
          title: `Event of ${name}`,
          start_date: '2026-06-01 10:00:00',
          end_date: '2026-06-01 11:00:00',
          venue: ids.venues[name],
          organizer: [ids.organizers[name]],
          ...fields,
        },
        ADMIN,
        NOW,
      );
      if (name === 'Published link') publishedEvent = event.row.id;
    }
  }, 180_000);
  afterAll(() => t?.close());

  const ALL = ['Lonely', 'Hidden link', 'Past link', 'Pending link', 'Draft link', 'Published link'];

  it.each(KINDS)('lists %s newest first, paged, with the total of every match', async (kind) => {
    expect(await titles(kind, {})).toEqual({ titles: ALL, total: 6 });
    expect(await titles(kind, { offset: 2, limit: 3 })).toEqual({ titles: ALL.slice(2, 5), total: 6 });
    expect(await titles(kind, { statuses: [] })).toEqual({ titles: [], total: 0 });
  });

  it.each(KINDS)('filters %s by the event they are linked to', async (kind) => {
    expect(await titles(kind, { eventId: publishedEvent })).toEqual({ titles: ['Published link'], total: 1 });
    expect(await titles(kind, { eventId: 999_999 })).toEqual({ titles: [], total: 0 });
    // An item is not an event: its id links nothing.
    expect(await titles(kind, { eventId: ids[kind]['Published link'] })).toEqual({ titles: [], total: 0 });
  });

  it.each(KINDS)('filters %s by whether a non-draft event links them', async (kind) => {
    // Past and hidden events count; draft and pending ones do not.
    expect(await titles(kind, { hasEvents: true })).toEqual({ titles: ['Hidden link', 'Past link', 'Published link'], total: 3 });
    expect(await titles(kind, { hasEvents: false })).toEqual({ titles: ['Lonely', 'Pending link', 'Draft link'], total: 3 });
    expect(await titles(kind, { hasEvents: true, eventId: publishedEvent })).toEqual({ titles: ['Published link'], total: 1 });
  });

  it.each(KINDS)('filters %s by upcoming listed events in the statuses given', async (kind) => {
    const upcoming = (statuses: string[], afterUtc = AFTER_UTC) => titles(kind, { upcoming: { afterUtc, statuses } });
    // Past and hidden events never make an item upcoming.
    expect(await upcoming(['publish'])).toEqual({ titles: ['Published link'], total: 1 });
    expect(await upcoming(['publish', 'draft', 'pending'])).toEqual({ titles: ['Pending link', 'Draft link', 'Published link'], total: 3 });
    expect(await upcoming(['private'])).toEqual({ titles: [], total: 0 });
    // The bound is inclusive, on the UTC start.
    expect(await upcoming(['publish'], '2026-06-01 10:00:00')).toEqual({ titles: ['Published link'], total: 1 });
    expect(await upcoming(['publish'], '2026-06-01 10:00:01')).toEqual({ titles: [], total: 0 });
  });

  it.each(KINDS)('searches %s for items whose one field holds every fragment, in any case', async (kind) => {
    expect(await titles(kind, { searchFragments: ['PUBL', 'link'] })).toEqual({ titles: ['Published link'], total: 1 });
    // Fragments found in different fields do not match.
    const detail = kind === 'venues' ? 'ZÜRICH' : 'X@EXAMPLE';
    expect((await titles(kind, { searchFragments: [detail] })).total).toBe(6);
    expect(await titles(kind, { searchFragments: [detail, 'lonely'] })).toEqual({ titles: [], total: 0 });
    expect(await titles(kind, { searchFragments: ['link', '%'] })).toEqual({ titles: [], total: 0 });
    // No fragment at all (a search of stopwords) finds nothing.
    expect(await titles(kind, { searchFragments: [] })).toEqual({ titles: [], total: 0 });
  });

  it.each(KINDS)('never lets a search find trashed %s, even when the trash is listed', async (kind) => {
    const id = await createItem(kind, 'Binned link');
    await trashItem(kind, id);
    expect(await titles(kind, { statuses: ['trash'] })).toEqual({ titles: ['Binned link'], total: 1 });
    expect(await titles(kind, { statuses: ['trash'], searchFragments: ['binned'] })).toEqual({ titles: [], total: 0 });
    await table(kind).deletePermanently(id);
  });

  it.each(KINDS)('finds %s duplicates by title and content in any case, trashed ones never', async (kind) => {
    await createItem(kind, 'Été à Zürich', { description: 'Salle A' });
    await createItem(kind, 'ÉTÉ À ZÜRICH', { description: 'Salle B' });
    const binned = await createItem(kind, 'été à zürich', { description: 'Salle C' });
    await trashItem(kind, binned);
    const both = ['Été à Zürich/Salle A', 'ÉTÉ À ZÜRICH/Salle B'];
    expect(await duplicates(kind, 'été à zürich')).toEqual(both);
    expect(await duplicates(kind, 'Été À Zürich')).toEqual(both);
    expect(await duplicates(kind, 'été à zürich', undefined, 1)).toEqual([both[0]]);
    expect(await duplicates(kind, 'Été à Zürich', 'SALLE b')).toEqual([both[1]]);
    expect(await duplicates(kind, 'Été à Zürich', 'Salle C')).toEqual([]);
    expect(await duplicates(kind, 'Été à Zürich', 'Salle')).toEqual([]);
    // Whole values only: neither a part of the title nor a longer one.
    expect(await duplicates(kind, 'Été')).toEqual([]);
    expect(await duplicates(kind, 'Été à Zürich!')).toEqual([]);
  });

  it.each(KINDS)('finds %s duplicates by exact text past the letters case folding handles', async (kind) => {
    await createItem(kind, MANY_LETTERS, { description: 'Greek and Cyrillic' });
    expect(await duplicates(kind, MANY_LETTERS)).toEqual([`${MANY_LETTERS}/Greek and Cyrillic`]);
    expect(await duplicates(kind, MANY_LETTERS, 'Greek and Cyrillic')).toEqual([`${MANY_LETTERS}/Greek and Cyrillic`]);
    // One letter off is another text.
    expect(await duplicates(kind, MANY_LETTERS.replace('Ω', 'Ο'))).toEqual([]);
  });
});
