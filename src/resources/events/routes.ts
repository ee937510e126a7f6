import { has } from '../../auth/capabilities.js';
import type { Args } from '../../args/arg.js';
import { parseList } from '../../args/checks.js';
import { toId } from '../../ids.js';
import type { RequestContext } from '../../context.js';
import { defaultEndBound, defaultStartBound, endOfDay, rawDefaultEnd, rawDefaultStart, startOfDay, strictBound } from '../../dates/index.js';
import { apiError, invalidParam } from '../../http/errors.js';
import { asQueryValue, pagingUrls, type QueryPair } from '../../archive/urls.js';
import { archiveHeaders, archivePage, totalPages } from '../../archive/page.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, endpoint, route, type Route } from '../../http/route.js';
import { EVENT } from '../../posts/kinds.js';
import { searchablePasswords, unlocks } from '../../posts/password.js';
import type { WriteTarget } from '../../posts/write-target.js';
import { isTruthy } from '../../php/empty.js';
import { redact } from '../../posts/redact.js';
import { listEnvelope, type RawJson } from '../../http/raw-json.js';
import type { CalendarEvent } from '../../schemas/types.js';
import type { EventInput } from './rules.js';
import { eventArchiveArgs, eventIdArg, eventSlugArg, eventWriteArgs, termList } from './args.js';
import { archiveStatuses, passwordArg } from '../../posts/args.js';
import { CATEGORIES, TAGS, type TermKind } from '../terms/args.js';
import type { EventKey, EventListQuery, EventRow } from './queries.js';
import { searchWords } from '../../text/search-terms.js';

/** Term ids named by a filter (id, slug or name), with the descendants of categories. */
async function termFilter(ctx: RequestContext, kind: TermKind, value: unknown): Promise<number[]> {
  const ids: number[] = [];
  for (const item of termList(value) ?? []) {
    if (typeof item !== 'string' && typeof item !== 'number') continue;
    const row = await ctx.services.terms.resolve(kind.taxonomy, item);
    if (row) ids.push(row.id);
  }
  return kind.hierarchical ? ctx.services.terms.withDescendants(kind.taxonomy, ids) : ids;
}

const ids = (value: unknown) => (parseList(value) ?? []).map(toId).filter((id): id is number => id !== undefined);

/** The events archive. */
async function archive(ctx: RequestContext & { params: Record<string, unknown> }) {
  const p = ctx.params as Record<string, unknown> & { page?: number; per_page?: number };
  const site = ctx.options.timezone;
  const now = ctx.now();
  const paging = archivePage(p, ctx.options);
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
    else if (!relative) start = defaultStartBound(site, now);
    if (ctx.sent('end_date')) end = bound(p.end_date, 'end');
    else if (!relative) end = defaultEndBound(now);
  }
  const relativeBounds = {
    startsBefore: p.starts_before !== undefined ? bound(p.starts_before, 'end') : undefined,
    startsAfter: p.starts_after !== undefined ? bound(p.starts_after, 'end') : undefined,
    endsBefore: p.ends_before !== undefined ? bound(p.ends_before, 'end') : undefined,
    endsAfter: p.ends_after !== undefined ? bound(p.ends_after, 'end') : undefined,
  };
  const { statuses, shown } = archiveStatuses(EVENT, p.status, ctx);
  const query: EventListQuery = {
    statuses,
    offset: paging.offset,
    limit: paging.limit,
    startsOnOrAfter: start,
    endsOnOrBefore: end,
    ...relativeBounds,
    search: typeof p.search === 'string' ? searchWords(p.search) : undefined,
    searchPasswords: typeof p.search === 'string' ? searchablePasswords(ctx.principal, EVENT) : undefined,
    categoryIds: p.categories !== undefined ? await termFilter(ctx, CATEGORIES, p.categories) : undefined,
    tagIds: p.tags !== undefined ? await termFilter(ctx, TAGS, p.tags) : undefined,
    venueIds: p.venue !== undefined ? ids(p.venue) : undefined,
    organizerIds: p.organizer !== undefined ? ids(p.organizer) : undefined,
    featured: typeof p.featured === 'boolean' ? p.featured : undefined,
    include,
    parent: typeof p.post_parent === 'number' ? p.post_parent : undefined,
    orderByPublication: include !== undefined,
  };
  const version = await ctx.version();
  const { keys, total } = await ctx.services.events.list(query, version);
  if (paging.page > 1 && keys.length === 0) throw apiError('event-archive-page-not-found', 'The requested event archive page does not exist', 404);
  const pages = totalPages(total, paging);
  const rendered = await ctx.services.events.renderJson(keys, { urls: ctx.urls, principal: ctx.principal, single: false, version });
  // An event deleted since the page was read is left out.
  const events = rendered.flatMap((json, i): (RawJson | CalendarEvent)[] => {
    const key = keys[i];
    if (json === undefined || key === undefined) return [];
    return key.password && !unlocked(ctx, key) ? [redact(json.parse() as CalendarEvent)] : [json];
  });

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
    ['status', shown],
    ['post_parent', asQueryValue(p.post_parent)],
    ['include', include?.join(',')],
    ['starts_before', relativeBounds.startsBefore],
    ['starts_after', relativeBounds.startsAfter],
    ['ends_before', relativeBounds.endsBefore],
    ['ends_after', relativeBounds.endsAfter],
  ];
  const extras: QueryPair[] = [
    ['venue', asQueryValue(p.venue)],
    ['organizer', asQueryValue(p.organizer)],
    ['featured', p.featured === true ? 1 : undefined],
    ['categories', asQueryValue(p.categories)],
    ['tags', asQueryValue(p.tags)],
    ['strict_dates', ctx.sent('strict_dates') ? asQueryValue(p.strict_dates) : undefined],
  ];
  const encodedFirst = ['venue', 'organizer', 'featured'].some((k) => ctx.sent(k));
  const urls = pagingUrls(`${ctx.urls.base}/events/`, paging.page, pages, pairs, extras, encodedFirst);
  return { body: listEnvelope('events', events, { ...urls, total, total_pages: pages }), headers: archiveHeaders(total, pages) };
}

