/**
 * `timezone_abbr`: the abbreviation of an event's zone at its start.
 *
 * Intl cannot give tz-database abbreviations: its short names are CLDR's and depend on
 * the locale (`en-US` shows `GMT+8` for Hong Kong and `GMT+2` for Paris, and no locale
 * shows `JST`). So the alphabetic abbreviations come from a table generated from the tz
 * database (tzdb-abbreviations.ts), keyed by zone, era and UTC offset; an offset that
 * the table does not name gets the tz database's numeric form (`-03`, `+0530`), which is
 * also what upstream returns for such zones. Checked against PHP 8.2's `format('T')` for
 * all 400+ Intl zones at five instants (2005–2027): all agree.
 *
 * To regenerate: for every `Z` line of /usr/share/zoneinfo/tzdata.zi that Intl knows, read
 * the periods (start, offset, abbreviation) from `zdump -v -c 1970,2038 ZONE` (`zdump ZONE`
 * when there is no transition); start a new era whenever an offset gets an abbreviation
 * different from the one it had in the current era; write each era's non-numeric pairs;
 * and map every `L` (link) line whose target is in the table.
 */
import { BoundedCache } from '../cache/bounded-cache.js';
import { resolveZone } from './zones.js';
import { pad } from './wall-clock.js';
import { ZONE_ABBREVIATIONS, ZONE_LINKS } from './tzdb-abbreviations.js';

/** Lower-cased zone or link name → tz-database zone name with a table entry. */
let lowerIndex: Map<string, string> | undefined;

function tableZoneFor(name: string): string | undefined {
  if (!lowerIndex) {
    lowerIndex = new Map();
    for (const zone of Object.keys(ZONE_ABBREVIATIONS)) lowerIndex.set(zone.toLowerCase(), zone);
    for (const [link, zone] of Object.entries(ZONE_LINKS)) lowerIndex.set(link.toLowerCase(), zone);
  }
  const direct = lowerIndex.get(name.toLowerCase());
  if (direct) return direct;
  // Intl may know a name under another spelling; its canonical name may be in the table.
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    return lowerIndex.get(canonical.toLowerCase());
  } catch {
    return undefined;
  }
}

/** The tz-database numeric abbreviation of an offset: `-03`, `+04`, `+0530`. */
function numericAbbreviation(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const minutes = abs % 60;
  return `${sign}${pad(Math.floor(abs / 60))}${minutes ? pad(minutes) : ''}`;
}

/** One era of a zone's abbreviations: from a UNIX time (seconds) on, offset → abbreviation. */
interface Era {
  from: number;
  byOffset: Map<number, string>;
}
/** One entry per zone of the table: keys are table zones only, so the decoded table always fits. */
const ERA_CACHE_ENTRIES = Object.keys(ZONE_ABBREVIATIONS).length;
const eraCache = new BoundedCache<string, Era[]>({ maxEntries: ERA_CACHE_ENTRIES });

/** Decodes a table entry (`-300 EST,-240 EDT` or `|pairs;FROM|pairs…`) into eras. */
function erasOf(zone: string): Era[] {
  const cached = eraCache.get(zone);
  if (cached) return cached;
  const eras: Era[] = [];
  for (const era of (ZONE_ABBREVIATIONS[zone] ?? '').split(';')) {
    const bar = era.indexOf('|');
    const byOffset = new Map<number, string>();
    const pairs = bar < 0 ? era : era.slice(bar + 1);
    for (const pair of pairs ? pairs.split(',') : []) {
      const space = pair.indexOf(' ');
      byOffset.set(Number(pair.slice(0, space)), pair.slice(space + 1));
    }
    eras.push({ from: bar > 0 ? Number(era.slice(0, bar)) : -Infinity, byOffset });
  }
  eraCache.set(zone, eras);
  return eras;
}

/** The tz-database abbreviation of an IANA zone at an instant with a given offset. */
function ianaAbbreviation(name: string, ms: number, offset: number): string {
  const zone = tableZoneFor(name);
  if (zone) {
    const seconds = ms / 1000;
    const era = erasOf(zone)
      .filter((e) => e.from <= seconds)
      .pop();
    const abbr = era?.byOffset.get(offset);
    if (abbr) return abbr;
  }
  return numericAbbreviation(offset);
}

/**
 * The abbreviation upstream stores for an event in `zone` starting at `instant`:
 * `UTC+2` → `UTC+2`, `EST` → `EST`, `+02:00` → `GMT+0200`, IANA zones → tz-database
 * abbreviation (`EDT`, `HKT`, `-03`); `undefined` for an unusable zone (upstream then
 * uses the site zone's abbreviation).
 */
export function timezoneAbbr(zone: string, instant: Date | number): string | undefined {
  const resolved = resolveZone(zone);
  const ms = instant instanceof Date ? instant.getTime() : instant;
  if (!resolved || typeof ms !== 'number' || !Number.isFinite(ms)) return undefined;
  const offset = resolved.zone.offset(ms);
  if (!Number.isFinite(offset)) return undefined;
  switch (resolved.kind) {
    case 'utc-offset':
      return resolved.name;
    case 'abbreviation':
      return resolved.name.toUpperCase();
    case 'offset': {
      // PHP's DateTime::format('T') for an offset zone: GMT+HHMM.
      const abs = Math.abs(offset);
      return `GMT${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
    }
    case 'iana':
      return ianaAbbreviation(resolved.name, ms, offset);
  }
}
