/**
 * Validators of the v1 API's date parameters (TEC `Validator/Base.php`).
 */
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

/**
 * Whether the explicit calendar date in a date string exists (`2026-02-30` → false). Strings
 * without an explicit date (`tomorrow`) and timestamps count as real; unparsable → false.
 */
export function isRealCalendarDate(value: unknown, now: Date = new Date()): boolean {
  const parsed = parseTime(value, 'UTC', now);
  return parsed !== undefined && !parsed.dayOverflow;
}
