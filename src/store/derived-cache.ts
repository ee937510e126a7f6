import { sql, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import type { DialectName } from './dialect.js';

/** Query kinds that change rows or tables (raw SQL the store sends is read-only). */
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

/** Longest a cache of derived values grows before it starts over. */
const MAX_ENTRIES = 500;

/**
 * Values derived from the stored rows (archive totals), cached until the next write. Every
 * write through the store's Kysely instance moves the generation on (after it ran, and
 * again when its transaction ends); on SQLite `PRAGMA data_version` adds the commits of
 * other connections (other processes). Other dialects have no such cheap signal, so the
 * cache stays off there: a second process's writes would go unseen.
 */
export class DerivedCache implements KyselyPlugin {
  #generation = 0;
  readonly #writes = new WeakSet<object>();
  readonly #values = new Map<string, { version: string; value: number }>();

  constructor(private readonly dialect: DialectName) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (WRITES.has(args.node.kind)) this.#writes.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(args.queryId)) this.#generation++;
    return args.result;
  }

  /** Marks everything cached as stale (a transaction ended). */
  bump(): void {
    this.#generation++;
  }

  /** The store's version now, or `undefined` where the cache is off. Read it before computing. */
  async version<DB>(db: Kysely<DB>): Promise<string | undefined> {
    if (this.dialect !== 'sqlite') return undefined;
    const before = this.#generation;
    const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(db);
    return `${before}:${rows[0]?.data_version}`;
  }

  /** `compute()`, or its value cached under `key` at this `version`. */
  async get(key: string, version: string | undefined, compute: () => Promise<number>): Promise<number> {
    if (version === undefined) return compute();
    const hit = this.#values.get(key);
    if (hit && hit.version === version) return hit.value;
    const value = await compute();
    if (this.#values.size >= MAX_ENTRIES) this.#values.clear();
    this.#values.set(key, { version, value });
    return value;
  }
}
