/** How a read inside a transaction treats the rows it finds. */
export interface ReadOptions {
  /**
   * Lock them until the transaction ends (`StoreDialect.locking`), so that a write re-reading
   * its target cannot race a change or a delete. `'share'` (`StoreDialect.sharing`): the row is
   * only read and must stay as it is until then (an item an event links to), so other writes
   * reading it the same way need not wait for each other; a change or delete of it still waits.
   */
  lock?: boolean | 'share';
}
