import { ApiError } from '../http/errors.js';
import type { Store } from '../store/index.js';
import type { PostRow } from '../store/posts.js';
import { withRetry } from '../store/retry.js';
import { nowDates } from './dates.js';
import type { PostKindInfo } from './kinds.js';
import { trashedSlug } from './slug.js';

/**
 * Moves a post to the trash (writes.md §2.12, §3.4, §4.4): its status and slug change, the
 * status it had is kept; a second time is 410 `<noun>-is-in-trash`. `alsoInside` runs in the
 * same transaction (venues and organizers leave their events there).
 */
export async function trashPost(
  store: Store,
  kind: PostKindInfo,
  row: PostRow,
  siteZone: string,
  now: Date,
  alsoInside?: (tx: Store) => Promise<void>,
): Promise<void> {
  if (row.status === 'trash') throw new ApiError(`${kind.noun}-is-in-trash`, `The ${kind.noun} is already trashed`, { status: 410 });
  const stamp = nowDates(siteZone, now);
  await withRetry(() =>
    store.transaction(async (tx) => {
      await tx.posts.update(row.id, {
        status: 'trash',
        status_before_trash: row.status,
        slug: await trashedSlug(tx, kind.type, row.slug, row.id),
        modified: stamp.local,
        modified_utc: stamp.utc,
      });
      await alsoInside?.(tx);
    }),
  );
}
