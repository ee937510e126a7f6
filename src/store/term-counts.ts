import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Published events carrying the term, counted from the relationships: `EXISTS` keeps the
 * relationships as the outer loop on every dialect (a join let SQLite walk every published
 * event once per term).
 */
const COUNT = (termRef: ReturnType<typeof sql.ref>, tr: string, posts: string) => sql<number>`(
  select count(*) from ${sql.table(tr)} as tr
  where tr.term_id = ${termRef}
    and exists (select 1 from ${sql.table(posts)} as p where p.id = tr.post_id and p.type = 'event' and p.status = 'publish'))`;

/** Recomputes the stored count of the given terms (after their links or their events' statuses changed). */
export async function recountTerms(db: Kysely<Database>, termIds: readonly number[]): Promise<void> {
  const ids = [...new Set(termIds)].filter((id) => Number.isInteger(id) && id > 0);
  if (!ids.length) return;
  // Logical table names: the prefix plugin maps them.
  await db
    .updateTable('terms')
    .set({ count: COUNT(sql.ref('terms.id'), 'term_relationships', 'posts') })
    .where('id', 'in', ids)
    .execute();
}

/** Recomputes every stored count (the migration's backfill), on the raw, unprefixed instance. */
export async function recountAllTerms(db: Kysely<unknown>, prefix: string): Promise<void> {
  await sql`update ${sql.table(`${prefix}terms`)} set count = ${COUNT(sql.ref(`${prefix}terms.id`), `${prefix}term_relationships`, `${prefix}posts`)}`.execute(db);
}

/** Term ids linked to a post. */
export async function termIdsOf(db: Kysely<Database>, postId: number): Promise<number[]> {
  return (await db.selectFrom('term_relationships').select('term_id').where('post_id', '=', postId).execute()).map((r) => r.term_id);
}
