import { formatWallClock, localToUtc, parseTime, utcToLocal } from '../dates/index.js';
import { FLOATING_STATUSES, ZERO_DATE } from './status.js';

/** The current instant as a site-local and a UTC wall clock. */
export function nowDates(siteZone: string, now: Date): { local: string; utc: string } {
  return { local: formatWallClock(now, siteZone) ?? formatWallClock(now, 'UTC')!, utc: formatWallClock(now, 'UTC')! };
}

/**
 * The publication dates of a write: `date` is read in `zone` (the event's
 * zone, else the site's) and its wall clock kept as the site-local date; `date_utc` is
 * read as UTC; one derives the other through the site zone. Without either: now. A post in
 * a floating status (draft, pending) has no UTC date unless `date_utc` itself is sent, as
 * WordPress stores none for a post not yet published.
 */
export function publicationDates(
  input: { date?: unknown; date_utc?: unknown },
  siteZone: string,
  now: Date,
  floating: boolean,
  zone: string = siteZone,
): { date: string; date_utc: string } {
  const local = input.date !== undefined ? parseTime(input.date, zone, now)?.wallClock : undefined;
  const utc = input.date_utc !== undefined ? parseTime(input.date_utc, 'UTC', now)?.wallClock : undefined;
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
  if (input.date !== undefined || input.date_utc !== undefined) return publicationDates(input, siteZone, now, floating, zone);
  if (isUndated(current) && !floating && status !== 'trash') return publicationDates({}, siteZone, now, false);
  return undefined;
}
