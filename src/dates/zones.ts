/**
 * Time zones as the v1 API names them, resolved to luxon zones, and the conversions
 * between a zone's wall clock and the instant it denotes.
 *
 * Accepted names (what PHP's `new DateTimeZone()` and TEC's helpers accept):
 * - IANA names (`America/New_York`, `UTC`, `US/Eastern`; case-insensitive like PHP);
 * - WordPress offset-site strings `UTC+2`, `UTC-3:30`, `UTC+5.5`, `UTC+0` (fixed offset);
 * - PHP zone abbreviations (`EST`, `CEST`; fixed offset, see php-abbreviations.ts);
 * - numeric offsets `+02:00`, `+0200`, `-3`, `+2:30` (fixed offset).
 *
 * DST rule for wall clocks: PHP's (checked against PHP 8.2's DateTime and strtotime), as
 * upstream computes every stored UTC date with it:
 * - a wall clock that does not exist (spring-forward gap) moves forward by the length of
 *   the gap, i.e. is read with the offset in force before the gap: 2027-03-14 02:30 in
 *   New York → 03:30 EDT (07:30 UTC); 2027-03-28 02:30 in Paris → 03:30 CEST;
 * - a wall clock that occurs twice (autumn overlap) is read with the offset in force at
 *   the same reading taken as a UTC instant. That is the first (daylight) occurrence west
 *   of Greenwich and the second (standard) one east of it: 2027-11-07 01:30 in New York →
 *   01:30 EDT (05:30 UTC); 2027-10-31 02:30 in Paris → 02:30 CET (01:30 UTC); London →
 *   GMT. luxon alone would pick by the offset in force *now*, hence the code here.
 */
import { FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { BoundedCache } from '../cache/bounded-cache.js';
import { phpAbbreviationOffset } from './php-abbreviations.js';
import { DAY_MS, fieldsToNaiveMs, formatFields, isStorableNaiveMs, naiveMsToFields, parseWallClock, type WallClockFields } from './wall-clock.js';

/** How a zone name was understood. */
export type ZoneKind = 'iana' | 'utc-offset' | 'abbreviation' | 'offset';

/** A zone name resolved to a luxon zone. */
export interface ResolvedZone {
  /** The name exactly as given. */
  name: string;
  kind: ZoneKind;
  zone: Zone;
}

/** Longest zone name looked at; real ones are under 40 characters. */
const MAX_ZONE_NAME = 64;
/** PHP rejects offsets of 100 hours or more ("Timezone offset is out of range"). */
const MAX_OFFSET_MINUTES = 100 * 60 - 1;

// Upper-case `UTC` only, like the validator's `strpos($tz, 'UTC') === 0`.
const UTC_OFFSET_RE = /^UTC([+-])(\d{1,2})(?::(\d{2})|\.(\d{1,4}))?$/;

/**
 * Intl (ICU) also accepts Java-era IDs such as `IST`, `PST`, `AET` that are not tz-database
 * names (and that PHP reads differently or not at all), so names are first checked
 * against the shape of the tz database: one of its top-level names, or Area/Location.
 */
const TZDB_TOP_LEVEL = new Set(
  (
    'CET CST6CDT Cuba EET EST EST5EDT Egypt Eire Factory GB GB-Eire GMT GMT+0 GMT-0 GMT0 Greenwich HST ' +
    'Hongkong Iceland Iran Israel Jamaica Japan Kwajalein Libya MET MST MST7MDT NZ NZ-CHAT Navajo PRC ' +
    'PST8PDT Poland Portugal ROC ROK Singapore Turkey UCT UTC Universal W-SU WET Zulu'
  )
    .toLowerCase()
    .split(' '),
);
const TZDB_AREAS = new Set('africa america antarctica arctic asia atlantic australia brazil canada chile etc europe indian mexico pacific us'.split(' '));

/** Whether `name` is a tz-database zone or link name Intl knows (case-insensitive, as PHP). */
export function isTzdbZoneName(name: string): boolean {
  const slash = name.indexOf('/');
  const known = slash < 0 ? TZDB_TOP_LEVEL.has(name.toLowerCase()) : TZDB_AREAS.has(name.slice(0, slash).toLowerCase());
  return known && IANAZone.isValidZone(name);
}
const NUMERIC_OFFSET_RE = /^([+-])(\d{1,2})(?::?(\d{2}))?$/;

/** Offset in minutes from sign/hours/minutes, or `undefined` when out of PHP's range. */
function offsetMinutes(sign: string, hours: string, minutes: string | undefined): number | undefined {
  const m = minutes === undefined ? 0 : Number(minutes);
  if (m > 59) return undefined;
  const total = Number(hours) * 60 + m;
  if (total > MAX_OFFSET_MINUTES) return undefined;
  return sign === '-' ? -total : total;
}

/** Reads `+02:00`-style offsets (also used for offsets inside date strings). */
export function parseNumericOffset(text: string): number | undefined {
  const m = NUMERIC_OFFSET_RE.exec(text);
  if (!m) return undefined;
  const [, sign = '', hours = '', minutes] = m;
  return offsetMinutes(sign, hours, minutes);
}

/** Reads WordPress' `UTC+5.5` / `UTC-3:30` site strings into minutes. */
function parseUtcOffsetName(text: string): number | undefined {
  const m = UTC_OFFSET_RE.exec(text);
  if (!m) return undefined;
  const [, sign = '', hours = '', minutes, decimals] = m;
  if (decimals !== undefined) {
    // Decimal hours, as WordPress' gmt_offset option stores them (5.5, 5.75).
    const total = Math.round((Number(hours) + Number(`0.${decimals}`)) * 60);
    if (total > MAX_OFFSET_MINUTES) return undefined;
    return sign === '-' ? -total : total;
  }
  return offsetMinutes(sign, hours, minutes);
}

function resolveUncached(name: string): ResolvedZone | undefined {
  if (name.length === 0 || name.length > MAX_ZONE_NAME) return undefined;
  const utcOffset = parseUtcOffsetName(name);
  if (utcOffset !== undefined) return { name, kind: 'utc-offset', zone: FixedOffsetZone.instance(utcOffset) };
  const numeric = parseNumericOffset(name);
  if (numeric !== undefined) return { name, kind: 'offset', zone: FixedOffsetZone.instance(numeric) };
  // PHP looks abbreviations up before tz-database names (so `CET` and `EST` are fixed
  // offsets, not the tz-database zones of the same name); `UTC` is the exception.
  const abbr = phpAbbreviationOffset(name);
  if (abbr !== undefined) return { name, kind: 'abbreviation', zone: FixedOffsetZone.instance(abbr) };
  if (isTzdbZoneName(name)) {
    // UTC never changes offset: a fixed zone avoids an Intl look-up on every conversion.
    const zone = IANAZone.create(name);
    return { name, kind: 'iana', zone: ALWAYS_UTC.has(zone.name) ? FixedOffsetZone.utcInstance : withOffsetCache(zone) };
  }
  return undefined;
}

const ALWAYS_UTC = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'Etc/GMT', 'GMT', 'Universal', 'Zulu', 'UCT']);

