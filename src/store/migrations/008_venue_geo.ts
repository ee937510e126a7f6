import { dialectOf } from '../dialects/index.js';
import type { MigrationContext } from './001_init.js';

/**
 * Indexes of the distance filters (`geoloc`). On the venues' coordinates (`geo_lat`, `geo_lng`,
 * columns since 001): the venues inside a bounding box of the circle are read first, by a range
 * of latitudes with the longitudes checked from the index's entries, and the exact distance is
 * computed only for those. On the events by venue, then as the archive walks them (visible ones,
 * by start): the archive then reads the few venues' events in its window, where SQLite's planner
 * (without statistics, or with rough ones) walked the whole window by start instead: 200 ms for
 * three venues at 100,000 events, 0.2 ms with this index. The same for the occurrences of the
 * series held there (by their content: the series, or an occurrence's edit): 33 ms for three
 * series among 1,000 (100,000 occurrences), under 1 ms with the third index.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.createIndex(`${prefix}venues_geo`).on(`${prefix}venues`).columns(['geo_lat', 'geo_lng']).execute();
  await db.schema.createIndex(`${prefix}events_venue_listing`).on(`${prefix}events`).columns(['venue_id', 'hidden', 'start_local']).execute();
  await db.schema.createIndex(`${prefix}occurrences_content_listing`).on(`${prefix}occurrences`).columns(['content_id', 'cancelled', 'start_local']).execute();
}

/** Drops the indexes. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  // MySQL names an index within its table; the others within the schema.
  const mysql = dialectOf(db).name === 'mysql';
  for (const [index, table] of [
    ['venues_geo', 'venues'],
    ['events_venue_listing', 'events'],
    ['occurrences_content_listing', 'occurrences'],
  ] as const) {
    const drop = db.schema.dropIndex(`${prefix}${index}`).ifExists();
    await (mysql ? drop.on(`${prefix}${table}`) : drop).execute();
  }
}
