/**
 * Time zones in iCalendar (RFC 5545 §3.6.5): the `TZID` an event's zone is written with, its
 * local times, and the `VTIMEZONE` that defines them.
 *
 * The `VTIMEZONE` is generated from the same tz data (Node's ICU, through luxon) that computed
 * the event's stored UTC times, with one observance per offset change in each year the feed
 * uses, rather than taken from a static file of yearly rules: those describe today's rules
 * only, so a client that reads them (ical.js, Thunderbird) would place an event in a year of
 * other rules, or in a zone whose rules changed since the file was made, at the wrong instant.
 */
import { IANAZone } from 'luxon';
import { BoundedCache } from '../cache/bounded-cache.js';
import { resolveZone } from '../dates/zones.js';
import { foldLines } from 'ical-generator';
import { slices } from '../scheduling/turns.js';

const DAY_MS = 86_400_000;

/** Zone-years kept: their observances never change while the process runs. */
const ZONE_YEARS = 5000;

/** Zones named by events, by the name they were given: `Intl` is slow to ask, and a feed asks for each event. */
const tzids = new BoundedCache<string, { tzid: string | undefined }>({ maxEntries: 1000 });

/**
 * The `TZID` of an event zone: its canonical tz-database name; `undefined` for UTC and for
 * zones that are no tz-database zone (`UTC+2`, `EST`, offsets), whose times are written in UTC.
 */
export function icalZone(name: string): string | undefined {
  const kept = tzids.get(name);
  if (kept) return kept.tzid;
  const tzid = canonicalZone(name);
  tzids.set(name, { tzid });
  return tzid;
}

