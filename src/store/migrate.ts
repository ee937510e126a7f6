import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialects/index.js';
import * as init from './migrations/001_init.js';
import * as termCounts from './migrations/002_term_counts.js';
import * as changes from './migrations/003_changes.js';
import * as importedItems from './migrations/004_imported_items.js';
import * as recurrence from './migrations/005_recurrence.js';
import * as slugBeforeTrash from './migrations/006_slug_before_trash.js';
import * as fieldValues from './migrations/007_field_values.js';
import * as venueGeo from './migrations/008_venue_geo.js';
import * as subscriptions from './migrations/009_subscriptions.js';
import * as searchIndex from './migrations/010_search_index.js';
import * as searchMerges from './migrations/011_search_merges.js';
import type { MigrationContext } from './migrations/001_init.js';

type InCodeMigration = { up(ctx: MigrationContext): Promise<void>; down(ctx: MigrationContext): Promise<void> };

/** The store's migrations, in order; names are stable once released. */
export const MIGRATIONS: readonly (readonly [string, InCodeMigration])[] = [
  ['001_init', init],
  ['002_term_counts', termCounts],
  ['003_changes', changes],
  ['004_imported_items', importedItems],
  ['005_recurrence', recurrence],
  ['006_slug_before_trash', slugBeforeTrash],
  ['007_field_values', fieldValues],
  ['008_venue_geo', venueGeo],
  ['009_subscriptions', subscriptions],
  ['010_search_index', searchIndex],
  ['011_search_merges', searchMerges],
];

/**
 * Brings the store's tables (with `prefix`) up to date; safe to call on every start and
 * from several instances at once (a database lock serialises them). Kysely's own migrator
 * is not used: it introspects every table of the schema, which is slow on MySQL when the
 * host's database is large.
 */
export async function migrateToLatest(db: Kysely<unknown>, prefix: string): Promise<string[]> {
  const table = `${prefix}migrations`;
  // The ledger is created under the lock too: two PostgreSQL sessions running
  // `create table if not exists` at once can both pass the check and one then fails.
  const apply = async (conn: Kysely<unknown>) => {
    await createLedger(conn, table);
    const done = new Set((await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(conn)).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const [name, migration] of MIGRATIONS) {
      if (done.has(name)) continue;
      await migration.up({ db: conn, prefix });
      await recordMigration(conn, table, name);
      applied.push(name);
    }
    return applied;
  };

  return dialectOf(db).migrationLock(db, `calendar_migrate_${prefix}`, apply);
}

/** Creates the ledger of applied migrations (`{prefix}migrations`) if it is not there. */
export async function createLedger(db: Kysely<unknown>, table: string): Promise<void> {
  await db.schema
    .createTable(table)
    .ifNotExists()
    .addColumn('name', 'varchar(190)', (c) => c.primaryKey())
    .addColumn('applied_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

/** Records in the ledger that a migration ran, now. */
export async function recordMigration(db: Kysely<unknown>, table: string, name: string): Promise<void> {
  await sql`insert into ${sql.table(table)} (name, applied_at) values (${name}, ${new Date().toISOString()})`.execute(db);
}

/** The store's migrations already applied (as its ledger lists them) and those still to run. */
export interface MigrationStatus {
  applied: string[];
  pending: string[];
}

/** The names of the store's migrations, in the order they run. */
export function migrationNames(): string[] {
  return MIGRATIONS.map(([name]) => name);
}

/** Which migrations of the store (tables with `prefix`) are applied and which are pending; creates nothing. */
export async function migrationStatus(db: Kysely<unknown>, prefix: string): Promise<MigrationStatus> {
  const table = `${prefix}migrations`;
  // Selecting from a missing ledger would fail the same way as a lost connection: ask the catalogue first.
  if (!(await tableExists(db, table))) return { applied: [], pending: migrationNames() };
  const applied = (await sql<{ name: string }>`select name from ${sql.table(table)} order by name`.execute(db)).rows.map((r) => r.name);
  const done = new Set(applied);
  return { applied, pending: migrationNames().filter((name) => !done.has(name)) };
}

/** Whether `table` exists where the store creates its tables (the connection's current schema or database). */
async function tableExists(db: Kysely<unknown>, table: string): Promise<boolean> {
  const query = {
    sqlite: sql<{ found: number }>`select 1 as found from sqlite_master where type = 'table' and name = ${table}`,
    postgres: sql<{ found: number }>`select 1 as found from information_schema.tables where table_schema = current_schema() and table_name = ${table}`,
    mysql: sql<{ found: number }>`select 1 as found from information_schema.tables where table_schema = database() and table_name = ${table}`,
  }[dialectOf(db).name];
  return (await query.execute(db)).rows.length > 0;
}

/** Drops the store's tables (tests and uninstalls). */
export async function dropStore(db: Kysely<unknown>, prefix: string): Promise<void> {
  for (const [, migration] of [...MIGRATIONS].reverse()) await migration.down({ db, prefix });
  await db.schema.dropTable(`${prefix}migrations`).ifExists().execute();
}
