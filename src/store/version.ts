import { sql, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import type { DialectName } from './dialect.js';

/** Query kinds that change rows or tables. */
const WRITES = new Set<string>([
  'InsertQueryNode',
  'UpdateQueryNode',
  'DeleteQueryNode',
  'MergeQueryNode',
  'CreateTableNode',
  'AlterTableNode',
  'DropTableNode',
  'CreateIndexNode',
  'DropIndexNode',
]);

/**
 * The store's version: a token that changes whenever stored data may have changed, whoever
 * changed it. Values derived from the rows (archive totals, rendered responses) are kept
 * under the token they were computed at and are never served under another, so several
 * processes on one database never see each other's stale values.
 *
 * - Every write through the store's Kysely instance moves an in-process generation on,
 *   after it ran and again when its transaction ends (a rollback must not leave values
 *   computed from uncommitted rows valid).
 * - SQLite: `total_changes()` counts this connection's writes (the host's own too) and
 *   `PRAGMA data_version` the commits of every other connection, other processes included.
 * - PostgreSQL: the text of `pg_current_snapshot()` changes whenever a transaction that wrote
 *   anything starts or ends, on any connection of the cluster.
 * - MySQL/MariaDB have no cheap signal of other connections' commits: there is no version,
 *   and nothing is cached.
 */
export class StoreVersion implements KyselyPlugin {
  #generation = 0;
  readonly #writes = new WeakSet<object>();

  constructor(private readonly dialect: DialectName) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (WRITES.has(args.node.kind)) this.#writes.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(args.queryId)) this.#generation++;
    return args.result;
  }

  /** Marks every derived value as stale (a transaction ended). */
  bump(): void {
    this.#generation++;
  }

  /** The version now, or `undefined` where the dialect has none. Read it before computing. */
  async current<DB>(db: Kysely<DB>): Promise<string | undefined> {
    const generation = this.#generation;
    switch (this.dialect) {
      case 'sqlite': {
        const { rows } = await sql<{ c: number; v: number }>`select total_changes() as c, data_version as v from pragma_data_version`.execute(db);
        return `${generation}:${rows[0]?.c}:${rows[0]?.v}`;
      }
      case 'postgres': {
        const { rows } = await sql<{ s: string }>`select pg_current_snapshot()::text as s`.execute(db);
        return `${generation}:${rows[0]?.s}`;
      }
      default:
        return undefined;
    }
  }
}

/** Entries a {@link VersionedValues} keeps before it starts over. */
const MAX_ENTRIES = 500;

/** Values computed from the rows, kept for one store version at a time. */
export class VersionedValues<T> {
  #version: string | undefined;
  readonly #values = new Map<string, T>();

  /** `compute()`, or the value kept under `key` at `version` (nothing is kept without a version). */
  async get(key: string, version: string | undefined, compute: () => Promise<T>): Promise<T> {
    if (version === undefined) return compute();
    if (version === this.#version && this.#values.has(key)) return this.#values.get(key) as T;
    const value = await compute();
    if (version !== this.#version) {
      this.#version = version;
      this.#values.clear();
    }
    if (this.#values.size >= MAX_ENTRIES) this.#values.clear();
    this.#values.set(key, value);
    return value;
  }
}
