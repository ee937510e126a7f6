import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialects/dialect.js';
import { PreparedQuery } from './prepared.js';

/**
 * Published events carrying the term, counted from the relationships: `EXISTS` keeps the
 * relationships as the outer loop on every dialect (a join let SQLite walk every published
 * event once per term).
 */
const COUNT = (termRef: ReturnType<typeof sql.ref>, tr: string, posts: string) => sql<number>`(
  select count(*) from ${sql.table(tr)} as tr
  where tr.term_id = ${termRef}
    and exists (select 1 from ${sql.table(posts)} as p where p.id = tr.post_id and p.type = 'event' and p.status = 'publish'))`;

/** Adds `delta` to the counts of terms. */
const MOVE_COUNTS = new PreparedQuery((db, v: { ids: number[]; delta: number }) =>
  db
    .updateTable('terms')
    .set((eb) => ({ count: eb('count', '+', v.delta) }))
    .where('id', 'in', v.ids),
);

/**
 * Moves the stored counts of terms a published event gained (`+1`) or lost (`-1`), inside the
 * write's transaction: the work is that of the write, whatever the number of events carrying
 * the terms (a recount read every one of them). `count + delta` is one atomic update, so
 * concurrent writes add up.
 */
export async function adjustTermCounts(db: Kysely<Database>, termIds: readonly number[], delta: 1 | -1): Promise<void> {
  const ids = [...new Set(termIds)].filter((id) => Number.isInteger(id) && id > 0);
  if (!ids.length) return;
  await MOVE_COUNTS.execute(db, { ids, delta });
}

/** Recomputes every stored count from the relationships (the migration's backfill, seeding), on the raw, unprefixed instance. */
export async function recountAllTerms(db: Kysely<unknown>, prefix: string): Promise<void> {
  await sql`update ${sql.table(`${prefix}terms`)} set count = ${COUNT(sql.ref(`${prefix}terms.id`), `${prefix}term_relationships`, `${prefix}posts`)}`.execute(
    db,
  );
}

/**
 * Term ids linked to a post; with the store's dialect, a locking (current) read, for counts
 * that move by it inside a write's transaction.
 */
export async function termIdsOf(db: Kysely<Database>, postId: number, dialect?: StoreDialect): Promise<number[]> {
  const query = db.selectFrom('term_relationships').select('term_id').where('post_id', '=', postId);
  return (await (dialect ? dialect.locking(query) : query).execute()).map((r) => r.term_id);
}
