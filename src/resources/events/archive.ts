import { parseList } from '../../args/checks.js';
import { has } from '../../auth/capabilities.js';
import { toId } from '../../ids.js';
import type { RequestContext } from '../../http/context.js';
import { defaultEndBound, defaultStartBound, endOfDay, rawDefaultEnd, rawDefaultStart, startOfDay, strictBound } from '../../dates/index.js';
import { eventNotAccessible, eventNotFound, eventNotRecurring, eventPageNotFound } from './errors.js';
import { asQueryValue, encodedUrl, pagingUrls, type QueryPair } from '../../archive/urls.js';
import { archiveHeaders, archivePage, totalPages } from '../../archive/page.js';
import { EVENT } from '../../posts/kinds.js';
import { searchablePasswords, unlocks } from '../../posts/password.js';
import { isTruthy } from '../../php/empty.js';
import { redact } from '../../posts/redact.js';
import { listEnvelope, type RawJson } from '../../http/raw-json.js';
import type { CalendarEvent } from '../../schemas/types.js';
import { termFilter } from './term-lists.js';
import { fieldFilterArgNames, fieldFilters } from '../../fields/args.js';
import { archiveStatuses } from '../../posts/args.js';
import { CATEGORIES, TAGS } from '../terms/args.js';
import type { EventKey, EventListQuery } from './store.js';
import { searchWords } from '../../text/search-terms.js';
import { geoFilter } from '../venues/geoloc.js';
import { merged } from '../../merged.js';

const ids = (value: unknown) => (parseList(value) ?? []).map(toId).filter((id): id is number => id !== undefined);

/** What the archive's parameters select, before paging; what its paging URLs repeat. */
export interface EventFilter {
  query: Omit<EventListQuery, 'offset' | 'limit'>;
  /** The window's bounds as applied (site wall clocks). */
  start?: string;
  end?: string;
  /** Whether a relative bound (`starts_before`…) replaced the default window. */
  relative: boolean;
  include?: number[];
  /** The statuses as the paging URLs name them (`any`, `publish`, a list). */
  shown: string;
}

/**
 * The events the archive's filters select (README "Events archive"), for the caller: the date
 * window (`start` is the default start when no `start_date` is sent, the archive's own when
 * absent), statuses they may list, terms, linked items, search and flags. The iCalendar feed
 * reads the same selection.
 */
export async function eventFilter(ctx: RequestContext & { params: Record<string, unknown> }, defaults: { start?: string } = {}): Promise<EventFilter> {
  const p = ctx.params;
  const site = ctx.options.timezone;
  const now = ctx.now();
  const strict = isTruthy(p.strict_dates);
  const bound = (value: unknown, snap: 'start' | 'end') =>
    (strict ? strictBound(value, site, now) : snap === 'start' ? startOfDay(value, now) : endOfDay(value, now)) ?? undefined;
  const relative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some((k) => ctx.sent(k));
  const include = p.include !== undefined ? ids(p.include) : undefined;

  let start: string | undefined;
  let end: string | undefined;
  if (include) {
    // `include` keeps the raw, un-snapped default window and ignores explicit dates (verified upstream).
    if (!relative) {
      start = rawDefaultStart(site, now);
      end = rawDefaultEnd(now);
    }
  } else {
    if (ctx.sent('start_date')) start = bound(p.start_date, 'start');
    else if (!relative) start = defaults.start ?? defaultStartBound(site, now);
    if (ctx.sent('end_date')) end = bound(p.end_date, 'end');
    else if (!relative) end = defaultEndBound(now);
  }
  const { statuses, shown } = archiveStatuses(EVENT, p.status, ctx);
  const query: EventFilter['query'] = {
    statuses,
    startsOnOrAfter: start,
    endsOnOrBefore: end,
    startsBefore: p.starts_before !== undefined ? bound(p.starts_before, 'end') : undefined,
    startsAfter: p.starts_after !== undefined ? bound(p.starts_after, 'end') : undefined,
    endsBefore: p.ends_before !== undefined ? bound(p.ends_before, 'end') : undefined,
    endsAfter: p.ends_after !== undefined ? bound(p.ends_after, 'end') : undefined,
    search: typeof p.search === 'string' ? searchWords(p.search) : undefined,
    searchPasswords: typeof p.search === 'string' ? searchablePasswords(ctx.principal, EVENT) : undefined,
    searchTests: ctx.options.limits.searchTests,
    countMs: ctx.options.limits.countMs,
    categoryIds: p.categories !== undefined ? await termFilter(ctx, CATEGORIES, p.categories) : undefined,
    tagIds: p.tags !== undefined ? await termFilter(ctx, TAGS, p.tags) : undefined,
    venueIds: p.venue !== undefined ? ids(p.venue) : undefined,
    organizerIds: p.organizer !== undefined ? ids(p.organizer) : undefined,
    near: geoFilter(ctx),
    featured: typeof p.featured === 'boolean' ? p.featured : undefined,
    fields: fieldFilters(ctx.services.fields.registry.of('events'), p),
    include,
    parent: typeof p.post_parent === 'number' ? p.post_parent : undefined,
    orderByPublication: include !== undefined,
  };
  return { query, start, end, relative, include, shown };
}

