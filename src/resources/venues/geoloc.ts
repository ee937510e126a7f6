/**
 * The distance filter of the events and venues archives (`geoloc`, `geoloc_lat`, `geoloc_lng`,
 * `geoloc_radius`): declared once for both, and read into the filter their stores apply.
 */
import { z } from 'zod';
import { arg } from '../../args/arg.js';
import type { ParamFailure } from '../../args/failure.js';
import type { RequestContext } from '../../http/context.js';
import { invalidParams } from '../../http/errors.js';
import { MAX_LAT, MAX_LNG, readCoordinate, toKilometres } from '../../geo/coordinates.js';
import { searchArea, type GeoFilter } from '../../geo/area.js';

/** What a typed client sends for a coordinate or a radius. */
const NUMBER_INPUT = z.union([z.number(), z.string()]);

const coordinateCheck =
  (name: string, most: number) =>
  (value: unknown): true | ParamFailure =>
    readCoordinate(value, most) !== undefined ? true : { message: `${name} must be a number from -${most} to ${most}.` };

/** A radius: a number above 0 (in `geo.unit`). */
function readRadius(value: unknown): number | undefined {
  const n = readCoordinate(value, Number.MAX_VALUE);
  return n !== undefined && n > 0 ? n : undefined;
}

const radiusCheck = (value: unknown): true | ParamFailure => (readRadius(value) !== undefined ? true : { message: 'geoloc_radius must be a number above 0.' });

/** The `geoloc` arguments of an archive (`events` or `venues`), in upstream order for the events. */
export function geolocArgs(archive: 'events' | 'venues') {
  return {
    geoloc: arg({ type: 'boolean', description: `${archive}.geoloc` }),
    geoloc_lat: arg({ format: 'double', description: `${archive}.geoloc_lat` }, { check: coordinateCheck('geoloc_lat', MAX_LAT), accepts: NUMBER_INPUT }),
    geoloc_lng: arg({ format: 'double', description: `${archive}.geoloc_lng` }, { check: coordinateCheck('geoloc_lng', MAX_LNG), accepts: NUMBER_INPUT }),
    geoloc_radius: arg(
      { format: 'double', default: (ctx: RequestContext) => ctx.options.geo.radius, description: `${archive}.geoloc_radius` },
      { check: radiusCheck, accepts: NUMBER_INPUT },
    ),
  };
}

/**
 * The distance filter a request asks for: none without `geoloc`; venues with coordinates with
 * `geoloc` alone; those within `geoloc_radius` (default `geo.radius`, in `geo.unit`) of
 * `geoloc_lat`/`geoloc_lng` with both. One coordinate without the other is a 400.
 */
export function geoFilter(ctx: RequestContext & { params: Record<string, unknown> }): GeoFilter | undefined {
  const p = ctx.params;
  if (p.geoloc !== true) return undefined;
  const lat = readCoordinate(p.geoloc_lat, MAX_LAT);
  const lng = readCoordinate(p.geoloc_lng, MAX_LNG);
  if (lat === undefined && lng === undefined) return {};
  if (lat === undefined || lng === undefined) {
    const [missing, given] = lat === undefined ? ['geoloc_lat', 'geoloc_lng'] : ['geoloc_lng', 'geoloc_lat'];
    throw invalidParams(new Map([[missing, { message: `${missing} is required with ${given}.` }]]));
  }
  const radius = readRadius(p.geoloc_radius) ?? ctx.options.geo.radius;
  return { area: searchArea({ lat, lng }, toKilometres(radius, ctx.options.geo.unit)) };
}
