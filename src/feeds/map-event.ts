/**
 * One VEVENT as an event write of the API (README "Subscriptions and imports", the mapping
 * table): SUMMARY → title, DESCRIPTION → description (plain text escaped, the HTML some feeds
 * send and Outlook's X-ALT-DESC kept for the write's HTML filter), DTSTART/DTEND/DURATION →
 * dates with the zone of their TZID (`tzid.ts`), UTC, floating (the site's zone) or DATE (all
 * day), LOCATION → a venue by name, ORGANIZER → an organizer, CATEGORIES → categories, URL →
 * website, RRULE/RDATE/EXDATE → `recurrence` lines in the event's zone, STATUS:CANCELLED →
 * cancelled. What is written is checked by the API's own rules, as any write is.
 */
import ICAL from 'ical.js';
import { formatWallClock, wallClockToInstant } from '../dates/index.js';
import { isUrlOrEmpty } from '../text/url.js';
import type { FeedZones } from './tzid.js';

/** A venue an entry names: found by its name, or created. */
export interface EntryVenue {
  name: string;
  /** GEO's coordinates (or Apple's X-APPLE-STRUCTURED-LOCATION's), for a new venue's `geo_lat`/`geo_lng` ({@link venueGeoFields}). */
  geo?: { lat: number; lng: number };
}

/** An organizer an entry names (ORGANIZER's CN, else its address). */
export interface EntryOrganizer {
  name: string;
  email?: string;
}

/** One entry of a feed, as the writes of the API take it. */
export interface FeedEntry {
  uid: string;
  /** The occurrence it edits or cancels (a wall clock in the series' zone); absent for a whole event. */
  recurrenceId?: string;
  cancelled: boolean;
  /** `CLASS:PRIVATE` or `CONFIDENTIAL` (a secret address shows them whole): written as a private event, which only editors see. */
  private?: boolean;
  /** The parameters of its event write (without venue, organizer and categories). */
  params: EventParams;
  venue?: EntryVenue;
  organizers: EntryOrganizer[];
  categories: string[];
  /** What could not be copied as the feed has it. */
  warnings: string[];
}

/** The parameters of an event write an entry gives. */
export interface EventParams {
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  /** The event's zone; `''`: the site's (floating times, all-day events). */
  timezone: string;
  all_day: boolean;
  website?: string;
  /** RRULE, RDATE and EXDATE lines, in the event's zone. */
  recurrence?: string[];
  // What a CSV file's columns may give besides (an iCalendar feed has none of them).
  excerpt?: string;
  hide_from_listings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  show_map?: boolean;
  show_map_link?: boolean;
  cost?: string;
  /** A featured image's URL, side-loaded by the write under the calendar's image policy. */
  image?: string;
  tags?: string[];
}

/** What mapping needs: the feed's zones, the site's zone (floating times), and the zone of the series an exception belongs to. */
export interface MapContext {
  zones: FeedZones;
  siteZone: string;
}

/** Most categories one entry brings. */
const MAX_CATEGORIES = 20;

/** Most characters of a venue's, organizer's or category's name kept. */
const MAX_NAME = 200;

/** Tags of the HTML some feeds put in DESCRIPTION (Google Calendar's own editor writes it). */
const HTML_TAG = /<\/?(?:a|b|i|u|em|strong|br|p|ul|ol|li|span|div)\b[^>]*>/i;

