/**
 * An event's times as a write stores them: date parameters read as wall clocks of the event's
 * zone, all-day events snapped to whole days, UTC times and the zone's abbreviation at the start.
 * `site` is the site's zone, which stands in for an event's zone that names no real one.
 */
import { localToUtc, parseTime, resolveZone, snapToDayEnd, snapToDayStart, timezoneAbbr, wallClockToInstant } from '../../dates/index.js';
import { invalidParam } from '../../http/errors.js';
import type { SeriesTimes } from '../../recurrence/expand.js';
import type { EventInput } from './args.js';
import type { EventRow } from './store.js';

/** Start/end of an event as stored. */
export interface EventTimes {
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  timezone_abbr: string;
  all_day: number;
}

/** A flag column's value. */
export const flag = (v: unknown) => (v ? 1 : 0);

/** `zone` when it names a real zone, else the site's. */
export function realZone(zone: string, site: string): string {
  return resolveZone(zone) ? zone : site;
}

/**
 * Reads one date parameter in `zone`; impossible dates are a 400. A zone
 * that is stored but names no real zone (`UTCfoo` passes validation) reads as the site's.
 */
export function wallClock(name: string, value: unknown, zone: string, site: string, now: Date): string {
  const parsed = parseTime(value, realZone(zone, site), now, { strictCalendar: true });
  if (!parsed) throw invalidParam(name);
  // A string with its own offset keeps its digits (verified upstream); timestamps are converted.
  return parsed.zoneSource === 'string' ? parsed.ownWallClock : parsed.wallClock;
}

/** The stored zone of an event and its abbreviation at the event's start. */
function zoneFields(zone: string, startLocal: string, startUtc: string, site: string): Pick<EventTimes, 'timezone' | 'timezone_abbr'> {
  const real = realZone(zone, site);
  const instant = wallClockToInstant(startLocal, real) ?? new Date(`${startUtc.replace(' ', 'T')}Z`);
  return { timezone: zone, timezone_abbr: timezoneAbbr(real, instant) ?? timezoneAbbr(site, instant) ?? '' };
}

/** Computes the stored times from wall clocks, zone and all-day flag. */
export function storedTimes(start: string, end: string, zone: string, allDay: boolean, site: string): EventTimes {
  let s = start;
  let e = end;
  if (allDay) {
    s = snapToDayStart(s) ?? s;
    e = snapToDayEnd(e) ?? e;
  }
  if (e < s) e = s;
  const real = realZone(zone, site);
  const startUtc = localToUtc(s, real) ?? s;
  return {
    start_local: s,
    end_local: e,
    start_utc: startUtc,
    end_utc: localToUtc(e, real) ?? e,
    ...zoneFields(zone, s, startUtc, site),
    all_day: flag(allDay),
  };
}

/**
 * The stored times after an update; `undefined` when none
 * changes. The dates move only when both are sent, or when `all_day` is turned on (the stored
 * dates stand in for one not sent); a lone date is ignored, as upstream. A `timezone`
 * or `all_day: false` without both dates changes the zone (and its abbreviation) or the flag
 * and leaves local and UTC times as they are.
 */
export function sentTimes(row: EventRow, input: EventInput, sent: (name: string) => boolean, site: string, now: Date): EventTimes | undefined {
  const zone = sent('timezone') && input.timezone !== undefined ? input.timezone || site : row.timezone || site;
  const allDay = sent('all_day') ? input.all_day === true : row.all_day === 1;
  const bothDates = input.start_date !== undefined && input.end_date !== undefined;
  if (bothDates || (sent('all_day') && allDay)) {
    const read = (name: 'start_date' | 'end_date', stored: string) => (input[name] !== undefined ? wallClock(name, input[name], zone, site, now) : stored);
    return storedTimes(read('start_date', row.start_local), read('end_date', row.end_local), zone, allDay, site);
  }
  if (!sent('all_day') && !sent('timezone')) return undefined;
  const { start_local, end_local, start_utc, end_utc } = row;
  return { start_local, end_local, start_utc, end_utc, ...zoneFields(zone, start_local, start_utc, site), all_day: flag(allDay) };
}

/** The times a series is expanded from: its first occurrence's, in its zone. */
export function seriesTimesOf(times: Pick<EventTimes, 'start_local' | 'end_local' | 'timezone'>, site: string): Omit<SeriesTimes, 'recurrence'> {
  return { start: times.start_local, end: times.end_local, zone: realZone(times.timezone || site, site) };
}
