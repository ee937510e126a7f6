/**
 * Named prepared statements for a PostgreSQL pool the calendar opens itself (from a
 * `postgres://…` URL). Kysely hands pg each query as bare text, which PostgreSQL parses and
 * plans anew on every run; a statement sent under a name is parsed once per connection and,
 * after a few runs, planned once too. A `POST /events` runs ten statements: named, they cost
 * the database 0.9–1.1 ms of CPU instead of 1.5–1.7 (measured on the bench machine).
 *
 * Only statements that come back get a name, and only so many: each name is kept on every
 * connection of the pool, by pg and by the server, for the connection's life.
 */
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/** Most statements named per pool: the calendar's recurring ones fit, `IN` lists of every length do not need to. */
const NAMED_STATEMENTS = 300;

/** Texts remembered as seen once (a second sighting names one); emptied when full. */
const SIGHTINGS = 2000;

/** Only data statements with values are named: DDL and `begin`/`commit` run as they are. */
const NAMEABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

/**
 * PostgreSQL's answer when a statement's result columns changed since it was prepared (a
 * migration added a column under `select *`): that text runs unnamed from then on.
 */
export function isPlanChanged(error: unknown): boolean {
  const e = error as { code?: unknown; routine?: unknown; message?: unknown } | null;
  if (e?.code !== '0A000') return false;
  // The server function that raises it names it in any language; the message only in English.
  return e.routine === 'RevalidateCachedQuery' || (typeof e.message === 'string' && e.message.includes('cached plan must not change result type'));
}

/** What Kysely sends to open and to end a transaction (a savepoint's rollback is longer). */
const BEGINS = /^\s*(?:begin|start transaction)\b/i;
const ENDS = /^\s*(?:commit|rollback)\s*$/i;

/** The names given to the statements of one pool. */
class StatementNames {
  readonly #names = new Map<string, string>();
  readonly #seen = new Set<string>();
  readonly #unnamed = new Set<string>();
  /** Names given so far: a name is never given twice, even once its text runs unnamed (pg keeps it on the connection). */
  #given = 0;

  /** The name `text` runs under, if it has (or now earns) one. */
  nameOf(text: string, values: ReadonlyArray<unknown>): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || !values.length || this.#given >= NAMED_STATEMENTS || this.#unnamed.has(text) || !NAMEABLE.test(text)) return name;
    if (!this.#seen.has(text)) {
      if (this.#seen.size >= SIGHTINGS) this.#seen.clear();
      this.#seen.add(text);
      return undefined;
    }
    this.#seen.delete(text);
    const named = `calendar_${this.#given++}`;
    this.#names.set(text, named);
    return named;
  }

  /** Stops naming `text` (its prepared form no longer fits the table). */
  unname(text: string): void {
    this.#names.delete(text);
    this.#unnamed.add(text);
  }
}

/** A client of a pg pool, as far as naming statements needs it: Kysely's forms of `query`, and the one that takes a statement's name. */
export interface NamingPoolClient extends PostgresPoolClient {
  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(config: { name: string; text: string; values: unknown[] }): Promise<PostgresQueryResult<R>>;
}

/** A pg pool (`new pg.Pool(…)`), as far as naming statements needs it. */
export interface NamingPool {
  connect(): Promise<NamingPoolClient>;
  end(): Promise<void>;
}

/** A pg client as Kysely uses it, running recurring statements under their names. */
function namingClient(client: NamingPoolClient, names: StatementNames): PostgresPoolClient {
  // The same client seen through the two forms of `query` used here (as Kysely sees a pg pool's clients).
  const plain: PostgresPoolClient = client;
  let inTransaction = false;
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(query: string | PostgresCursor<R>, values: ReadonlyArray<unknown> = []): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof query !== 'string') return plain.query(query);
    const name = names.nameOf(query, values);
    if (name === undefined) {
      if (BEGINS.test(query)) inTransaction = true;
      else if (ENDS.test(query)) inTransaction = false;
      return plain.query<R>(query, values);
    }
    return client.query<R>({ name, text: query, values: [...values] }).catch((error: unknown) => {
      if (!isPlanChanged(error)) throw error;
      names.unname(query);
      // Alone, the statement is simply sent again unnamed; in a transaction, which PostgreSQL
      // has now aborted, the store's retry runs the whole transaction again (retry.ts).
      if (inTransaction) throw error;
      return plain.query<R>(query, values);
    });
  }
  return { query, release: () => client.release() };
}

/**
 * `pool` (a pg `Pool`) as Kysely's `PostgresDialect` takes it, with the statements that recur
 * prepared under names (docs/recipes/postgres-instances.md, "Prepared statements"): what the
 * calendar does with a pool it opens from a URL, for a host that builds its own Kysely instance.
 */
export function namingStatements(pool: NamingPool): PostgresPool {
  const names = new StatementNames();
  // Kysely keeps its state per client object: each pg client has one wrapper for its life.
  const wrappers = new WeakMap<NamingPoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = namingClient(client, names)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}
