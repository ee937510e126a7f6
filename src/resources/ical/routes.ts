import type { RequestContext } from '../../context.js';
import { READABLE, endpoint, route, type Route } from '../../http/route.js';
import { calendarBytes } from '../../ical/calendar.js';
import { vevent } from '../../ical/vevent.js';
import { eventFilter, unlocked } from '../events/archive.js';
import { readEvent } from '../events/routes.js';
import { eventFileArgs, eventFileBySlugArgs, feedArgs, feedStart } from './args.js';
import { eventOf, type FeedEntry } from './service.js';

/** The media type of calendar files (RFC 5545 §8.1). */
const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

/**
 * The domain of the site's `UID`s: its host and path (as in `global_id`), the same on every
 * mount and in every language; set `baseUrl` so that it does not follow the `Host` a client sent.
 */
const domainOf = (ctx: RequestContext) => ctx.urls.globalIdOrigin;

/** `YYYY-MM-DD HH:MM:SS` (UTC) of an instant, as modification dates are stored (no earlier than 1970). */
const utcWallClock = (ms: number) => new Date(Math.max(0, ms)).toISOString().slice(0, 19).replace('T', ' ');

/** The headers of a calendar file named `name`. */
function fileHeaders(name: string): Record<string, string> {
  return { 'Content-Type': CALENDAR_TYPE, 'Content-Disposition': `attachment; filename="${name}.ics"` };
}

/**
 * `GET /ics/events`: the events archive's selection as a calendar to subscribe to. The same
 * filters, checks and visibility as `GET /events`; its own default window (from `ical.pastDays`
 * ago); at most `ical.maxEvents`, the earliest first, with `X-TEC-Total` saying how many match.
 * Events trashed within the change log's retention that the caller could list before are
 * written as cancelled, so that apps which keep what they once read drop them.
 */
async function feed(ctx: RequestContext & { params: Record<string, unknown> }) {
  const { ical } = ctx.options;
  const { query } = await eventFilter(ctx, { start: feedStart(ctx) });
  const version = await ctx.version();
  const { keys, total } = await ctx.services.events.list({ ...query, offset: 0, limit: ical.maxEvents }, version);
  // Trashed within the change log's retention: a client that syncs less often starts over anyway.
  const since = utcWallClock(ctx.now().getTime() - ctx.options.changes.retentionMs);
  const trashed = await ctx.services.events.list({ ...query, trashed: { since }, offset: 0, limit: ical.maxEvents }, version);
  const entries: FeedEntry[] = [
    ...keys.map((key) => ({ key, redacted: !!key.password && !unlocked(ctx, key), cancelled: false })),
    ...trashed.keys.map((key) => ({ key, redacted: true, cancelled: true })),
  ];
  const domain = domainOf(ctx);
  const events = await ctx.services.ical.vevents(entries, { urls: ctx.urls, principal: ctx.principal, version, domain });
  const cut = total > keys.length;
  const body = calendarBytes(
    {
      name: ical.name ?? `Events – ${domain}`,
      description: cut ? `The first ${keys.length} of ${total} events: narrow the feed with end_date or a filter to see the others.` : undefined,
      refreshMinutes: ical.refreshMinutes,
    },
    events,
  );
  return { body, headers: { ...fileHeaders('events'), 'X-TEC-Total': String(total), 'X-Calendar-Feed-Limit': String(ical.maxEvents) } };
}

/** `GET /ics/events/{id}` and `…/by-slug/{slug}`: one event's calendar file, answered as its JSON read is (403s, 404s). */
function eventFile(bySlug: boolean) {
  return async (ctx: RequestContext) => {
    const { row, json } = await readEvent(ctx, bySlug);
    const written = vevent(eventOf(json), { domain: domainOf(ctx), protected: !!row.password, cancelled: false });
    const name = row.slug && /^[\w-]{1,100}$/.test(row.slug) ? row.slug : `event-${row.id}`;
    const body = calendarBytes({ name: written?.summary || name, refreshMinutes: ctx.options.ical.refreshMinutes }, written ? [written] : []);
    return { body, headers: fileHeaders(name) };
  };
}

/** The iCalendar routes (an addition: the original only exports a page once). */
export const icalRoutes: readonly Route[] = [
  route('/ics/events', [endpoint({ methods: READABLE, args: feedArgs, handler: feed })]),
  route('/ics/events/(?P<id>\\d+)', [endpoint({ methods: READABLE, args: eventFileArgs, handler: eventFile(false) })]),
  route('/ics/events/by-slug/(?P<slug>[^/]+)', [endpoint({ methods: READABLE, args: eventFileBySlugArgs, handler: eventFile(true) })]),
];
