/** The importer's public entry points (README "Importing a live site's calendar"). */
import type { Kysely } from 'kysely';
import { connectDatabase } from '../store/connect.js';
import type { ImportedKind } from '../store/database.js';
import { Store } from '../resources/store.js';
import { migrateStore } from '../store/index.js';
import { migrationStatus } from '../store/migrate.js';
import { importCalendar, type ImportCalendarOptions, type ImportReport } from './import-calendar.js';
import { ImportMap, sourceKey } from './map.js';
import { discoverSource, ORIGINAL_NAMESPACE } from './discover.js';

export type { ImportCalendarOptions, ImportReport } from './import-calendar.js';
export type { KindReport } from './report.js';
export type { ImageImportOptions } from './images.js';
export type { SourceSite } from './discover.js';

/** Where the store is: a Kysely instance, or a target string as `db` takes it; and its table prefix (default `tec_`). */
export interface StoreTarget {
  db: Kysely<unknown> | string;
  tablePrefix?: string;
}

/** Runs `work` on the store's connection, opened (and closed after) when given as a string. */
async function withStore<T>(target: StoreTarget, work: (raw: Kysely<unknown>, prefix: string) => Promise<T>): Promise<T> {
  const prefix = target.tablePrefix ?? 'tec_';
  if (typeof target.db !== 'string') return work(target.db, prefix);
  const raw = await connectDatabase(target.db);
  try {
    return await work(raw, prefix);
  } finally {
    await raw.destroy();
  }
}

/**
 * Imports a live site's calendar into a store (migrating it first), as
 * `calendar-events-rest import` does; safe to run again, it updates and adds. A dry run
 * writes nothing: it needs a migrated store.
 */
export async function importSite(target: StoreTarget, options: ImportCalendarOptions): Promise<ImportReport> {
  // The source first: one that serves no events API must leave the target untouched.
  const site = await discoverSource(options);
  return withStore(target, async (raw, prefix) => {
    if (!options.dryRun) await migrateStore(raw, prefix);
    else if ((await migrationStatus(raw, prefix)).pending.length) throw new Error('importSite: a dry run reads a migrated store; migrate it first');
    return importCalendar(Store.open(raw, prefix), options, site);
  });
}

/**
 * What imports from a source brought in, for one kind: source id → id here (old links and
 * clients keep working). `namespace` is the one the import read (default: the original's).
 */
export function importedIds(target: StoreTarget, source: { root: string; namespace?: string }, kind: ImportedKind): Promise<Map<number, number>> {
  return withStore(target, (raw, prefix) =>
    new ImportMap(Store.open(raw, prefix).db, sourceKey(source.root, source.namespace ?? ORIGINAL_NAMESPACE)).lookup(kind),
  );
}
