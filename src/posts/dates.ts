import { formatWallClock, localToUtc, parseTime, resolveZone, utcToLocal, type ParsedTime } from '../dates/index.js';
import { ApiError } from '../http/errors.js';
import { FLOATING_STATUSES, ZERO_DATE } from './status.js';

/** The current instant as a site-local and a UTC wall clock. */
export function nowDates(siteZone: string, now: Date): { local: string; utc: string } {
  const utc = formatWallClock(now, 'UTC');
  // Only a clock outside years 0–9999 (or an invalid Date) has no wall clock: a host's clock gone wrong.
  if (utc === undefined) throw new RangeError(`calendar: the clock's time ${String(now)} has no storable date`);
  return { local: formatWallClock(now, siteZone) ?? utc, utc };
}

/**
 * 400 `rest_invalid_date` (WordPress' code and text for a date it cannot read), naming the
 * field: what a write answers for a publication date no argument check has seen.
 */
export function invalidDate(param: 'date' | 'date_utc'): ApiError {
  return new ApiError('rest_invalid_date', 'Invalid date.', { status: 400, param });
}

/** The first of the zones that names a real zone (a stored `UTCfoo` passes validation), else UTC. */
function realZone(...zones: string[]): string {
  return zones.find((z) => resolveZone(z) !== undefined) ?? 'UTC';
}

/**
 * One publication date parameter read in `zone`; `undefined` when not sent (absent or `null`,
 * as PHP's `isset`). A value that is no date is refused here, whatever path brought it: a
 * nested venue or organizer, an occurrence override and a direct call of the services
 * never went through the REST argument check, and upstream would store "now" instead.
 */
function readDate(param: 'date' | 'date_utc', value: unknown, zone: string, now: Date): ParsedTime | undefined {
  if (!isSent(value)) return undefined;
  const parsed = parseTime(value, zone, now);
  if (!parsed) throw invalidDate(param);
  return parsed;
}

/**
 * Throws the 400 a write's publication dates would give, before anything is fetched or
 * stored (the write reads them again where it stores them).
 */
export function assertPublicationDates(input: { date?: unknown; date_utc?: unknown }, siteZone: string, now: Date, zone: string = siteZone): void {
  readDate('date', input.date, realZone(zone, siteZone), now);
  readDate('date_utc', input.date_utc, 'UTC', now);
}

/**
 * The publication dates of a write: `date` is read in `zone` (the event's zone, else the
 * site's) and its wall clock kept as the site-local date; one that names its own offset or
 * zone keeps the digits written (`…T10:00:00+02:00` → `… 10:00:00`: TEC reads it into a PHP
 * `DateTime`, which takes the string's zone, and formats it there); `date_utc` is read as UTC
 * (an offset is applied). One derives the other through the site zone. Without either: now.
 * A post in a floating status (draft, pending) has no UTC date unless `date_utc` itself is
 * sent, as WordPress stores none for a post not yet published. A value that is no date is a
 * 400 `rest_invalid_date`.
 */
export function publicationDates(
  input: { date?: unknown; date_utc?: unknown },
  siteZone: string,
  now: Date,
  floating: boolean,
  zone: string = siteZone,
): { date: string; date_utc: string } {
  const parsedLocal = readDate('date', input.date, realZone(zone, siteZone), now);
  const local = parsedLocal && (parsedLocal.zoneSource === 'string' ? parsedLocal.ownWallClock : parsedLocal.wallClock);
  const utc = readDate('date_utc', input.date_utc, 'UTC', now)?.wallClock;
  if (local && utc) return { date: local, date_utc: utc };
  if (utc) return { date: utcToLocal(utc, siteZone) ?? utc, date_utc: utc };
  if (floating) return { date: local ?? nowDates(siteZone, now).local, date_utc: ZERO_DATE };
  if (local) return { date: local, date_utc: localToUtc(local, siteZone) ?? local };
  const stamp = nowDates(siteZone, now);
  return { date: stamp.local, date_utc: stamp.utc };
}

/** Whether a post has no UTC publication date: it was never published. */
export function isUndated(post: { date_utc: string }): boolean {
  return post.date_utc === ZERO_DATE;
}

/**
 * The publication dates an update sets, if any: the
 * ones sent; else, for a post never published that leaves the draft statuses, now (WordPress
 * dates a draft when it publishes it); else none, and the stored ones stay.
 */
export function updatedPublicationDates(
  input: { date?: unknown; date_utc?: unknown },
  current: { date_utc: string },
  status: string,
  siteZone: string,
  now: Date,
  zone: string = siteZone,
): { date: string; date_utc: string } | undefined {
  const floating = FLOATING_STATUSES.has(status);
  if (isSent(input.date) || isSent(input.date_utc)) return publicationDates(input, siteZone, now, floating, zone);
  if (isUndated(current) && !floating && status !== 'trash') return publicationDates({}, siteZone, now, false);
  return undefined;
}

/** Whether a parameter was sent (PHP's `isset`: neither absent nor `null`). */
function isSent(value: unknown): boolean {
  return value !== undefined && value !== null;
}
