/**
 * The zone of a feed's TZID: an IANA name as it is; a Windows name (Outlook's `W. Europe
 * Standard Time`) through CLDR's windowsZones table (the `windows-iana` package); a name that
 * ends in an IANA name (`/mozilla.org/20050126_1/Europe/Berlin`); else the IANA zone whose
 * offsets through the year are the feed's VTIMEZONE's; else a fixed `UTC±H` of its standard
 * offset, with a warning. Each TZID is resolved once per feed.
 */
import ICAL from 'ical.js';
import { findIana, WINDOWS_TO_IANA_MAP } from 'windows-iana';
import { resolveZone, zoneOffsetMinutes } from '../dates/index.js';
import { yieldIfLate, type SliceClock } from './slices.js';

/** What a TZID became, and why it is not what the feed meant when it may not be. */
export interface ZoneChoice {
  zone: string;
  warning?: string;
}

/** Whether a name is a zone the event writes take as it is (an IANA name or `UTC±H`). */
const isKnownZone = (name: string) => {
  const kind = resolveZone(name)?.kind;
  return kind === 'iana' || kind === 'utc-offset';
};

/** `UTC±H[:MM]` of an offset in minutes. */
function fixedZone(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
}

/** Instants through a year (the 1st and 15th of each month, noon UTC) at which zones are compared. */
function sampleInstants(year: number): number[] {
  const out: number[] = [];
  for (let month = 0; month < 12; month++) for (const day of [1, 15]) out.push(Date.UTC(year, month, day, 12));
  return out;
}

/**
 * The IANA zones to compare a VTIMEZONE with: the main zone of each Windows zone first (CLDR's
 * territory `001`: `Europe/Berlin` for W. Europe), then the others, `Etc/` ones last.
 */
let candidates: string[] | undefined;
function zoneCandidates(): string[] {
  if (candidates) return candidates;
  const main = WINDOWS_TO_IANA_MAP.filter((m) => m.territory === '001').flatMap((m) => m.iana.filter((z) => !z.startsWith('Etc/')));
  const rest = Intl.supportedValuesOf('timeZone')
    .filter((z) => z.includes('/'))
    .sort((a, b) => Number(a.startsWith('Etc/')) - Number(b.startsWith('Etc/')));
  candidates = [...new Set([...main, ...rest])].filter(isKnownZone);
  return candidates;
}

/**
 * A VTIMEZONE whose yearly rules start in the distant past (Outlook's start in 1601) with their
 * starts moved to the year before `year`: ical.js walks a rule year by year from its start, which
 * took 100 ms from 1601, and the rules give the same transitions in `year` either way.
 */
function recentRules(component: ICAL.Component, year: number): ICAL.Component {
  const copy = new ICAL.Component(component.toJSON() as unknown[]);
  for (const part of [...copy.getAllSubcomponents('standard'), ...copy.getAllSubcomponents('daylight')]) {
    const start = part.getFirstPropertyValue('dtstart');
    if (!part.hasProperty('rrule') || !(start instanceof ICAL.Time) || start.year >= year - 1) continue;
    const moved = start.clone();
    moved.year = year - 1;
    moved.month = 1;
    moved.day = 1;
    part.updatePropertyWithValue('dtstart', moved);
  }
  return copy;
}

/** The offset (minutes east) a VTIMEZONE gives at a wall clock of its own, if ical.js can read it. */
function vtimezoneOffset(zone: ICAL.Timezone, ms: number): number | undefined {
  try {
    const d = new Date(ms);
    const local = ICAL.Time.fromData({
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: 0,
      second: 0,
    });
    const seconds = zone.utcOffset(local);
    return Number.isFinite(seconds) ? Math.round(seconds / 60) : undefined;
  } catch {
    return undefined;
  }
}

/** The TZIDs of one feed and its VTIMEZONEs. */
export class FeedZones {
  readonly #chosen = new Map<string, ZoneChoice>();

  constructor(
    /** The feed's VTIMEZONE components by TZID. */
    private readonly vtimezones: ReadonlyMap<string, ICAL.Component>,
    /** Bounds the time a VTIMEZONE match holds the event loop. */
    private readonly clock: SliceClock,
    /** The year the offsets are compared over. */
    private readonly year = new Date().getUTCFullYear(),
  ) {}

  /** The zone of a TZID, resolved once. */
  async resolve(tzid: string): Promise<ZoneChoice> {
    const known = this.#chosen.get(tzid);
    if (known) return known;
    const choice = await this.#resolve(tzid.trim().replace(/^"|"$/g, ''));
    this.#chosen.set(tzid, choice);
    return choice;
  }

  /** The zone of a TZID already resolved (`undefined` before {@link resolve}). */
  known(tzid: string): ZoneChoice | undefined {
    return this.#chosen.get(tzid);
  }

  async #resolve(tzid: string): Promise<ZoneChoice> {
    if (isKnownZone(tzid)) return { zone: tzid };
    const windows = findIana(tzid)[0];
    if (windows && isKnownZone(windows)) return { zone: windows };
    // Thunderbird and older Lightning: an IANA name at the end of a path.
    const parts = tzid.split('/');
    for (let i = 1; i < parts.length - 1; i++) {
      const tail = parts.slice(i).join('/');
      if (isKnownZone(tail)) return { zone: tail };
    }
    const component = this.vtimezones.get(tzid);
    if (!component)
      return { zone: 'UTC', warning: `time zone ${JSON.stringify(tzid.slice(0, 80))} is unknown and the feed defines none of that name: read as UTC` };
    let zone: ICAL.Timezone;
    try {
      zone = new ICAL.Timezone({ component: recentRules(component, this.year), tzid });
    } catch {
      return { zone: 'UTC', warning: `time zone ${JSON.stringify(tzid.slice(0, 80))} cannot be read: read as UTC` };
    }
    const samples = sampleInstants(this.year);
    const wanted = samples.map((ms) => vtimezoneOffset(zone, ms));
    if (wanted.some((o) => o === undefined)) return { zone: 'UTC', warning: `time zone ${JSON.stringify(tzid.slice(0, 80))} cannot be read: read as UTC` };
    for (const candidate of zoneCandidates()) {
      await yieldIfLate(this.clock);
      // The samples are the VTIMEZONE's wall clocks: the candidate is asked at the instants they denote.
      if (samples.every((ms, i) => zoneOffsetMinutes(candidate, ms - (wanted[i] ?? 0) * 60_000) === wanted[i])) return { zone: candidate };
    }
    const standard = Math.min(...wanted.map((o) => o ?? 0));
    const fixed = fixedZone(standard);
    return {
      zone: fixed,
      warning: `time zone ${JSON.stringify(tzid.slice(0, 80))} matches no IANA zone: read as ${fixed} all year (its daylight saving time, if any, is lost)`,
    };
  }
}
