/**
 * One event as an iCalendar `VEVENT` (RFC 5545 §3.6.1), written by `ical-generator`: it escapes
 * `TEXT` values, folds lines at 75 octets without splitting a UTF-8 sequence, and formats
 * dates in a zone from luxon values (not from the host process's `TZ`).
 */
import { ICalCalendar, ICalEventClass, ICalEventStatus, type ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import type { CalendarEvent, Organizer, Venue } from '../schemas/types.js';
import { plainText } from './text.js';
import { icalZone, localTime } from './zones.js';
import { wallClockToFirstInstant } from '../dates/index.js';
import { untilInZone, withUntil } from '../recurrence/rules.js';

/** What a `VEVENT` is written from: the event as the API shows it to the caller. */
export type VeventSource = Pick<
  CalendarEvent,
  | 'id'
  | 'status'
  | 'modified_utc'
  | 'url'
  | 'title'
  | 'description'
  | 'all_day'
  | 'start_date'
  | 'end_date'
  | 'utc_start_date'
  | 'utc_end_date'
  | 'timezone'
  | 'categories'
  | 'venue'
  | 'organizer'
>;

/**
 * How an event is written. What a caller may see of it is already in its JSON (a
 * password-protected event they may not unlock comes redacted, as in the archive).
 */
export interface VeventOptions {
  /** The right-hand side of every `UID` (the site's host and path): UIDs are `event-<id>@<domain>`. */
  domain: string;
  /** A password-protected event: its description is never written, even to those who may unlock it. */
  protected: boolean;
  /**
   * A trashed event subscribers may still hold: written as `STATUS:CANCELLED` with only what
   * a client needs to match it (`UID`, times, `SEQUENCE`), since nobody may read it any more.
   */
  cancelled: boolean;
  /** A part of a recurring series: its master, or an edited occurrence. */
  recurrence?: VeventRecurrence;
  /** Keys of the event's JSON written as `X-CALENDAR-{KEY}` (the host's fields marked for feeds). */
  fields?: readonly string[];
}

/** The host's fields of an event as `X-CALENDAR-…` properties: a text as it is, any other value as JSON; no value, none. */
function fieldProperties(event: VeventSource, names: readonly string[]): { key: string; value: string }[] {
  const shown = new Map<string, unknown>(Object.entries(event));
  return names.flatMap((name) => {
    const value = shown.get(name);
    if (value === null || value === undefined) return [];
    return [{ key: `X-CALENDAR-${name.toUpperCase().replaceAll('_', '-')}`, value: typeof value === 'string' ? value : JSON.stringify(value) }];
  });
}

/**
 * What makes a `VEVENT` part of a recurring series (RFC 5545 §3.8.5): every part shares the
 * series' `UID`; the master carries the rules, an edited occurrence its `RECURRENCE-ID`.
 */
export interface VeventRecurrence {
  seriesId: number;
  /** The series' zone: its rules and original starts are wall clocks there. */
  zone: string;
  /** The master's rule, and its extra and excluded occurrences (wall clocks of `zone`, or dates). */
  rules?: { rrule?: string; rdates: readonly string[]; exdates: readonly string[] };
  /** An edited occurrence: the start the rule gives it (a wall clock of `zone`). */
  recurrenceId?: string;
  /** The years the series' occurrences fall in (the `VTIMEZONE` must cover them). */
  years?: readonly number[];
}

/** `YYYYMMDD` of a wall clock or a date. */
const icalDate = (v: string) => v.slice(0, 10).replace(/-/g, '');

/**
 * The recurrence lines of a master, in the form of its `DTSTART` (RFC 5545 §3.8.5.1: `EXDATE`
 * and `RDATE` of the same value type, in its `TZID`; `UNTIL` in UTC for a zoned `DTSTART`, a
 * date for an all-day one), so that readers match them whatever the zones they came in.
 */
function recurrenceLines(r: VeventRecurrence, tzid: string | undefined, allDay: boolean, time: string): string {
  const rules = r.rules;
  if (!rules) return '';
  const instant = (wallClock: string) => DateTime.fromJSDate(wallClockToFirstInstant(wallClock, r.zone) ?? new Date(NaN));
  const value = (v: string) => {
    if (allDay) return icalDate(v);
    const clock = v.length === 10 ? `${v} ${time}` : v;
    return tzid ? clock.replace(/[-:]/g, '').replace(' ', 'T') : instant(clock).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
  };
  const lines: string[] = [];
  if (rules.rrule) {
    const until = untilInZone(rules.rrule, r.zone);
    const written = until === undefined ? undefined : allDay ? icalDate(until) : instant(until).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
    lines.push(`RRULE:${until === undefined ? rules.rrule : withUntil(rules.rrule, written)}`);
  }
  const param = allDay ? ';VALUE=DATE' : tzid ? `;TZID=${tzid}` : '';
  for (const [name, values] of [
    ['RDATE', rules.rdates],
    ['EXDATE', rules.exdates],
  ] as const) {
    if (values.length) lines.push(`${name}${param}:${[...new Set(values.map(value))].join(',')}`);
  }
  return lines.join('\r\n');
}

/**
 * `RECURRENCE-ID` of an edited occurrence: its original start in the form the master's rule
 * generates it (the series' `TZID`, a date for all-day series), whatever form its own times take,
 * so that every reader matches it to the instance it replaces.
 */
function recurrenceIdLine(original: string, zone: string, allDay: boolean): string {
  if (allDay) return `RECURRENCE-ID;VALUE=DATE:${icalDate(original)}`;
  const tzid = icalZone(zone);
  if (tzid) return `RECURRENCE-ID;TZID=${tzid}:${original.replace(/[-:]/g, '').replace(' ', 'T')}`;
  return `RECURRENCE-ID:${DateTime.fromJSDate(wallClockToFirstInstant(original, zone) ?? new Date(NaN))
    .toUTC()
    .toFormat("yyyyMMdd'T'HHmmss'Z'")}`;
}

/** A written `VEVENT` and the zone its times use (whose `VTIMEZONE` the calendar must carry) in which years. */
export interface Vevent {
  bytes: Buffer;
  /** The event's title as plain text. */
  summary: string;
  tzid?: string;
  years: readonly number[];
}

/** `SEQUENCE` counts from here: seconds since then of the last change only grow, and fit 32 bits until 2068. */
const SEQUENCE_EPOCH = Date.UTC(2000, 0, 1);

const utc = (wallClock: string) => DateTime.fromSQL(wallClock, { zone: 'utc' });

/** The event's `UID`: the same in every feed, before and after any edit. */
export function eventUid(id: number, domain: string): string {
  return `event-${id}@${domain}`;
}

/** Years whose observances a `VTIMEZONE` can give (`vtimezone`). */
const ZONE_YEARS = { first: 1000, last: 9999 };

/** `LOCATION` and `GEO` of a venue: its name and address on one line, its coordinates when it has them. */
function location(venue: Venue | unknown[]): ICalEventData['location'] {
  if (Array.isArray(venue)) return undefined;
  const parts = [venue.venue, venue.address, venue.city, venue.stateprovince || venue.state || venue.province, venue.zip, venue.country];
  const title = parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map((p) => plainText(p, true))
    .filter(Boolean)
    .join(', ');
  if (!title) return undefined;
  const lat = Number(venue.geo_lat);
  const lon = Number(venue.geo_lng);
  const geo =
    Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && (lat !== 0 || lon !== 0) ? { lat, lon } : undefined;
  return geo ? { title, geo } : title;
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+$/;

/** `ORGANIZER`: the first organizer that shows an email (a calendar address must be one). */
function organizer(organizers: readonly Organizer[]): ICalEventData['organizer'] {
  const first = organizers.find((o) => typeof o.email === 'string' && EMAIL.test(o.email));
  if (!first?.email) return undefined;
  return { name: (typeof first.organizer === 'string' ? plainText(first.organizer, true) : '') || first.email, email: first.email };
}

/** The status of an event as a calendar app shows it. */
function statusOf(event: VeventSource, cancelled: boolean): ICalEventStatus {
  if (cancelled || event.status === 'trash') return ICalEventStatus.CANCELLED;
  return event.status === 'draft' || event.status === 'pending' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED;
}

/** The event as a folded `VEVENT`, ending in CRLF; `undefined` when its start is no date (nothing to place it at). */
export function vevent(event: VeventSource, options: VeventOptions): Vevent | undefined {
  const start = utc(event.utc_start_date);
  if (!start.isValid) return undefined;
  const end = utc(event.utc_end_date);
  const modified = utc(event.modified_utc);
  const stamp = modified.isValid ? modified : start;
  const { recurrence } = options;
  let tzid = event.all_day === true ? undefined : icalZone(recurrence?.zone ?? event.timezone);
  const local = (t: DateTime) => (tzid ? t.setZone(tzid) : t);
  const years = [...new Set([local(start).year, local(end.isValid ? end : start).year, ...(recurrence?.years ?? [])])];
  // A local time that happens twice (either occurrence), or out of the years a VTIMEZONE covers, is
  // written in UTC; but for a series, whose rules expand in its zone, the zone is kept.
  const inZone = (t: DateTime) => tzid !== undefined && localTime(t.toMillis(), tzid) !== undefined;
  const outOfYears = years.some((y) => y < ZONE_YEARS.first || y > ZONE_YEARS.last);
  if (outOfYears || (!recurrence?.rules && (!inZone(start) || (end.isValid && !inZone(end))))) tzid = undefined;
  const summary = options.cancelled ? '' : plainText(event.title, true);
  let first = start;
  // An instant (no DTEND) when the event does not last: DTEND must come after DTSTART.
  let last: DateTime | null = end.isValid && end > start ? end : null;
  if (event.all_day === true) {
    // Whole days, the end exclusive (RFC 5545 §3.6.1): the day after the last one.
    const day = DateTime.fromISO(event.start_date.slice(0, 10), { zone: 'utc' });
    const lastDay = DateTime.fromISO(event.end_date.slice(0, 10), { zone: 'utc' });
    if (day.isValid) first = day;
    last = (lastDay.isValid && lastDay >= first ? lastDay : first).plus({ days: 1 });
  }
  const data: ICalEventData = {
    id: eventUid(recurrence?.seriesId ?? event.id, options.domain),
    sequence: Math.max(0, Math.floor((stamp.toMillis() - SEQUENCE_EPOCH) / 1000)),
    stamp,
    lastModified: stamp,
    start: first,
    end: last,
    allDay: event.all_day === true,
    timezone: tzid ?? null,
    summary,
    status: statusOf(event, options.cancelled),
  };
  if (recurrence?.rules) data.repeating = recurrenceLines(recurrence, tzid, event.all_day === true, event.start_date.slice(11)) || null;
  if (!options.cancelled) {
    data.url = event.url;
    data.class = event.status === 'private' ? ICalEventClass.PRIVATE : ICalEventClass.PUBLIC;
    if (!options.protected) {
      const description = plainText(event.description);
      if (description) data.description = description;
    }
    data.location = location(event.venue);
    data.organizer = organizer(event.organizer);
    data.categories = event.categories.map((c) => ({ name: plainText(c.name, true) })).filter((c) => c.name !== '');
    // A locked event shows only what its archive entry shows: not the host's fields either.
    if (!options.protected && options.fields?.length) data.x = fieldProperties(event, options.fields);
  }
  const calendar = new ICalCalendar();
  calendar.createEvent(data);
  const text = calendar.toString();
  const from = text.indexOf('BEGIN:VEVENT');
  const to = text.lastIndexOf('END:VEVENT');
  return {
    bytes: Buffer.from(
      `${text.slice(from, to)}${recurrence?.recurrenceId ? `${recurrenceIdLine(recurrence.recurrenceId, recurrence.zone, event.all_day === true)}\r\n` : ''}END:VEVENT\r\n`,
    ),
    summary,
    tzid,
    years: tzid ? years : [],
  };
}
