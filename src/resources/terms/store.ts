import { sql, type Kysely, type Selectable } from 'kysely';
import { isStoredId } from '../../ids.js';
import type { Database, Taxonomy, TermsTable } from '../../store/database.js';
import { containsIgnoringCase } from '../../store/like.js';
import { PreparedQuery } from '../../store/prepared.js';

/**
 * The longest values the terms table holds on every dialect: `name` is `varchar(200)` and
 * `description` is `text`, which MySQL caps at 65,535 bytes.
 */
export const TERM_COLUMN_LIMITS = { nameCharacters: 200, descriptionBytes: 65_535 } as const;

/** Whether a name and a description fit the terms table (`undefined` = not written). */
export function fitsColumns(name: string | undefined, description: string | undefined): boolean {
  const { nameCharacters, descriptionBytes } = TERM_COLUMN_LIMITS;
  return (name === undefined || [...name].length <= nameCharacters) && (description === undefined || Buffer.byteLength(description) <= descriptionBytes);
}

/** A stored term with its published-event count. */
export type TermRow = Selectable<TermsTable> & { count: number };

/** What a term archive asks for. */
export interface TermListQuery {
  taxonomy: Taxonomy;
  offset: number;
  limit: number;
  search?: string;
  include?: number[];
  exclude?: number[];
  parent?: number;
  postId?: number;
  slug?: string;
  hideEmpty: boolean;
  orderby: 'id' | 'name' | 'slug' | 'count' | 'description' | 'parent' | 'include' | 'none';
  order: 'asc' | 'desc';
  /** The order of `include` (for `orderby=include`). */
  includeOrder?: number[];
}

/** A term as read (a count may come back as a string or a bigint): its row. */
export function toTermRow(r: Selectable<TermsTable> & { count: unknown }): TermRow {
  return { ...r, count: Number(r.count) };
}

/** A term by id, and by slug: the look-ups of the terms an event write names. */
const BY_ID = new PreparedQuery((db, v: { taxonomy: Taxonomy; id: number }) =>
  db.selectFrom('terms').selectAll('terms').where('terms.id', '=', v.id).where('terms.taxonomy', '=', v.taxonomy),
);
const BY_IDS = new PreparedQuery((db, v: { taxonomy: Taxonomy; ids: number[] }) =>
  db.selectFrom('terms').selectAll('terms').where('terms.id', 'in', v.ids).where('terms.taxonomy', '=', v.taxonomy),
);
const BY_SLUG = new PreparedQuery((db, v: { taxonomy: Taxonomy; slug: string }) =>
  db.selectFrom('terms').selectAll('terms').where('terms.taxonomy', '=', v.taxonomy).where('terms.slug', '=', v.slug).limit(1),
);

/** Queries and writes of categories and tags. */
export class TermStore {
  constructor(private readonly db: Kysely<Database>) {}

  private select(db: Kysely<Database> = this.db) {
    return db.selectFrom('terms').selectAll('terms');
  }

  /** A term of the taxonomy by id. */
  async get(taxonomy: Taxonomy, id: number): Promise<TermRow | undefined> {
    if (!isStoredId(id)) return undefined;
    const r = await BY_ID.first(this.db, { taxonomy, id });
    return r && toTermRow(r);
  }

  /** Terms of the taxonomy by id, any order. */
  async getMany(taxonomy: Taxonomy, ids: readonly number[]): Promise<TermRow[]> {
    const valid = ids.filter(isStoredId);
    if (!valid.length) return [];
    const rows = await BY_IDS.rows(this.db, { taxonomy, ids: valid });
    return rows.map(toTermRow);
  }

  /** A term by slug. */
  async bySlug(taxonomy: Taxonomy, slug: string): Promise<TermRow | undefined> {
    const r = await BY_SLUG.first(this.db, { taxonomy, slug });
    return r && toTermRow(r);
  }

  /** Terms whose name equals `name`, ignoring case; within `parent` when given. */
  async byName(taxonomy: Taxonomy, name: string, parent?: number): Promise<TermRow[]> {
    let q = this.select()
      .where('terms.taxonomy', '=', taxonomy)
      .where((eb) => eb(eb.fn('lower', ['terms.name']), '=', name.toLowerCase()));
    if (parent !== undefined) q = q.where('terms.parent', '=', parent);
    return (await q.orderBy('terms.id').execute()).map(toTermRow);
  }