/** Whether a request unlocks a password-protected event. */
export function unlocked(ctx: RequestContext, row: EventKey): boolean {
  return unlocks(ctx, row.password, ctx.services.events.can(ctx.principal, 'edit', row));
}

/**
 * The header of event reads that names the same event, or the same selection, as an
 * iCalendar file ("add to calendar"): the `Link` header keeps upstream's exact value.
 */
export const ICAL_HEADER = 'X-Calendar-Ical';

/** Longest URL sent in a header: clients and proxies refuse header blocks of a few KB. */
const MAX_HEADER_URL = 2000;

/**
 * An editor's window past the occurrence index extends it, in the background (the next read
 * lists more); anonymous reads never do, so that their work stays bounded.
 */
function extendFor(ctx: RequestContext, end: string | undefined): void {
  const { horizon } = ctx.services;
  if (end !== undefined && has(ctx.principal, 'edit_tribe_events') && horizon.beyond(end, ctx.now())) horizon.request(new Date(`${end.replace(' ', 'T')}Z`));
}

/**
 * The items of an archive page as the caller sees them (a locked event redacted); an event
 * deleted since the page was read is left out.
 */
async function pageItems(ctx: RequestContext, keys: readonly EventKey[], version: string | undefined): Promise<(RawJson | CalendarEvent)[]> {
  const rendered = await ctx.services.events.renderJson(keys, { urls: ctx.urls, principal: ctx.principal, single: false, version });
  return rendered.flatMap((json, i): (RawJson | CalendarEvent)[] => {
    const key = keys[i];
    if (json === undefined || key === undefined) return [];
    return key.password && !unlocked(ctx, key) ? [redact(json.parse() as CalendarEvent)] : [json];
  });
}