/** The event a single route addresses: by id (404/400 rules) or by the path's slug. */
/** The event of each request, read once: the permission checks (for `Allow`) and the handler share it. */
const targets = new WeakMap<RequestContext, Promise<EventRow>>();

function target(ctx: RequestContext, bySlug: boolean): Promise<EventRow> {
  let found = targets.get(ctx);
  if (!found) {
    found = readTarget(ctx, bySlug);
    targets.set(ctx, found);
  }
  return found;
}

async function readTarget(ctx: RequestContext, bySlug: boolean): Promise<EventRow> {
  // A read's JSON is kept under the store version: the version is read before the row.
  if (ctx.method === 'GET') await ctx.version();
  if (bySlug) {
    const slug = ctx.path('slug');
    const row = typeof slug === 'string' ? await ctx.services.events.bySlug(slug) : undefined;
    if (!row) throw apiError('rest-event-not-found', 'Event with ID 0 does not exist.', 404);
    return row;
  }
  const id = Number(ctx.path('id'));
  const row = await ctx.services.events.get(id);
  if (!row) {
    if ((await ctx.services.posts.typeOf(id)) !== undefined) throw apiError('rest-invalid-event-id', 'The specified ID is not a valid event.', 400);
    throw apiError('rest-event-not-found', `Event with ID ${phpInt(ctx.path('id') ?? '0')} does not exist.`, 404);
  }
  return row;
}

/**
 * The event a write addresses; if it is deleted before the write's transaction reads it again,
 * the request answers as for an unknown event: 404 by id, and by slug
 * the 400 of a DELETE or the 404 "ID 0" of an update.
 */
async function writeTarget(ctx: RequestContext, bySlug: boolean, action: 'edit' | 'delete'): Promise<WriteTarget<EventRow>> {
  const row = await target(ctx, bySlug);
  const gone = () =>
    !bySlug
      ? apiError('rest-event-not-found', `Event with ID ${row.id} does not exist.`, 404)
      : action === 'delete'
        ? invalidParam('slug')
        : apiError('rest-event-not-found', 'Event with ID 0 does not exist.', 404);
  return { row, gone, conditional: ctx.conditional };
}

const PHP_INT_MAX = 9223372036854775807n;

/** A digit string as PHP's `(int)` reads it: saturated at `PHP_INT_MAX`. */
function phpInt(digits: string): string {
  const n = /^\d+$/.test(digits) ? BigInt(digits) : 0n;
  return String(n > PHP_INT_MAX ? PHP_INT_MAX : n);
}

