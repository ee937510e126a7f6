/**
 * Imports a source's categories (parents before children) and tags: each term becomes the
 * term it became last time (or an existing one with its slug), updated where the source
 * changed it, or a new one; in one transaction per term, with its record (`map.ts`). Names,
 * slugs and descriptions go through the rules of a term write.
 */
import type { ChangeKind } from '../store/database.js';
import { withRetry } from '../store/retry.js';
import type { TermKind } from '../resources/terms/args.js';
import { fitsColumns } from '../resources/terms/store.js';
import { sanitizeTermName } from '../text/sanitize.js';
import { sanitizeTitle } from '../text/slug.js';
import { ItemRules, Refusal, type Alteration } from './write-rules.js';
import { insertKeepingId } from './keep-ids.js';
import { emptyReport, type KindReport } from './report.js';
import type { ImportRun } from './run.js';

/** A term as the source shows it, under the rules of a term write. */
interface SourceTerm {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** What the rules changed. */
  altered: Alteration[];
}

/**
 * The term in a source item, as a term write stores it: its name as `sanitize_term_field`
 * makes it (refused when that leaves nothing), its slug made one (else the name's, else
 * `<kind>-<id>`), both within the columns; `undefined` when it has no term's shape; throws a
 * {@link Refusal} naming the field that fails.
 */
function sourceTerm(item: unknown, kind: TermKind, rules: ItemRules): SourceTerm | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const t = item as Record<string, unknown>;
  if (!Number.isSafeInteger(t.id) || typeof t.name !== 'string' || t.name.trim() === '') return undefined;
  const name = rules.note('name', t.name, sanitizeTermName(rules.text('name', t.name)));
  if (!name) throw new Refusal('name', 'empty once cleaned, and a term write requires one');
  const description = rules.text('description', t.description);
  // A term write refuses what its columns cannot hold (WordPress' database layer would fail).
  if (!fitsColumns(name, undefined)) throw new Refusal('name', 'too long for a term name');
  if (!fitsColumns(undefined, description)) throw new Refusal('description', 'too large to store');
  const slug = rules.text('slug', t.slug);
  return {
    id: t.id as number,
    name,
    slug: rules.note('slug', slug, sanitizeTitle(slug) || sanitizeTitle(name) || `${kind.key}-${t.id as number}`),
    description: rules.note('description', t.description, description),
    parent: Number.isSafeInteger(t.parent) ? (t.parent as number) : 0,
    altered: rules.altered,
  };
}

/** Terms ordered so that each comes after its parent; one whose parent is missing (or in a cycle) goes to the top level. */
function parentsFirst(terms: readonly SourceTerm[], report: KindReport): SourceTerm[] {
  const byId = new Map(terms.map((t) => [t.id, t]));
  const placed = new Set<number>();
  const out: SourceTerm[] = [];
  const place = (term: SourceTerm, path: Set<number>) => {
    if (placed.has(term.id)) return;
    const parent = term.parent ? byId.get(term.parent) : undefined;
    if (term.parent && (!parent || path.has(parent.id))) {
      report.warnings.push(
        `term ${term.id} (${term.name}): its parent ${term.parent} is ${parent ? 'its own descendant' : 'not in the source'}; imported at the top level`,
      );
      out.push({ ...term, parent: 0 });
    } else {
      if (parent) place(parent, new Set([...path, term.id]));
      out.push(term);
    }
    placed.add(term.id);
  };
  for (const term of terms) place(term, new Set([term.id]));
  return out;
}

const CHANGE_KIND: Record<TermKind['key'], ChangeKind> = { category: 'category', tag: 'tag' };

