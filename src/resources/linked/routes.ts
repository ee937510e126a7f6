import { httpDate } from '../../http/conditional.js';
import { has } from '../../auth/capabilities.js';
import { MemoKey, type RequestContext } from '../../http/context.js';
import { invalidParam } from '../../http/errors.js';
import { linkedNotAccessible, linkedPageNotFound } from './errors.js';
import { asQueryValue, pagingUrls, type QueryPair } from '../../archive/urls.js';
import { archiveHeaders, archivePage, totalPages } from '../../archive/page.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, endpoint, route, type Route } from '../../http/route.js';
import { isTruthy } from '../../php/empty.js';
import { redact } from '../../posts/redact.js';
import { searchablePasswords, unlocks } from '../../posts/password.js';
import type { WriteTarget } from '../../posts/write-target.js';
import { EVENT } from '../../posts/kinds.js';
import { nowDates } from '../../posts/dates.js';
import { linkedArchiveArgs, linkedIdArg, linkedSlugArg, type LinkedWriteArgs } from './args.js';
import { archiveStatuses } from '../../posts/args.js';
import type { LinkedPostService } from './service.js';
import type { ItemTable, LinkedRow } from './store.js';
import { toId } from '../../ids.js';
import { searchFragments } from '../../text/search-terms.js';
import { geoFilter } from '../venues/geoloc.js';
import { fieldFilterArgNames, fieldFilters } from '../../fields/args.js';

/**
 * The archive, single and by-slug routes of a linked kind (venues, organizers, a host's kinds): one
 * mechanism, configured by the kind's service and write arguments.
 */