/** The events archive. */
export async function archive(ctx: RequestContext & { params: Record<string, unknown> }) {
  const p = ctx.params as Record<string, unknown> & { page?: number; per_page?: number };
  const paging = archivePage(p, ctx.options);
  const { query, start, end, relative, include, shown } = await eventFilter(ctx);
  extendFor(ctx, query.endsOnOrBefore);
  const version = await ctx.version();
  const { keys, total } = await ctx.services.events.list(merged(query, { offset: paging.offset, limit: paging.limit }), version);
  if (paging.page > 1 && keys.length === 0) throw eventPageNotFound();
  const pages = totalPages(total, paging);
  const events = await pageItems(ctx, keys, version);

  // Paging URLs in upstream order; `venue`, `organizer`, `featured` switch to the encoded form.
  const geoloc = p.geoloc === true;
  const pairs: QueryPair[] = [
    ['per_page', paging.perPage],
    ['start_date', ctx.sent('start_date') || !relative ? start : undefined],
    ['end_date', ctx.sent('end_date') || !relative ? end : undefined],
    ['search', p.search as string | undefined],
    ['geoloc', geoloc ? 1 : undefined],
    ['geoloc_lat', geoloc ? asQueryValue(p.geoloc_lat) : undefined],
    ['geoloc_lng', geoloc ? asQueryValue(p.geoloc_lng) : undefined],
    // This library's own: after upstream's, and only as sent (its default is the option's).
    ['geoloc_radius', geoloc && ctx.sent('geoloc_radius') ? asQueryValue(p.geoloc_radius) : undefined],
    ['status', shown],
    ['post_parent', asQueryValue(p.post_parent)],
    ['include', include?.join(',')],
    ['starts_before', query.startsBefore],
    ['starts_after', query.startsAfter],
    ['ends_before', query.endsBefore],
    ['ends_after', query.endsAfter],
  ];
  // The filters of declared fields, by name (they are not among the archive's own arguments).
  const given = new Map<string, unknown>(Object.entries(p));
  const extras: QueryPair[] = [
    ['venue', asQueryValue(p.venue)],
    ['organizer', asQueryValue(p.organizer)],
    ['featured', p.featured === true ? 1 : undefined],
    ['categories', asQueryValue(p.categories)],
    ['tags', asQueryValue(p.tags)],
    ['strict_dates', ctx.sent('strict_dates') ? asQueryValue(p.strict_dates) : undefined],
    ...fieldFilterArgNames(ctx.services.fields.registry.of('events')).map((name): QueryPair => [
      name,
      ctx.sent(name) ? asQueryValue(given.get(name)) : undefined,
    ]),
  ];
  const encodedFirst = ['venue', 'organizer', 'featured'].some((k) => ctx.sent(k));
  const urls = pagingUrls(`${ctx.urls.base}/events/`, paging.page, pages, pairs, extras, encodedFirst);
  // The same selection as a calendar to subscribe to: the filters sent, without paging; left out
  // when a long search would make it too long for a header.
  const feedPairs = [...pairs, ...extras].filter(([k]) => k !== 'per_page' && (!['start_date', 'end_date', 'status'].includes(k) || ctx.sent(k)));
  const feed = encodedUrl(`${ctx.urls.base}/ics/events`, feedPairs);
  return {
    body: listEnvelope('events', events, merged(urls, { total, total_pages: pages })),
    headers: feed.length <= MAX_HEADER_URL ? merged(archiveHeaders(total, pages), { [ICAL_HEADER]: feed }) : archiveHeaders(total, pages),
  };
}

/**
 * The occurrences of a series (`/events/{id}/occurrences`, by the series' id or one of its
 * occurrences'): those the caller may see, by start, in a window of starts (`start_date`,
 * `end_date`; by default every one indexed), paged like the archive.
 */
export async function occurrences(ctx: RequestContext & { params: Record<string, unknown> }) {
  const p = ctx.params as Record<string, unknown> & { page?: number; per_page?: number };
  const id = Number(ctx.path('id'));
  const row = await ctx.services.events.get(id);
  const seriesId = row?.occurrence?.seriesId ?? (row?.series_id === row?.id ? row?.id : undefined);
  if (!row || seriesId === undefined) {
    throw row ? eventNotRecurring(id) : eventNotFound(id);
  }
  const series = await ctx.services.events.get(seriesId);
  if (!series || series.status === 'trash' || (series.status !== 'publish' && !ctx.services.events.can(ctx.principal, 'read', series))) {
    throw eventNotAccessible();
  }
  const paging = archivePage(p, ctx.options);
  const now = ctx.now();
  const start = ctx.sent('start_date') ? (startOfDay(p.start_date, now) ?? undefined) : undefined;
  const end = ctx.sent('end_date') ? (endOfDay(p.end_date, now) ?? undefined) : undefined;
  const { statuses } = archiveStatuses(EVENT, undefined, ctx);
  extendFor(ctx, end);
  const version = await ctx.version();
  const { keys, total } = await ctx.services.events.list(
    { statuses, startsOnOrAfter: start, endsOnOrBefore: end, include: [seriesId], orderByPublication: false, offset: paging.offset, limit: paging.limit },
    version,
  );
  if (paging.page > 1 && keys.length === 0) throw eventPageNotFound();
  const pages = totalPages(total, paging);
  const events = await pageItems(ctx, keys, version);
  const pairs: QueryPair[] = [
    ['per_page', paging.perPage],
    ['start_date', start],
    ['end_date', end],
  ];
  const urls = pagingUrls(`${ctx.urls.base}/events/${id}/occurrences`, paging.page, pages, pairs, [], false);
  return { body: listEnvelope('events', events, merged(urls, { total, total_pages: pages })), headers: archiveHeaders(total, pages) };
}
