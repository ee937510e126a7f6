import { ICalCalendar, ICalCalendarMethod } from 'ical-generator';
import type { Vevent } from './vevent.js';
import { vtimezone } from './zones.js';

/** What a calendar file says of itself. */
export interface CalendarHead {
  /** Its title in calendar apps (`X-WR-CALNAME`). */
  name: string;
  /** A note shown by the apps that show one (`X-WR-CALDESC`). */
  description?: string;
  /** How often subscribers should read it again (`REFRESH-INTERVAL`, `X-PUBLISHED-TTL`). */
  refreshMinutes: number;
}

const PRODUCT = { company: 'calendar-events-rest', product: 'calendar', language: 'EN' };

/**
 * A `VCALENDAR` of written events (RFC 5545 §3.4): its properties, the `VTIMEZONE` of every zone
 * the events use (for the years they use it in), then the events in the order given.
 */
export async function calendarBytes(head: CalendarHead, events: readonly Vevent[]): Promise<Buffer> {
  const text = new ICalCalendar({
    name: head.name,
    description: head.description ?? null,
    prodId: PRODUCT,
    method: ICalCalendarMethod.PUBLISH,
    ttl: head.refreshMinutes * 60,
  }).toString();
  const end = text.lastIndexOf('END:VCALENDAR');
  const years = new Map<string, Set<number>>();
  for (const e of events) {
    if (!e.tzid) continue;
    const set = years.get(e.tzid) ?? new Set<number>();
    for (const y of e.years) set.add(y);
    years.set(e.tzid, set);
  }
  const zones: Buffer[] = [];
  for (const [tzid, used] of [...years].sort(([a], [b]) => a.localeCompare(b))) zones.push(Buffer.from(await vtimezone(tzid, used)));
  return Buffer.concat([Buffer.from(text.slice(0, end)), ...zones, ...events.map((e) => e.bytes), Buffer.from('END:VCALENDAR\r\n')]);
}
