/**
 * The occurrences of a series, in its own zone whatever the host's `TZ`. The rule is walked on
 * wall clocks (`walkRule`, no zone: no clock ever changes there), and each wall clock is then
 * placed in the event's zone by RFC 5545 §3.3.5: 09:00 Paris stays 09:00 across the change of
 * time, a time skipped in spring moves forward for that day only, a time repeated in autumn is
 * its first occurrence.
 */
import { formatWallClock, parseWallClock, wallClockToFirstInstant } from '../dates/index.js';
import { fieldsToNaiveMs, naiveMsToFields, formatFields } from '../dates/wall-clock.js';
import { formatSeconds, secondsOf } from './days.js';
import { ruleParts, type RuleParts } from './rrule.js';
import { RecurrenceError, untilInZone, type Recurrence } from './rules.js';
import { walkRule } from './walk.js';

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

/** The parts of a series' RRULE, read once per rule text: series are expanded again and again. */
const partsOf = new Map<string, RuleParts | undefined>();
const PARTS_KEPT = 500;

function rulePartsOf(rrule: string): RuleParts | undefined {
  if (partsOf.has(rrule)) return partsOf.get(rrule);
  const parts = ruleParts(rrule);
  if (partsOf.size >= PARTS_KEPT) partsOf.clear();
  partsOf.set(rrule, parts);
  return parts;
}

/** What an expansion found: the original starts, whether the window had more, and whether the budget ran out first. */
export interface Expansion {
  starts: string[];
  more: boolean;
  /** The walk of the rule spent its budget before the window's end: `starts` are those found until then. */
  exhausted: boolean;
}

/**
 * The original starts (wall clocks) of a series' occurrences from `from` to `to` (both
 * included; `from` absent: from the first), in order, at most `max`: `more` tells that there
 * were more in the window. The rule is walked within `budget` units of work (see `walkRule`).
 */
export function expandStarts(series: SeriesTimes, from: string | undefined, to: string, max: number, budget: number): Expansion {
  const { rrule, rdates, exdates } = series.recurrence;
  const time = series.start.slice(11);
  const candidates = new Set<string>();
  const lower = from ?? series.start;
  let exhausted = false;
  let cut = false;
  const parts = rrule === undefined ? undefined : rulePartsOf(rrule);
  if (rrule !== undefined) {
    if (!parts) throw new RecurrenceError('recurrence cannot be expanded: its RRULE repeats more often than daily.');
    const until = untilInZone(rrule, series.zone);
    // Stopping one past the limit (to know whether there were more), excluded dates aside.
    const walk = walkRule(parts, {
      start: secondsOf(series.start),
      until: until === undefined ? undefined : secondsOf(until),
      from: secondsOf(lower),
      to: secondsOf(to),
      max: max + exdates.length + 1,
      budget,
    });
    exhausted = walk.exhausted;
    cut = walk.more;
    for (const t of walk.instants) candidates.add(formatSeconds(t));
  } else if (series.start >= lower && series.start <= to) {
    candidates.add(series.start);
  }
  for (const d of rdates) {
    const clock = d.length === 10 ? `${d} ${time}` : d;
    if (clock >= lower && clock <= to) candidates.add(clock);
  }
  const excluded = new Set(exdates);
  const starts = [...candidates].filter((c) => !excluded.has(c) && !excluded.has(c.slice(0, 10))).sort();
  return { starts: starts.slice(0, max), more: cut || starts.length > max, exhausted };
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
