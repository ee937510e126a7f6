import { asQueryValue, termPagingUrls } from '../../archive/urls.js';
import { archiveHeaders, archivePage, totalPages } from '../../archive/page.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, endpoint, route, type Route } from '../../http/route.js';
import { termArchiveArgs, termIdArg, termWriteArgs, type TermKind } from './args.js';
import { parseList } from '../../args/checks.js';
import { toId } from '../../ids.js';
import type { TermListQuery, TermRow } from './store.js';
import { MemoKey, type RequestContext } from '../../http/context.js';
import { sanitizeTitle } from '../../text/slug.js';
import { notHierarchical, termNotFound } from './errors.js';

const ORDERBY: Record<string, TermListQuery['orderby']> = {
  id: 'id',
  term_id: 'id',
  term_taxonomy_id: 'id',
  name: 'name',
  slug: 'slug',
  term_group: 'none',
  count: 'count',
  description: 'description',
  parent: 'parent',
  include: 'include',
  include_slugs: 'slug',
  none: 'none',
};

/** Filters a term archive carries into its paging URLs (with `per_page`; never `page`). */
const CARRIED = ['per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug'];

function ids(value: unknown): number[] | undefined {
  const list = parseList(value);
  return list?.map(toId).filter((id): id is number => id !== undefined);
}

/** Rejects `parent` on tags. */
function rejectParentOnTags(kind: TermKind, ctx: RequestContext): void {
  if (!kind.hierarchical && ctx.input('parent') !== undefined) {
    throw notHierarchical();
  }
}

/** The archive and single routes of one term kind (`/categories`, `/tags`). */
export function termRoutes(kind: TermKind): Route[] {
  const archiveArgs = termArchiveArgs(kind);
  const idArg = termIdArg(kind);
  const manage = (ctx: RequestContext) => ctx.services.terms.canManage(kind, ctx.principal);

  /**
   * The term a write addresses, read once, by the permission check: before a conditional
   * write's precondition is checked, so that its transaction can require the term unchanged.
   */
  const targetKey = new MemoKey<Promise<TermRow | undefined>>(`the ${kind.collection} item a write addresses`);
  const target = (ctx: RequestContext) =>
    ctx.memo.get(targetKey, () => {
      const id = toId(ctx.path('id'));
      return id === undefined ? Promise.resolve(undefined) : ctx.services.terms.get(kind.taxonomy, id);
    });
  const manageTarget = async (ctx: RequestContext) => {
    if (ctx.conditional) await target(ctx);
    return manage(ctx);
  };

  const archive = endpoint({
    methods: READABLE,
    args: archiveArgs,
    handler: async (ctx) => {
      const p = ctx.params;
      const paging = archivePage(p, ctx.options);
      const include = p.include !== undefined ? ids(p.include) : undefined;
      // The terms of an event the caller may not read are not revealed through it.
      const event = p.event ?? p.post;
      const postId = event === undefined ? undefined : (await ctx.services.events.revealsLinks(event, ctx.principal)) ? event : 0;
      const { items, total } = await ctx.services.terms.list(
        kind,
        {
          offset: paging.offset,
          limit: paging.limit,
          search: p.search,
          include,
          includeOrder: include,
          exclude: p.exclude !== undefined ? ids(p.exclude) : undefined,
          parent: p.parent,
          postId,
          // WordPress' term query sanitises the slug it is given (`slug=Foo Bar` finds `foo-bar`).
          slug: p.slug !== undefined ? sanitizeTitle(p.slug) : undefined,
          hideEmpty: p.hide_empty ?? true,
          orderby: ORDERBY[p.orderby?.toLowerCase() ?? 'name'] ?? 'name',
          order: p.order === undefined || p.order.toLowerCase() === 'asc' ? 'asc' : 'desc',
        },
        ctx.urls,
        ctx.principal,
      );
      const pages = totalPages(total, paging);
      // `per_page` is carried as clamped, so that every page of the followed URLs is the same.
      const carried = CARRIED.filter((k) => ctx.sent(k)).map((k) => [k, k === 'per_page' ? paging.perPage : asQueryValue(ctx.input(k))] as const);
      const { rest_url, ...pageUrls } = termPagingUrls(`${ctx.urls.base}/${kind.collection}/`, paging.page, pages, carried);
      return { body: { rest_url, total, total_pages: pages, [kind.collection]: items, ...pageUrls }, headers: archiveHeaders(total, pages) };
    },
  });

  const create = endpoint({
    methods: CREATABLE,
    args: termWriteArgs(kind, true),
    permission: manage,
    handler: async (ctx) => {
      rejectParentOnTags(kind, ctx);
      const row = await ctx.services.terms.create(kind, ctx.params, ctx.principal);
      const self = `${ctx.urls.base}/${kind.collection}/${row.id}`;
      return { status: 201, body: await ctx.services.terms.single(kind, row, ctx.urls, ctx.principal), headers: { Location: self } };
    },
  });

  const read = endpoint({
    methods: READABLE,
    args: { id: idArg },
    handler: async (ctx) => {
      const row = await ctx.services.terms.get(kind.taxonomy, ctx.params.id);
      if (!row) throw termNotFound();
      return { body: await ctx.services.terms.single(kind, row, ctx.urls, ctx.principal) };
    },
  });

  const update = endpoint({
    methods: EDITABLE,
    args: { id: idArg, ...termWriteArgs(kind, false) },
    permission: manageTarget,
    handler: async (ctx) => {
      rejectParentOnTags(kind, ctx);
      const { id, ...input } = ctx.params;
      const row = await ctx.services.terms.update(kind, id, input, ctx.conditional ? await target(ctx) : undefined, ctx.principal);
      return { body: await ctx.services.terms.single(kind, row, ctx.urls, ctx.principal) };
    },
  });

  const remove = endpoint({
    methods: DELETABLE,
    args: { id: idArg },
    permission: manageTarget,
    handler: async (ctx) => {
      const row = ctx.conditional ? await target(ctx) : await ctx.services.terms.get(kind.taxonomy, ctx.params.id);
      if (!row) throw termNotFound();
      const [before] = await ctx.services.terms.render(kind, [row], ctx.urls, ctx.principal);
      await ctx.services.terms.delete(kind, row, ctx.conditional, ctx.principal);
      return { body: before };
    },
  });

  return [route(`/${kind.collection}`, [archive, create]), route(`/${kind.collection}/(?P<id>\\d+)`, [read, update, remove])];
}
