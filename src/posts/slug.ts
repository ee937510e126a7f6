import type { PostType } from '../store/database.js';
import type { PostsAccess } from './queries.js';
import { firstFreeNumbered, sanitizeTitle } from '../text/slug.js';

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
  let i = 0;
  for (let unit = units[i]; unit !== undefined; unit = units[i]) {
    let n = 1;
    if (/^%[c-f][0-9a-f]$/i.test(unit)) {
      const lead = parseInt(unit.slice(1), 16);
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
 * A slug free among posts of the type, as WordPress' `sanitize_title` and
 * `wp_unique_post_slug` make it: the text's slug (at most 200 characters), or when another
 * post has it `slug-2`, `slug-3`…, each cut to fit the column with its suffix.
 * `""` when the text has no slug character (the caller then uses the post id).
 */
export async function uniquePostSlug(tx: PostsAccess, type: PostType, text: string, exceptId?: number): Promise<string> {
  return freeSlug(tx, type, sanitizeTitle(text), exceptId);
}

/**
 * `wp_unique_post_slug` for `base` (already a slug): `base` when no other post of the type
 * has it, else the first free of `base-2`, `base-3`…, `base` cut before each suffix so that
 * the whole fits the slug column.
 */
export async function freeSlug(tx: PostsAccess, type: PostType, base: string, exceptId?: number): Promise<string> {
  if (!base) return '';
  if (!(await tx.posts.slugTaken(type, base, exceptId))) return base;
  return numberedSlug(tx, type, base, exceptId);
}

/**
 * The first of `base-2`, `base-3`… that no other post of the type has, `base` cut before each
 * suffix so that the whole fits the slug column: what `wp_unique_post_slug` gives once `base`
 * itself is taken (looked up in batches, {@link firstFreeNumbered}).
 */
export async function numberedSlug(tx: PostsAccess, type: PostType, base: string, exceptId?: number): Promise<string> {
  // The cut depends only on how many digits the number has.
  const cuts = new Map<number, string>();
  const cut = (digits: number) => {
    let prefix = cuts.get(digits);
    if (prefix === undefined) cuts.set(digits, (prefix = truncateSlug(base, SLUG_COLUMN - digits - 1)));
    return prefix;
  };
  return firstFreeNumbered(
    (n) => `${cut(String(n).length)}-${n}`,
    (candidates) => tx.posts.slugsTaken(type, candidates, exceptId),
  );
}

/** What WordPress appends to the slug of a trashed post. */
const TRASHED = '__trashed';

/**
 * The slug of a trashed post, as WordPress' `wp_add_trashed_suffix_to_post_name_for_post`
 * makes it: its first 191 characters and `__trashed` (a slug already ending so is kept), then
 * made unique as any slug (`…__trashed-2`, cut to fit). A draft's empty slug becomes `__trashed`.
 */
export async function trashedSlug(tx: PostsAccess, type: PostType, stored: string | null, id: number): Promise<string> {
  const slug = stored ?? '';
  return freeSlug(tx, type, slug.endsWith(TRASHED) ? slug : `${truncateSlug(slug, SLUG_COLUMN - TRASHED.length)}${TRASHED}`, id);
}

/**
 * The slug of a post leaving the trash: the one it had before (`before`, kept when it was
 * trashed, as WordPress keeps `_wp_desired_post_slug`), made unique again. A post trashed
 * before that was kept gets its trashed slug without the suffix. `null` when it had none (a
 * draft's: the caller derives one if the new status needs it).
 */
export async function restoredSlug(tx: PostsAccess, type: PostType, slug: string | null, id: number, before: string | null = null): Promise<string | null> {
  if (before) return (await freeSlug(tx, type, before, id)) || slug;
  if (!slug) return slug;
  const stripped = slug.replace(/__trashed(?:-\d+)?$/, '');
  if (stripped === slug) return slug;
  if (!stripped) return null;
  return (await freeSlug(tx, type, stripped, id)) || slug;
}

/**
 * A slug as stored, from its form in a decoded URL path: stored slugs keep non-ASCII
 * characters percent-encoded in lower case (`café` → `caf%c3%a9`), as WordPress does
 * when it sanitises a slug for a query.
 */
export function storedSlugForm(slug: string): string {
  return [...slug.toWellFormed()].map((ch) => (/^[\x00-\x7f]$/.test(ch) ? ch : encodeURIComponent(ch).toLowerCase())).join('');
}
