import { CompiledQuery } from 'kysely';
import type { StoreDialect } from './dialect.js';
import { walIndexOf } from '../wal-index.js';

/** Read on every request: compiled once, not built and compiled each time. */
const VERSION: CompiledQuery<{ c: number; v: number }> = CompiledQuery.raw('select total_changes() as c, data_version as v from pragma_data_version');

/** SQLite (better-sqlite3, and third-party dialects built on Kysely's SQLite adapter). */
export const sqliteDialect: StoreDialect = {
  name: 'sqlite',
  updateReturning: true,
  writesInWith: false,
  locksScannedRows: false,

  async insertReturningId(query) {
    // SQLite reports the insert id, so no RETURNING is needed.
    const result = await query.executeTakeFirstOrThrow();
    return Number(result.insertId);
  },

  returningId(query) {
    return query;
  },

  insertedId(result) {
    return Number(result.insertId);
  },

  locking(query) {
    // No row lock needed (nor available): SQLite's transactions that write run one at a time,
    // and one that read before another committed cannot commit (it is retried).
    return query;
  },

  sharing(query) {
    // As for `locking`: the writing transactions run one at a time.
    return query;
  },

  async version(db, generation) {
    // Outside a transaction, the WAL-index header of a database the calendar opened changes
    // with every commit of any connection, this one's included (`wal-index.ts`). Inside one,
    // its own uncommitted writes must count too: only `total_changes()` sees them.
    const header = db.isTransaction ? undefined : walIndexOf(db.getExecutor().adapter)?.read();
    if (header !== undefined) return `${generation}:${header}`;
    // `total_changes()` counts this connection's writes (the host's own too) and
    // `PRAGMA data_version` the commits of every other connection, other processes included.
    const { rows } = await db.executeQuery(VERSION);
    return `${generation}:${rows[0]?.c}:${rows[0]?.v}`;
  },

  migrationLock(db, _lockName, work) {
    // The transaction's write lock is database-wide already.
    return db.transaction().execute((trx) => work(trx));
  },

  tableOptions(builder) {
    return builder;
  },

  async followExplicitIds() {
    // SQLite gives a new row the largest id (or sequence entry) plus one.
  },

  autoIncrementId(builder) {
    return builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  },
};
