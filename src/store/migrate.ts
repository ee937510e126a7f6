import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import * as init from './migrations/001_init.js';
import type { MigrationContext } from './migrations/001_init.js';

type InCodeMigration = { up(ctx: MigrationContext): Promise<void>; down(ctx: MigrationContext): Promise<void> };

/** The store's migrations, in order; names are stable once released. */
const MIGRATIONS: Record<string, InCodeMigration> = {
  '001_init': init,
};

/** Brings the store's tables (with `prefix`) up to date. Safe to call on every start. */
export async function migrateToLatest(db: Kysely<unknown>, prefix: string): Promise<MigrationResultSet> {
  const migrations: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(MIGRATIONS)) {
    // Each migration must use the connection the migrator hands it (its transaction).
    migrations[name] = { up: (trx) => m.up({ db: trx, prefix }), down: (trx) => m.down({ db: trx, prefix }) };
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: `${prefix}migrations`,
    migrationLockTableName: `${prefix}migrations_lock`,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
