import type { PostType } from '../store/database.js';
import type { Store } from '../store/index.js';
import { sanitizeTitle } from '../text/slug.js';

/** Length of the store's slug column. */
const SLUG_COLUMN = 200;

/**
 * The longest start of a slug within `max` characters that does not cut a percent-encoded
 * character (`%e4%b8%ad` is kept whole or left out), without a trailing `-`.
 */
export function truncateSlug(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const units = slug.match(/%[0-9a-f]{2}|[\s\S]/gi) ?? [];
  let out = '';
  for (let i = 0; i < units.length; ) {
    let n = 1;
    if (/^%[c-f][0-9a-f]$/i.test(units[i]!)) {
      const lead = parseInt(units[i]!.slice(1), 16);
      n = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    }
    const char = units.slice(i, i + n).join('');
    if (out.length + char.length > max) break;
    out += char;
    i += n;
  }
  return out.replace(/-+$/, '');
}

/**
 * A slug free among posts of the type: `name`, `name-2`, `name-3`…
 * `""` when the text has no slug character (the caller then uses the post id).
 */
export async function uniquePostSlug(tx: Store, type: PostType, text: string, exceptId?: number): Promise<string> {
  return freeSlug(tx, type, truncateSlug(sanitizeTitle(text), 190), exceptId);
}

/** `base` (already a slug), or the first of `base-2`, `base-3`… free among posts of the type. */
async function freeSlug(tx: Store, type: PostType, base: string, exceptId?: number): Promise<string> {
  if (!base) return '';
  if (!(await tx.posts.slugTaken(type, base, exceptId))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!(await tx.posts.slugTaken(type, candidate, exceptId))) return candidate;
  }
}

/**
 * The slug of a trashed post: `slug__trashed` (numbered when another trashed post has it),
 * the slug cut so that the whole fits the slug column, as WordPress cuts it to 191. A draft's
 * empty slug becomes `__trashed` as in WordPress.
 */
export async function trashedSlug(tx: Store, type: PostType, stored: string | null, id: number): Promise<string> {
  const slug = stored ?? '';
  const suffix = '__trashed';
  const base = `${truncateSlug(slug, SLUG_COLUMN - suffix.length)}${suffix}`;
  if (!(await tx.posts.slugTaken(type, base, id))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${truncateSlug(slug, SLUG_COLUMN - suffix.length - String(n).length - 1)}${suffix}-${n}`;
    if (!(await tx.posts.slugTaken(type, candidate, id))) return candidate;
  }
}

/**
 * The slug a trashed post had before (its `__trashed` suffix removed), made unique again;
 * `null` when it had none (a draft's: the caller derives one if the new status needs it).
 */
export async function restoredSlug(tx: Store, type: PostType, slug: string | null, id: number): Promise<string | null> {
  if (!slug) return slug;
  const before = slug.replace(/__trashed(?:-\d+)?$/, '');
  if (before === slug) return slug;
  if (!before) return null;
  return (await freeSlug(tx, type, before, id)) || slug;
}

/**
 * A slug as stored, from its form in a decoded URL path: stored slugs keep non-ASCII
 * characters percent-encoded in lower case (`café` → `caf%c3%a9`), as WordPress does
 * when it sanitises a slug for a query.
 */
export function storedSlugForm(slug: string): string {
  return [...slug.toWellFormed()].map((ch) => (/^[\x00-\x7f]$/.test(ch) ? ch : encodeURIComponent(ch).toLowerCase())).join('');
}