const HOUR_MS = 3_600_000;
/** Hours of offsets kept per zone. */
const OFFSET_HOURS = 20_000;

/**
 * The zone with `offset()` memoised by the hour: luxon asks Intl for every call (tens of µs),
 * and every date shown or stored asks several times. An hour is cached only when it starts
 * and ends on the same offset (time-zone transitions are hours apart, so none is inside it);
 * other hours are computed each time.
 */
function withOffsetCache(zone: Zone): Zone {
  const hours = new Map<number, number>();
  const offset = (ms: number): number => {
    if (!Number.isFinite(ms)) return zone.offset(ms);
    const hour = Math.floor(ms / HOUR_MS);
    const hit = hours.get(hour);
    if (hit !== undefined) return hit;
    const first = zone.offset(hour * HOUR_MS);
    if (first !== zone.offset(hour * HOUR_MS + HOUR_MS - 1)) return zone.offset(ms);
    if (hours.size >= OFFSET_HOURS) hours.clear();
    hours.set(hour, first);
    return first;
  };
  return Object.assign(Object.create(zone) as Zone, { offset });
}

/** Bound on cached names, so hostile input cannot grow the cache without limit; real sites use a handful. */
const CACHE_LIMIT = 1000;
/** Resolved names; `false` for names PHP rejects (kept too: a bad name tends to come again). */
const cache = new BoundedCache<string, ResolvedZone | false>({ maxEntries: CACHE_LIMIT });

/** Resolves a zone name as the v1 API accepts it; `undefined` if PHP would reject it. */
export function resolveZone(name: unknown): ResolvedZone | undefined {
  if (typeof name !== 'string') return undefined;
  const hit = cache.get(name);
  if (hit !== undefined) return hit || undefined;
  const resolved = resolveUncached(name);
  cache.set(name, resolved ?? false);
  return resolved;
}

/**
 * TEC's timezone validator (`is_timezone_or_empty`): empty (PHP `empty()`, so `""` and
 * `"0"`), any string starting with `UTC` longer than 3 characters (even one that is no
 * usable offset, e.g. `UTCfoo` — callers then fall back to the site zone), or a zone
 * `new DateTimeZone()` accepts.
 */
export function isValidTimezone(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value === '' || value === '0') return true;
  if (value.startsWith('UTC') && value.length > 3) return true;
  return resolveZone(value) !== undefined;
}

