import type { ApiEvent } from './api-types.js';

/**
 * The rule of the page: an event is shown on its start day and at its times in its OWN zone,
 * whatever the browser's zone. The API gives those wall times (`start_date`), so they are handed
 * to the calendar as they are, as "UTC" dates that no zone converts; every format below also
 * formats in UTC, which prints the wall clock back unchanged.
 */

/** `YYYY-MM-DD HH:MM:SS` (a wall time) as the `Date` whose UTC fields are that wall time. */
export function wallClock(text: string): Date {
  return new Date(`${text.slice(0, 10)}T${text.slice(11, 19) || '00:00:00'}Z`);
}

/** `YYYY-MM-DD` of a date whose UTC fields are a wall time. */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/** The `Date` a whole number of days after `date`. */
export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * 86_400_000);

/**
 * The archive's parameters for the events that overlap the days `[start, end)` of the view, in
 * each event's own wall clock (the API compares its bounds with the events' local times):
 * starting before the view's last day is over, ending after the day before it.
 */
export function rangeParams(start: Date, end: Date): Record<string, string> {
  return { starts_before: dayOf(addDays(end, -1)), ends_after: dayOf(addDays(start, -1)) };
}

/** The zone an event's times are labelled with: its abbreviation, else its zone's name. */
export function zoneLabel(event: Pick<ApiEvent, 'timezone' | 'timezone_abbr'>): string {
  return event.timezone_abbr || event.timezone;
}

/** The calendar's input for an event: wall times as ISO text without an offset. */
export function calendarTimes(event: Pick<ApiEvent, 'start_date' | 'end_date' | 'all_day'>): { start: string; end: string; allDay: boolean } {
  if (event.all_day) {
    // An all-day event ends at 23:59:59 of its last day; the calendar wants the next day, exclusive.
    return { start: event.start_date.slice(0, 10), end: dayOf(addDays(wallClock(event.end_date), 1)), allDay: true };
  }
  return { start: event.start_date.replace(' ', 'T'), end: event.end_date.replace(' ', 'T'), allDay: false };
}

/** A wall time's clock time in the page's language (`11:30 PM`, `23:30`). */
export function formatTime(locale: string, wall: Date): string {
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(wall);
}

/** A wall time's date in the page's language (`Saturday, December 12, 2026`). */
export function formatDay(locale: string, wall: Date): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(wall);
}

/**
 * When an event happens, in its zone: `Saturday, December 12, 2026, 11:30 PM – 11:59 PM PST
 * (America/Los_Angeles)`; the end's date is written when it is another day.
 */
export function whenText(locale: string, event: Pick<ApiEvent, 'start_date' | 'end_date' | 'all_day' | 'timezone' | 'timezone_abbr'>, allDay: string): string {
  const start = wallClock(event.start_date);
  const end = wallClock(event.end_date);
  const sameDay = dayOf(start) === dayOf(end);
  if (event.all_day) return sameDay ? `${formatDay(locale, start)} (${allDay})` : `${formatDay(locale, start)} – ${formatDay(locale, end)} (${allDay})`;
  const endText = sameDay ? formatTime(locale, end) : `${formatDay(locale, end)}, ${formatTime(locale, end)}`;
  const zone = zoneLabel(event);
  const zoneName = event.timezone && event.timezone !== zone ? ` (${event.timezone})` : '';
  return `${formatDay(locale, start)}, ${formatTime(locale, start)} – ${endText}${zone ? ` ${zone}` : ''}${zoneName}`;
}
