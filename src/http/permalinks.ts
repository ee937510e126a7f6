import { isKind, type AnyKind, type Kind } from '../kinds.js';

import { invalidOption } from '../option-error.js';

/** The kinds of item that have a public page. */
export type PageKind = Kind;

/** What a permalink function is given: the item, and the path of its slug (a category's includes its ancestors'). */
export interface PageItem {
  /** Its kind: a host's own kinds' items take the default page (the option names built-in kinds). */
  kind: AnyKind;
  id: number;
  /** The slug (`parent/child` for a sub-category); empty for a post that has none yet. */
  slug: string;
  /** The post's status (`publish`, `draft`, …); `publish` for terms. */
  status: string;
}

/**
 * Where an item's public page is: a template with `{slug}` and/or `{id}` (a path below the site
 * home such as `/events/{slug}`, or an absolute URL), or a function of the item returning a
 * path or an absolute URL.
 */
export type Permalink = string | ((item: PageItem) => string);

/** Permalinks by kind; kinds left out keep WordPress' (`/event/{slug}/`, `/events/category/{slug}/`, …). */
export type Permalinks = Partial<Record<PageKind, Permalink>>;

const KINDS: readonly PageKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];

/** The `permalinks` option, checked: known kinds, and templates that name the item and are a path or an http(s) URL. */
export function resolvePermalinks(given: Permalinks | undefined): Permalinks {
  for (const [kind, value] of Object.entries(given ?? {})) {
    if (!(KINDS as readonly string[]).includes(kind)) throw invalidOption(`permalinks.${kind}`, value, `nothing: the kinds are ${KINDS.join(', ')}`);
    if (typeof value === 'function') continue;
    const template = typeof value === 'string' ? value : '';
    if (!/\{(?:slug|id)\}/.test(template) || !/^(?:\/|https?:\/\/[^/?#\s]+)/i.test(template)) {
      throw invalidOption(
        `permalinks.${kind}`,
        value,
        "a path or http(s) URL naming the item with {slug} or {id}, such as '/events/{slug}', or a function of the item",
      );
    }
  }
  return { ...given };
}

/**
 * The host's page of an item, or `undefined` where the host set none. A template serves only
 * items with a public page (`public`); a function decides for every item. Paths are made
 * absolute with the site home.
 */
export function hostPage(permalinks: Permalinks | undefined, item: PageItem, home: string, isPublic: boolean): string | undefined {
  const link = isKind(item.kind) ? permalinks?.[item.kind] : undefined;
  if (link === undefined) return undefined;
  let url: string;
  if (typeof link === 'function') url = link(item);
  else if (isPublic && item.slug) url = link.replace(/\{slug\}/g, item.slug).replace(/\{id\}/g, String(item.id));
  else return undefined;
  return url.startsWith('/') ? `${home}${url}` : url;
}
