/**
 * The `geo` option: the host's geocoder, and the unit and default radius of the distance filters.
 */
import { invalidOption } from '../option-error.js';
import type { DistanceUnit, LatLng } from './coordinates.js';

/** A venue's address as a geocoder is given it: its fields as stored, and one line of them all. */
export interface VenueAddress {
  /** The venue's name. */
  venue: string;
  address: string;
  city: string;
  state: string;
  province: string;
  zip: string;
  country: string;
  /** The non-empty fields above (the name left out), joined with `, `: what most geocoding services take. */
  text: string;
}

/**
 * The host's geocoder: the coordinates of an address, or `null` when it has none. `signal` is
 * aborted when the calendar stops waiting (`geo.timeoutMs`).
 */
export type Geocoder = (address: VenueAddress, signal: AbortSignal) => Promise<LatLng | null | undefined> | LatLng | null | undefined;

/** How a host configures coordinates and distances (`CalendarOptions.geo`). */
export interface GeoOptions {
  /**
   * Called when a venue write changes its address and sends no coordinates (API writes, and
   * venues created inside an event write); its answer becomes the venue's `geo_lat`/`geo_lng`.
   * A failure, a timeout or a value that is not a coordinate pair is reported to `onError` and
   * the venue is written without coordinates. None by default: the library calls no service.
   */
  geocoder?: Geocoder;
  /** The unit of `geoloc_radius`: `'km'` (the default) or `'mi'`. */
  unit?: DistanceUnit;
  /** The radius of a distance filter without `geoloc_radius`, in `unit`. Default 25. */
  radius?: number;
  /** How long a write waits for the geocoder, in milliseconds. Default 5000. */
  timeoutMs?: number;
}

/** The `geo` option with its defaults. */
export interface ResolvedGeo {
  geocoder: Geocoder | undefined;
  unit: DistanceUnit;
  radius: number;
  timeoutMs: number;
}

/** The `geo` option, checked. */
export function resolveGeo(o: GeoOptions | undefined): ResolvedGeo {
  const unit = o?.unit ?? 'km';
  if (unit !== 'km' && unit !== 'mi') throw invalidOption('geo.unit', unit, "'km' or 'mi'");
  const radius = o?.radius ?? 25;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius <= 0) throw invalidOption('geo.radius', radius, 'a number above 0');
  const timeoutMs = o?.timeoutMs ?? 5000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw invalidOption('geo.timeoutMs', timeoutMs, 'a whole number of milliseconds (1 or more)');
  return { geocoder: o?.geocoder, unit, radius, timeoutMs };
}
