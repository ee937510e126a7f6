/**
 * The occurrences of a series, in its own zone whatever the host's `TZ`. The rule is expanded
 * on wall clocks (the rule read in UTC, where no clock ever changes), and each wall clock is
 * then placed in the event's zone by RFC 5545 §3.3.5: 09:00 Paris stays 09:00 across the
 * change of time, a time skipped in spring moves forward for that day only, a time repeated in
 * autumn is its first occurrence. Expanding in the zone itself would let the library's own
 * handling of those days decide, which changed between its releases (dropped, or kept at the
 * moved time on every later day).
 */
import { RRuleTemporal } from 'rrule-temporal';
import { formatWallClock, parseWallClock, wallClockToFirstInstant } from '../dates/index.js';
import { fieldsToNaiveMs, naiveMsToFields, formatFields } from '../dates/wall-clock.js';
import { RecurrenceError, untilInZone, withUntil, type Recurrence } from './rules.js';

/** What a series is expanded from: its first occurrence's wall clocks, zone and rules. */
export interface SeriesTimes {
  /** Wall clock of the first occurrence's start, in `zone`. */
  start: string;
  end: string;
  zone: string;
  recurrence: Recurrence;
}

/** One occurrence's times: its original start (the key an override names it by) and where it falls. */
export interface OccurrenceTimes {
  originalStart: string;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
}

/** A wall clock read as a UTC date-time, the only form the expansion sees. */
const asUtc = (wallClock: string) => ({ timeZoneId: 'UTC', toString: () => `${wallClock.replace(' ', 'T')}+00:00[UTC]` });

/** `YYYYMMDDTHHMMSSZ` of a wall clock, for an RRULE read in UTC. */
const icalUtc = (wallClock: string) => `${wallClock.replace(/[-:]/g, '').replace(' ', 'T')}Z`;

/** The wall clock of an occurrence the library returns (a UTC ZonedDateTime). */
const wallClockOf = (zdt: { epochMilliseconds: number }) => formatFields(naiveMsToFields(zdt.epochMilliseconds));

/**
 * Periods of the rule the library walks at most before it gives up (its default is 10,000):
 * enough for a daily rule started decades ago and indexed to the furthest horizon, while a rule
 * that never matches fails within a bounded time (about a second for the costliest BYSETPOS).
 */
const MAX_ITERATIONS = 20_000;

/** Rules built once per series shape: the library's rule objects memoise their work. */
const built = new Map<string, RRuleTemporal>();
const BUILT_MAX = 500;

function ruleOf(series: SeriesTimes): RRuleTemporal | undefined {
  const { rrule } = series.recurrence;
  if (rrule === undefined) return undefined;
  const until = untilInZone(rrule, series.zone);
  // UNTIL is an instant (RFC 5545: UTC when DTSTART has a zone): as a wall clock of the zone.
  const value = until === undefined ? rrule : withUntil(rrule, icalUtc(until));
  const key = `${series.start}\n${value}`;
  let rule = built.get(key);
  if (!rule) {
    rule = new RRuleTemporal({ rruleString: value, dtstart: asUtc(series.start), includeDtstart: true, cache: false, maxIterations: MAX_ITERATIONS });
    if (built.size >= BUILT_MAX) built.clear();
    built.set(key, rule);
  }
  return rule;
}

/**
 * The original starts (wall clocks) of a series' occurrences from `from` to `to` (both
 * included; `from` absent: from the first), in order, at most `max`: `more` tells that there
 * were more in the window.
 */
export function expandStarts(series: SeriesTimes, from: string | undefined, to: string, max: number): { starts: string[]; more: boolean } {
  const { rdates, exdates } = series.recurrence;
  const time = series.start.slice(11);
  const candidates = new Set<string>();
  const lower = from ?? series.start;
  const rule = ruleOf(series);
  if (rule) {
    // Walked from the rule's start (which COUNT needs), stopping past the window or one past the
    // limit (to know whether there were more): never the whole rule.
    let n = 0;
    try {
      rule.all((zdt) => {
        const clock = wallClockOf(zdt);
        if (clock > to) return false;
        if (clock >= lower) {
          candidates.add(clock);
          if (++n > max + exdates.length) return false;
        }
        return true;
      });
    } catch (e) {
      throw new RecurrenceError(`recurrence cannot be expanded: ${e instanceof Error ? e.message.slice(0, 120) : 'the rule gives no occurrence'}.`);
    }
  } else if (series.start >= lower && series.start <= to) {
    candidates.add(series.start);
  }
  for (const d of rdates) {
    const clock = d.length === 10 ? `${d} ${time}` : d;
    if (clock >= lower && clock <= to) candidates.add(clock);
  }
  const excluded = new Set(exdates);
  const starts = [...candidates].filter((c) => !excluded.has(c) && !excluded.has(c.slice(0, 10))).sort();
  return { starts: starts.slice(0, max), more: starts.length > max };
}

/** The times of the occurrence that starts at `originalStart` by the rule, lasting as long as the first one. */
export function occurrenceTimes(series: SeriesTimes, originalStart: string): OccurrenceTimes {
  const [start, end] = [parseWallClock(series.start), parseWallClock(series.end)];
  const origin = parseWallClock(originalStart);
  if (!start || !end || !origin) throw new RangeError(`occurrenceTimes: not a wall clock: ${originalStart}`);
  const duration = fieldsToNaiveMs(end) - fieldsToNaiveMs(start);
  const endClock = formatFields(naiveMsToFields(fieldsToNaiveMs(origin) + duration));
  const place = (clock: string) => {
    const instant = wallClockToFirstInstant(clock, series.zone);
    return instant ? { local: formatWallClock(instant, series.zone) ?? clock, utc: formatWallClock(instant, 'UTC') ?? clock } : { local: clock, utc: clock };
  };
  const [s, e] = [place(originalStart), place(endClock)];
  return { originalStart, start_local: s.local, end_local: e.local < s.local ? s.local : e.local, start_utc: s.utc, end_utc: e.utc < s.utc ? s.utc : e.utc };
}
