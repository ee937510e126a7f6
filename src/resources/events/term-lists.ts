/**
 * The `categories` and `tags` values of events: their elements, and the terms they name. A term
 * is looked up once per request: the archive's filter finds the terms its argument check found.
 */
import { isScalar, parseList } from '../../args/checks.js';
import { MemoKey, type RequestContext } from '../../http/context.js';
import type { Taxonomy } from '../../store/database.js';
import type { TermKind } from '../terms/args.js';
import type { TermRow } from '../terms/store.js';

/**
 * The elements of a `categories`/`tags` value (`Tribe__Utils__Array::list_to_array`): a
 * list as is, a string split at commas only, so that a name may contain spaces.
 */
export function termList(value: unknown): unknown[] | undefined {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  return parseList(value);
}

/** The terms this request has looked up, by taxonomy and the element that named them. */
const LOOKED_UP = new MemoKey<Map<string, Promise<TermRow | undefined>>>('terms named by the request');

/** The term an element names (id, slug or name), looked up at most once per request. */
function lookUp(ctx: Pick<RequestContext, 'memo' | 'services'>, taxonomy: Taxonomy, element: string | number): Promise<TermRow | undefined> {
  const found = ctx.memo.get(LOOKED_UP, () => new Map());
  const key = `${taxonomy}\n${typeof element}\n${element}`;
  let term = found.get(key);
  if (!term) {
    term = ctx.services.terms.resolve(taxonomy, element);
    found.set(key, term);
  }
  return term;
}

/** The check of a filter: a non-empty list whose every element names an existing term (id, slug or name). */
export function existingTermList(kind: TermKind) {
  return async (value: unknown, ctx: RequestContext) => {
    const list = termList(value);
    if (!list?.length || !list.every(isScalar)) return false;
    for (const item of list) if (!(await lookUp(ctx, kind.taxonomy, item))) return false;
    return true;
  };
}

/** Term ids named by a filter (id, slug or name), with the descendants of categories. */
export async function termFilter(ctx: RequestContext, kind: TermKind, value: unknown): Promise<number[]> {
  const ids: number[] = [];
  for (const item of termList(value) ?? []) {
    if (!isScalar(item)) continue;
    const row = await lookUp(ctx, kind.taxonomy, item);
    if (row) ids.push(row.id);
  }
  return kind.hierarchical ? ctx.services.terms.withDescendants(kind.taxonomy, ids) : ids;
}
