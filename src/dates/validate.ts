/**
 * Validators of the v1 API's date parameters (TEC `Validator/Base.php`).
 */
import { BoundedCache } from '../cache/bounded-cache.js';
import { isNumericString, parseTime } from './parse.js';

/** Options of {@link isTime}. */
export interface IsTimeOptions {
  /** Also reject explicit dates that do not exist (`2026-02-30`); PHP accepts and rolls them over. */
  strictCalendar?: boolean;
}

/**
 * TEC's `is_time`: a number or numeric string (a UNIX timestamp, `0` included), or a string
 * `strtotime` parses — evaluated in UTC like WordPress — to anything but the epoch itself
 * (PHP tests the timestamp for truthiness, so `1970-01-01` fails while
 * `1970-01-01 00:00:01` passes). Deliberate difference: numbers that cannot be a date in
 * the years 0000–9999 (`1e400`, `NaN`) fail here, since nothing could store them.
 */
export function isTime(value: unknown, now: Date = new Date(), options: IsTimeOptions = {}): boolean {
  const numeric = typeof value === 'number' || (typeof value === 'string' && isNumericString(value));
  const parsed = parseTime(value, 'UTC', now, options);
  if (!parsed) return false;
  return numeric || parsed.timestamp !== 0;
}

/** Strings {@link isTimeThisSecond} remembers: the few an archive checks on every request, not whatever callers send. */
const SECOND_ENTRIES = 64;
/** Longest string remembered (an archive's defaults are 19 characters). */
const SECOND_LENGTH = 32;
const thisSecond = new BoundedCache<string, { second: number; valid: boolean }>({ maxEntries: SECOND_ENTRIES });

/**
 * {@link isTime} at `now`, remembered for the second `now` falls in (a date string depends on
 * the clock to the second only): the events archive checks its two defaults (`yesterday 23:59`
 * and `+24 months` as wall clocks) on every request, and reading a date is the dearest part
 * of checking its parameters.
 */
export function isTimeThisSecond(value: unknown, now: Date): boolean {
  if (typeof value !== 'string' || value.length > SECOND_LENGTH) return isTime(value, now);
  const second = Math.floor(now.getTime() / 1000);
  const kept = thisSecond.get(value);
  if (kept && kept.second === second) return kept.valid;
  const valid = isTime(value, now);
  thisSecond.set(value, { second, valid });
  return valid;
}

/**
 * Whether the explicit calendar date in a date string exists (`2026-02-30` → false). Strings
 * without an explicit date (`tomorrow`) and timestamps count as real; unparsable → false.
 */
export function isRealCalendarDate(value: unknown, now: Date = new Date()): boolean {
  const parsed = parseTime(value, 'UTC', now);
  return parsed !== undefined && !parsed.dayOverflow;
}