function canonicalZone(name: string): string | undefined {
  const resolved = resolveZone(name);
  if (resolved?.kind !== 'iana') return undefined;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return /^(?:Etc\/)?(?:UTC|UCT|GMT|Universal|Zulu|Greenwich)(?:[+-]?0)?$/i.test(canonical) ? undefined : canonical;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYYMMDDTHHMMSS` of a UTC time shifted by `offsetMinutes`. */
function basicLocal(ms: number, offsetMinutes: number): string {
  const d = new Date(ms + offsetMinutes * 60_000);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** The zone's offset at an instant, in minutes. */
const offsetAt = (zone: IANAZone, ms: number) => zone.offset(ms);

/**
 * An instant as a local time of `tzid` (`YYYYMMDDTHHMMSS`), or `undefined` when that local time
 * happens twice (the repeated autumn hour): RFC 5545 §3.3.5 reads it as the first occurrence,
 * but libical and ical.js (Thunderbird) read the second, so such an instant is written in UTC,
 * which every reader takes alike.
 */
export function localTime(ms: number, tzid: string): string | undefined {
  const zone = IANAZone.create(tzid);
  const offset = offsetAt(zone, ms);
  const local = ms + offset * 60_000;
  // Every other offset in force around it: one that also gives this local time makes it ambiguous.
  for (const other of new Set([offsetAt(zone, ms - DAY_MS), offsetAt(zone, ms + DAY_MS)])) {
    if (other !== offset && offsetAt(zone, local - other * 60_000) === other) return undefined;
  }
  return basicLocal(ms, offset);
}

/** `±HHMM` of an offset in minutes. */
function utcOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** One onset of an offset: when (UTC), from which offset, to which. */
export interface Onset {
  at: number;
  from: number;
  to: number;
}

/**
 * No zone changed its offset before this year: the tz database starts each zone's history with
 * its local mean time, the earliest change being Manila's in 1845 (a test checks every zone the
 * runtime knows). Years before have one offset all through.
 */
export const FIRST_CHANGE_YEAR = 1840;

/**
 * The tz database lists changes up to 2037, and a few zones further (Morocco's and Palestine's
 * predicted changes around Ramadan reach the 2080s); later years follow each zone's last rules,
 * which depend only on the year's calendar (its first weekday, and whether it leaps), as all of
 * 2101–2128 show between them. A test checks far years of every zone against a walk of them.
 */
const LAST_LISTED_YEAR = 2100;

/** A year of 2101–2128 with the calendar of `year` (the same first weekday and length). */
function referenceYear(year: number): number {
  const shape = (y: number) => `${new Date(Date.UTC(y, 0, 1)).getUTCDay()}${(y % 4 === 0 && y % 100 !== 0) || y % 400 === 0}`;
  const wanted = shape(year);
  for (let y = LAST_LISTED_YEAR + 1; y < LAST_LISTED_YEAR + 29; y++) if (shape(y) === wanted) return y;
  return LAST_LISTED_YEAR + 1;
}

/** The offset in force at the start of `year` (UTC) and every change during it. */
function yearOnsets(zone: IANAZone, year: number): Onset[] {
  if (year < FIRST_CHANGE_YEAR) {
    const offset = offsetAt(zone, Date.UTC(year, 0, 1));
    return [{ at: Date.UTC(year, 0, 1) - offset * 60_000, from: offset, to: offset }];
  }
  if (year > LAST_LISTED_YEAR) {
    // The same onsets as the reference year's, as many whole days later.
    const reference = referenceYear(year);
    const shift = Date.UTC(year, 0, 1) - Date.UTC(reference, 0, 1);
    return listedOnsets(zone, reference).map((o) => ({ ...o, at: o.at + shift }));
  }
  return listedOnsets(zone, year);
}

/** The onsets of `tzid` in `year`, by a walk of the whole year (which every year could use: tests compare). */
export function walkedOnsets(tzid: string, year: number): Onset[] {
  return listedOnsets(IANAZone.create(tzid), year);
}

/** The onsets of `tzid` in `year`, as the `VTIMEZONE` is written from. */
export function onsetsOf(tzid: string, year: number): Onset[] {
  return yearOnsets(IANAZone.create(tzid), year);
}

/** The onsets of a year the tz database lists, found by walking it a day at a time. */
function listedOnsets(zone: IANAZone, year: number): Onset[] {
  // From local midnight on 1 January to the next.
  const start = Date.UTC(year, 0, 1) - offsetAt(zone, Date.UTC(year, 0, 1)) * 60_000;
  const end = Date.UTC(year + 1, 0, 1) - offsetAt(zone, Date.UTC(year + 1, 0, 1)) * 60_000;
  const first = offsetAt(zone, start);
  const onsets: Onset[] = [{ at: start, from: first, to: first }];
  let before = first;
  // Offsets change at most a few times a year and never twice within a day: a daily walk
  // finds each change, and halving the day finds its second.
  for (let t = start; t < end; t += DAY_MS) {
    const next = Math.min(t + DAY_MS, end);
    const after = offsetAt(zone, next);
    if (after === before) continue;
    let lo = t;
    let hi = next;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offsetAt(zone, mid) === before) lo = mid;
      else hi = mid;
    }
    onsets.push({ at: hi, from: before, to: after });
    before = after;
  }
  return onsets;
}

const observances = new BoundedCache<string, { text: string; last: number; changes: boolean }>({ maxEntries: ZONE_YEARS });

/** The observances of `tzid` for one year, as unfolded lines, with the offset it ends in and whether it changes during the year. */
function yearObservances(tzid: string, year: number): { text: string; last: number; changes: boolean } {
  const key = `${tzid}\n${year}`;
  const kept = observances.get(key);
  if (kept !== undefined) return kept;
  const zone = IANAZone.create(tzid);
  // Daylight time is the larger of the year's winter and summer offsets (either hemisphere).
  const standard = Math.min(offsetAt(zone, Date.UTC(year, 0, 1)), offsetAt(zone, Date.UTC(year, 6, 1)));
  let text = '';
  const onsets = yearOnsets(zone, year);
  let last = standard;
  for (const o of onsets) {
    last = o.to;
    const kind = o.to > standard ? 'DAYLIGHT' : 'STANDARD';
    const name = zone.offsetName(o.at, { format: 'short', locale: 'en-US' });
    text +=
      `BEGIN:${kind}\r\nDTSTART:${basicLocal(o.at, o.from)}\r\nTZOFFSETFROM:${utcOffset(o.from)}\r\nTZOFFSETTO:${utcOffset(o.to)}\r\n` +
      (name && /^[A-Za-z]{2,6}$/.test(name) ? `TZNAME:${name}\r\n` : '') +
      `END:${kind}\r\n`;
  }
  const observed = { text, last, changes: onsets.length > 1 };
  observances.set(key, observed);
  return observed;
}

/** Years whose observances are worked out between two turns of the event loop. */
const YEARS_PER_SLICE = 50;

/**
 * The `VTIMEZONE` of `tzid` covering `years` (each one whole, 1000 to 9999), folded, ending in
 * CRLF: the observances of those years only (RFC 5545 §3.6.5 lets a `VTIMEZONE` cover just the
 * span its events use), and of a year with no change only when its offset is not the one already
 * in force. Worked out a slice of years at a time, the loop turning between two.
 */
export async function vtimezone(tzid: string, years: Iterable<number>): Promise<string> {
  // From 1000: `Date.UTC` reads years below 100 as 19xx, and no event is that old.
  const sorted = [...new Set(years)].filter((y) => y >= 1000 && y <= 9999).sort((a, b) => a - b);
  let body = '';
  let inForce: number | undefined;
  for await (const slice of slices(sorted, YEARS_PER_SLICE)) {
    for (const year of slice) {
      const observed = yearObservances(tzid, year);
      if (observed.changes || observed.last !== inForce) body += observed.text;
      inForce = observed.last;
    }
  }
  return foldLines(`BEGIN:VTIMEZONE\r\nTZID:${tzid}\r\nX-LIC-LOCATION:${tzid}\r\n${body}END:VTIMEZONE`) + '\r\n';
}
