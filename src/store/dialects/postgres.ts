import { CompiledQuery, DynamicModule, sql, type InsertQueryBuilder, type InsertResult } from 'kysely';
import type { StoreDialect } from './dialect.js';
import { parsePosition } from '../lsn.js';

/** Read on every request: compiled once, not built and compiled each time. */
const VERSION: CompiledQuery<{ s: string }> = CompiledQuery.raw('select pg_current_snapshot()::text as s');
// The snapshot only of a promoted node: on a standby it costs a walk of the transactions the
// replay knows of, for a value that is not used.
const REPLICA_STATE: CompiledQuery<{ r: boolean; l: string | null; s: string | null }> = CompiledQuery.raw(
  'select pg_is_in_recovery() as r, pg_last_wal_replay_lsn()::text as l, case when pg_is_in_recovery() then null else pg_current_snapshot()::text end as s',
);
// The insert position, not `pg_current_wal_lsn()` (the write position): with
// `synchronous_commit = off` a commit returns before its record is written, and the write
// position can still be short of it.
const WRITE_POSITION: CompiledQuery<{ l: string }> = CompiledQuery.raw('select pg_current_wal_insert_lsn()::text as l');
const WAL_SIZES: CompiledQuery<{ block: string; segment: string }> = CompiledQuery.raw(
  "select current_setting('wal_block_size') as block, (select setting from pg_settings where name = 'wal_segment_size') as segment",
);

/** Sizes of a WAL page header: the short one, and the long one that starts each segment (64-bit builds). */
const SHORT_PAGE_HEADER = 24n;
const LONG_PAGE_HEADER = 40n;

/** The server's WAL page and segment sizes in bytes (constants of a cluster), read once per Kysely instance. */
const walSizes = new WeakMap<object, Promise<{ block: bigint; segment: bigint }>>();

/**
 * The end of the last record before an insert position. When a record ends exactly at a page
 * boundary, the insert position is past the next page's header, where nothing is written yet,
 * and a replica's replay position stops at the boundary until more is written (seconds on a
 * quiet server): every read would wait for it. Nothing ends right after a header (the shortest
 * record is longer than it, and the rest of a record continued from the page before moves the
 * position on by at least 8 bytes), so that position is the boundary.
 */
function lastRecordEnd(insert: bigint, { block, segment }: { block: bigint; segment: bigint }): bigint {
  if (insert % segment === LONG_PAGE_HEADER) return insert - LONG_PAGE_HEADER;
  if (insert % block === SHORT_PAGE_HEADER && insert % segment !== SHORT_PAGE_HEADER) return insert - SHORT_PAGE_HEADER;
  return insert;
}

/** Column references named at run time, where the table's type is generic. */
const dynamic = new DynamicModule();

/** PostgreSQL (pg, and third-party dialects built on Kysely's PostgreSQL adapter). */
export const postgresDialect: StoreDialect = {
  name: 'postgres',
  updateReturning: true,
  writesInWith: true,
  locksScannedRows: false,

  async insertReturningId<DB, TB extends keyof DB>(query: InsertQueryBuilder<DB, TB, InsertResult>) {
    // PostgreSQL reports no insert id: ask for it with RETURNING.
    // The table is generic here: a dynamic reference names the column, and `$castTo` the row's shape.
    const row = await query.returning(dynamic.ref('id')).$castTo<{ id: number }>().executeTakeFirstOrThrow();
    return Number(row.id);
  },

  returningId(query) {
    return query.returning(dynamic.ref('id'));
  },

  insertedId(result) {
    const row = result.rows[0];
    if (!row || typeof row !== 'object' || !('id' in row)) throw new Error('calendar: an insert returned no id');
    return Number(row.id);
  },

  locking(query) {
    return query.forUpdate();
  },

  sharing(query) {
    return query.forShare();
  },

  async version(db, generation) {
    // The text of `pg_current_snapshot()` changes whenever a transaction that wrote anything
    // starts or ends, on any connection of the cluster.
    const { rows } = await db.executeQuery(VERSION);
    return `${generation}:${rows[0]?.s}`;
  },

  replication: {
    async replicaState(db) {
      const row = (await db.executeQuery(REPLICA_STATE)).rows[0];
      // On a standby, `pg_current_snapshot()` never lists transactions in progress: two commits
      // can leave it unchanged while the rows change. The replay position moves with every
      // commit replayed, and is the same on replicas that have caught up.
      if (row?.r) {
        const position = parsePosition(row.l);
        if (position === undefined) throw new Error(`calendar-events-rest: a replica reported the replay position ${String(row.l)}`);
        return { version: `r:${row.l}`, position };
      }
      // Promoted: it takes writes now, and its snapshot tells their commits apart as a primary's does.
      return { version: `p:${row?.s}`, position: undefined };
    },

    async writePosition(db) {
      let sizes = walSizes.get(db);
      if (!sizes) {
        sizes = db
          .executeQuery(WAL_SIZES)
          .then(({ rows }) => ({ block: BigInt(rows[0]?.block ?? 8192), segment: BigInt(rows[0]?.segment ?? 16 * 1024 * 1024) }));
        walSizes.set(db, sizes);
        sizes.catch(() => walSizes.delete(db));
      }
      const text = (await db.executeQuery(WRITE_POSITION)).rows[0]?.l;
      const position = parsePosition(text);
      if (position === undefined) throw new Error(`calendar-events-rest: the primary reported the log position ${String(text)}`);
      return lastRecordEnd(position, await sizes);
    },
  },

  migrationLock(db, lockName, work) {
    // DDL is transactional in PostgreSQL: the advisory lock lasts until the transaction ends.
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${lockName}))`.execute(trx);
      return work(trx);
    });
  },

  async followExplicitIds(db, table) {
    // A serial column's sequence ignores explicit ids. `nextval` gives the sequence's position
    // atomically (the value it uses up is a harmless gap); it is moved only when behind.
    // quote_ident: the table's name keeps its case (a prefix may have capitals).
    await sql`select setval(pg_get_serial_sequence(quote_ident(${table}), 'id'), m) from (select max(id) as m from ${sql.table(table)}) x where m >= nextval(pg_get_serial_sequence(quote_ident(${table}), 'id'))`.execute(
      db,
    );
  },

  tableOptions(builder) {
    return builder;
  },

  autoIncrementId(builder) {
    return builder.addColumn('id', 'serial', (c) => c.primaryKey());
  },
};
