/**
 * The distance filter's benchmark case (issue 34): the events within 150 km of the middle of the
 * demo calendar's venues (500 of them, spread over 30–45° N, 80–120° W; a handful fall inside,
 * with their events of the default window), computed for every request (no-cache), so that it is
 * held to the computed-read budget of `GET /events, no-cache`.
 */
import type { BenchCase } from './cases.js';

/** The case's name, as bench/targets.ts holds it to its budget. */
export const GEOLOC_CASE = 'GET /events?geoloc (150 km), no-cache';

/** Where and how far: the middle of the demo venues' box. */
const NEAR = { geoloc: '1', geoloc_lat: '37.5', geoloc_lng: '-100', geoloc_radius: '150' };

/** The geoloc case, under the API path `api`. */
export function geolocCases(api: string): BenchCase[] {
  return [
    {
      name: GEOLOC_CASE,
      list: true,
      status: 200,
      request: () => ({ method: 'GET', path: `${api}/events?${new URLSearchParams(NEAR).toString()}`, headers: { 'cache-control': 'no-cache' } }),
    },
  ];
}
