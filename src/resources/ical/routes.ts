import { hash } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { READABLE, endpoint, route, type Route } from '../../http/route.js';
import { calendarBytes } from '../../ical/calendar.js';
import { vevent, type Vevent } from '../../ical/vevent.js';
import { icalZone, localTime } from '../../ical/zones.js';
import type { OccurrenceRow } from '../../recurrence/queries.js';
import type { RawJson } from '../../http/raw-json.js';
import { redact } from '../../posts/redact.js';
import type { EventRow } from '../events/store.js';
import { eventFilter, unlocked } from '../events/archive.js';
import { readEvent } from '../events/routes.js';
import { eventFileArgs, eventFileBySlugArgs, feedArgs, feedStart } from './args.js';
import { ENTRIES_PER_SLICE, eventOf, type FeedEntry } from './service.js';
import { viewerKey } from '../../auth/capabilities.js';
import { slices, yieldTurn } from '../../scheduling/turns.js';

/** The media type of calendar files (RFC 5545 §8.1). */
const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

/**
 * The domain of the site's `UID`s: its host and path (as in `global_id`), the same on every
 * mount and in every language; set `baseUrl` so that it does not follow the `Host` a client sent.
 */
const domainOf = (ctx: RequestContext) => ctx.urls.globalIdOrigin;

/** `YYYY-MM-DD HH:MM:SS` (UTC) of an instant, as modification dates are stored (no earlier than 1970). */
const utcWallClock = (ms: number) => new Date(Math.max(0, ms)).toISOString().slice(0, 19).replace('T', ' ');

