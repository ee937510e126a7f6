/**
 * A realistic demo calendar, written straight into the store's tables: 500 venues, 300
 * organizers, 26 categories (8 with children), 60 tags and N events spread over five years
 * around today, each at a venue (in the venue's zone), with one or two organizers, one or two
 * categories and up to three tags; some all-day, multi-day, featured, costed, draft and
 * hidden. Deterministic for a given size and instant. The benchmarks (bench/seed.ts) and the
 * command line (`calendar-events-rest seed`) both seed with it.
 *
 * Rows are written with multi-row inserts in large transactions through the store's Kysely
 * instance (table prefix included), with explicit ids: the store must be empty.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import type {
  Database,
  EventOrganizersTable,
  EventsTable,
  OrganizersTable,
  PostsTable,
  TermRelationshipsTable,
  TermsTable,
  VenuesTable,
} from '../store/database.js';
import { Store } from '../resources/store.js';
import { recountAllTerms } from '../store/term-counts.js';
import { seededRandom } from './random.js';
import {
  ADJECTIVES,
  CATEGORY_TREE,
  CITIES,
  FIRST,
  GENRE_WORDS,
  GROUPS,
  PLACE_NAMES,
  PLACES,
  SENTENCES,
  STREETS,
  TAG_NAMES,
  ZONES,
  paragraphs,
  slugOf,
} from './vocabulary.js';
import { naive, zoned } from './zoned-times.js';

/** Options of {@link seedDemoCalendar}. */
export interface DemoCalendarOptions {
  events: number;
  /** The store's table prefix. */
  prefix: string;
  /** The day the calendar is centred on. Default: now. */
  now?: Date;
  /** Events per transaction. Default 10,000. */
  batch?: number;
  /** Called after each transaction of events. */
  onProgress?: (written: number, total: number) => void;
}

/** What a seeded demo calendar holds, and items in it that requests can address. */
export interface DemoCalendar {
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  /** Published, listed, unprotected events in the default window (for single reads). */
  eventIds: number[];
  eventSlugs: string[];
  /** A filter that matches a few upcoming events: category slug + venue id + search word. */
  filter: { categories: string; venue: number; search: string; matches: number };
  /** A month-wide window (next calendar month), as `YYYY-MM-DD`. */
  month: { start_date: string; end_date: string };
  /** Linked items a new event can use. */
  venueId: number;
  organizerId: number;
  categorySlug: string;
}

const VENUES = 500;
const ORGANIZERS = 300;
/** Rows per INSERT: 18 columns × 500 stays under every dialect's bound on parameters. */
const ROWS_PER_INSERT = 500;
const DAY = 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');

/** Inserts rows in chunks of {@link ROWS_PER_INSERT}. */
async function insertMany<T extends keyof Database>(db: Kysely<Database>, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    // The table name is generic here; the rows are typed by the caller.
    await db
      .insertInto(table as 'posts')
      .values(rows.slice(i, i + ROWS_PER_INSERT) as Insertable<PostsTable>[])
      .execute();
  }
}

/** How many posts (events, venues, organizers) and terms the store (tables with `prefix`) holds. */
export async function storeHoldings(raw: Kysely<unknown>, prefix: string): Promise<{ events: number; posts: number; terms: number }> {
  const { db } = Store.open(raw, prefix);
  const count = async (table: 'events' | 'posts' | 'terms') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { events: await count('events'), posts: await count('posts'), terms: await count('terms') };
}

