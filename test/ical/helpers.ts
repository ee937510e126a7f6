import ICAL from 'ical.js';

/** One `VEVENT` as an independent parser (ical.js, Thunderbird's) reads it. */
export interface ParsedEvent {
  uid: string;
  summary: string;
  description: string | null;
  location: string | null;
  geo: [number, number] | null;
  organizer: string | null;
  organizerName: string | null;
  categories: string[];
  url: string | null;
  status: string | null;
  sequence: number;
  lastModified: string | null;
  stamp: string | null;
  allDay: boolean;
  /** Start and end instants (ISO, UTC); for all-day events, the dates (`YYYY-MM-DD`, end exclusive). */
  start: string;
  end: string;
  /** The `TZID` of the start, if written in a zone. */
  tzid: string | null;
  component: ICAL.Component;
}

/** A calendar file parsed by ical.js: its properties, its zones (registered for its times) and its events. */
export function parseCalendar(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  const zones = root.getAllSubcomponents('vtimezone');
  // ical.js knows no zone of its own: each time is read with the VTIMEZONE the file carries.
  for (const zone of zones) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  const iso = (t: ICAL.Time) => (t.isDate ? t.toString() : new Date(t.toUnixTime() * 1000).toISOString());
  const events: ParsedEvent[] = root.getAllSubcomponents('vevent').map((c) => {
    const e = new ICAL.Event(c);
    const geo = c.getFirstPropertyValue('geo') as unknown as number[] | null;
    const organizer = c.getFirstProperty('organizer');
    const text = (name: string) => {
      const v = c.getFirstPropertyValue(name);
      return v === null || v === undefined ? null : String(v);
    };
    return {
      uid: e.uid,
      summary: e.summary,
      description: text('description'),
      location: text('location'),
      geo: geo ? [Number(geo[0]), Number(geo[1])] : null,
      organizer: organizer ? String(organizer.getFirstValue()) : null,
      organizerName: organizer ? ((organizer.getParameter('cn') as string | undefined) ?? null) : null,
      categories: c.getAllProperties('categories').flatMap((p) => p.getValues().map(String)),
      url: text('url'),
      status: text('status'),
      sequence: Number(c.getFirstPropertyValue('sequence')),
      lastModified: c.getFirstPropertyValue('last-modified') ? iso(c.getFirstPropertyValue('last-modified') as ICAL.Time) : null,
      stamp: c.getFirstPropertyValue('dtstamp') ? iso(c.getFirstPropertyValue('dtstamp') as ICAL.Time) : null,
      allDay: e.startDate.isDate,
      start: iso(e.startDate),
      end: iso(e.endDate),
      tzid: (c.getFirstProperty('dtstart')?.getParameter('tzid') as string | undefined) ?? null,
      component: c,
    };
  });
  return {
    name: root.getFirstPropertyValue('x-wr-calname') as string | null,
    description: root.getFirstPropertyValue('x-wr-caldesc') as string | null,
    zones: zones.map((z) => String(z.getFirstPropertyValue('tzid'))),
    events,
  };
}

/** A stored UTC wall clock (`2027-03-28 07:00:00`) as ISO. */
export const isoOf = (utcWallClock: string) => `${utcWallClock.replace(' ', 'T')}.000Z`;

/** Every physical line of a calendar file, and whether each is within 75 octets and ends in CRLF. */
export function lineChecks(text: string) {
  const lines = text.split('\r\n');
  return {
    endsInCrlf: text.endsWith('\r\n'),
    bareLineFeeds: lines.filter((l) => l.includes('\n') || l.includes('\r')).length,
    longest: Math.max(...lines.map((l) => Buffer.byteLength(l))),
    /** Whether any line starts with a broken UTF-8 sequence (a fold inside a character). */
    splitCharacters: lines.some((l) => l.includes('\ufffd')),
  };
}
