import { migrateToLatest } from '../../store/migrate.js';
import { describeTarget, withDatabase } from '../database-target.js';
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
