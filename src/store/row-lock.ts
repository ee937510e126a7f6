/** How a read inside a transaction treats the rows it finds. */
export interface ReadOptions {
  /**
   * Lock them until the transaction ends (`StoreDialect.locking`), so that a write re-reading
   * its target (or a row it links to) cannot race a delete.
   */
  lock?: boolean;
}
