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

const DAY_MS = 86_400_000;

/** Zone-years kept: their observances never change while the process runs. */
const ZONE_YEARS = 5000;

/**
 * The `TZID` of an event zone: its canonical tz-database name; `undefined` for UTC and for
 * zones that are no tz-database zone (`UTC+2`, `EST`, offsets), whose times are written in UTC.
 */
export function icalZone(name: string): string | undefined {
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
interface Onset {
  at: number;
  from: number;
  to: number;
}

/** The offset in force at the start of `year` (UTC) and every change during it. */
function yearOnsets(zone: IANAZone, year: number): Onset[] {
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

const observances = new BoundedCache<string, string>({ maxEntries: ZONE_YEARS });

/** The observances of `tzid` for one year, as unfolded lines. */
function yearObservances(tzid: string, year: number): string {
  const key = `${tzid}\n${year}`;
  const kept = observances.get(key);
  if (kept !== undefined) return kept;
  const zone = IANAZone.create(tzid);
  // Daylight time is the larger of the year's winter and summer offsets (either hemisphere).
  const standard = Math.min(offsetAt(zone, Date.UTC(year, 0, 1)), offsetAt(zone, Date.UTC(year, 6, 1)));
  let out = '';
  for (const o of yearOnsets(zone, year)) {
    const kind = o.to > standard ? 'DAYLIGHT' : 'STANDARD';
    const name = zone.offsetName(o.at, { format: 'short', locale: 'en-US' });
    out +=
      `BEGIN:${kind}\r\nDTSTART:${basicLocal(o.at, o.from)}\r\nTZOFFSETFROM:${utcOffset(o.from)}\r\nTZOFFSETTO:${utcOffset(o.to)}\r\n` +
      (name && /^[A-Za-z]{2,6}$/.test(name) ? `TZNAME:${name}\r\n` : '') +
      `END:${kind}\r\n`;
  }
  observances.set(key, out);
  return out;
}

/** The `VTIMEZONE` of `tzid` covering `years` (each one whole, 1000 to 9999), folded, ending in CRLF. */
export function vtimezone(tzid: string, years: Iterable<number>): string {
  // From 1000: `Date.UTC` reads years below 100 as 19xx, and no event is that old.
  const sorted = [...new Set(years)].filter((y) => y >= 1000 && y <= 9999).sort((a, b) => a - b);
  const body = sorted.map((year) => yearObservances(tzid, year)).join('');
  return foldLines(`BEGIN:VTIMEZONE\r\nTZID:${tzid}\r\nX-LIC-LOCATION:${tzid}\r\n${body}END:VTIMEZONE`) + '\r\n';
}
