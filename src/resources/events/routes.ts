import { has } from '../../auth/capabilities.js';
import type { Args } from '../../args/arg.js';
import { MemoKey, type RequestContext } from '../../http/context.js';
import { invalidParam } from '../../http/errors.js';
import { eventLocked, eventNotAccessible, eventNotFound, eventTrashed, notAnEventId, occurrenceCancelled } from './errors.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, endpoint, route, type Route } from '../../http/route.js';
import type { WriteTarget } from '../../posts/write-target.js';
import { isTruthy } from '../../php/empty.js';
import type { EventInput } from './args.js';
import { eventArchiveArgs, eventIdArg, eventScopeArgs, eventSlugArg, eventWriteArgs, occurrencesArgs } from './args.js';
import { passwordArg } from '../../posts/args.js';
import type { EventRow } from './store.js';
import { ICAL_HEADER, archive, occurrences, unlocked } from './archive.js';
import type { RawJson } from '../../http/raw-json.js';
import { requestEntryParser } from '../linked/entries.js';

/** The event a single route addresses, read once per request: the permission checks (for `Allow`) and the handler share it. */
const TARGET = new MemoKey<Promise<EventRow>>('the event a single route addresses');

/** The event a single route addresses: by id (404/400 rules) or by the path's slug. */
function target(ctx: RequestContext, bySlug: boolean): Promise<EventRow> {
  return ctx.memo.get(TARGET, () => readTarget(ctx, bySlug));
}

async function readTarget(ctx: RequestContext, bySlug: boolean): Promise<EventRow> {
  // A read's row and JSON are kept under the store version: the version is read before the row.
  const version = ctx.method === 'GET' ? await ctx.version() : undefined;
  if (bySlug) {
    const slug = ctx.path('slug');
    const row = typeof slug === 'string' ? await ctx.services.events.readAt({ slug }, version) : undefined;
    if (!row) throw eventNotFound();
    return row;
  }
  const id = Number(ctx.path('id'));
  const row = await ctx.services.events.readAt({ id }, version);
  if (row?.occurrence?.cancelled) throw occurrenceCancelled(id);
  if (!row) {
    if ((await ctx.services.posts.typeOf(id)) !== undefined) throw notAnEventId();
    throw eventNotFound(phpInt(ctx.path('id') ?? '0'));
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
  const gone = () => (!bySlug ? eventNotFound(row.id) : action === 'delete' ? invalidParam('slug') : eventNotFound());
  return { row, gone, conditional: ctx.conditional };
}

const PHP_INT_MAX = 9223372036854775807n;

/** A digit string as PHP's `(int)` reads it: saturated at `PHP_INT_MAX`. */
function phpInt(digits: string): string {
  const n = /^\d+$/.test(digits) ? BigInt(digits) : 0n;
  return String(n > PHP_INT_MAX ? PHP_INT_MAX : n);
}

/**
 * A single read of an event by id or by the path's slug, as the caller may see it: the 403s
 * of a trashed, unpublished or locked event, else its row and its JSON (kept per store version).
 */
export async function readEvent(ctx: RequestContext, bySlug: boolean): Promise<{ row: EventRow; json: RawJson }> {
  const version = await ctx.version();
  const row = await target(ctx, bySlug);
  if (row.status === 'trash') throw eventTrashed();
  if (row.status !== 'publish' && !ctx.services.events.can(ctx.principal, 'read', row)) {
    throw eventNotAccessible();
  }
  if (row.password && !unlocked(ctx, row)) {
    throw eventLocked();
  }
  const [json] = await ctx.services.events.renderJson([row], { urls: ctx.urls, principal: ctx.principal, single: true, version }, async () => [row]);
  // Read after the row was: only a write in between changes the key, and that is a 404 now.
  if (!json) throw eventNotFound(row.id);
  return { row, json };
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
        const { row, json } = await readEvent(ctx, bySlug);
        return { body: json, headers: { [ICAL_HEADER]: `${ctx.urls.base}/ics/events/${row.id}` } };
      },
    }),
    endpoint({
      methods: DELETABLE,
      args: { ...key, scope: eventScopeArgs.scope },
      permission: allowed('delete', bySlug),
      handler: async (ctx) => {
        const event = await writeTarget(ctx, bySlug, 'delete');
        const render = async (r: EventRow) => (await ctx.services.events.render([r], { urls: ctx.urls, principal: ctx.principal, single: false }))[0];
        const force = isTruthy(ctx.input('force'));
        const previous = force ? await render(event.row) : undefined;
        const after = await ctx.services.events.remove(event, { force, scope: ctx.params.scope }, ctx.principal, ctx.now());
        if (force) return { body: { deleted: true, previous } };
        return { body: after ? await render(after) : previous };
      },
    }),
    endpoint({
      methods: EDITABLE,
      // By slug, `slug` is the new slug (upstream redeclares it); the path slug finds the event.
      args: bySlug ? { slug: eventWriteArgs(false).slug, ...writeArgs, ...eventScopeArgs } : { ...key, ...eventWriteArgs(false), ...eventScopeArgs },
      permission: allowed('edit', bySlug),
      handler: async (ctx) => {
        const event = await writeTarget(ctx, bySlug, 'edit');
        // The path slug only finds the event; a new slug must be sent.
        const input: EventInput = { ...ctx.params, slug: ctx.sent('slug') ? ctx.params.slug : undefined };
        const updated = await ctx.services.events.update(event, input, ctx.sent, ctx.principal, ctx.now(), requestEntryParser(ctx));
        const [json] = await ctx.services.events.render([updated], { urls: ctx.urls, principal: ctx.principal, single: false });
        return { body: json };
      },
    }),
  ];
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
          const { row, links } = await ctx.services.events.create(ctx.params, ctx.principal, ctx.now(), requestEntryParser(ctx));
          const [json] = await ctx.services.events.render([row], { urls: ctx.urls, principal: ctx.principal, single: false }, new Map([[row.id, links]]));
          return { status: 201, body: json };
        },
      }),
    ]),
    route('/events/(?P<id>\\d+)', singleEndpoints(false)),
    route('/events/by-slug/(?P<slug>[^/]+)', singleEndpoints(true)),
  ];
}

/** The occurrences of a recurring event (an addition: listed after upstream's routes). */
export const occurrencesRoute: Route = route('/events/(?P<id>\\d+)/occurrences', [
  endpoint({ methods: READABLE, args: occurrencesArgs, handler: occurrences }),
]);