export function linkedRoutes<T extends ItemTable>(
  service: (ctx: RequestContext) => LinkedPostService<T>,
  kindInfo: LinkedPostService<T>['kind']['info'],
  writeArgs: <R extends boolean>(required: R) => LinkedWriteArgs,
): Route[] {
  const noun = kindInfo.noun;
  const collection = kindInfo.collection;
  const idArg = linkedIdArg(kindInfo);
  const slugArg = linkedSlugArg(kindInfo);

  /**
   * The item a single route addresses (by `id` or `slug`), once validation has passed: read
   * once per request, by the permission check, before a write's precondition is checked.
   */
  const targetKey = new MemoKey<Promise<LinkedRow<T> | undefined>>(`the ${noun} a single route addresses`);
  function target(ctx: RequestContext): Promise<LinkedRow<T> | undefined> {
    return ctx.memo.get(targetKey, () => {
      const s = service(ctx);
      const id = toId(ctx.path('id'));
      const slug = ctx.path('slug');
      return id !== undefined ? s.get(id) : slug !== undefined ? s.bySlug(slug) : Promise.resolve(undefined);
    });
  }

  /** Per-item permission once the item is known; the generic capability otherwise. */
  const allowed = (action: 'edit' | 'delete') => async (ctx: RequestContext) => {
    const row = await target(ctx);
    return row ? service(ctx).can(ctx.principal, action, row) : has(ctx.principal, `${action}_tribe_${kindInfo.kind}`);
  };

  /** Password-protected items are redacted unless the request unlocks them. */
  const locked = (ctx: RequestContext, row: LinkedRow<T>) => !unlocks(ctx, row.password, service(ctx).can(ctx.principal, 'edit', row));

  async function single(ctx: RequestContext, row: LinkedRow<T>, jsonLd: boolean) {
    const hidden = locked(ctx, row);
    const [json] = await service(ctx).render([row], { urls: ctx.urls, principal: ctx.principal, jsonLd: jsonLd && !hidden });
    if (!json) throw new Error(`calendar: no rendering of ${kindInfo.kind} ${row.id}`);
    return hidden ? redact(json) : json;
  }

  const read = async (ctx: RequestContext) => {
    const row = await target(ctx);
    if (!row || (row.status !== 'publish' && !service(ctx).can(ctx.principal, 'read', row))) throw linkedNotAccessible(noun);
    // A venue's or organizer's JSON is its own row's: its modification date dates the answer
    // (an event's embeds others, which move without changing its date: it has none).
    return { body: await single(ctx, row, true), headers: { 'Last-Modified': httpDate(new Date(`${row.modified_utc.replace(' ', 'T')}Z`)) } };
  };

  /** The item a write addresses, or 400 when the path names none (a query `id` can pass validation in its place). */
  async function writeTarget(ctx: RequestContext): Promise<WriteTarget<LinkedRow<T>>> {
    const missing = () => invalidParam(ctx.path('slug') !== undefined ? 'slug' : 'id');
    const row = await target(ctx);
    if (!row) throw missing();
    return { row, gone: missing, conditional: ctx.conditional };
  }

  const update = async (ctx: RequestContext & { params: Record<string, unknown> }) => {
    const { id: _id, slug: _slug, ...input } = ctx.params;
    const updated = await service(ctx).update(await writeTarget(ctx), input, ctx.principal, ctx.options.timezone, ctx.now());
    return { body: await single(ctx, updated, false) };
  };

  const remove = async (ctx: RequestContext) => {
    const item = await writeTarget(ctx);
    const s = service(ctx);
    if (isTruthy(ctx.input('force'))) {
      const previous = await single(ctx, item.row, false);
      await s.deletePermanently(item, ctx.principal);
      return { body: { deleted: true, previous } };
    }
    const trashed = await s.trash(item, ctx.principal, ctx.options.timezone, ctx.now());
    return { body: await single(ctx, trashed, false) };
  };

  const archive = endpoint({
    methods: READABLE,
    args: linkedArchiveArgs(kindInfo),
    handler: async (ctx) => {
      const p = ctx.params;
      const paging = archivePage(p, ctx.options);
      const { statuses, shown } = archiveStatuses(kindInfo, p.status, ctx);
      const hasEvents = p.has_events === undefined ? undefined : isTruthy(p.has_events);
      const upcoming = isTruthy(p.only_with_upcoming);
      // Items linked to an event the caller may not read are not revealed through it.
      const eventVisible = p.event === undefined || (await ctx.services.events.revealsLinks(p.event, ctx.principal));
      const near = geoFilter(ctx);
      const declared = ctx.services.fields.registry.of(collection);
      const { rows, total } = await service(ctx).list({
        statuses,
        offset: paging.offset,
        limit: paging.limit,
        searchFragments: p.search !== undefined ? searchFragments(p.search) : undefined,
        searchPasswords: p.search !== undefined ? searchablePasswords(ctx.principal, kindInfo) : undefined,
        eventId: p.event === undefined ? undefined : eventVisible ? p.event : 0,
        hasEvents,
        // The events that count are the ones the caller's own events archive lists.
        upcoming: upcoming ? { afterUtc: nowDates(ctx.options.timezone, ctx.now()).utc, statuses: archiveStatuses(EVENT, undefined, ctx).statuses } : undefined,
        near,
        // Coordinates of a password-protected venue are shown only to who may unlock it without its password.
        nearPasswords: near ? searchablePasswords(ctx.principal, kindInfo) : undefined,
        fields: fieldFilters(declared, ctx.params),
      });
      if (paging.page > 1 && rows.length === 0) {
        throw linkedPageNotFound(noun);
      }
      const pages = totalPages(total, paging);
      const rendered = await service(ctx).render(rows, { urls: ctx.urls, principal: ctx.principal, jsonLd: false });
      const items = rendered.map((json, i) => {
        // Without its row the item cannot be shown unlocked.
        const row = rows[i];
        return !row || locked(ctx, row) ? redact(json) : json;
      });
      const urls = pagingUrls(`${ctx.urls.base}/${collection}/`, paging.page, pages, [
        ['per_page', paging.perPage],
        ['event', p.event],
        ['has_events', asQueryValue(ctx.input('has_events'))],
        ['status', shown],
        ['search', p.search],
        ['only_with_upcoming', upcoming ? asQueryValue(ctx.input('only_with_upcoming')) : undefined],
        ['geoloc', near ? 1 : undefined],
        ['geoloc_lat', near ? asQueryValue(p.geoloc_lat) : undefined],
        ['geoloc_lng', near ? asQueryValue(p.geoloc_lng) : undefined],
        ['geoloc_radius', near && ctx.sent('geoloc_radius') ? asQueryValue(p.geoloc_radius) : undefined],
        // The filters of declared fields, by name (they are not among the archive's own arguments).
        ...fieldFilterArgNames(declared).map((name): QueryPair => [name, ctx.sent(name) ? asQueryValue(ctx.input(name)) : undefined]),
      ]);
      return {
        body: { [collection]: items, ...urls, total, total_pages: pages },
        headers: archiveHeaders(total, pages),
      };
    },
  });

  const create = endpoint({
    methods: CREATABLE,
    args: writeArgs(true),
    permission: (ctx) => has(ctx.principal, `edit_tribe_${kindInfo.kind}`),
    handler: async (ctx) => {
      const row = await service(ctx).create(ctx.params, ctx.principal, ctx.options.timezone, ctx.now());
      return { status: 201, body: await single(ctx, row, false) };
    },
  });

  const singleEndpoints = (key: Record<string, typeof idArg | typeof slugArg>) => [
    endpoint({ methods: READABLE, args: { ...key }, handler: read }),
    endpoint({ methods: DELETABLE, args: { ...key }, permission: allowed('delete'), handler: remove }),
    endpoint({ methods: EDITABLE, args: { ...key, ...writeArgs(false) }, permission: allowed('edit'), handler: update }),
  ];

  return [
    route(`/${collection}`, [archive, create]),
    route(`/${collection}/(?P<id>\\d+)`, singleEndpoints({ id: idArg })),
    route(`/${collection}/by-slug/(?P<slug>[^/]+)`, singleEndpoints({ slug: slugArg })),
  ];
}
