/**
 * Wall clocks: calendar fields without a zone, and their `YYYY-MM-DD HH:MM:SS` text form
 * (the form WordPress stores and the v1 API returns).
 */

/** Calendar and clock fields of a wall clock (month 1–12). */
export interface WallClockFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Milliseconds in one day. */
export const DAY_MS = 86_400_000;

/** Lowest year a stored `YYYY-MM-DD HH:MM:SS` string can carry. */
export const MIN_YEAR = 0;
/** Highest year a stored `YYYY-MM-DD HH:MM:SS` string can carry. */
export const MAX_YEAR = 9999;

const WALL_CLOCK_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Zero-pads a non-negative integer to `width` digits. */
export function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/**
 * Reads `YYYY-MM-DD HH:MM:SS` (also `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, or `T` as separator)
 * into fields; `undefined` for anything else. Out-of-range fields are kept as written:
 * callers that need a real calendar date normalise or check them.
 */
export function parseWallClock(text: string): WallClockFields | undefined {
  if (typeof text !== 'string') return undefined;
  const m = WALL_CLOCK_RE.exec(text);
  if (!m) return undefined;
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: m[4] === undefined ? 0 : Number(m[4]),
    minute: m[5] === undefined ? 0 : Number(m[5]),
    second: m[6] === undefined ? 0 : Number(m[6]),
  };
}

/** Formats fields as `YYYY-MM-DD HH:MM:SS`. */
export function formatFields(f: WallClockFields): string {
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)} ${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}`;
}

/**
 * The fields as if they were UTC, in epoch milliseconds ("naive" time), with overflow
 * carried the way PHP's timelib does (Feb 30 → Mar 2, hour 24 → next day). Uses
 * `setUTCFullYear` rather than `Date.UTC` because the latter maps years 0–99 to 1900–1999.
 * NaN when the result is outside the JavaScript date range.
 */
export function fieldsToNaiveMs(f: WallClockFields): number {
  const d = new Date(0);
  d.setUTCFullYear(f.year, f.month - 1, f.day);
  d.setUTCHours(f.hour, f.minute, f.second, 0);
  return d.getTime();
}

/** Inverse of {@link fieldsToNaiveMs}: reads the UTC fields of epoch milliseconds. */
export function naiveMsToFields(ms: number): WallClockFields {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** Whether naive milliseconds fall in a year a `YYYY-MM-DD` string can show (0000–9999). */
export function isStorableNaiveMs(ms: number): boolean {
  if (!Number.isFinite(ms)) return false;
  const year = new Date(ms).getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** Number of days in `month` (1–12) of `year` (proleptic Gregorian). */
export function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}
