import { dialectOf } from '../../store/dialects/index.js';
import { migrateToLatest, migrationNames, migrationStatus } from '../../store/migrate.js';
import { migrationSql, type DialectName } from '../../store/migration-sql.js';
import { describeTarget, isMissingSqliteFile, withDatabase } from '../database-target.js';
import { printLine } from '../output.js';
import type { StoreOptions } from '../store-options.js';

/** `migrate`: creates or upgrades the store's tables and lists the migrations it applied. */
export async function runMigrate({ db, tablePrefix }: StoreOptions): Promise<number> {
  const applied = await withDatabase(db, (conn) => migrateToLatest(conn, tablePrefix));
  const where = `${describeTarget(db)} (tables ${tablePrefix}*)`;
  if (applied.length === 0) {
    printLine(`${where}: up to date`);
    return 0;
  }
  for (const name of applied) printLine(`applied ${name}`);
  printLine(`${where}: ${applied.length} migration${applied.length === 1 ? '' : 's'} applied`);
  return 0;
}

/**
 * `migrate --dry-run`: prints the SQL `migrate` would run on the store (its pending
 * migrations, then their lines in the ledger), running none of it: a script to review or run
 * by hand, every other line an SQL comment.
 */
export async function runMigrateDryRun({ db, tablePrefix }: StoreOptions): Promise<number> {
  // Opening a SQLite file creates it: a dry run must leave no empty database behind.
  const { pending, dialect } = isMissingSqliteFile(db)
    ? { pending: migrationNames(), dialect: 'sqlite' as DialectName }
    : await withDatabase(db, async (conn) => ({ pending: (await migrationStatus(conn, tablePrefix)).pending, dialect: dialectOf(conn).name }));
  const where = `${describeTarget(db)} (tables ${tablePrefix}*)`;
  if (pending.length === 0) {
    printLine(`-- ${where}: up to date, no SQL to run`);
    return 0;
  }
  printLine(`-- ${where}: the SQL of ${pending.length} pending migration${pending.length === 1 ? '' : 's'} (${dialect}), not run`);
  // `migrate` itself holds a lock while it runs, so that instances starting together do not migrate twice.
  printLine('-- run it in one session while nothing else migrates this store; `calendar-events-rest status` tells what is applied');
  for (const { name, statements } of await migrationSql(dialect, tablePrefix, pending)) {
    printLine(`\n-- ${name === 'ledger' ? 'the ledger of applied migrations' : name}`);
    for (const statement of statements) printLine(statement);
  }
  return 0;
}
