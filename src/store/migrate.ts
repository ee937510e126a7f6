import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialects/index.js';
import * as init from './migrations/001_init.js';
import * as termCounts from './migrations/002_term_counts.js';
import type { MigrationContext } from './migrations/001_init.js';

type InCodeMigration = { up(ctx: MigrationContext): Promise<void>; down(ctx: MigrationContext): Promise<void> };

/** The store's migrations, in order; names are stable once released. */
const MIGRATIONS: [string, InCodeMigration][] = [
  ['001_init', init],
  ['002_term_counts', termCounts],
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
    await conn.schema
      .createTable(table)
      .ifNotExists()
      .addColumn('name', 'varchar(190)', (c) => c.primaryKey())
      .addColumn('applied_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    const done = new Set(
      (await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(conn)).rows.map((r) => r.name),
    );
    const applied: string[] = [];
    for (const [name, migration] of MIGRATIONS) {
      if (done.has(name)) continue;
      await migration.up({ db: conn, prefix });
      await sql`insert into ${sql.table(table)} (name, applied_at) values (${name}, ${new Date().toISOString()})`.execute(conn);
      applied.push(name);
    }
    return applied;
  };

  return dialectOf(db).migrationLock(db, `calendar_migrate_${prefix}`, apply);
}

/** Drops the store's tables (tests and uninstalls). */
export async function dropStore(db: Kysely<unknown>, prefix: string): Promise<void> {
  for (const [, migration] of [...MIGRATIONS].reverse()) await migration.down({ db, prefix });
  await db.schema.dropTable(`${prefix}migrations`).ifExists().execute();
}