/** Imports one taxonomy of the source; the source ids and the terms they became. */
export async function importTerms(
  run: ImportRun,
  kind: TermKind,
  onProgress?: (done: number, total: number) => void,
): Promise<{ ids: Map<number, number>; report: KindReport }> {
  const { store, map, now } = run;
  const report = emptyReport();
  const terms: SourceTerm[] = [];
  // Empty terms too: the original hides them unless asked.
  for await (const page of run.source.pages(kind.collection, { hide_empty: 'false' })) {
    if (page.failure) report.unreadPages.push(`page ${page.page} of ${page.totalPages} (${page.failure.message})`);
    for (const item of page.items) {
      const sourceId = typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'number' ? item.id : undefined;
      try {
        const term = sourceTerm(item, kind, new ItemRules(run.keepHtml, now));
        if (term) terms.push(term);
        else report.skipped.push({ sourceId, reason: 'not a term (no id or name)' });
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        report.skipped.push({ sourceId, reason: e.message });
      }
    }
  }
  const ids = new Map<number, number>();
  const recordKind = kind.key;
  const ordered = parentsFirst(terms, report);
  for (const [done, term] of ordered.entries()) {
    onProgress?.(done, ordered.length);
    const { name, slug } = term;
    const parent = kind.hierarchical && term.parent ? (ids.get(term.parent) ?? 0) : 0;
    try {
      if (run.dryRun) {
        // What it would become: events link to a stand-in of a new term.
        const known = await map.find(recordKind, term.id);
        const row = (known && (await store.terms.get(kind.taxonomy, known.itemId))) || (await store.terms.bySlug(kind.taxonomy, slug));
        ids.set(term.id, row ? row.id : -term.id);
        const result = !row
          ? 'created'
          : row.name !== name || row.description !== term.description || (kind.hierarchical && row.parent !== parent) || row.slug !== slug
            ? 'updated'
            : 'unchanged';
        report[result]++;
        if (result !== 'unchanged') report.altered.push(...term.altered.map((a) => ({ sourceId: term.id, ...a })));
        continue;
      }
      // Warnings of the attempt that commits: a transaction run again must not say things twice.
      let notes: string[] = [];
      const outcome = await withRetry(() =>
        store.transaction(async (tx) => {
          notes = [];
          const record = map.in(tx.db);
          const known = await record.find(recordKind, term.id);
          const row = (known && (await tx.terms.get(kind.taxonomy, known.itemId))) || (await tx.terms.bySlug(kind.taxonomy, slug));
          let id: number;
          let result: 'created' | 'updated' | 'unchanged';
          if (row) {
            id = row.id;
            const changes: Partial<{ name: string; slug: string; description: string; parent: number }> = {};
            if (row.name !== name) changes.name = name;
            if (row.description !== term.description) changes.description = term.description;
            if (kind.hierarchical && row.parent !== parent) changes.parent = parent;
            if (row.slug !== slug) {
              if (await tx.terms.slugTaken(kind.taxonomy, slug, row.id)) notes.push(`term ${term.id} (${name}): slug ${slug} is taken here; kept ${row.slug}`);
              else changes.slug = slug;
            }
            result = Object.keys(changes).length ? 'updated' : 'unchanged';
            if (result === 'updated') {
              await tx.db.updateTable('terms').set(changes).where('id', '=', id).execute();
              tx.changes.record(CHANGE_KIND[kind.key], id, 'updated');
            }
          } else {
            const values = { taxonomy: kind.taxonomy, name, slug, description: term.description, parent };
            id = await insertKeepingId(tx, 'terms', run.keepIds ? term.id : undefined, (explicit) =>
              tx.dialect.insertReturningId(tx.db.insertInto('terms').values({ ...values, id: explicit })),
            );
            if (run.keepIds && id !== term.id) notes.push(`term ${term.id} (${name}): its id is taken here; imported as ${id}`);
            tx.changes.record(CHANGE_KIND[kind.key], id, 'created');
            result = 'created';
          }
          if (known?.itemId !== id) await record.record(recordKind, term.id, { itemId: id, sourceModified: '' }, now);
          return { id, result };
        }),
      );
      ids.set(term.id, outcome.id);
      report[outcome.result]++;
      report.warnings.push(...notes);
      if (outcome.result !== 'unchanged') report.altered.push(...term.altered.map((a) => ({ sourceId: term.id, ...a })));
    } catch (e) {
      report.skipped.push({ sourceId: term.id, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  onProgress?.(ordered.length, ordered.length);
  return { ids, report };
}
