/**
 * A store's connection: the host's Kysely instance with the calendar's table prefix, the
 * database's dialect and version, and transactions. It knows no resource: the resources
 * compose their queries over it (`resources/store.ts`).
 */
import type { Kysely } from 'kysely';
import { TABLES, type Database } from './database.js';
import { dialectOf, type StoreDialect } from './dialects/index.js';
import type { Replication, ReplicaState } from './dialects/dialect.js';
import { compilesLike } from './prepared.js';
import { SearchIndex } from './search-index.js';
import { TablePrefixPlugin } from './table-prefix.js';
import { StoreVersion } from './version.js';

/** Typed access to the calendar's prefixed tables, inside a transaction or not. */
export class Connection {
  private constructor(
    readonly db: Kysely<Database>,
    readonly dialect: StoreDialect,
    /** The prefix of its tables' names. */
    readonly prefix: string,
    private readonly versions: StoreVersion,
    /** Whether it is bound to a transaction. */
    readonly inTransaction: boolean,
    /** The posts' search index, shared by the store's transactions. */
    readonly searchIndex: SearchIndex,
  ) {}

  /** A connection over a host's (or the helper's) Kysely instance, its tables prefixed with `prefix`. */
  static open(raw: Kysely<unknown>, prefix: string): Connection {
    const dialect = dialectOf(raw);
    const versions = new StoreVersion(dialect);
    // The host's instance knows none of the calendar's tables: `withTables` adds them to its type.
    const db: Kysely<Database> = raw
      .withPlugin(new TablePrefixPlugin(prefix, TABLES))
      .withPlugin(versions)
      .withTables<{ [T in keyof Database]: Database[T] }>();
    return new Connection(db, dialect, prefix, versions, false, new SearchIndex(dialect, prefix));
  }

  /** The store's version now (`store/version.ts`); `undefined` where the dialect has none. */
  version(): Promise<string | undefined> {
    return this.versions.current(this.db);
  }

  /** This node's state read as a replica's (README "Read replicas"). */
  replicaState(): Promise<ReplicaState> {
    return this.#replication().replicaState(this.db);
  }

  /** A log position at or past every write committed so far on this node, the primary. */
  writePosition(): Promise<bigint> {
    return this.#replication().writePosition(this.db);
  }

  #replication(): Replication {
    const { replication } = this.dialect;
    if (!replication) throw new Error(`calendar-events-rest: read replicas need PostgreSQL; this store is ${this.dialect.name}`);
    return replication;
  }

  /** Runs `work` in one transaction, on a connection bound to it; the version moves on however it ends. */
  transaction<T>(work: (tx: Connection) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => {
        compilesLike(trx, this.db);
        return work(new Connection(trx, this.dialect, this.prefix, this.versions, true, this.searchIndex));
      })
      .finally(() => this.versions.bump());
  }
}
