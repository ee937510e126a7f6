import { has, type Principal } from '../../auth/capabilities.js';
import { toId } from '../../ids.js';
import { invalidParam } from '../../http/errors.js';
import { duplicateTermSlug, emptyTermName, termExists, termNotFound, termNotInserted, termNotUpdated } from './errors.js';
import type { Urls } from '../../http/urls.js';
import { termJson, termLinks, type Ancestry } from './json.js';
import type { Term } from '../../schemas/types.js';
import type { TermKind } from './args.js';
import type { TermText } from './named.js';
import type { ChangeKind, Taxonomy } from '../../store/database.js';
import type { Store } from '../store.js';
import { withRetry } from '../../store/retry.js';
import { preconditionFailed } from '../../http/conditional.js';
import { sameRow } from '../../posts/write-target.js';
import { fitsColumns, type TermListQuery, type TermRow } from './store.js';
import { sanitizeTermName } from '../../text/sanitize.js';
import { firstFreeNumbered, fitSlug, sanitizeTitle } from '../../text/slug.js';
import { NO_FIELDS, type HostFields } from '../../fields/values.js';
import { NO_HOOKS, type CalendarHooks } from '../../hooks/calendar-hooks.js';

/** Fields of a term write, as validated by the route. */
export interface TermInput {
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
}

const ALL_VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The rules of categories and tags: lookup, listing, writes and who may make them. */
export class TermService {
  constructor(
    private readonly store: Store,
    /** The fields the host declared. */
    private readonly fields: HostFields = NO_FIELDS,
    /** The host's hooks (`beforeChange` inside each write's transaction, `afterRead` on rendered terms). */
    private readonly hooks: CalendarHooks = NO_HOOKS,
  ) {}

  /** Whether the caller may create, edit and delete terms of this kind. */
  canManage(kind: TermKind, p: Principal | null): boolean {
    return has(p, 'edit_tribe_events') && has(p, kind.hierarchical ? 'publish_tribe_events' : 'manage_categories');
  }

  /** A term by id. */
  get(taxonomy: Taxonomy, id: number): Promise<TermRow | undefined> {
    return this.store.terms.get(taxonomy, id);
  }

  /** A term named by a client: id when numeric, else slug, else name. */
  async resolve(taxonomy: Taxonomy, value: string | number): Promise<TermRow | undefined> {
    const id = toId(value);
    if (id !== undefined) return this.store.terms.get(taxonomy, id);
    const text = String(value).trim();
    if (!text) return undefined;
    return (await this.store.terms.bySlug(taxonomy, text)) ?? (await this.store.terms.byName(taxonomy, sanitizeTermName(text)))[0];
  }

  /** The given terms and all their descendants (category filters match children too). */
  async withDescendants(taxonomy: Taxonomy, ids: readonly number[]): Promise<number[]> {
    const all = new Set(ids);
    let frontier = [...all];
    for (let depth = 0; frontier.length && depth < 64; depth++) {
      frontier = (await this.store.terms.childrenOf(taxonomy, frontier)).filter((id) => !all.has(id));
      for (const id of frontier) all.add(id);
    }
    return [...all];
  }

  /** One archive page, rendered. */
  async list(kind: TermKind, query: Omit<TermListQuery, 'taxonomy'>, urls: Urls, p: Principal | null = null): Promise<{ items: Term[]; total: number }> {
    const { rows, total } = await this.store.terms.list({ ...query, taxonomy: kind.taxonomy });
    return { items: await this.render(kind, rows, urls, p), total };
  }

  /** Terms in the shape of the term routes, as `p` is shown them. */
  async render(kind: TermKind, rows: TermRow[], urls: Urls, p: Principal | null = null): Promise<Term[]> {
    const ancestry = await this.ancestry(kind, rows);
    const items = await this.fields.decorate(
      this.store.fields,
      kind.collection,
      rows.map((row) => termJson(kind, row, ancestry, urls)),
    );
    return this.hooks.read(kind.collection, items, p);
  }

  /** A single term with its `_links`. */
  async single(kind: TermKind, row: TermRow, urls: Urls, p: Principal | null): Promise<Term> {
    const [json = termJson(kind, row, await this.ancestry(kind, [row]), urls)] = await this.render(kind, [row], urls, p);
    return { ...json, _links: termLinks(kind, row, urls, this.canManage(kind, p) ? ALL_VERBS : ['GET']) };
  }

  /** The ancestors of categories, for their hierarchical URLs (tags have none). */
  private async ancestry(kind: TermKind, rows: TermRow[]): Promise<Ancestry> {
    return kind.hierarchical ? this.store.terms.withAncestors(kind.taxonomy, rows) : new Map();
  }

