import type { CreateTableBuilder, InsertQueryBuilder, InsertResult, Kysely, SelectQueryBuilder } from 'kysely';

/**
 * What the store does differently on each database it supports, one object per database
 * (`sqlite.ts`, `postgres.ts`, `mysql.ts`), chosen once per Kysely instance by `dialectOf`.
 *
 * `tableOptions` and `autoIncrementId` shape the tables released migrations create: changing
 * them changes the schema of new installs only, so they must stay as they are.
 */
export interface StoreDialect {
  /** Which database this is. */
  readonly name: 'sqlite' | 'postgres' | 'mysql';
  /** Whether `UPDATE … RETURNING` is available (one statement instead of an update and a read). */
  readonly updateReturning: boolean;

  /** Runs an insert into a table with an `id` key and returns the new id. */
  insertReturningId<DB, TB extends keyof DB>(query: InsertQueryBuilder<DB, TB, InsertResult>): Promise<number>;

  /** `query` locking the rows it reads until the transaction ends, so that a write re-reading them cannot race a delete. */
  locking<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;

  /** A token that changes whenever any connection may have changed stored data, or `undefined` where there is no cheap one. */
  version<DB>(db: Kysely<DB>, generation: number): Promise<string | undefined>;

  /** Runs `work` holding a database-wide lock named `lockName`, so that instances migrating at once run one at a time. */
  migrationLock<T>(db: Kysely<unknown>, lockName: string, work: (conn: Kysely<unknown>) => Promise<T>): Promise<T>;

  /**
   * Moves the id sequence of `table` (its full, prefixed name) past the largest id stored, after
   * rows were inserted with explicit ids; never backwards, so that ids other connections were
   * given meanwhile stay unique. Where the database does that by itself, nothing.
   */
  followExplicitIds<DB>(db: Kysely<DB>, table: string): Promise<void>;

  /** `builder` with the table options every store table is created with. */
  tableOptions<T extends string, C extends string>(builder: CreateTableBuilder<T, C>): CreateTableBuilder<T, C>;

  /** `builder` with an auto-incrementing integer primary key `id`. */
  autoIncrementId<T extends string, C extends string>(builder: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | 'id'>;
}
