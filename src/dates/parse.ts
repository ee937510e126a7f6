/**
 * `parseTime`: PHP `strtotime` semantics (as TEC's `build_date_object` applies them)
 * evaluated in a given zone against a given "now".
 */
import { FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { scanDateString, type OwnZone, type ParsedParts } from './strtotime.js';
import { daysInMonth, fieldsToNaiveMs, formatFields, type WallClockFields } from './wall-clock.js';
import { epochMsToFields, fieldsToEpochMs, isStorableInstant, resolveZone } from './zones.js';
import { isPhpNumeric } from '../php/numeric.js';

/** A parsed date string or timestamp. */
export interface ParsedTime {
  /** The instant. */
  instant: Date;
  /** Whole seconds since the UNIX epoch (PHP's timestamp; floored). */
  timestamp: number;
  /** Wall clock `YYYY-MM-DD HH:MM:SS` of the instant in the evaluation zone. */
  wallClock: string;
  /**
   * Wall clock as upstream keeps it: in the string's own
   * zone when it names one (`…T10:00:00+02:00` → `… 10:00:00`), UTC for timestamps,
   * otherwise equal to `wallClock`.
   */
  ownWallClock: string;
  /** Where the zone came from: the `zone` argument, the string itself, or a UNIX timestamp. */
  zoneSource: 'zone' | 'string' | 'timestamp';
  /**
   * True when an explicit calendar date does not exist and was carried over the way PHP
   * does (`2026-02-30` → March 2; day or month `00`). See `strictCalendar`.
   */
  dayOverflow: boolean;
}

/** Options of {@link parseTime}. */
export interface ParseOptions {
  /**
   * Reject explicit dates that do not exist (`2026-02-30`, `2026-04-31`, month/day `00`)
   * instead of rolling them over as PHP does. Off by default (PHP semantics); the events
   * code turns it on so that impossible dates give a 400.
   */
  strictCalendar?: boolean;
}

/** Whether a string is numeric the way PHP's `is_numeric` sees it (so a UNIX timestamp here). */
export function isNumericString(value: string): boolean {
  return value.length <= 64 && isPhpNumeric(value);
}

function zoneOfString(own: OwnZone): Zone {
  return own.kind === 'offset' ? FixedOffsetZone.instance(own.minutes) : IANAZone.create(own.name);
}

/**
 * Applies the relative parts to the absolute ones, as timelib's `do_adjust_relative`. As in
 * PHP, fields the string leaves out come from now's wall clock in the caller's zone, even
 * when the string names its own zone (`ist` alone = now's digits read as IST).
 */
function evaluateParts(parts: ParsedParts, nowZone: Zone, evalZone: Zone, nowMs: number): number {
  const now = epochMsToFields(nowMs, nowZone);
  const year = parts.date ? (parts.date.year ?? now.year) : now.year;
  const month = parts.date ? parts.date.month : now.month;
  let day = parts.date ? parts.date.day : now.day;
  // A date without a time means 00:00:00; neither means now's clock.
  const time = parts.time ?? (parts.date ? { hour: 0, minute: 0, second: 0 } : now);
  const rel = parts.relative;
  if (parts.weekday) {
    const base = fieldsToNaiveMs({ year, month, day, hour: 0, minute: 0, second: 0 });
    const currentDow = new Date(base).getUTCDay();
    const { behavior } = parts.weekday;
    if (behavior === 2) {
      // timelib's do_adjust_for_weekday, ISO-week case: weeks run Monday to Sunday.
      const weekday = parts.weekday.day === 0 ? 7 : parts.weekday.day;
      day += weekday - (currentDow === 0 ? 7 : currentDow);
    } else {
      let difference = parts.weekday.day - currentDow;
      // Direction from the sign of the relative days (`last monday` looks back).
      if ((rel.day < 0 && difference < 0) || (rel.day >= 0 && difference <= -behavior)) difference += 7;
      day += difference;
    }
  }
  // Relative units, hours included, go onto the wall clock, as PHP 8.2 does (`+24 hours`
  // across a DST change keeps the clock time); month overflow as PHP: Jan 31 + 1 month = Mar 3.
  const fields: WallClockFields = {
    year: year + rel.year,
    month: month + rel.month,
    day: day + rel.day,
    hour: time.hour + rel.hour,
    minute: time.minute + rel.minute,
    second: time.second + rel.second,
  };
  // `first/last day of` replace the day after the relative months (day 0 = last of previous).
  if (parts.dayOf === 'first') fields.day = 1;
  if (parts.dayOf === 'last') {
    fields.month += 1;
    fields.day = 0;
  }
  return fieldsToEpochMs(fields, evalZone);
}

function overflows(parts: ParsedParts, nowZone: Zone, nowMs: number): boolean {
  if (!parts.date) return false;
  const { month, day } = parts.date;
  const year = parts.date.year ?? epochMsToFields(nowMs, nowZone).year;
  return month < 1 || day < 1 || day > daysInMonth(year, month);
}

function result(ms: number, zone: Zone, ownZone: Zone, source: ParsedTime['zoneSource'], dayOverflow: boolean): ParsedTime | undefined {
  if (!isStorableInstant(ms, zone) || !isStorableInstant(ms, ownZone)) return undefined;
  const wallClock = formatFields(epochMsToFields(ms, zone));
  return {
    instant: new Date(ms),
    timestamp: Math.floor(ms / 1000),
    wallClock,
    ownWallClock: ownZone === zone ? wallClock : formatFields(epochMsToFields(ms, ownZone)),
    zoneSource: source,
    dayOverflow,
  };
}

/**
 * Parses a date string (PHP `strtotime` forms) or UNIX timestamp (number or numeric
 * string) in `zone` relative to `now`; `undefined` if unparsable, the zone is unknown, or
 * the result is outside the years 0000–9999. Never throws.
 */
export function parseTime(input: unknown, zone: string, now: Date, options: ParseOptions = {}): ParsedTime | undefined {
  try {
    const resolved = resolveZone(zone);
    const nowMs = now instanceof Date ? now.getTime() : NaN;
    if (!resolved || !Number.isFinite(nowMs)) return undefined;
    const utc = FixedOffsetZone.utcInstance;

    let seconds: number | undefined;
    if (typeof input === 'number') seconds = input;
    else if (typeof input === 'string' && isNumericString(input)) seconds = Number(input);
    if (seconds !== undefined) {
      if (!Number.isFinite(seconds)) return undefined;
      return result(Math.floor(seconds * 1000), resolved.zone, utc, 'timestamp', false);
    }
    if (typeof input !== 'string') return undefined;

    const parts = scanDateString(input);
    if (!parts) return undefined;
    const evalZone = parts.zone ? zoneOfString(parts.zone) : resolved.zone;
    const dayOverflow = overflows(parts, resolved.zone, nowMs);
    if (dayOverflow && options.strictCalendar) return undefined;
    const ms = evaluateParts(parts, resolved.zone, evalZone, nowMs);
    return result(ms, resolved.zone, evalZone, parts.zone ? 'string' : 'zone', dayOverflow);
  } catch {
    // Defensive: the scanner and luxon do not throw on strings, but the contract is "never".
    return undefined;
  }
}