/** Seeds a demo calendar of `events` events into the empty, migrated store with `prefix` on `raw`. */
export async function seedDemoCalendar(raw: Kysely<unknown>, options: DemoCalendarOptions): Promise<DemoCalendar> {
  const { prefix } = options;
  const now = options.now ?? new Date();
  const batch = options.batch ?? 10_000;
  // Explicit ids would collide with the rows already there.
  const held = await storeHoldings(raw, prefix);
  if (held.posts > 0 || held.terms > 0) {
    throw new Error(`A demo calendar is seeded into an empty store only; the tables ${prefix}* hold ${held.posts} posts and ${held.terms} terms.`);
  }
  const r = seededRandom(20261121 + options.events);
  const store = Store.open(raw, prefix);
  const stamp = naive(now.getTime() - 400 * DAY);
  const postDefaults = {
    author: 1,
    status_before_trash: null,
    password: null,
    menu_order: 0,
    parent: 0,
    image_id: null,
  } satisfies Partial<Insertable<PostsTable>>;

  // Terms: parents then children, then tags.
  const terms: Insertable<TermsTable>[] = [];
  // Event genres: the child categories that have title words, with their category and its parent.
  const genres: { name: string; words: readonly string[]; category: number; parentCategory: number }[] = [];
  for (const [parent, children] of Object.entries(CATEGORY_TREE)) {
    const id = terms.length + 1;
    terms.push({ id, taxonomy: 'tribe_events_cat', name: parent, slug: slugOf(parent), description: `${parent} events.`, parent: 0 });
    for (const child of children) {
      const childId = terms.length + 1;
      terms.push({ id: childId, taxonomy: 'tribe_events_cat', name: child, slug: slugOf(child), description: '', parent: id });
      const words = GENRE_WORDS[child];
      if (words) genres.push({ name: child, words, category: childId, parentCategory: id });
    }
  }
  const categories = terms.length;
  const tagIds: number[] = [];
  for (const name of TAG_NAMES) {
    const id = terms.length + 1;
    tagIds.push(id);
    terms.push({ id, taxonomy: 'post_tag', name, slug: slugOf(name), description: '', parent: 0 });
  }

  // Venues and organizers: ids 1–500 and 501–800.
  const posts: Insertable<PostsTable>[] = [];
  const venues: Insertable<VenuesTable>[] = [];
  const venueZones: { id: number; zone: string }[] = [];
  for (let i = 1; i <= VENUES; i++) {
    const title = `${r.pick(PLACE_NAMES)} ${r.pick(PLACES)} ${i}`;
    posts.push({
      ...postDefaults,
      id: i,
      type: 'venue',
      status: 'publish',
      title,
      content: paragraphs(r, 1),
      excerpt: '',
      slug: slugOf(title),
      date: stamp,
      date_utc: stamp,
      modified: stamp,
      modified_utc: stamp,
    });
    venueZones.push({ id: i, zone: r.pick(ZONES) });
    const city = r.pick(CITIES);
    venues.push({
      post_id: i,
      address: `${1 + r.int(300)} ${r.pick(STREETS)}`,
      city,
      country: 'United States',
      province: '',
      state: 'CA',
      zip: String(10000 + r.int(89999)),
      phone: `+1 555 ${String(1000 + r.int(8999))}`,
      stateprovince: 'CA',
      website: r.chance(0.5) ? `https://venues.example.org/${slugOf(title)}` : '',
      show_map: 1,
      show_map_link: 1,
      geo_lat: 30 + r.next() * 15,
      geo_lng: -120 + r.next() * 40,
    });
  }
  const organizers: Insertable<OrganizersTable>[] = [];
  for (let i = 1; i <= ORGANIZERS; i++) {
    const id = VENUES + i;
    const title = `${r.pick(FIRST)}'s ${r.pick(PLACE_NAMES)} ${r.pick(GROUPS)} ${i}`;
    posts.push({
      ...postDefaults,
      id,
      type: 'organizer',
      status: 'publish',
      title,
      content: paragraphs(r, 1),
      excerpt: '',
      slug: slugOf(title),
      date: stamp,
      date_utc: stamp,
      modified: stamp,
      modified_utc: stamp,
    });
    organizers.push({
      post_id: id,
      phone: `+1 555 ${String(1000 + r.int(8999))}`,
      website: `https://org.example.org/${i}`,
      email: `hello${i}@org.example.org`,
    });
  }
  await store.transaction(async (tx) => {
    await insertMany(tx.db, 'terms', terms);
    await insertMany(tx.db, 'posts', posts);
    await insertMany(tx.db, 'venues', venues);
    await insertMany(tx.db, 'organizers', organizers);
  });

  // Events: ids from 801, starts uniform over five years centred on today.
  const span = 5 * 365 * DAY;
  const from = now.getTime() - span / 2;
  const today = naive(now.getTime()).slice(0, 10);
  const horizon = naive(now.getTime() + 700 * DAY);
  const fixtures = { eventIds: [] as number[], eventSlugs: [] as string[], candidates: new Map<string, number>() };
  const firstEvent = VENUES + ORGANIZERS + 1;
  for (let startAt = 0; startAt < options.events; startAt += batch) {
    const n = Math.min(batch, options.events - startAt);
    const ePosts: Insertable<PostsTable>[] = [];
    const eRows: Insertable<EventsTable>[] = [];
    const eOrgs: Insertable<EventOrganizersTable>[] = [];
    const rels: Insertable<TermRelationshipsTable>[] = [];
    for (let k = 0; k < n; k++) {
      const index = startAt + k;
      const id = firstEvent + index;
      const { id: venue, zone } = r.pick(venueZones);
      const genre = r.pick(genres);
      const title = `${r.pick(ADJECTIVES)} ${r.pick(genre.words)} at ${PLACE_NAMES[venue % PLACE_NAMES.length]} #${index + 1}`;
      // Local wall clock: a day in the span, on the half hour between 08:00 and 21:30.
      const dayMs = from + r.int(span / DAY) * DAY;
      const day = naive(dayMs).slice(0, 10);
      const allDay = r.chance(0.1);
      const multiDay = r.chance(0.08);
      let start: string;
      let end: string;
      const endDay = multiDay ? naive(Date.parse(`${day}T00:00:00Z`) + (1 + r.int(6)) * DAY).slice(0, 10) : day;
      if (allDay) {
        start = `${day} 00:00:00`;
        end = `${endDay} 23:59:59`;
      } else {
        const minutes = 8 * 60 + 30 * r.int(28);
        start = `${day} ${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`;
        const endMinutes = Math.min(minutes + 60 * (1 + r.int(4)), 23 * 60 + 59);
        end = `${endDay} ${pad(Math.floor(endMinutes / 60))}:${pad(endMinutes % 60)}:00`;
      }
      const { utc: startUtc, instant, abbr } = zoned(start, zone, index);
      const published = naive(Math.min(instant.getTime() - (7 + r.int(120)) * DAY, now.getTime() - DAY));
      const draft = r.chance(0.03);
      const hidden = r.chance(0.02);
      const featured = r.chance(0.05);
      const slug = draft ? null : `${slugOf(title)}`;
      const costed = r.chance(0.4);
      ePosts.push({
        ...postDefaults,
        id,
        type: 'event',
        status: draft ? 'draft' : 'publish',
        title,
        content: paragraphs(r, 2 + r.int(3)),
        excerpt: r.chance(0.5) ? r.pick(SENTENCES) : '',
        slug,
        date: published,
        date_utc: draft ? '0000-00-00 00:00:00' : published,
        modified: published,
        modified_utc: published,
        menu_order: featured && r.chance(0.2) ? -1 : 0,
      });
      eRows.push({
        post_id: id,
        start_local: start,
        end_local: end,
        start_utc: startUtc,
        end_utc: zoned(end, zone, index).utc,
        timezone: zone,
        timezone_abbr: abbr,
        all_day: allDay ? 1 : 0,
        hidden: hidden ? 1 : 0,
        featured: featured ? 1 : 0,
        show_map: 1,
        show_map_link: 1,
        website: r.chance(0.3) ? `https://tickets.example.org/e/${id}` : null,
        cost: costed ? JSON.stringify(r.chance(0.3) ? ['Free'] : [String(5 + r.int(60)), ...(r.chance(0.3) ? [String(70 + r.int(40))] : [])]) : null,
        currency_symbol: costed ? '$' : '',
        currency_position: costed ? 'prefix' : '',
        currency_code: costed ? 'USD' : '',
        venue_id: venue,
      });
      const first = VENUES + 1 + r.int(ORGANIZERS);
      eOrgs.push({ event_id: id, organizer_id: first, position: 0 });
      if (r.chance(0.3)) {
        const second = VENUES + 1 + ((first - VENUES + r.int(ORGANIZERS - 1)) % ORGANIZERS);
        eOrgs.push({ event_id: id, organizer_id: second, position: 1 });
      }
      const cats = new Set([genre.category]);
      if (r.chance(0.3)) cats.add(genre.parentCategory);
      const tags = new Set<number>();
      for (let t = r.int(4); t > 0; t--) tags.add(r.pick(tagIds));
      for (const term_id of [...cats, ...tags]) rels.push({ post_id: id, term_id });

      // Fixtures: upcoming, listed, published events in the default window.
      const listed = !draft && !hidden && start >= today && start <= horizon;
      if (listed && slug !== null && fixtures.eventIds.length < 1000 && r.chance(0.5)) {
        fixtures.eventIds.push(id);
        fixtures.eventSlugs.push(slug);
      }
      if (listed && genre.name === 'Jazz' && title.includes('Jazz')) {
        const key = String(venue);
        fixtures.candidates.set(key, (fixtures.candidates.get(key) ?? 0) + 1);
      }
    }
    await store.transaction(async (tx) => {
      await insertMany(tx.db, 'posts', ePosts);
      await insertMany(tx.db, 'events', eRows);
      await insertMany(tx.db, 'event_organizers', eOrgs);
      await insertMany(tx.db, 'term_relationships', rels);
    });
    options.onProgress?.(startAt + n, options.events);
  }
  // Rows written directly must bring the stored term counts up to date, as the store's own writes do.
  await recountAllTerms(raw, prefix);
  // Explicit ids may leave id sequences behind; later writes must not collide.
  for (const t of ['posts', 'terms']) await store.dialect.followExplicitIds(raw, prefix + t);
  if (store.dialect.name === 'sqlite') await sql`pragma optimize`.execute(raw);

  // The filter: the venue with most upcoming jazz events (ties: the smallest id).
  const [venue, matches] = [...fixtures.candidates.entries()].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]))[0] ?? ['1', 0];
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0));
  return {
    events: options.events,
    venues: VENUES,
    organizers: ORGANIZERS,
    categories,
    tags: tagIds.length,
    eventIds: fixtures.eventIds,
    eventSlugs: fixtures.eventSlugs,
    filter: { categories: 'jazz', venue: Number(venue), search: 'jazz', matches },
    month: { start_date: next.toISOString().slice(0, 10), end_date: last.toISOString().slice(0, 10) },
    venueId: 1,
    organizerId: VENUES + 1,
    categorySlug: 'music',
  };
}