const dayBefore = (wallClock: string) => new Date(Date.parse(`${wallClock.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayAfter = (wallClock: string) => `${new Date(Date.parse(`${wallClock.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)} 23:59:59`;

/**
 * What decides the bytes of a calendar file besides the store: the mount's URLs and language,
 * the caller's view, what they sent (a password, `context=edit` unlock events), and `parts`.
 */
function fileKey(ctx: RequestContext & { params: Record<string, unknown> }, ...parts: string[]): string {
  const sent = [ctx.params, ctx.input('password'), ctx.input('context')];
  const text = [ctx.urls.root, ctx.urls.home, domainOf(ctx), ctx.locale, viewerKey(ctx.principal), JSON.stringify(sent), ...parts].join('\n');
  return hash('sha256', text, 'base64');
}

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
  // Trashed within the change log's retention (to the minute, so that a feed stays the same
  // file for a while): a client that syncs less often starts over anyway.
  const since = utcWallClock(Math.floor((ctx.now().getTime() - ctx.options.changes.retentionMs) / 60_000) * 60_000);
  const domain = domainOf(ctx);
  const key = fileKey(ctx, 'feed', JSON.stringify(query), since);
  return ctx.services.ical.file(version, key, async () => {
    const { keys, total } = await ctx.services.events.list({ ...query, offset: 0, limit: ical.maxEvents }, version);
    const trashed = await ctx.services.events.list({ ...query, trashed: { since }, offset: 0, limit: ical.maxEvents }, version);
    // Occurrences of a series are written once, as the series (see `seriesVevents`).
    const single = keys.filter((key) => !key.of_series);
    const series = [...new Set(keys.flatMap((key) => (key.of_series ? [key.of_series] : [])))];
    const entries: FeedEntry[] = [
      ...single.map((key) => ({ key, redacted: !!key.password && !unlocked(ctx, key), cancelled: false })),
      ...trashed.keys.map((key) => ({ key, redacted: true, cancelled: true })),
    ];
    const events = await ctx.services.ical.vevents(entries, { urls: ctx.urls, principal: ctx.principal, version, domain });
    // The window's occurrences are looked at for starts the zone skips or repeats (a day either side of its bounds).
    const window = { from: query.startsOnOrAfter && dayBefore(query.startsOnOrAfter), to: query.endsOnOrBefore && dayAfter(query.endsOnOrBefore) };
    for (const [i, id] of series.entries()) {
      // A series costs what a slice of plain events does, or more: the loop turns between two.
      if (i > 0) await yieldTurn();
      events.push(...(await seriesVevents(ctx, id, version, window)));
    }
    const cut = total > keys.length;
    const body = await calendarBytes(
      {
        name: ical.name ?? `Events – ${domain}`,
        description: cut ? `The first ${keys.length} of ${total} events: narrow the feed with end_date or a filter to see the others.` : undefined,
        refreshMinutes: ical.refreshMinutes,
      },
      events,
    );
    return { body, headers: { ...fileHeaders('events'), 'X-TEC-Total': String(total), 'X-Calendar-Feed-Limit': String(ical.maxEvents) } };
  });
}

/**
 * A series as subscribers' apps read it (RFC 5545 §3.8.5): one master `VEVENT` with its rule,
 * its extra dates and, as `EXDATE`s, its cancelled occurrences and the edited ones the caller may
 * not read; then each edited occurrence the caller may read as a `VEVENT` of the same `UID` with
 * its `RECURRENCE-ID`. Nothing when the caller may not read the series.
 */
async function seriesVevents(ctx: RequestContext, seriesId: number, version: string | undefined, window?: { from?: string; to?: string }): Promise<Vevent[]> {
  const parts = await ctx.services.events.seriesParts(seriesId, window);
  if (!parts || !readable(ctx, parts.row)) return [];
  const { row, times, apart, inWindow, years } = parts;
  const view = { urls: ctx.urls, principal: ctx.principal, single: false, version };
  const domain = domainOf(ctx);
  // Edited occurrences, and those whose start the zone skips or repeats: readers place those
  // differently (ical.js reads a skipped 02:30 as 01:30, a repeated one as its second time), so
  // they are written with their own times too.
  const tzid = icalZone(times.zone);
  const moved = (o: OccurrenceRow) =>
    !!tzid && (o.start_local !== o.original_start || localTime(Date.parse(`${o.start_utc.replace(' ', 'T')}Z`), tzid) === undefined);
  const edited = [...apart, ...inWindow.filter((o) => moved(o) && !apart.some((a) => a.id === o.id))].filter(
    (o) => !o.cancelled && (o.content_id !== seriesId || moved(o)),
  );
  const shown = await ctx.services.events.getMany(edited.map((o) => o.id));
  const visible = shown.filter((r) => readable(ctx, r));
  const hidden = edited.filter((o) => !visible.some((r) => r.id === o.id)).map((o) => o.original_start);
  const [master] = await ctx.services.events.renderJson([row], view, async () => [row]);
  if (!master) return [];
  const redacted = (r: EventRow, json: RawJson) => (r.password && !unlocked(ctx, r) ? redact(eventOf(json)) : eventOf(json));
  const out: Vevent[] = [];
  const rules = {
    rrule: times.recurrence.rrule,
    rdates: times.recurrence.rdates,
    exdates: [...times.recurrence.exdates, ...apart.filter((o) => o.cancelled).map((o) => o.original_start), ...hidden],
  };
  const written = vevent(redacted(row, master), {
    domain,
    protected: !!row.password,
    cancelled: false,
    fields: ctx.services.fields.icalNames,
    recurrence: { seriesId, zone: times.zone, rules, years },
  });
  if (written) out.push(written);
  for await (const slice of slices(visible, ENTRIES_PER_SLICE)) {
    const rendered = await ctx.services.events.renderJson(slice, view, async () => slice);
    slice.forEach((r, i) => {
      const json = rendered[i];
      if (!json || !r.occurrence) return;
      const part = vevent(redacted(r, json), {
        domain,
        protected: !!r.password,
        cancelled: false,
        fields: ctx.services.fields.icalNames,
        recurrence: { seriesId, zone: times.zone, recurrenceId: r.occurrence.originalStart, years },
      });
      if (part) out.push(part);
    });
  }
  return out;
}

/** Whether the caller may read an event (as its single read decides, but for a password). */
function readable(ctx: RequestContext, row: EventRow): boolean {
  return row.status !== 'trash' && (row.status === 'publish' || ctx.services.events.can(ctx.principal, 'read', row));
}

/** `GET /ics/events/{id}` and `…/by-slug/{slug}`: one event's calendar file, answered as its JSON read is (403s, 404s); a series' with its rules. */
function eventFile(bySlug: boolean) {
  return async (ctx: RequestContext & { params: Record<string, unknown> }) => {
    const { row, json } = await readEvent(ctx, bySlug);
    const name = row.slug && /^[\w-]{1,100}$/.test(row.slug) ? row.slug : `event-${row.id}`;
    if (row.series_id === row.id && !row.occurrence) {
      // A series' file is worked out in slices (its edited occurrences, the years of its zone) and kept per store version.
      const version = await ctx.version();
      const key = fileKey(ctx, 'series', String(row.id));
      return ctx.services.ical.file(version, key, async () => {
        const parts = await seriesVevents(ctx, row.id, version);
        return {
          body: await calendarBytes({ name: parts[0]?.summary || name, refreshMinutes: ctx.options.ical.refreshMinutes }, parts),
          headers: fileHeaders(name),
        };
      });
    }
    const written = vevent(eventOf(json), { domain: domainOf(ctx), protected: !!row.password, cancelled: false, fields: ctx.services.fields.icalNames });
    const body = await calendarBytes({ name: written?.summary || name, refreshMinutes: ctx.options.ical.refreshMinutes }, written ? [written] : []);
    return { body, headers: fileHeaders(name) };
  };
}

/** The iCalendar routes (an addition: the original only exports a page once). */
export const icalRoutes: readonly Route[] = [
  route('/ics/events', [endpoint({ methods: READABLE, args: feedArgs, handler: feed })]),
  route('/ics/events/(?P<id>\\d+)', [endpoint({ methods: READABLE, args: eventFileArgs, handler: eventFile(false) })]),
  route('/ics/events/by-slug/(?P<slug>[^/]+)', [endpoint({ methods: READABLE, args: eventFileBySlugArgs, handler: eventFile(true) })]),
];
