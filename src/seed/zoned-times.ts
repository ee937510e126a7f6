import { timezoneAbbr, wallClockToInstant } from '../dates/index.js';

/** `YYYY-MM-DD HH:MM:SS` of a naive (zone-less) epoch ms. */
export function naive(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The instant of a wall clock in a zone; the seed's own wall clocks and zones always have one. */
function instantOf(wallClock: string, zone: string): Date {
  const instant = wallClockToInstant(wallClock, zone);
  if (!instant) throw new Error(`seed: ${wallClock} is no time in ${zone}`);
  return instant;
}

/** Zone offset and abbreviation at noon, by `zone day`. Unbounded, but a calendar has only zones × days in its span. */
const dayZone = new Map<string, { offsetMs: number; abbr: string }>();

/**
 * A local wall clock's UTC wall clock, instant and zone abbreviation, from src/dates. Asking
 * luxon for zone offsets is most of the seeding time, so the answer for 04:00–23:59 is
 * derived from the day's noon (every zone seeded changes offset between 00:00 and 04:00);
 * earlier times, and every 50th event as a check, are computed in full.
 */
export function zoned(wallClock: string, zone: string, index: number): { utc: string; instant: Date; abbr: string } {
  const full = () => {
    const instant = instantOf(wallClock, zone);
    return { utc: naive(instant.getTime()), instant, abbr: timezoneAbbr(zone, instant) ?? '' };
  };
  if (wallClock.slice(11) < '04:00:00') return full();
  const key = `${zone} ${wallClock.slice(0, 10)}`;
  let day = dayZone.get(key);
  if (!day) {
    const noon = `${wallClock.slice(0, 10)} 12:00:00`;
    const instant = instantOf(noon, zone);
    day = { offsetMs: Date.parse(`${noon.replace(' ', 'T')}Z`) - instant.getTime(), abbr: timezoneAbbr(zone, instant) ?? '' };
    dayZone.set(key, day);
  }
  const instant = new Date(Date.parse(`${wallClock.replace(' ', 'T')}Z`) - day.offsetMs);
  const derived = { utc: naive(instant.getTime()), instant, abbr: day.abbr };
  if (index % 50 === 0) {
    const check = full();
    if (check.utc !== derived.utc || check.abbr !== derived.abbr)
      throw new Error(`seed: ${wallClock} ${zone} → ${JSON.stringify(check)}, derived ${JSON.stringify(derived)}`);
  }
  return derived;
}
