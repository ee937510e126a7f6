/**
 * Day boundaries with TEC's multi-day cutoff (`tribe_beginning_of_day`,
 * `tribe_end_of_day`): used for all-day events and for the inclusive
 * archive bounds.
 */
import { parseTime } from './parse.js';
import { fieldsToNaiveMs, formatFields, naiveMsToFields, parseWallClock, type WallClockFields } from './wall-clock.js';

/** TEC's default multi-day cutoff: days start at midnight. */
export const DEFAULT_CUTOFF = '00:00';

/** Hours and minutes of a `HH:MM` cutoff; the default for anything malformed. */
function cutoffParts(cutoff: string): { hour: number; minute: number } {
  const m = /^(\d{1,2}):(\d{2})$/.exec(cutoff);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return { hour: 0, minute: 0 };
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

function atCutoff(date: WallClockFields, cutoff: string, dayShift: number, secondShift: number): string | undefined {
  const { hour, minute } = cutoffParts(cutoff);
  const ms = fieldsToNaiveMs({ year: date.year, month: date.month, day: date.day + dayShift, hour, minute, second: secondShift });
  if (!Number.isFinite(ms)) return undefined;
  const f = naiveMsToFields(ms);
  return f.year < 0 || f.year > 9999 ? undefined : formatFields(f);
}

/** The calendar date of a wall clock at the cutoff: `2027-03-02 09:00:00` → `2027-03-02 00:00:00`. */
export function snapToDayStart(wallClock: string, cutoff: string = DEFAULT_CUTOFF): string | undefined {
  const f = parseWallClock(wallClock);
  return f && atCutoff(f, cutoff, 0, 0);
}

/** The next calendar date at the cutoff minus one second: `2027-03-04 11:00:00` → `2027-03-04 23:59:59`. */
export function snapToDayEnd(wallClock: string, cutoff: string = DEFAULT_CUTOFF): string | undefined {
  const f = parseWallClock(wallClock);
  return f && atCutoff(f, cutoff, 1, -1);
}

/**
 * `tribe_beginning_of_day`: the UTC calendar date of a raw parameter value (strtotime in
 * UTC, numbers as UNIX timestamps) at the cutoff; `1800000000` → `2027-01-15 00:00:00`.
 */
export function startOfDay(value: unknown, now: Date, cutoff: string = DEFAULT_CUTOFF): string | undefined {
  const parsed = parseTime(value, 'UTC', now);
  return parsed && snapToDayStart(parsed.wallClock, cutoff);
}

/** `tribe_end_of_day`: like {@link startOfDay}, at the end of that day (`YYYY-MM-DD 23:59:59`). */
export function endOfDay(value: unknown, now: Date, cutoff: string = DEFAULT_CUTOFF): string | undefined {
  const parsed = parseTime(value, 'UTC', now);
  return parsed && snapToDayEnd(parsed.wallClock, cutoff);
}
