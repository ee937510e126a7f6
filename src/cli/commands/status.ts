import { migrationNames, migrationStatus, type MigrationStatus } from '../../store/migrate.js';
import { describeTarget, isMissingSqliteFile, withDatabase } from '../database-target.js';
import { printLine } from '../output.js';
import type { StoreOptions } from '../store-options.js';

/** `status`: lists applied and pending migrations; exit status 1 when some are pending. */
export async function runStatus({ db, tablePrefix }: StoreOptions): Promise<number> {
  // Opening a SQLite file creates it: a status check must leave no empty database behind.
  const status: MigrationStatus = isMissingSqliteFile(db)
    ? { applied: [], pending: migrationNames() }
    : await withDatabase(db, (conn) => migrationStatus(conn, tablePrefix));
  printLine(`${describeTarget(db)} (tables ${tablePrefix}*)`);
  for (const name of status.applied) printLine(`  applied  ${name}`);
  for (const name of status.pending) printLine(`  pending  ${name}`);
  if (status.pending.length === 0) {
    printLine('up to date');
    return 0;
  }
  printLine(`${status.pending.length} pending: run \`calendar-events-rest migrate\` to apply ${status.pending.length === 1 ? 'it' : 'them'}`);
  return 1;
}
