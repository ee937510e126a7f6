import { resolveOptions } from '../../options.js';
import { extendIndex } from '../../recurrence/horizon.js';
import { SeriesService } from '../../recurrence/series.js';
import { Store } from '../../resources/store.js';
import { migrateToLatest } from '../../store/migrate.js';
import { describeTarget, withDatabase } from '../database-target.js';
import { printLine } from '../output.js';
import type { StoreOptions } from '../store-options.js';

/** The options of `occurrences`. */
export interface OccurrencesCommandOptions extends StoreOptions {
  until: Date;
  timezone: string;
}

/**
 * `occurrences --until <date>`: indexes the occurrences of recurring events that never end up to
 * that date (at most ten years ahead, the default `recurrence.maxHorizonMonths`), migrating first.
 */
export async function runOccurrences(o: OccurrencesCommandOptions): Promise<number> {
  // The calendar's own defaults: the same horizons and id base as a calendar created without options.
  const { recurrence, timezone } = resolveOptions({ db: o.db, timezone: o.timezone });
  const added = await withDatabase(o.db, async (conn) => {
    await migrateToLatest(conn, o.tablePrefix);
    return extendIndex(Store.open(conn, o.tablePrefix), new SeriesService(recurrence), timezone, o.until);
  });
  printLine(
    `${describeTarget(o.db)} (tables ${o.tablePrefix}*): ${added} occurrence${added === 1 ? '' : 's'} indexed up to ${o.until.toISOString().slice(0, 10)}`,
  );
  return 0;
}
