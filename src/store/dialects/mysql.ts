import { sql } from 'kysely';
import type { StoreDialect } from './dialect.js';

/** MySQL and MariaDB (mysql2, and third-party dialects built on Kysely's MySQL adapter). */
export const mysqlDialect: StoreDialect = {
  name: 'mysql',
  updateReturning: false,
  writesInWith: false,
  locksScannedRows: true,

  async insertReturningId(query) {
    // MySQL has no RETURNING, but reports the insert id.
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
    return query.forUpdate();
  },

  sharing(query) {
    // Kept exclusive here: the shared mode was measured and tested under concurrent event
    // writes on PostgreSQL only.
    return query.forUpdate();
  },

  async version() {
    // No cheap signal of other connections' commits: there is no version, and nothing is cached.
    return undefined;
  },

  migrationLock(db, lockName, work) {
    // MySQL commits DDL implicitly: hold a named lock on one connection instead.
    return db.connection().execute(async (conn) => {
      const { rows } = await sql<{ locked: number | null }>`select get_lock(${lockName}, 120) as locked`.execute(conn);
      // 0: another instance held the lock for two minutes; null: an error. Never migrate unlocked.
      if (Number(rows[0]?.locked) !== 1) throw new Error(`Could not take the migration lock ${lockName}`);
      try {
        return await work(conn);
      } finally {
        await sql`select release_lock(${lockName})`.execute(conn);
      }
    });
  },

  tableOptions(builder) {
    // MySQL/MariaDB compare case-insensitively by default; the store asks for that explicitly
    // (`lower()`) where it wants it, so every dialect compares binary.
    return builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  },

  async followExplicitIds() {
    // AUTO_INCREMENT moves past an explicit id by itself.
  },

  autoIncrementId(builder) {
    return builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  },
};
