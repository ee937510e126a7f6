/**
 * The terms an event write names in `categories` or `tags`: numeric elements by id (unknown
 * ones skipped), others by a text looked up by its slug, then by its name, and created when
 * neither finds one. Ids and slugs are looked up together with the linking itself; only texts
 * no slug matched take more round trips.
 */
import { toId } from '../../ids.js';
import { sanitizeTermName } from '../../text/sanitize.js';
import { sanitizeTitle } from '../../text/slug.js';
import type { TermRow } from './store.js';

/** A term named by a text: its slug (the first look-up) and the name it is found by, or created with. */
export interface TermText {
  slug: string;
  name: string;
}

/** One element of an event write's term list. */
export type NamedTerm = { id: number } | TermText;

/** The ids and slugs a write's term list names, each once: what the linking looks up. */
export interface TermRefs {
  ids: readonly number[];
  slugs?: readonly string[];
}

/** The elements of a term list in order; empty texts name nothing. */
export function namedTerms(elements: readonly (string | number)[]): NamedTerm[] {
  const named: NamedTerm[] = [];
  for (const element of elements) {
    const id = toId(element);
    if (id !== undefined) {
      named.push({ id });
      continue;
    }
    const text = String(element).trim();
    if (text) named.push({ slug: sanitizeTitle(text), name: sanitizeTermName(text) });
  }
  return named;
}

/** The ids and slugs to look up for `named`. */
export function termRefs(named: readonly NamedTerm[]): Required<TermRefs> {
  const ids = new Set<number>();
  const slugs = new Set<string>();
  for (const n of named) {
    if ('id' in n) ids.add(n.id);
    else if (n.slug) slugs.add(n.slug);
  }
  return { ids: [...ids], slugs: [...slugs] };
}

/** The texts of `named` that no row of `linked` has the slug of: those looked up by name next. */
export function unmatchedTexts(named: readonly NamedTerm[], linked: readonly TermRow[]): TermText[] {
  const slugs = new Set(linked.map((t) => t.slug));
  return named.filter((n): n is TermText => !('id' in n) && !slugs.has(n.slug));
}

/**
 * The rows of `linked` in the order the list named them, each once: by id, by slug, or by the
 * term a text no slug matched was found by name as or created as (`byName`, keyed by the text's name).
 */
export function inNamedOrder(named: readonly NamedTerm[], linked: readonly TermRow[], byName: ReadonlyMap<string, number>): TermRow[] {
  const byId = new Map(linked.map((t) => [t.id, t]));
  const bySlug = new Map(linked.map((t) => [t.slug, t]));
  const out = new Set<TermRow>();
  for (const n of named) {
    const row = 'id' in n ? byId.get(n.id) : (bySlug.get(n.slug) ?? byId.get(byName.get(n.name) ?? 0));
    if (row) out.add(row);
  }
  return [...out];
}
