/**
 * The area a distance filter searches: a bounding box of the circle, which an index on the
 * venues' latitudes and longitudes answers, and the exact bound on the great-circle distance
 * that the venues inside the box are then held to.
 */
import { EARTH_RADIUS_KM, MAX_LAT, MAX_LNG, type LatLng } from './coordinates.js';

/** A range of longitudes, west to east, in degrees. */
export type LngRange = readonly [min: number, max: number];

/** What the SQL filter compares: a box, and the exact distance bound inside it. */
export interface SearchArea {
  center: LatLng;
  /** The box's latitudes, in degrees. */
  minLat: number;
  maxLat: number;
  /**
   * The box's longitudes: one range, two when it crosses the antimeridian (±180°), none when it
   * holds a pole (every longitude is then within the radius of some latitude of the box).
   */
  lngRanges: readonly LngRange[];
  /** The haversine of the radius' angle: a venue is inside when its haversine to the centre is at most this. */
  maxHaversine: number;
}

/**
 * Added to each side of the box, in degrees (about 0.1 mm): the box is only a prefilter, and
 * must never lose a venue on its edge to the rounding of the trigonometry that drew it.
 */
const MARGIN = 1e-9;

const DEG = 180 / Math.PI;

/**
 * The area within `radiusKm` of `center` (J. P. Matuschek, "Finding Points Within a Distance of
 * a Latitude/Longitude Using Bounding Coordinates"): latitudes ± the radius' angle; longitudes
 * ± asin(sin θ / cos φ), split at the antimeridian; all longitudes when a pole is inside.
 */
export function searchArea(center: LatLng, radiusKm: number): SearchArea {
  const angle = Math.max(0, radiusKm) / EARTH_RADIUS_KM;
  // Half the circumference or more: the whole sphere (2, above any haversine however rounded).
  const maxHaversine = angle >= Math.PI ? 2 : Math.sin(angle / 2) ** 2;
  const angleDeg = angle * DEG;
  const minLat = center.lat - angleDeg - MARGIN;
  const maxLat = center.lat + angleDeg + MARGIN;
  if (minLat <= -MAX_LAT || maxLat >= MAX_LAT) {
    return { center, minLat: Math.max(minLat, -MAX_LAT), maxLat: Math.min(maxLat, MAX_LAT), lngRanges: [], maxHaversine };
  }
  const ratio = Math.sin(angle) / Math.cos((center.lat * Math.PI) / 180);
  // Reached only at the pole's edge, where the latitude check above already answers.
  if (ratio >= 1) return { center, minLat, maxLat, lngRanges: [], maxHaversine };
  const half = Math.asin(ratio) * DEG + MARGIN;
  const west = center.lng - half;
  const east = center.lng + half;
  let lngRanges: LngRange[];
  if (half >= MAX_LNG) lngRanges = [];
  else if (west < -MAX_LNG)
    lngRanges = [
      [west + 2 * MAX_LNG, MAX_LNG],
      [-MAX_LNG, east],
    ];
  else if (east > MAX_LNG)
    lngRanges = [
      [west, MAX_LNG],
      [-MAX_LNG, east - 2 * MAX_LNG],
    ];
  else lngRanges = [[west, east]];
  return { center, minLat, maxLat, lngRanges, maxHaversine };
}

/** A distance filter: venues with coordinates, within `area` when it is given. */
export interface GeoFilter {
  area?: SearchArea;
}
