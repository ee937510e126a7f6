import type { PostType } from '../store/database.js';
import type { Store } from '../store/index.js';
import { sanitizeTitle } from '../text/slug.js';

/**
 * A slug free among posts of the type (writes.md §2.2): `name`, `name-2`, `name-3`…
 * `""` when the text has no slug character (the caller then uses the post id).
 */
export async function uniquePostSlug(tx: Store, type: PostType, text: string, exceptId?: number): Promise<string> {
  const base = sanitizeTitle(text).slice(0, 190);
  if (!base) return '';
  if (!(await tx.posts.slugTaken(type, base, exceptId))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!(await tx.posts.slugTaken(type, candidate, exceptId))) return candidate;
  }
}

/** The slug of a trashed post: `slug__trashed` (numbered when another trashed post has it). */
export async function trashedSlug(tx: Store, type: PostType, slug: string | null, id: number): Promise<string | null> {
  if (!slug) return slug;
  const base = `${slug}__trashed`;
  if (!(await tx.posts.slugTaken(type, base, id))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!(await tx.posts.slugTaken(type, candidate, id))) return candidate;
  }
}