/**
 * Epoch milliseconds of a wall clock in a zone, with the DST rule in the header comment.
 * NaN when the fields are outside the JavaScript date range.
 */
export function fieldsToEpochMs(fields: WallClockFields, zone: Zone): number {
  const naive = fieldsToNaiveMs(fields);
  if (!Number.isFinite(naive)) return NaN;
  if (zone.isUniversal) return naive - zone.offset(naive) * 60_000;
  const fits = (offset: number): boolean => zone.offset(naive - offset * 60_000) === offset;
  // PHP's first guess: the offset in force at the wall-clock reading taken as UTC.
  const guess = zone.offset(naive);
  if (fits(guess)) return naive - guess * 60_000;
  // Otherwise the offset on either side; a day either way covers any transition.
  const before = zone.offset(naive - DAY_MS);
  const after = zone.offset(naive + DAY_MS);
  if (fits(before)) return naive - before * 60_000;
  if (fits(after)) return naive - after * 60_000;
  // Neither fits: the wall clock is in a gap; the offset before the gap moves it forward.
  return naive - before * 60_000;
}

/** Wall-clock fields of an instant (epoch ms) in a zone. */
export function epochMsToFields(ms: number, zone: Zone): WallClockFields {
  return naiveMsToFields(ms + zone.offset(ms) * 60_000);
}

/** Whether an instant's wall clock in `zone` and in UTC both fit `YYYY-MM-DD` (years 0–9999). */
export function isStorableInstant(ms: number, zone: Zone): boolean {
  return isStorableNaiveMs(ms) && isStorableNaiveMs(ms + zone.offset(ms) * 60_000);
}

/** The wall clock `YYYY-MM-DD HH:MM:SS` of an instant in a zone; `undefined` for a bad zone or date. */
export function formatWallClock(instant: Date | number, zone: string): string | undefined {
  const resolved = resolveZone(zone);
  const ms = instant instanceof Date ? instant.getTime() : instant;
  if (!resolved || typeof ms !== 'number' || !isStorableInstant(ms, resolved.zone)) return undefined;
  return formatFields(epochMsToFields(ms, resolved.zone));
}

/** The instant a wall clock `YYYY-MM-DD HH:MM:SS` denotes in a zone (DST rule above). */
export function wallClockToInstant(wallClock: string, zone: string): Date | undefined {
  const resolved = resolveZone(zone);
  const fields = parseWallClock(wallClock);
  if (!resolved || !fields) return undefined;
  const ms = fieldsToEpochMs(fields, resolved.zone);
  return isStorableInstant(ms, resolved.zone) ? new Date(ms) : undefined;
}

/**
 * The instant of a wall clock in `zone` by RFC 5545 §3.3.5: a time repeated when clocks go back
 * is its first occurrence, and a time skipped when they go forward is moved forward by the
 * length of the gap (02:30 → 03:30). (`wallClockToInstant` follows PHP instead, whose choice
 * in a repeated hour depends on the zone's side of UTC.)
 */
export function wallClockToFirstInstant(wallClock: string, zone: string): Date | undefined {
  const resolved = resolveZone(zone);
  const fields = parseWallClock(wallClock);
  if (!resolved || !fields) return undefined;
  const naive = fieldsToNaiveMs(fields);
  if (!Number.isFinite(naive)) return undefined;
  const z = resolved.zone;
  const before = z.offset(naive - DAY_MS);
  const candidates = [before, z.offset(naive), z.offset(naive + DAY_MS)].filter((o) => z.offset(naive - o * 60_000) === o);
  // The largest fitting offset is the earliest instant; none fits inside a gap.
  const ms = candidates.length ? naive - Math.max(...candidates) * 60_000 : naive - before * 60_000;
  return isStorableInstant(ms, z) ? new Date(ms) : undefined;
}

/** Converts a wall clock in `zone` to the UTC wall clock of the same instant. */
export function localToUtc(wallClock: string, zone: string): string | undefined {
  const instant = wallClockToInstant(wallClock, zone);
  return instant && formatWallClock(instant, 'UTC');
}

/** Converts a UTC wall clock to the wall clock of the same instant in `zone`. */
export function utcToLocal(utcWallClock: string, zone: string): string | undefined {
  const instant = wallClockToInstant(utcWallClock, 'UTC');
  return instant && formatWallClock(instant, zone);
}

/** The UTC offset of `zone` at an instant, in minutes east of UTC. */
export function zoneOffsetMinutes(zone: string, instant: Date | number): number | undefined {
  const resolved = resolveZone(zone);
  const ms = instant instanceof Date ? instant.getTime() : instant;
  if (!resolved || typeof ms !== 'number' || !Number.isFinite(ms)) return undefined;
  return resolved.zone.offset(ms);
}
