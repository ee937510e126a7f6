import type { SelectQueryBuilder } from 'kysely';
import type { DialectName } from './dialect.js';

/**
 * `query` locking the rows it reads until the transaction ends, so that a write re-reading
 * its target (or a row it links to) cannot race a delete: PostgreSQL and MySQL/MariaDB take
 * the row lock; SQLite needs none, since its transactions that write run one at a time and
 * one that read before another committed cannot commit (it is retried).
 */
export function locking<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, dialect: DialectName): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'sqlite' ? query : query.forUpdate();
}

/** How a read inside a transaction treats the rows it finds. */
export interface ReadOptions {
  /** Lock them until the transaction ends (`locking`). */
  lock?: boolean;
}
