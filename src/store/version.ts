import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { StoreDialect } from './dialects/dialect.js';

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
 * - The dialect's `version` adds what tells other connections' commits apart: on SQLite, the
 *   header of the WAL index (`wal-index.ts`) or else `total_changes()` and `PRAGMA
 *   data_version`; PostgreSQL's `pg_current_snapshot()`.
 *   MySQL/MariaDB have no cheap signal of other connections' commits: there is no version,
 *   and nothing is cached.
 */
export class StoreVersion implements KyselyPlugin {
  #generation = 0;
  readonly #writes = new WeakSet<object>();

  constructor(private readonly dialect: StoreDialect) {}

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
  current<DB>(db: Kysely<DB>): Promise<string | undefined> {
    return this.dialect.version(db, this.#generation);
  }
}

/** Entries a {@link VersionedValues} keeps before it starts over. */
const MAX_ENTRIES = 500;

/** Values computed from the rows, kept for one store version at a time. */
export class VersionedValues<T> {
  #version: string | undefined;
  readonly #values = new Map<string, T>();
  /** Values being computed, by version and key: requests asking at once share one computation (a count of seconds at a million events). */
  readonly #computing = new Map<string, Promise<T>>();

  /** `compute()`, or the value kept under `key` at `version` (nothing is kept without a version). */
  async get(key: string, version: string | undefined, compute: () => Promise<T>): Promise<T> {
    if (version === undefined) return compute();
    if (version === this.#version && this.#values.has(key)) return this.#values.get(key) as T;
    const at = `${version}\n${key}`;
    let computing = this.#computing.get(at);
    if (!computing) {
      computing = compute().finally(() => this.#computing.delete(at));
      this.#computing.set(at, computing);
    }
    const value = await computing;
    if (version !== this.#version) {
      this.#version = version;
      this.#values.clear();
    }
    if (this.#values.size >= MAX_ENTRIES) this.#values.clear();
    this.#values.set(key, value);
    return value;
  }
}
