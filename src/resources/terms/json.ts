import { hostPage } from '../../http/permalinks.js';
import type { Urls } from '../../http/urls.js';
import type { TermKind } from './args.js';
import type { TermRow } from './store.js';
import type { EventTerm, Term } from '../../schemas/types.js';

/** Slugs and parents of terms and their ancestors, for hierarchical URLs. */
export type Ancestry = ReadonlyMap<number, { slug: string; parent: number }>;

/** The public page of a term: the host's (`permalinks` option), else `/events/category/parent/child/` or `/tag/slug/`. */
export function termUrl(kind: TermKind, row: TermRow, ancestry: Ancestry, urls: Urls): string {
  if (!kind.hierarchical)
    return hostPage(urls.permalinks, { kind: 'tag', id: row.id, slug: row.slug, status: 'publish' }, urls.home, true) ?? `${urls.home}/tag/${row.slug}/`;
  const path = [row.slug];
  let parent = row.parent;
  for (let depth = 0; parent && depth < 64; depth++) {
    const p = ancestry.get(parent);
    if (!p) break;
    path.unshift(p.slug);
    parent = p.parent;
  }
  const slug = path.join('/');
  return hostPage(urls.permalinks, { kind: 'category', id: row.id, slug, status: 'publish' }, urls.home, true) ?? `${urls.home}/events/category/${slug}/`;
}

/** `urls` of a term: self, collection and, for children, up. */
export function termUrls(kind: TermKind, row: Pick<TermRow, 'id' | 'parent'>, urls: Urls): Term['urls'] {
  const collection = `${urls.base}/${kind.collection}`;
  const out: Term['urls'] = { self: `${collection}/${row.id}`, collection };
  if (row.parent) out.up = `${collection}/${row.parent}`;
  return out;
}

/** A term as the term routes return it. */
export function termJson(kind: TermKind, row: TermRow, ancestry: Ancestry, urls: Urls): Term {
  return {
    id: row.id,
    count: row.count,
    description: row.description,
    name: row.name,
    slug: row.slug,
    taxonomy: kind.taxonomy,
    ...(kind.hierarchical ? { parent: row.parent } : {}),
    meta: [],
    url: termUrl(kind, row, ancestry, urls),
    urls: termUrls(kind, row, urls),
  };
}

/** `_links` of a single-term response, with the relation names of WordPress pointing at this API. */
export function termLinks(kind: TermKind, row: TermRow, urls: Urls, allow: readonly string[]): Record<string, unknown> {
  const collection = `${urls.base}/${kind.collection}`;
  return {
    self: [{ href: `${collection}/${row.id}`, targetHints: { allow } }],
    collection: [{ href: collection }],
    ...(row.parent ? { up: [{ embeddable: true, href: `${collection}/${row.parent}` }] } : {}),
    'wp:post_type': [{ href: `${urls.base}/events?${kind.collection}=${row.id}` }],
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

/** A term embedded in an event. */
export function embeddedTermJson(kind: TermKind, row: TermRow, urls: Urls): EventTerm {
  return {
    name: row.name,
    slug: row.slug,
    term_group: 0,
    term_taxonomy_id: row.id,
    taxonomy: kind.taxonomy,
    description: row.description,
    parent: row.parent,
    count: row.count,
    filter: 'raw',
    id: row.id,
    urls: termUrls(kind, row, urls),
  };
}
