/** Keeping the source's ids (`keepIds`), so that old links and clients keep working unchanged. */
import type { Store } from '../resources/store.js';

/**
 * Inserts a row under `sourceId` when it is given and free here, else under a new id; the id
 * it took. Id sequences are moved past an explicit id at once, so that the API's own writes
 * meanwhile do not collide with it.
 */
export async function insertKeepingId(
  tx: Store,
  table: 'posts' | 'terms',
  sourceId: number | undefined,
  insert: (id: number | undefined) => Promise<number>,
): Promise<number> {
  if (sourceId === undefined) return insert(undefined);
  const taken = await tx.db.selectFrom(table).select('id').where('id', '=', sourceId).executeTakeFirst();
  if (taken) return insert(undefined);
  const id = await insert(sourceId);
  await tx.dialect.followExplicitIds(tx.db, tx.prefix + table);
  return id;
}
