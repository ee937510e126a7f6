/**
 * The events archive's date window: strict-mode bounds and the defaults.
 * Every bound is a wall clock in the site zone; inclusive-mode bounds use day-bounds.ts.
 */
import { BoundedCache } from '../cache/bounded-cache.js';
import { DEFAULT_CUTOFF, endOfDay, startOfDay } from './day-bounds.js';
import { parseTime } from './parse.js';
import { formatWallClock } from './zones.js';

/**
 * Strict-mode bound (`Tribe__Timezones::localize_date`): the value parsed as UTC (numbers
 * as UNIX timestamps, strings with an offset at that offset), shown in the site zone.
 */
export function strictBound(value: unknown, siteZone: string, now: Date): string | undefined {
  const parsed = parseTime(value, 'UTC', now);
  return parsed && formatWallClock(parsed.instant, siteZone);
}

/**
 * Raw default start (the `start_date` default before snapping, which `include` queries
 * use as is): the instant "yesterday 23:59" UTC as a site-local wall clock
 * (`2026-11-20 23:59:00` on 2026-11-21 for a UTC site).
 */
export function rawDefaultStart(siteZone: string, now: Date): string | undefined {
  return perSecond(`start ${siteZone}`, now, () => {
    const parsed = parseTime('yesterday 23:59', 'UTC', now);
    return parsed && formatWallClock(parsed.instant, siteZone);
  });
}

/** Raw default end: now + 24 months to the second, UTC wall clock (`2028-11-21 12:30:31`). */
export function rawDefaultEnd(now: Date): string | undefined {
  return perSecond('end', now, () => parseTime('+24 months', 'UTC', now)?.wallClock);
}

/**
 * Default start bound: `startOfDay` of the site-local date of "yesterday 23:59 UTC"
 * (yesterday 00:00:00 for a UTC site; usually today 00:00:00 east of UTC).
 */
export function defaultStartBound(siteZone: string, now: Date, cutoff: string = DEFAULT_CUTOFF): string | undefined {
  return perSecond(`start-bound ${siteZone} ${cutoff}`, now, () => {
    const raw = rawDefaultStart(siteZone, now);
    return raw && startOfDay(raw, now, cutoff);
  });
}

/** Default end bound: `endOfDay` of the UTC date 24 months from now (`YYYY-MM-DD 23:59:59`). */
export function defaultEndBound(now: Date, cutoff: string = DEFAULT_CUTOFF): string | undefined {
  return perSecond(`end-bound ${cutoff}`, now, () => {
    const raw = rawDefaultEnd(now);
    return raw && endOfDay(raw, now, cutoff);
  });
}

/**
 * The defaults depend on the clock to the second only: every request asks for them (twice),
 * and parsing the relative dates is the dearest part of reading an archive's parameters.
 */
/** Keys are four per site zone and cut-off: 100 covers the few zones a site serves, not hostile ones. */
const PER_SECOND_ENTRIES = 100;
const memo = new BoundedCache<string, { second: number; value: string | undefined }>({ maxEntries: PER_SECOND_ENTRIES });
function perSecond(key: string, now: Date, compute: () => string | undefined): string | undefined {
  const second = Math.floor(now.getTime() / 1000);
  const hit = memo.get(key);
  if (hit && hit.second === second) return hit.value;
  const value = compute();
  memo.set(key, { second, value });
  return value;
}
