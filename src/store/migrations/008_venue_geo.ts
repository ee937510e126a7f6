import { dialectOf } from '../dialects/index.js';
import type { MigrationContext } from './001_init.js';

/**
 * An index on the venues' coordinates (`geo_lat`, `geo_lng`, columns since 001): the distance
 * filters (`geoloc`) read the venues inside a bounding box of the circle first, by a range of
 * latitudes on this index with the longitudes checked from its entries, and compute the exact
 * distance only for those.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.createIndex(`${prefix}venues_geo`).on(`${prefix}venues`).columns(['geo_lat', 'geo_lng']).execute();
}

/** Drops the index. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  const drop = db.schema.dropIndex(`${prefix}venues_geo`).ifExists();
  // MySQL names an index within its table; the others within the schema.
  await (dialectOf(db).name === 'mysql' ? drop.on(`${prefix}venues`) : drop).execute();
}
