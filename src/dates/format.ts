/**
 * Output forms of dates: date-details objects and ISO 8601 with
 * offset for JSON-LD.
 */
import { epochMsToFields, resolveZone, fieldsToEpochMs } from './zones.js';
import { pad, parseWallClock } from './wall-clock.js';

/** A `*_date_details` object: zero-padded strings, as upstream returns them. */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

const STORED_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Splits a stored `YYYY-MM-DD HH:MM:SS` into a date-details object; `undefined` for other text. */
export function dateDetails(wallClock: string): DateDetails | undefined {
  const m = typeof wallClock === 'string' ? STORED_RE.exec(wallClock) : null;
  if (!m) return undefined;
  const [, year = '', month = '', day = '', hour = '', minutes = '', seconds = ''] = m;
  return { year, month, day, hour, minutes, seconds };
}

/** An offset in minutes as `+HH:MM` / `-HH:MM`. */
export function formatOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A wall clock in `zone` as ISO 8601 with the zone's offset at that moment, as PHP's
 * `DateTime::format('c')`: `2027-04-12 19:30:00` in New York → `2027-04-12T19:30:00-04:00`,
 * `UTC` → `+00:00`, `UTC+2` → `+02:00`. A wall clock inside a DST gap comes out moved
 * forward (zones.ts). `undefined` for a bad wall clock or zone.
 */
export function isoWithOffset(wallClock: string, zone: string): string | undefined {
  const resolved = resolveZone(zone);
  const fields = parseWallClock(wallClock);
  if (!resolved || !fields) return undefined;
  const ms = fieldsToEpochMs(fields, resolved.zone);
  if (!Number.isFinite(ms)) return undefined;
  const offset = resolved.zone.offset(ms);
  const f = epochMsToFields(ms, resolved.zone);
  if (f.year < 0 || f.year > 9999) return undefined;
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}${formatOffset(offset)}`;
}
