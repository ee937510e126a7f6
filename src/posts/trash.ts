import { ApiError } from '../http/errors.js';
import type { PostsAccess } from './queries.js';
import type { PostRow } from './queries.js';
import { isUndated, nowDates } from './dates.js';
import type { PostKindInfo } from './kinds.js';
import { restoredSlug, trashedSlug } from './slug.js';

/**
 * Moves a post to the trash inside `tx`: its status and slug
 * change and the status it had is kept; a second time is 410 `<noun>-is-in-trash`. Every way
 * into the trash (DELETE, or an update to `status: "trash"`) comes here, so that venues and
 * organizers always leave their events (`alsoInside`) and permissions see the old status.
 * A post never published (no UTC date) is dated now, as WordPress' `wp_update_post` clears
 * a draft's date that nobody set and then dates every post that is not a draft or pending one.
 */
export async function moveToTrash<T extends PostsAccess>(
  tx: T,
  kind: PostKindInfo,
  current: PostRow,
  siteZone: string,
  now: Date,
  alsoInside?: (tx: T) => Promise<void>,
): Promise<void> {
  if (current.status === 'trash') throw new ApiError(`${kind.noun}-is-in-trash`, `The ${kind.noun} is already trashed`, { status: 410 });
  const stamp = nowDates(siteZone, now);
  await tx.posts.update(current.id, {
    status: 'trash',
    status_before_trash: current.status,
    slug: await trashedSlug(tx, kind.type, current.slug, current.id),
    slug_before_trash: current.slug,
    ...(isUndated(current) ? { date: stamp.local, date_utc: stamp.utc } : {}),
    modified: stamp.local,
    modified_utc: stamp.utc,
  });
  await alsoInside?.(tx);
}

/**
 * The columns that take a trashed post out of the trash into `status`: the slug it had before
 * (`foo__trashed` → `foo`, or `foo-2` when another post took `foo` meanwhile), as WordPress
 * restores its desired slug.
 */
export async function leaveTrash(
  tx: PostsAccess,
  kind: PostKindInfo,
  current: PostRow,
  status: string,
): Promise<Pick<PostRow, 'status' | 'status_before_trash' | 'slug' | 'slug_before_trash'>> {
  const slug = await restoredSlug(tx, kind.type, current.slug, current.id, current.slug_before_trash);
  return { status, status_before_trash: null, slug, slug_before_trash: null };
}
