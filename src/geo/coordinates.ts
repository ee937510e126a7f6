/**
 * Coordinates of venues and of the distance filters: what counts as one, what a venue "has",
 * and the units radii are given in.
 */

/** Mean radius of the Earth (IUGG), in kilometres: the sphere distances are measured on. */
export const EARTH_RADIUS_KM = 6371.0088;

/** Kilometres in one international mile. */
const KM_PER_MILE = 1.609344;

/** The units a radius is given in (`geo.unit`). */
export type DistanceUnit = 'km' | 'mi';

/** A point on the Earth, in decimal degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Largest absolute latitude and longitude. */
export const MAX_LAT = 90;
export const MAX_LNG = 180;

/**
 * A coordinate as a request or a source sends it: a finite number, or a decimal string
 * (`"45.5"`, `"-0.75"`, `" 9 "`); `undefined` for anything else or outside `±most`.
 */
export function readCoordinate(value: unknown, most: number): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) n = Number(value);
  else return undefined;
  return Number.isFinite(n) && Math.abs(n) <= most ? n : undefined;
}

/**
 * Whether a venue has coordinates: both stored and neither zero, as the original shows them
 * (`geo_lat`/`geo_lng` in its JSON only then), so that the filters keep exactly the venues whose
 * coordinates are shown.
 */
export function hasCoordinates(lat: number | null | undefined, lng: number | null | undefined): boolean {
  return typeof lat === 'number' && typeof lng === 'number' && lat !== 0 && lng !== 0;
}

/** A distance in `unit` as kilometres. */
export function toKilometres(distance: number, unit: DistanceUnit): number {
  return unit === 'mi' ? distance * KM_PER_MILE : distance;
}

/** The great-circle distance between two points in kilometres (haversine), for checks and tests. */
export function distanceKm(a: LatLng, b: LatLng): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, haversine(a, b))));
}

/**
 * The haversine of the angle between two points: `sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2)`,
 * which grows with the distance (the SQL filters compare it with the radius' own).
 */
export function haversine(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = Math.sin(((b.lat - a.lat) * rad) / 2);
  const dLng = Math.sin(((b.lng - a.lng) * rad) / 2);
  return dLat * dLat + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * dLng * dLng;
}