  /** Creates a term. */
  async create(kind: TermKind, sent: TermInput & { name: string }, p: Principal | null = null): Promise<TermRow> {
    this.created(kind, sent);
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const input = await this.hooks.before(kind.collection, 'create', sent, p);
        const { name, parent, givenSlug } = this.created(kind, input);
        const terms = tx.terms;
        const [match] = await terms.byName(kind.taxonomy, name, kind.hierarchical ? parent : undefined);
        if (match) {
          const slugTaken = givenSlug !== '' && (await terms.slugTaken(kind.taxonomy, givenSlug));
          if (givenSlug === '' || match.slug === givenSlug || slugTaken) throw termExists(kind.hierarchical, match.id);
        }
        const base = givenSlug || sanitizeTitle(name);
        // A name without a single slug character gets its id as slug, known only after the insert.
        const slug = base ? await this.uniqueSlug(tx, kind, base, parent) : `__pending-${crypto.randomUUID()}`;
        const id = await tx.dialect.insertReturningId(
          tx.db.insertInto('terms').values({ taxonomy: kind.taxonomy, name, slug, description: input.description ?? '', parent }),
        );
        if (!base)
          await tx.db
            .updateTable('terms')
            .set({ slug: String(id) })
            .where('id', '=', id)
            .execute();
        await this.fields.save(tx.fields, kind.collection, id, input, { created: true });
        tx.changes.record(changeKind(kind), id, 'created');
        return id;
      }),
    ).then(async (id) => this.written(kind, id));
  }

  /** The name, parent and slug a new term is given, once sure the store can hold them. */
  private created(kind: TermKind, input: TermInput) {
    const name = this.cleanName(String(input.name ?? ''));
    // WordPress' database layer refuses values wider than the column (a 500 there, 400 here).
    if (!fitsColumns(name, input.description)) throw termNotInserted();
    const parent = kind.hierarchical ? (input.parent ?? 0) : 0;
    const givenSlug = input.slug !== undefined ? sanitizeTitle(input.slug) : '';
    return { name, parent, givenSlug };
  }

  /**
   * The terms of an event write's texts that no slug matched (`unmatchedTexts`), by name: each
   * text's term found by its name, or by the slug of a term made for an earlier text, else
   * created (texts whose name sanitises to nothing name none). Keyed by the texts' names.
   */
  async idsForTexts(tx: Store, kind: TermKind, texts: readonly TermText[], p: Principal | null = null): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    // Terms made here, by slug: a later text with that slug names the same term.
    const made = new Map<string, number>();
    for (const { slug, name } of texts) {
      if (ids.has(name)) continue;
      const found = made.get(slug) ?? (await tx.terms.byName(kind.taxonomy, name))[0]?.id;
      if (found !== undefined) ids.set(name, found);
      else if (name) {
        // A term created by an event write is a create the host's hook may refuse (not rename: the event names it).
        await this.hooks.before(kind.collection, 'create', { name }, p);
        const newSlug = await this.uniqueSlug(tx, kind, sanitizeTitle(name) || 'term', 0);
        const id = await tx.dialect.insertReturningId(
          tx.db.insertInto('terms').values({ taxonomy: kind.taxonomy, name, slug: newSlug, description: '', parent: 0 }),
        );
        tx.changes.record(changeKind(kind), id, 'created');
        made.set(newSlug, id);
        ids.set(name, id);
      }
    }
    return ids;
  }

  /** Updates the fields sent; with `expected` (a conditional write), only while the term is still as it was read. */
  async update(kind: TermKind, id: number, sent: TermInput, expected?: TermRow, p: Principal | null = null): Promise<TermRow> {
    this.changed(kind, sent);
    await withRetry(() =>
      this.store.transaction(async (tx) => {
        if (expected) await unchanged(tx, expected);
        const input = await this.hooks.before(kind.collection, 'update', sent, p, expected ?? (await tx.terms.get(kind.taxonomy, id)));
        const changes = this.changed(kind, input);
        // A parent below the term itself would make a cycle.
        if (changes.parent !== undefined && (await tx.terms.isSelfOrDescendant(kind.taxonomy, id, changes.parent))) throw invalidParam('parent');
        if (input.slug !== undefined) {
          const slug = sanitizeTitle(input.slug) || sanitizeTitle(changes.name ?? '') || String(id);
          if (await tx.terms.slugTaken(kind.taxonomy, slug, id)) throw duplicateTermSlug(slug);
          changes.slug = slug;
        }
        const fields = this.fields.given(kind.collection, input);
        if (fields.size) await tx.fields.save('term', id, fields);
        if (Object.keys(changes).length) await tx.db.updateTable('terms').set(changes).where('id', '=', id).execute();
        if (Object.keys(changes).length || fields.size) tx.changes.record(changeKind(kind), id, 'updated');
      }),
    );
    return this.written(kind, id);
  }

  /** A term a write just committed, read back (a delete racing it is the write's failure). */
  private async written(kind: TermKind, id: number): Promise<TermRow> {
    const row = await this.store.terms.get(kind.taxonomy, id);
    if (!row) throw termNotFound();
    return row;
  }

  /** The columns an update changes (but the slug), once sure the store can hold them. */
  private changed(kind: TermKind, input: TermInput): Partial<{ name: string; slug: string; description: string; parent: number }> {
    const changes: Partial<{ name: string; slug: string; description: string; parent: number }> = {};
    if (input.name !== undefined) changes.name = this.cleanName(input.name);
    if (input.description !== undefined) changes.description = input.description;
    if (!fitsColumns(changes.name, changes.description)) throw termNotUpdated();
    if (input.parent !== undefined && kind.hierarchical) changes.parent = input.parent;
    return changes;
  }

  /** Deletes a term for good: children move to its parent, events lose it; if `conditional`, only while it is still `row`. */
  async delete(kind: TermKind, row: TermRow, conditional = false, p: Principal | null = null): Promise<void> {
    await withRetry(() =>
      this.store.transaction(async (tx) => {
        const { db, dialect } = tx;
        // Locked first: an event write linking the term meanwhile either goes before (and its
        // link is deleted here) or after (and finds the term gone).
        if (conditional) await unchanged(tx, row);
        else await dialect.locking(db.selectFrom('terms').select('id').where('id', '=', row.id)).execute();
        await this.hooks.before(kind.collection, 'delete', { force: true }, p, row);
        const children = await db.selectFrom('terms').select('id').where('taxonomy', '=', kind.taxonomy).where('parent', '=', row.id).execute();
        await db.updateTable('terms').set({ parent: row.parent }).where('taxonomy', '=', kind.taxonomy).where('parent', '=', row.id).execute();
        const events = await db.selectFrom('term_relationships').select('post_id').where('term_id', '=', row.id).execute();
        await db.deleteFrom('term_relationships').where('term_id', '=', row.id).execute();
        await db.deleteFrom('terms').where('id', '=', row.id).execute();
        await db.deleteFrom('field_values').where('family', '=', 'term').where('item_id', '=', row.id).execute();
        // The children moved up, and the events lost a term: each of them changed.
        for (const child of children) tx.changes.record(changeKind(kind), Number(child.id), 'updated');
        for (const event of events) tx.changes.record('event', Number(event.post_id), 'updated');
        tx.changes.record(changeKind(kind), row.id, 'deleted');
      }),
    );
  }

  private cleanName(raw: string): string {
    const name = sanitizeTermName(raw);
    if (!name) throw emptyTermName();
    return name;
  }

  /**
   * A slug free in the taxonomy: `slug`, then `slug-parentslug…` for children, then `-2`,
   * `-3`… (shortened where a suffix would outgrow the column).
   */
  private async uniqueSlug(tx: Store, kind: TermKind, base: string, parent: number): Promise<string> {
    const taken = (s: string) => tx.terms.slugTaken(kind.taxonomy, s);
    let slug = base;
    if (!(await taken(slug))) return slug;
    if (kind.hierarchical && parent) {
      let ancestor = parent;
      for (let depth = 0; ancestor && depth < 64; depth++) {
        const p = await tx.terms.slugAndParent(ancestor);
        if (!p) break;
        slug = fitSlug(slug, `-${p.slug}`);
        if (!(await taken(slug))) return slug;
        ancestor = p.parent;
      }
    }
    return firstFreeNumbered(
      (n) => fitSlug(slug, `-${n}`),
      (candidates) => tx.terms.slugsTaken(kind.taxonomy, candidates),
    );
  }
}

/** Locks the term and requires it as `expected` (a conditional write): else the request's `412`. */
async function unchanged(tx: Store, expected: TermRow): Promise<void> {
  await tx.dialect.locking(tx.db.selectFrom('terms').select('id').where('id', '=', expected.id)).execute();
  const current = await tx.terms.get(expected.taxonomy, expected.id);
  if (!current || !sameRow(current, expected)) throw preconditionFailed();
}

/** The change log's kind of a taxonomy's terms. */
function changeKind(kind: TermKind): ChangeKind {
  return kind.taxonomy === 'post_tag' ? 'tag' : 'category';
}