  /** One page of an archive and the total across pages. */
  async list(query: TermListQuery): Promise<{ rows: TermRow[]; total: number }> {
    const { taxonomy } = query;
    const hideEmptyCategories = query.hideEmpty && taxonomy === 'tribe_events_cat';
    // A category with no published event still shows when one of its descendants has one:
    // `shown` is every non-empty category and its ancestors.
    const creator = hideEmptyCategories
      ? this.db.withRecursive('shown(id, parent)', (qc) =>
          qc
            .selectFrom('terms as t')
            .select(['t.id', 't.parent'])
            .where('t.taxonomy', '=', taxonomy)
            .where('t.count', '>', 0)
            .union((u) => u.selectFrom('terms as t2').innerJoin('shown', 'shown.parent', 't2.id').select(['t2.id', 't2.parent'])),
        )
      : this.db.withTables<{ shown: { id: number; parent: number } }>();
    let q = creator.selectFrom('terms').where('terms.taxonomy', '=', taxonomy);
    if (query.search) {
      const search = query.search;
      q = q.where((eb) => eb.or([containsIgnoringCase(eb.ref('terms.name'), search), containsIgnoringCase(eb.ref('terms.slug'), search)]));
    }
    if (query.include) q = query.include.length ? q.where('terms.id', 'in', query.include) : q.where(sql<boolean>`1 = 0`);
    if (query.exclude?.length) q = q.where('terms.id', 'not in', query.exclude);
    if (query.parent !== undefined) q = q.where('terms.parent', '=', query.parent);
    if (query.slug !== undefined) q = q.where('terms.slug', '=', query.slug);
    if (query.postId !== undefined) {
      const postId = query.postId;
      q = q.where('terms.id', 'in', (eb) => eb.selectFrom('term_relationships').select('term_id').where('post_id', '=', postId));
    }
    if (hideEmptyCategories) q = q.where('terms.id', 'in', (eb) => eb.selectFrom('shown').select('shown.id'));
    else if (query.hideEmpty) q = q.where('terms.count', '>', 0);

    const totalRow = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(totalRow.n);

    let page = q.selectAll('terms');
    const dir = query.order;
    switch (query.orderby) {
      case 'id':
        page = page.orderBy('terms.id', dir);
        break;
      case 'slug':
        page = page.orderBy('terms.slug', dir).orderBy('terms.id', dir);
        break;
      case 'count':
        page = page.orderBy('terms.count', dir).orderBy('terms.id', dir);
        break;
      case 'description':
        page = page.orderBy('terms.description', dir).orderBy('terms.id', dir);
        break;
      case 'parent':
        page = page.orderBy('terms.parent', dir).orderBy('terms.id', dir);
        break;
      case 'include':
        if (query.includeOrder?.length) {
          const order = query.includeOrder;
          page = page.orderBy(
            sql`case ${sql.join(
              order.map((id, i) => sql`when ${sql.ref('terms.id')} = ${id} then ${i}`),
              sql` `,
            )} else ${order.length} end`,
            dir,
          );
        }
        page = page.orderBy('terms.id', dir);
        break;
      case 'none':
        page = page.orderBy('terms.id', 'asc');
        break;
      default:
        page = page.orderBy((eb) => eb.fn('lower', ['terms.name']), dir).orderBy('terms.id', dir);
    }
    const rows = await page.limit(query.limit).offset(query.offset).execute();
    return { rows: rows.map(toTermRow), total };
  }

  /** Whether a slug is taken in the taxonomy (by another term than `exceptId`). */
  async slugTaken(taxonomy: Taxonomy, slug: string, exceptId?: number): Promise<boolean> {
    return (await this.slugsTaken(taxonomy, [slug], exceptId)).size > 0;
  }

  /**
   * Those of `slugs` taken in the taxonomy (by another term than `exceptId`), in lower case: the
   * database compares them its own way (on MariaDB, without regard to case), and its answer is
   * matched back so.
   */
  async slugsTaken(taxonomy: Taxonomy, slugs: readonly string[], exceptId?: number): Promise<Set<string>> {
    if (!slugs.length) return new Set();
    let q = this.db
      .selectFrom('terms')
      .select('slug')
      .where('taxonomy', '=', taxonomy)
      .where('slug', 'in', [...slugs]);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return new Set((await q.execute()).map((r) => r.slug.toLowerCase()));
  }

  /** Ids of the direct children of the given terms. */
  async childrenOf(taxonomy: Taxonomy, parents: readonly number[]): Promise<number[]> {
    if (!parents.length) return [];
    const rows = await this.db
      .selectFrom('terms')
      .select('id')
      .where('taxonomy', '=', taxonomy)
      .where('parent', 'in', [...parents])
      .execute();
    return rows.map((r) => r.id);
  }

  /** Slug and parent of a term. */
  async slugAndParent(id: number): Promise<{ slug: string; parent: number } | undefined> {
    return this.db.selectFrom('terms').select(['slug', 'parent']).where('id', '=', id).executeTakeFirst();
  }

  /** Terms by id with their parents, up to the roots (for hierarchical URLs). */
  async withAncestors(taxonomy: Taxonomy, rows: readonly TermRow[]): Promise<Map<number, { slug: string; parent: number }>> {
    const known = new Map<number, { slug: string; parent: number }>(rows.map((r) => [r.id, { slug: r.slug, parent: r.parent }]));
    let missing = [...new Set(rows.map((r) => r.parent))].filter((p) => p && !known.has(p));
    for (let depth = 0; missing.length && depth < 64; depth++) {
      const parents = await this.db.selectFrom('terms').select(['id', 'slug', 'parent']).where('taxonomy', '=', taxonomy).where('id', 'in', missing).execute();
      for (const p of parents) known.set(p.id, { slug: p.slug, parent: p.parent });
      missing = [...new Set(parents.map((p) => p.parent))].filter((p) => p && !known.has(p));
    }
    return known;
  }

  /** Whether `candidate` is the term `id` itself or one of its descendants (found walking up from `candidate`). */
  async isSelfOrDescendant(taxonomy: Taxonomy, id: number, candidate: number): Promise<boolean> {
    // No depth bound (a deeper chain would let a cycle through); `seen` stops at any old cycle.
    const seen = new Set<number>();
    for (let current = candidate; current && !seen.has(current);) {
      if (current === id) return true;
      seen.add(current);
      const row = await this.db.selectFrom('terms').select('parent').where('taxonomy', '=', taxonomy).where('id', '=', current).executeTakeFirst();
      current = row?.parent ?? 0;
    }
    return false;
  }
}
