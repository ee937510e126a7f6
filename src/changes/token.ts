/**
 * Sync tokens of the change feed: a position in one store's change log, opaque to clients.
 * The store's identity in it makes a token of another store (or of a store set up again)
 * unknown rather than silently wrong.
 */

/** The token for position `seq` of the store `storeId`. */
export function syncToken(storeId: string, seq: number): string {
  return Buffer.from(`1.${storeId}.${seq}`).toString('base64url');
}

/** The position a token names in store `storeId`, or `undefined` when it is not one of its tokens. */
export function tokenPosition(token: string, storeId: string): number | undefined {
  const m = /^1\.([\w-]+)\.(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return m && m[1] === storeId ? Number(m[2]) : undefined;
}
