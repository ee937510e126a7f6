import { adjustTermCounts } from '../../src/store/term-counts.js';
import type { Insertable, Kysely } from 'kysely';
import type { CalendarOptions } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { TABLES, type Database, type PostsTable } from '../../src/store/database.js';
import { dialectOf } from '../../src/store/dialects/index.js';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { Store } from '../../src/resources/store.js';
import { testCalendar, type TestCalendar } from './harness.js';

/** A `posts` row to seed directly: the columns given, and the values a fresh post has for the rest, dated `date`. */
export function postRow(fields: Pick<Insertable<PostsTable>, 'type' | 'title' | 'date'> & Partial<Insertable<PostsTable>>): Insertable<PostsTable> {
  return {
    author: 1,
    status: 'publish',
    status_before_trash: null,
    content: '',
    excerpt: '',
    slug: null,
    password: null,
    date_utc: fields.date,
    modified: fields.date,
    modified_utc: fields.date,
    menu_order: 0,
    parent: 0,
    image_id: null,
    ...fields,
  };
}

/** Number of rows in one of the calendar's tables. */
export async function countRows(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const r = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A test calendar whose tables the test can also read and write directly. */
export interface StoreCalendar extends TestCalendar {
  /** The calendar's own tables, by logical name (the prefix is added). */
  db: Kysely<Database>;
  /** Inserts an event post (no event details: enough for term counts and `post`/`event` filters). */
  addEvent(init?: { status?: string; terms?: number[]; type?: 'event' | 'venue' | 'organizer' }): Promise<number>;
  /** Number of rows in one of the calendar's tables. */
  rows(table: keyof Database): Promise<number>;
}

const NOW = '2026-01-01 10:00:00';

/**
 * A migrated calendar on `url` opened over a Kysely instance the test holds too, so that it
 * can seed rows the API cannot create yet (events) and check that nothing was written.
 */
export async function storeCalendar(url: string, options: Partial<CalendarOptions> = {}): Promise<StoreCalendar> {
  const raw = await connectDatabase(url);
  const t = await testCalendar(url, { ...options, db: raw });
  const db = raw.withPlugin(new TablePrefixPlugin(t.calendar.options.tablePrefix, TABLES)) as unknown as Kysely<Database>;
  const dialect = dialectOf(raw);
  let n = 0;
  return {
    ...t,
    db,
    async addEvent({ status = 'publish', terms = [], type = 'event' } = {}) {
      n++;
      const id = await dialect.insertReturningId(
        db
          .insertInto('posts')
          .values(postRow({ type, status, title: `Seeded ${type} ${n}`, slug: `seeded-${type}-${n}-${Math.random().toString(36).slice(2, 8)}`, date: NOW })),
      );
      for (const term of terms) await db.insertInto('term_relationships').values({ post_id: id, term_id: term }).execute();
      // Stored term counts follow the store's writes; rows written here must bring them up to date too.
      if (type === 'event' && status === 'publish') await adjustTermCounts(db, terms, 1);
      return id;
    },
    rows: (table) => countRows(db, table),
    async close() {
      await t.close();
      // A finished test's tables only slow later migrations down (Kysely's migrator
      // introspects every table of the schema, which MariaDB does slowly).
      const prefix = t.calendar.options.tablePrefix;
      for (const name of [...TABLES, 'migrations', 'migrations_lock']) await raw.schema.dropTable(`${prefix}${name}`).ifExists().execute();
      await raw.destroy();
    },
  };
}

/** A test calendar with a store of its own over a second connection: transactions a test holds open beside the calendar's writes. */
export interface LockingCalendar extends TestCalendar {
  store: Store;
}

/** A migrated calendar on `url` and a store over a connection of its own (lock tests). */
export async function lockingCalendar(url: string): Promise<LockingCalendar> {
  const t = await testCalendar(url);
  const raw = await connectDatabase(url);
  return {
    ...t,
    store: Store.open(raw, t.calendar.options.tablePrefix),
    async close() {
      await raw.destroy();
      await t.close();
    },
  };
}

/**
 * Runs `work` in a transaction of `store` and keeps the transaction open, its locks held, until
 * `release` is called: resolves once `work` has run, rejects if it failed.
 */
export async function heldTransaction(store: Store, work: (tx: Store) => Promise<void>): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let ran!: () => void;
  const worked = new Promise<void>((resolve) => (ran = resolve));
  const done = store.transaction(async (tx) => {
    await work(tx);
    ran();
    await held;
  });
  await Promise.race([worked, done]);
  return {
    async release() {
      release();
      await done;
    },
  };
}
