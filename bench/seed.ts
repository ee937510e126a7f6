/**
 * Seeds a realistic calendar through the library's own store, for the benchmarks:
 * 500 venues, 300 organizers, 24 categories (8 with children), 60 tags and N events spread
 * over five years around today, each at a venue (in the venue's zone), with one or two
 * organizers, one or two categories and up to three tags; some all-day, multi-day,
 * featured, costed, draft and hidden. Deterministic for a given size and day.
 *
 * Rows are written with multi-row inserts in large transactions through the store's Kysely
 * instance (table prefix included), with explicit ids (a fresh store numbers from 1).
 *
 * CLI: `tsx bench/seed.ts <events> [sqlite file | postgres://…]` prints a summary of the fixtures
 * (without a target it (re)makes bench/.data/events-<events>.sqlite, which the other scripts reuse).
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Insertable, type Kysely } from 'kysely';
import { localToUtc, timezoneAbbr, wallClockToInstant, formatWallClock } from '../src/dates/index.js';
import { connectDatabase } from '../src/store/connect.js';
import type {
  Database,
  EventOrganizersTable,
  EventsTable,
  OrganizersTable,
  PostsTable,
  TermRelationshipsTable,
  TermsTable,
  VenuesTable,
} from '../src/store/database.js';
import { Store, migrateStore } from '../src/store/index.js';
import { recountAllTerms } from '../src/store/term-counts.js';
import { down } from '../src/store/migrations/001_init.js';
// A cycle (dataset.ts seeds through this module), harmless: only the CLI below uses it, after both loaded.
import { sqliteDataset } from './dataset.js';

/** What the benchmark cases address in a seeded calendar. */
export interface SeedFixtures {
  events: number;
  /** Seconds spent seeding (schema included), and the CPU seconds of this process in them. */
  seconds: number;
  cpuSeconds: number;
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

/** Options of {@link seedCalendar}. */
export interface SeedOptions {
  /** A SQLite file (removed first) or a `postgres://` URL (the prefixed tables are dropped first). */
  target: string;
  events: number;
  prefix?: string;
  now?: Date;
  /** Events per transaction. */
  batch?: number;
}

const VENUES = 500;
const ORGANIZERS = 300;
/** Rows per INSERT: 18 columns × 500 stays under every dialect's bound on parameters. */
const ROWS_PER_INSERT = 500;
const DAY = 86_400_000;

/** A small deterministic PRNG (mulberry32), so every run seeds the same calendar. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: readonly T[]): T => list[int(list.length)]!, chance: (p: number) => next() < p };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD HH:MM:SS` of a naive (zone-less) epoch ms. */
const naive = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

const ZONES = ['America/New_York', 'America/Chicago', 'America/Los_Angeles', 'Europe/London', 'Europe/Paris', 'Europe/Berlin', 'Australia/Sydney', 'UTC'];
const CITIES = ['Springfield', 'Riverside', 'Fairview', 'Lakeside', 'Greenville', 'Bristol', 'Clinton', 'Madison', 'Georgetown', 'Salem'];
const STREETS = ['Main St', 'Oak Avenue', 'Harbor Road', 'Station Square', 'Mill Lane', 'Park Row', 'Church Street', 'High Street'];
const PLACES = ['Hall', 'Theatre', 'Gallery', 'Park', 'Library', 'Community Centre', 'Arena', 'Studio', 'Club', 'Pavilion'];
const PLACE_NAMES = ['Harbor', 'Riverside', 'Elm', 'Union', 'Victoria', 'Crescent', 'Maple', 'Northgate', 'Old Town', 'Sunset'];
const FIRST = ['Alex', 'Sam', 'Jordan', 'Maria', 'Chen', 'Priya', 'Lucas', 'Emma', 'Noah', 'Aisha'];
const GROUPS = ['Society', 'Collective', 'Association', 'Club', 'Foundation', 'Ensemble', 'Guild', 'Network'];

/** Category tree: parents with their children; event genres map to a child. */
const CATEGORY_TREE: Record<string, string[]> = {
  Music: ['Jazz', 'Classical', 'Rock', 'Folk'],
  Arts: ['Theatre', 'Exhibitions'],
  Family: ['Kids', 'Workshops'],
  Sports: ['Running', 'Cycling'],
  Food: ['Tastings', 'Markets'],
  Learning: ['Talks', 'Courses'],
  Community: ['Volunteering', 'Meetups'],
  Wellness: ['Yoga', 'Meditation'],
};
const GENRE_WORDS: Record<string, string[]> = {
  Jazz: ['Jazz Night', 'Swing Evening', 'Jazz Brunch'],
  Classical: ['String Quartet', 'Piano Recital', 'Chamber Concert'],
  Rock: ['Rock Showcase', 'Indie Live', 'Garage Bands'],
  Folk: ['Folk Session', 'Acoustic Evening', 'Ceilidh'],
  Theatre: ['Improv Show', 'Stage Reading', 'Comedy Night'],
  Exhibitions: ['Gallery Opening', 'Photo Exhibition', 'Print Fair'],
  Kids: ['Story Time', 'Puppet Show', 'Family Fun Day'],
  Workshops: ['Pottery Workshop', 'Coding Workshop', 'Sketching Class'],
  Running: ['Park Run', '10K Race', 'Trail Run'],
  Cycling: ['Group Ride', 'Bike Repair Clinic', 'Century Ride'],
  Tastings: ['Wine Tasting', 'Cheese Tasting', 'Coffee Cupping'],
  Markets: ['Farmers Market', 'Night Market', 'Craft Market'],
  Talks: ['Author Talk', 'Science Talk', 'History Lecture'],
  Courses: ['Language Course', 'First Aid Course', 'Photography Course'],
  Volunteering: ['Beach Clean-up', 'Tree Planting', 'Food Bank Shift'],
  Meetups: ['Tech Meetup', 'Book Club', 'Board Game Night'],
  Yoga: ['Sunrise Yoga', 'Yoga in the Park', 'Vinyasa Flow'],
  Meditation: ['Guided Meditation', 'Mindfulness Hour', 'Sound Bath'],
};
const ADJECTIVES = ['Summer', 'Winter', 'Spring', 'Autumn', 'Late', 'Open Air', 'Monthly', 'Weekend', 'Grand', 'Friendly'];
const TAG_NAMES = [
  'free', 'outdoor', 'indoor', 'family-friendly', 'accessible', 'beginner', 'advanced', 'evening', 'morning', 'weekend',
  'online', 'tickets', 'donation', 'series', 'festival', 'local', 'international', 'students', 'seniors', 'pets',
  'live music', 'dance', 'film', 'poetry', 'science', 'history', 'nature', 'tech', 'crafts', 'cooking',
  'wine', 'beer', 'coffee', 'vegan', 'charity', 'networking', 'lgbtq', 'women', 'kids', 'teens',
  'workshop', 'lecture', 'tour', 'exhibition', 'market', 'sale', 'fitness', 'running', 'cycling', 'yoga',
  'meditation', 'health', 'art', 'design', 'photography', 'theatre', 'comedy', 'opera', 'jazz', 'classical',
];
const SENTENCES = [
  'Join us for an evening you will not forget, with friends old and new.',
  'Doors open thirty minutes before the start; seating is first come, first served.',
  'Light refreshments are served during the interval, and the bar stays open until late.',
  "The programme is suitable for all ages, although some parts may be loud for very young children.",
  'Please bring a water bottle, comfortable shoes and a sense of adventure.',
  'Our volunteers will be on hand to answer questions and guide you around the venue.',
  'Tickets are limited, so we recommend booking early to avoid disappointment.',
  'The venue is step-free and has accessible toilets; assistance dogs are welcome.',
  'Parking is available nearby, and the bus stops right outside the main entrance.',
  'All proceeds go towards keeping our community programmes free for everyone.',
  "This season's line-up brings together local talent and visiting artists from abroad.",
  'Photography is allowed without flash; recordings may be shared on our channels.',
];

/** A paragraph of 3–6 sentences; content has 2–4 paragraphs separated by blank lines (as WordPress stores it). */
function paragraphs(r: ReturnType<typeof prng>, count: number): string {
  const out: string[] = [];
  for (let p = 0; p < count; p++) {
    const n = 3 + r.int(4);
    const s: string[] = [];
    for (let i = 0; i < n; i++) s.push(r.pick(SENTENCES));
    out.push(s.join(' '));
  }
  return out.join('\n\n');
}

/**
 * A local wall clock's UTC wall clock, instant and zone abbreviation, from src/dates. Asking
 * luxon for zone offsets is most of the seeding time, so the answer for 04:00–23:59 is
 * derived from the day's noon (every zone seeded changes offset between 00:00 and 04:00);
 * earlier times, and every 50th event as a check, are computed in full.
 */
const dayZone = new Map<string, { offsetMs: number; abbr: string }>();
function zoned(wallClock: string, zone: string, index: number): { utc: string; instant: Date; abbr: string } {
  const full = () => {
    const instant = wallClockToInstant(wallClock, zone)!;
    return { utc: localToUtc(wallClock, zone)!, instant, abbr: timezoneAbbr(zone, instant) ?? '' };
  };
  if (wallClock.slice(11) < '04:00:00') return full();
  const key = `${zone} ${wallClock.slice(0, 10)}`;
  let day = dayZone.get(key);
  if (!day) {
    const noon = `${wallClock.slice(0, 10)} 12:00:00`;
    const instant = wallClockToInstant(noon, zone)!;
    day = { offsetMs: Date.parse(`${noon.replace(' ', 'T')}Z`) - instant.getTime(), abbr: timezoneAbbr(zone, instant) ?? '' };
    dayZone.set(key, day);
  }
  const instant = new Date(Date.parse(`${wallClock.replace(' ', 'T')}Z`) - day.offsetMs);
  const derived = { utc: naive(instant.getTime()), instant, abbr: day.abbr };
  if (index % 50 === 0) {
    const check = full();
    if (check.utc !== derived.utc || check.abbr !== derived.abbr) throw new Error(`seed: ${wallClock} ${zone} → ${JSON.stringify(check)}, derived ${JSON.stringify(derived)}`);
  }
  return derived;
}

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

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

/** Opens the target empty: a removed SQLite file, or PostgreSQL with the prefixed tables dropped. */
async function openFresh(target: string, prefix: string): Promise<Kysely<unknown>> {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
  if (!isUrl) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(target + suffix, { force: true });
  const raw = await connectDatabase(target);
  if (isUrl) {
    await down({ db: raw, prefix });
    for (const t of ['migrations', 'migrations_lock']) await raw.schema.dropTable(prefix + t).ifExists().execute();
  } else {
    // A benchmark file can be re-made: no need to survive a power cut while seeding.
    await sql`pragma synchronous = off`.execute(raw);
  }
  return raw;
}

/** Seeds a fresh calendar of `events` events and returns what the benchmark cases address. */
export async function seedCalendar(options: SeedOptions): Promise<SeedFixtures> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const prefix = options.prefix ?? 'tec_';
  const now = options.now ?? new Date();
  const batch = options.batch ?? 10_000;
  const r = prng(20261121 + options.events);
  const raw = await openFresh(options.target, prefix);
  try {
    await migrateStore(raw, prefix);
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
    const categoryId = new Map<string, number>();
    for (const [parent, children] of Object.entries(CATEGORY_TREE)) {
      const id = terms.length + 1;
      categoryId.set(parent, id);
      terms.push({ id, taxonomy: 'tribe_events_cat', name: parent, slug: slugOf(parent), description: `${parent} events.`, parent: 0 });
      for (const child of children) {
        const childId = terms.length + 1;
        categoryId.set(child, childId);
        terms.push({ id: childId, taxonomy: 'tribe_events_cat', name: child, slug: slugOf(child), description: '', parent: id });
      }
    }
    const tagIds: number[] = [];
    for (const name of TAG_NAMES) {
      const id = terms.length + 1;
      tagIds.push(id);
      terms.push({ id, taxonomy: 'post_tag', name, slug: slugOf(name), description: '', parent: 0 });
    }

    // Venues and organizers: ids 1–500 and 501–800.
    const posts: Insertable<PostsTable>[] = [];
    const venues: Insertable<VenuesTable>[] = [];
    const venueZone: string[] = [];
    for (let i = 1; i <= VENUES; i++) {
      const title = `${r.pick(PLACE_NAMES)} ${r.pick(PLACES)} ${i}`;
      posts.push({ ...postDefaults, id: i, type: 'venue', status: 'publish', title, content: paragraphs(r, 1), excerpt: '', slug: slugOf(title), date: stamp, date_utc: stamp, modified: stamp, modified_utc: stamp });
      venueZone[i] = r.pick(ZONES);
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
      posts.push({ ...postDefaults, id, type: 'organizer', status: 'publish', title, content: paragraphs(r, 1), excerpt: '', slug: slugOf(title), date: stamp, date_utc: stamp, modified: stamp, modified_utc: stamp });
      organizers.push({ post_id: id, phone: `+1 555 ${String(1000 + r.int(8999))}`, website: `https://org.example.org/${i}`, email: `hello${i}@org.example.org` });
    }
    await store.transaction(async (tx) => {
      await insertMany(tx.db, 'terms', terms);
      await insertMany(tx.db, 'posts', posts);
      await insertMany(tx.db, 'venues', venues);
      await insertMany(tx.db, 'organizers', organizers);
    });

    // Events: ids from 801, starts uniform over five years centred on today.
    const genres = Object.keys(GENRE_WORDS);
    const parentOf = new Map<string, string>();
    for (const [parent, children] of Object.entries(CATEGORY_TREE)) for (const c of children) parentOf.set(c, parent);
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
        const venue = 1 + r.int(VENUES);
        const zone = venueZone[venue]!;
        const genre = r.pick(genres);
        const title = `${r.pick(ADJECTIVES)} ${r.pick(GENRE_WORDS[genre]!)} at ${PLACE_NAMES[venue % PLACE_NAMES.length]} #${index + 1}`;
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
        const cats = new Set([categoryId.get(genre)!]);
        if (r.chance(0.3)) cats.add(categoryId.get(parentOf.get(genre)!)!);
        const tags = new Set<number>();
        for (let t = r.int(4); t > 0; t--) tags.add(r.pick(tagIds));
        for (const term_id of [...cats, ...tags]) rels.push({ post_id: id, term_id });

        // Fixtures: upcoming, listed, published events in the default window.
        const listed = !draft && !hidden && start >= today && start <= horizon;
        if (listed && fixtures.eventIds.length < 1000 && r.chance(0.5)) {
          fixtures.eventIds.push(id);
          fixtures.eventSlugs.push(slug!);
        }
        if (listed && genre === 'Jazz' && title.includes('Jazz')) {
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
    }
    // Rows written directly must bring the stored term counts up to date, as the store's own writes do.
    await recountAllTerms(raw, prefix);
    if (/^postgres/i.test(options.target)) {
      // Explicit ids leave the serial sequences behind; later writes must not collide.
      for (const t of ['posts', 'terms']) {
        await sql`select setval(pg_get_serial_sequence(${prefix + t}, 'id'), (select max(id) from ${sql.table(prefix + t)}))`.execute(raw);
      }
    } else {
      await sql`pragma optimize`.execute(raw);
    }

    // The filter case: the venue with most upcoming jazz events (ties: the smallest id).
    const [venue, matches] = [...fixtures.candidates.entries()].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]))[0] ?? ['1', 0];
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0));
    return {
      events: options.events,
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (() => {
        const used = process.cpuUsage(cpu);
        return (used.user + used.system) / 1e6;
      })(),
      eventIds: fixtures.eventIds,
      eventSlugs: fixtures.eventSlugs,
      filter: { categories: 'jazz', venue: Number(venue), search: 'jazz', matches },
      month: { start_date: formatWallClock(next, 'UTC')!.slice(0, 10), end_date: formatWallClock(last, 'UTC')!.slice(0, 10) },
      venueId: 1,
      organizerId: VENUES + 1,
      categorySlug: 'music',
    };
  } finally {
    await raw.destroy();
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const events = Number(process.argv[2] ?? 1000);
  const target = process.argv[3];
  // Without a target: the benchmark's own dataset file, with the fixtures the other scripts reuse.
  const fixtures = target ? await seedCalendar({ target, events }) : await sqliteDataset(events, false);
  const { eventIds, eventSlugs, ...summary } = fixtures;
  console.log(JSON.stringify({ ...summary, eventIds: eventIds.length, eventSlugs: eventSlugs.length }, null, 2));
}
