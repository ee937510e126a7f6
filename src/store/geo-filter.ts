import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { GeoFilter } from '../geo/area.js';

/** Degrees to radians, and to half of them (the haversine's half-angles). */
const RAD = Math.PI / 180;
const HALF_RAD = Math.PI / 360;

/**
 * The condition a venue's coordinates (the columns `lat` and `lng`, in degrees) meet for a
 * distance filter: both non-zero (the venue shows them); then, with an area, inside its box
 * (ranges the index on the two columns answers) and within the radius by the haversine, computed
 * with the database's own `sin`, `cos` and `power` (SQLite's math functions, which better-sqlite3
 * builds in). The haversine is compared as it is, with no `asin` or `sqrt`: it grows with the distance.
 */
export function geoCondition(lat: string, lng: string, filter: GeoFilter): RawBuilder<SqlBool> {
  const la = sql.ref(lat);
  const ln = sql.ref(lng);
  const located = sql<SqlBool>`${la} <> 0 and ${ln} <> 0`;
  const area = filter.area;
  if (!area) return sql<SqlBool>`(${located})`;
  const parts = [sql<SqlBool>`${la} between ${area.minLat} and ${area.maxLat}`];
  if (area.lngRanges.length) {
    const ranges = area.lngRanges.map(([west, east]) => sql<SqlBool>`${ln} between ${west} and ${east}`);
    parts.push(sql<SqlBool>`(${sql.join(ranges, sql` or `)})`);
  }
  parts.push(located);
  const { lat: cLat, lng: cLng } = area.center;
  const cosLat = Math.cos(cLat * RAD);
  parts.push(
    sql<SqlBool>`power(sin((${la} - ${cLat}) * ${HALF_RAD}), 2) + ${cosLat} * cos(${la} * ${RAD}) * power(sin((${ln} - ${cLng}) * ${HALF_RAD}), 2) <= ${area.maxHaversine}`,
  );
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}
