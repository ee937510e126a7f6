import { sql, type QueryExecutorProvider } from 'kysely';

/** The PostgreSQL cluster's snapshot: the part of the store version that other connections move. */
const snapshotOf = async (db: QueryExecutorProvider) => (await sql<{ s: string }>`select pg_current_snapshot()::text as s`.execute(db)).rows[0]?.s;

/** How long {@link withinOneVersion} tries, within the test timeout. */
const ATTEMPTS_MS = 20_000;

/**
 * What `run` gives when it ran within one store version, from a fresh one.
 *
 * On PostgreSQL the store version includes the cluster's snapshot, which any transaction that
 * writes moves, on any connection: the other test files' writes to the shared server drop a
 * calendar's kept answers in the middle of a test, as they must (never stale). A test that
 * counts what was computed or kept runs its reads here: each attempt starts from a new version
 * (a transaction of its own that takes an id), and `run` is repeated until the snapshot held
 * still through it. Other databases run it once: the test's own file is all that writes to them.
 */
export async function withinOneVersion<T>(dialect: string, db: QueryExecutorProvider, run: () => Promise<T>): Promise<T> {
  if (dialect !== 'postgres') return run();
  // Bounded in time, not in attempts: another file's run of writes lasts a while, then pauses.
  // (`performance`, not `Date`: tests fake the date.)
  const until = performance.now() + ATTEMPTS_MS;
  while (performance.now() < until) {
    await sql`select pg_current_xact_id()`.execute(db);
    const before = await snapshotOf(db);
    const value = await run();
    if ((await snapshotOf(db)) === before) return value;
  }
  throw new Error(`the PostgreSQL snapshot moved during every attempt for ${ATTEMPTS_MS / 1000} s: the server never held still`);
}
