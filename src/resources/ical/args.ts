import type { RequestContext } from '../../http/context.js';
import { defaultStartBound } from '../../dates/index.js';
import { eventArchiveArgs, eventIdArg, eventSlugArg } from '../events/args.js';
import { passwordArg } from '../../posts/args.js';

const DAY_MS = 86_400_000;

/**
 * Where a feed starts without `start_date`: `ical.pastDays` before the archive's default start
 * (midnight of the site-local date of "yesterday 23:59 UTC"): calendar apps keep the events
 * they have seen.
 */
export function feedStart(ctx: RequestContext): string | undefined {
  const today = defaultStartBound(ctx.options.timezone, ctx.now());
  // Whole days off a wall clock: arithmetic on the naive time (read as UTC) has no DST to mind.
  const ms = today === undefined ? NaN : Date.parse(`${today.replace(' ', 'T')}Z`) - ctx.options.ical.pastDays * DAY_MS;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const { page: _page, per_page: _perPage, start_date: archiveStart, ...filters } = eventArchiveArgs;

/** Arguments of the feed: the archive's filters, with the same checks; no paging. */
export const feedArgs = {
  start_date: { ...archiveStart, doc: { ...archiveStart.doc, default: feedStart, description: 'ical.start_date' as const } },
  ...filters,
};

/** Arguments of one event's calendar file, by id. */
export const eventFileArgs = { id: eventIdArg, password: passwordArg };

/** Arguments of one event's calendar file, by slug. */
export const eventFileBySlugArgs = { slug: eventSlugArg };