/** Plain text as HTML that shows it: the characters HTML reads escaped (line breaks become paragraphs when rendered). */
export function plainTextHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `YYYY-MM-DD HH:MM:SS` of an ical.js time's own fields (its wall clock). */
function wall(t: ICAL.Time): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(t.year, 4)}-${p(t.month)}-${p(t.day)} ${p(t.hour)}:${p(t.minute)}:${p(t.second)}`;
}

/** `YYYYMMDD` or `YYYYMMDDTHHMMSS` of a wall clock. */
const icalValue = (wallClock: string, date: boolean) => (date ? wallClock.slice(0, 10).replace(/-/g, '') : wallClock.replace(/[-:]/g, '').replace(' ', 'T'));

/** How a time is anchored: a zone of its own (TZID), UTC, or floating. */
type Anchor = { kind: 'zoned'; tzid: string } | { kind: 'utc' } | { kind: 'floating' };

function anchorOf(prop: ICAL.Property, t: ICAL.Time): Anchor {
  const tzid = prop.getParameter('tzid');
  if (typeof tzid === 'string' && tzid) return { kind: 'zoned', tzid };
  return t.zone === ICAL.Timezone.utcTimezone || t.toString().endsWith('Z') ? { kind: 'utc' } : { kind: 'floating' };
}

/** The text of a property, trimmed ('' when absent). */
function textOf(c: ICAL.Component, name: string): string {
  const v = c.getFirstPropertyValue(name);
  return typeof v === 'string' ? v.trim() : '';
}

/** The zone a time's wall clock is read in (`''` floating: the site's). */
async function zoneOf(anchor: Anchor, ctx: MapContext, warnings: string[]): Promise<string> {
  if (anchor.kind === 'utc') return 'UTC';
  if (anchor.kind === 'floating') return '';
  const choice = await ctx.zones.resolve(anchor.tzid);
  if (choice.warning && !warnings.includes(choice.warning)) warnings.push(choice.warning);
  return choice.zone;
}

/** A wall clock read in `from` as the wall clock of the same instant in `to` (`''`: the site's zone). */
function converted(wallClock: string, from: string, to: string, siteZone: string): string {
  const [f, t] = [from || siteZone, to || siteZone];
  if (f === t) return wallClock;
  const instant = wallClockToInstant(wallClock, f);
  return (instant && formatWallClock(instant, t)) ?? wallClock;
}

/** The day before a `YYYY-MM-DD` date. */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** A property's time value, if it has one. */
function timeOf(c: ICAL.Component, name: string): { prop: ICAL.Property; time: ICAL.Time } | undefined {
  const prop = c.getFirstProperty(name);
  const time = prop?.getFirstValue();
  return prop && time instanceof ICAL.Time ? { prop, time } : undefined;
}

/** The description of an event: Outlook's HTML (X-ALT-DESC), HTML a feed put in DESCRIPTION, else plain text escaped. */
function description(c: ICAL.Component): string {
  const alt = c.getFirstProperty('x-alt-desc');
  const altValue = alt?.getFirstValue();
  if (alt && typeof altValue === 'string' && /html/i.test(String(alt.getParameter('fmttype') ?? ''))) {
    // Outlook's whole HTML document: its body only (the write's filter drops the rest anyway).
    const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(altValue);
    return (body?.[1] ?? altValue).trim();
  }
  const text = textOf(c, 'description');
  return HTML_TAG.test(text) ? text : plainTextHtml(text);
}

/** The categories of an entry (every CATEGORIES property, comma lists), at most {@link MAX_CATEGORIES}. */
function categoriesOf(c: ICAL.Component, warnings: string[]): string[] {
  const names = new Set<string>();
  for (const prop of c.getAllProperties('categories')) {
    for (const v of prop.getValues()) if (typeof v === 'string' && v.trim()) names.add(v.trim().slice(0, MAX_NAME));
  }
  const list = [...names];
  if (list.length > MAX_CATEGORIES) warnings.push(`${list.length} categories: the first ${MAX_CATEGORIES} kept`);
  return list.slice(0, MAX_CATEGORIES);
}

/** The organizers of an entry (ORGANIZER: CN, else the address). */
function organizersOf(c: ICAL.Component): EntryOrganizer[] {
  const out: EntryOrganizer[] = [];
  for (const prop of c.getAllProperties('organizer')) {
    const value = prop.getFirstValue();
    const address = typeof value === 'string' ? value.replace(/^mailto:/i, '').trim() : '';
    const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) ? address : undefined;
    const cn = prop.getParameter('cn');
    const name = (typeof cn === 'string' && cn.trim() ? cn.trim() : (email ?? '')).slice(0, MAX_NAME);
    if (name) out.push({ name, ...(email ? { email } : {}) });
  }
  return out;
}

/** GEO (`lat;lng`), or the `geo:` URI of Apple's structured location, if either is valid. */
function geoOf(c: ICAL.Component): EntryVenue['geo'] {
  const geo = c.getFirstPropertyValue('geo');
  let pair: unknown[] | undefined = Array.isArray(geo) ? geo : undefined;
  if (!pair) {
    const apple = c.getFirstPropertyValue('x-apple-structured-location');
    const m = typeof apple === 'string' ? /^geo:([-+\d.]+),([-+\d.]+)/i.exec(apple) : null;
    if (m) pair = [m[1], m[2]];
  }
  const [lat, lng] = (pair ?? []).map(Number);
  if (lat === undefined || lng === undefined || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return { lat, lng };
}

/**
 * The venue fields of an entry's coordinates, for a venue the entry creates (`geo_lat` and
 * `geo_lng`, as a venue write takes them); a venue found by its name keeps its own.
 */
export function venueGeoFields(geo: EntryVenue['geo']): Record<string, number> {
  return geo ? { geo_lat: geo.lat, geo_lng: geo.lng } : {};
}

/**
 * The RRULE, RDATE and EXDATE lines of a series, their dates as wall clocks of the event's zone
 * (`zone`; `''`: the site's); `undefined` when it does not recur.
 */
async function recurrenceOf(c: ICAL.Component, zone: string, allDay: boolean, ctx: MapContext, warnings: string[]): Promise<string[] | undefined> {
  const lines: string[] = [];
  for (const prop of c.getAllProperties('rrule')) lines.push(prop.toICALString().replace(/^rrule/i, 'RRULE'));
  const eventZone = zone || ctx.siteZone;
  for (const name of ['rdate', 'exdate'] as const) {
    for (const prop of c.getAllProperties(name)) {
      const dates: string[] = [];
      const times: string[] = [];
      for (const value of prop.getValues()) {
        if (!(value instanceof ICAL.Time)) {
          warnings.push(`${name.toUpperCase()} periods are not supported: left out`);
          continue;
        }
        if (value.isDate) {
          dates.push(icalValue(wall(value), true));
          continue;
        }
        const from = await zoneOf(anchorOf(prop, value), ctx, warnings);
        const local = converted(wall(value), from, zone, ctx.siteZone);
        // A date list of an all-day series names days.
        if (allDay) dates.push(icalValue(local, true));
        else times.push(icalValue(local, false));
      }
      const upper = name.toUpperCase();
      if (times.length) lines.push(eventZone === 'UTC' ? `${upper}:${times.map((t) => `${t}Z`).join(',')}` : `${upper};TZID=${eventZone}:${times.join(',')}`);
      if (dates.length) lines.push(`${upper};VALUE=DATE:${dates.join(',')}`);
    }
  }
  return lines.some((l) => /^(RRULE|RDATE)/.test(l)) ? lines : undefined;
}

/**
 * The entry of a VEVENT, or why it cannot be one. `series`: for an exception (a VEVENT with a
 * RECURRENCE-ID), the zone of the series it edits, in which its RECURRENCE-ID is read.
 */
export async function mapEvent(c: ICAL.Component, ctx: MapContext, series?: { zone: string }): Promise<FeedEntry | string> {
  const warnings: string[] = [];
  const uid = textOf(c, 'uid');
  if (!uid) return 'no UID';
  const start = timeOf(c, 'dtstart');
  if (!start) return 'no DTSTART';
  const allDay = start.time.isDate;
  const anchor = anchorOf(start.prop, start.time);
  let zone = allDay ? '' : await zoneOf(anchor, ctx, warnings);
  const recurring = c.hasProperty('rrule') || c.hasProperty('rdate');
  let startWall = wall(start.time);
  // A single event given in UTC is shown in the site's zone; a series stays in UTC, where its rule repeats.
  if (zone === 'UTC' && anchor.kind === 'utc' && !recurring && !series) {
    startWall = converted(startWall, 'UTC', ctx.siteZone, ctx.siteZone);
    zone = ctx.siteZone;
  }
  let endWall: string;
  const end = timeOf(c, 'dtend');
  const duration = c.getFirstPropertyValue('duration');
  if (end && end.time.isDate === allDay) {
    const endZone = allDay ? '' : await zoneOf(anchorOf(end.prop, end.time), ctx, warnings);
    endWall = allDay ? wall(end.time) : converted(wall(end.time), endZone, zone, ctx.siteZone);
  } else if (duration instanceof ICAL.Duration) {
    const t = start.time.clone();
    t.addDuration(duration);
    endWall = wall(t);
  } else {
    // RFC 5545: a date lasts the day, a date-time an instant.
    const next = start.time.clone();
    if (allDay) next.adjust(1, 0, 0, 0);
    endWall = allDay ? wall(next) : startWall;
  }
  const params: EventParams = {
    title: textOf(c, 'summary') || '(no title)',
    description: description(c),
    start_date: startWall,
    end_date: endWall,
    timezone: zone,
    all_day: allDay,
  };
  if (allDay) {
    params.start_date = `${startWall.slice(0, 10)} 00:00:00`;
    // DTEND of a date is the day after the last one.
    const last = endWall.slice(0, 10) > startWall.slice(0, 10) ? dayBefore(endWall.slice(0, 10)) : startWall.slice(0, 10);
    params.end_date = `${last} 23:59:59`;
  }
  if (params.end_date < params.start_date) {
    warnings.push('it ends before it starts: imported ending when it starts');
    params.end_date = params.start_date;
  }
  const url = textOf(c, 'url');
  if (url && isUrlOrEmpty(url)) params.website = url;
  else if (url) warnings.push(`URL ${JSON.stringify(url.slice(0, 100))} is not a URL an event write accepts: left out`);
  if (!series) {
    const recurrence = await recurrenceOf(c, zone, allDay, ctx, warnings);
    if (recurrence) params.recurrence = recurrence;
  }
  let recurrenceId: string | undefined;
  const rid = timeOf(c, 'recurrence-id');
  if (rid) {
    if (rid.time.isDate) recurrenceId = `${wall(rid.time).slice(0, 10)} 00:00:00`;
    else {
      const from = await zoneOf(anchorOf(rid.prop, rid.time), ctx, warnings);
      recurrenceId = converted(wall(rid.time), from, series?.zone ?? zone, ctx.siteZone);
    }
  }
  const location = textOf(c, 'location').slice(0, MAX_NAME);
  const geo = geoOf(c);
  return {
    uid,
    ...(recurrenceId !== undefined ? { recurrenceId } : {}),
    cancelled: textOf(c, 'status').toUpperCase() === 'CANCELLED',
    ...(['PRIVATE', 'CONFIDENTIAL'].includes(textOf(c, 'class').toUpperCase()) ? { private: true } : {}),
    params,
    ...(location ? { venue: { name: location, ...(geo ? { geo } : {}) } } : {}),
    organizers: organizersOf(c),
    categories: categoriesOf(c, warnings),
    warnings,
  };
}
