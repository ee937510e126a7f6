import type { Compilable, CreateTableBuilder, InsertQueryBuilder, InsertResult, Kysely, QueryResult, SelectQueryBuilder } from 'kysely';

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
  /** Whether a `WITH` may hold an update whose rows the statement goes on to insert (PostgreSQL): two dependent writes, one round trip. */
  readonly writesInWith: boolean;
  /**
   * Whether a locking read locks every index record it scans, matching or not (InnoDB under
   * REPEATABLE READ): a condition no single key answers, such as an `OR` over two indexes,
   * may then lock a whole table's worth of rows. Such reads there find their rows by key.
   */
  readonly locksScannedRows: boolean;

  /** Runs an insert into a table with an `id` key and returns the new id. */
  insertReturningId<DB, TB extends keyof DB>(query: InsertQueryBuilder<DB, TB, InsertResult>): Promise<number>;

  /** `query` made to report the id of the row it adds, for a query compiled once (`PreparedInsert`): `insertedId` reads it from the result. */
  returningId<DB, TB extends keyof DB>(query: InsertQueryBuilder<DB, TB, InsertResult>): Compilable<unknown>;

  /** The id of the row an insert made by `returningId` added. */
  insertedId(result: QueryResult<unknown>): number;

  /** `query` locking the rows it reads until the transaction ends, so that a write re-reading them cannot race a delete. */
  locking<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;

  /** `query` locking the rows it reads against changes and deletes until the transaction ends, while others may hold the same lock. */
  sharing<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;

  /** A token that changes whenever any connection may have changed stored data, or `undefined` where there is no cheap one. */
  version<DB>(db: Kysely<DB>, generation: number): Promise<string | undefined>;

  /** Reads on streaming replicas (README "Read replicas"); only PostgreSQL has them. */
  readonly replication?: Replication;

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

/** What a replica read knows of the node it is pinned to, from one query. */
export interface ReplicaState {
  /** The store version on that node, which its kept answers are bound to. */
  version: string;
  /**
   * How far the node has replayed the primary's log (`store/lsn.ts`); `undefined`
   * once it is no longer a replica (promoted): it then holds every write it will ever be sent.
   */
  position: bigint | undefined;
}

/** How the store tells where a write ended and how far a replica has caught up. */
export interface Replication {
  /** The state of a node read as a replica. */
  replicaState<DB>(db: Kysely<DB>): Promise<ReplicaState>;
  /** A position at or past the end of every write the primary has committed so far. */
  writePosition<DB>(db: Kysely<DB>): Promise<bigint>;
}