/** Per-event permission once the event is known; the generic capability otherwise. */
function allowed(action: 'edit' | 'delete', bySlug: boolean) {
  return async (ctx: RequestContext) => {
    // Anonymous callers may never edit or delete: no need to load the event (twice per read, for `Allow`).
    if (ctx.principal === null) return false;
    const row = await target(ctx, bySlug).catch(() => undefined);
    return row ? ctx.services.events.can(ctx.principal, action, row) : has(ctx.principal, `${action}_tribe_events`);
  };
}

function singleEndpoints(bySlug: boolean) {
  const key: Args<RequestContext> = bySlug ? { slug: eventSlugArg } : { id: eventIdArg, password: passwordArg };
  const { slug: _newSlug, ...writeArgs } = eventWriteArgs(false);
  return [
    endpoint({
      methods: READABLE,
      args: key,
      handler: async (ctx) => {
        const version = await ctx.version();
        const row = await target(ctx, bySlug);
        if (row.status === 'trash') throw apiError('event-no-longer-available', 'This event is no longer available', 403);
        if (row.status !== 'publish' && !ctx.services.events.can(ctx.principal, 'read', row)) {
          throw apiError('event-not-accessible', 'The requested event is not accessible', 403);
        }
        if (row.password && !unlocked(ctx, row)) {
          throw apiError('event-password-protected', 'The requested event is not accessible without a password', 403);
        }
        const [json] = await ctx.services.events.renderJson([row], { urls: ctx.urls, principal: ctx.principal, single: true, version }, async () => [row]);
        return { body: json };
      },
    }),
    endpoint({
      methods: DELETABLE,
      args: key,
      permission: allowed('delete', bySlug),
      handler: async (ctx) => {
        const event = await writeTarget(ctx, bySlug, 'delete');
        const render = async (r: EventRow) => (await ctx.services.events.render([r], { urls: ctx.urls, principal: ctx.principal, single: false }))[0];
        if (isTruthy(ctx.input('force'))) {
          const previous = await render(event.row);
          await ctx.services.events.deletePermanently(event, ctx.principal);
          return { body: { deleted: true, previous } };
        }
        return { body: await render(await ctx.services.events.trash(event, ctx.principal, ctx.now())) };
      },
    }),
    endpoint({
      methods: EDITABLE,
      // By slug, `slug` is the new slug (upstream redeclares it); the path slug finds the event.
      args: bySlug ? { slug: eventWriteArgs(false).slug, ...writeArgs } : { ...key, ...eventWriteArgs(false) },
      permission: allowed('edit', bySlug),
      handler: async (ctx) => {
        const event = await writeTarget(ctx, bySlug, 'edit');
        // The path slug only finds the event; a new slug must be sent.
        const input: EventInput = { ...ctx.params, slug: ctx.sent('slug') ? ctx.params.slug : undefined };
        const updated = await ctx.services.events.update(event, input, ctx.sent, ctx.principal, ctx.now());
        const [json] = await ctx.services.events.render([updated], { urls: ctx.urls, principal: ctx.principal, single: false });
        return { body: json };
      },
    }),
  ];
}

/** Whether a request unlocks a password-protected event. */
function unlocked(ctx: RequestContext, row: EventKey): boolean {
  return unlocks(ctx, row.password, ctx.services.events.can(ctx.principal, 'edit', row));
}

/** The event routes (README "Routes" rows 2–4). */
export function eventRoutes(): Route[] {
  return [
    route('/events', [
      endpoint({ methods: READABLE, args: eventArchiveArgs, handler: archive }),
      endpoint({
        methods: CREATABLE,
        args: eventWriteArgs(true),
        permission: (ctx) => has(ctx.principal, 'edit_tribe_events'),
        handler: async (ctx) => {
          const { row, links } = await ctx.services.events.create(ctx.params, ctx.principal, ctx.now());
          const [json] = await ctx.services.events.render([row], { urls: ctx.urls, principal: ctx.principal, single: false }, new Map([[row.id, links]]));
          return { status: 201, body: json };
        },
      }),
    ]),
    route('/events/(?P<id>\\d+)', singleEndpoints(false)),
    route('/events/by-slug/(?P<slug>[^/]+)', singleEndpoints(true)),
  ];
}
