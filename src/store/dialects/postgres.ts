import { CompiledQuery, sql, type InsertQueryBuilder, type InsertResult } from 'kysely';
import type { StoreDialect } from './dialect.js';

/** Read on every request: compiled once, not built and compiled each time. */
const VERSION: CompiledQuery<{ s: string }> = CompiledQuery.raw('select pg_current_snapshot()::text as s');

/** PostgreSQL (pg, and third-party dialects built on Kysely's PostgreSQL adapter). */
export const postgresDialect: StoreDialect = {
  name: 'postgres',
  updateReturning: true,

  async insertReturningId<DB, TB extends keyof DB>(query: InsertQueryBuilder<DB, TB, InsertResult>) {
    // PostgreSQL reports no insert id: ask for it with RETURNING.
    const row = (await (query as unknown as InsertQueryBuilder<DB, TB, { id: number }>).returning('id' as never).executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  },

  locking(query) {
    return query.forUpdate();
  },

  async version(db, generation) {
    // The text of `pg_current_snapshot()` changes whenever a transaction that wrote anything
    // starts or ends, on any connection of the cluster.
    const { rows } = await db.executeQuery(VERSION);
    return `${generation}:${rows[0]?.s}`;
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
    await sql`select setval(pg_get_serial_sequence(quote_ident(${table}), 'id'), m) from (select max(id) as m from ${sql.table(table)}) x where m >= nextval(pg_get_serial_sequence(quote_ident(${table}), 'id'))`.execute(db);
  },

  tableOptions(builder) {
    return builder;
  },

  autoIncrementId(builder) {
    return builder.addColumn('id', 'serial', (c) => c.primaryKey());
  },
};
