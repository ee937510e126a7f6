import { phpInteger } from '../../php/numeric.js';
import { arg, type Args } from '../../args/arg.js';
import { isScalar, nonEmptyString, parseList } from '../../args/checks.js';
import { toId } from '../../ids.js';
import type { RequestContext } from '../../http/context.js';
import type { Taxonomy } from '../../store/database.js';
import { pageArg, perPageArg } from '../../archive/args.js';
import { existingEvent } from '../../posts/args.js';

/** The two term resources and what differs between them. */
export interface TermKind {
  taxonomy: Taxonomy;
  /** Path segment and envelope key: `categories` or `tags`. */
  collection: 'categories' | 'tags';
  /** Prefix of the description keys. */
  key: 'category' | 'tag';
  hierarchical: boolean;
}

export const CATEGORIES: TermKind = { taxonomy: 'tribe_events_cat', collection: 'categories', key: 'category', hierarchical: true };
export const TAGS: TermKind = { taxonomy: 'post_tag', collection: 'tags', key: 'tag', hierarchical: false };

type Ctx = RequestContext;

/** A non-empty list (CSV or array) whose every element names an existing term of the taxonomy (by id, slug or name). */
function existingTerms(kind: TermKind) {
  return async (value: unknown, ctx: Ctx) => {
    const list = parseList(value);
    if (!list?.length || !list.every(isScalar)) return false;
    for (const item of new Set(list)) if (!(await ctx.services.terms.resolve(kind.taxonomy, item))) return false;
    return true;
  };
}

/** The `id` path argument: an existing term of the taxonomy (else 400, not 404). */
export function termIdArg(kind: TermKind) {
  return arg(
    { type: 'integer', description: `${kind.key}.id` },
    {
      required: true,
      in: 'path',
      check: async (value: unknown, ctx: Ctx) => {
        const id = toId(value);
        return id !== undefined && (await ctx.services.terms.get(kind.taxonomy, id)) !== undefined;
      },
    },
  );
}

/** Arguments of the term archive. */
export function termArchiveArgs(kind: TermKind) {
  const args = {
    page: pageArg,
    per_page: perPageArg,
    search: arg({ description: 'terms.search', type: 'string' }, { check: nonEmptyString }),
    exclude: arg({ description: 'terms.exclude', items: { type: 'integer' } }, { check: existingTerms(kind) }),
    include: arg({ description: 'terms.include', items: { type: 'integer' } }, { check: existingTerms(kind) }),
    order: arg({ description: 'terms.order', type: 'string' }, { check: nonEmptyString }),
    orderby: arg({ description: 'terms.orderby', type: 'string' }, { check: nonEmptyString }),
    hide_empty: arg({ description: 'terms.hide_empty', type: 'boolean', default: '1' }),
    ...(kind.hierarchical
      ? {
          parent: arg(
            { description: 'terms.parent', type: 'integer' },
            { check: async (value: unknown, ctx: Ctx) => isScalar(value) && (await ctx.services.terms.resolve(kind.taxonomy, value)) !== undefined },
          ),
        }
      : {}),
    post: arg({ description: 'terms.post', type: 'integer' }, { check: existingEvent }),
    event: arg({ description: 'terms.event', type: 'integer' }, { check: existingEvent }),
    slug: arg({ description: 'terms.slug', type: 'string' }, { check: nonEmptyString }),
  };
  return args as typeof args & { parent?: typeof args.post };
}

/** Arguments of term creation; `required` only on create. */
export function termWriteArgs<R extends boolean>(kind: TermKind, required: R) {
  const args = {
    name: arg({ type: 'string', description: `${kind.key}.name` }, { required, check: nonEmptyString }),
    description: arg({ type: 'string', description: `${kind.key}.description` }, { check: nonEmptyString }),
    slug: arg({ type: 'string', description: `${kind.key}.slug` }, { check: nonEmptyString }),
    ...(kind.hierarchical
      ? {
          parent: arg(
            { type: 'integer', description: 'category.parent' },
            {
              // An existing category: by id (as the integer type pass will read it: `"1.0"` is 1),
              // or by slug, which then fails the integer type pass.
              check: async (value: unknown, ctx: Ctx) =>
                isScalar(value) && (await ctx.services.terms.resolve(kind.taxonomy, phpInteger(value) ?? value)) !== undefined,
            },
          ),
        }
      : {}),
  };
  return args as typeof args & { parent?: ReturnType<typeof arg<{ type: 'integer' }>> };
}

export type { Args };
