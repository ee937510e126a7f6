import type { InsertQueryBuilder, InsertResult } from 'kysely';
import type { DialectName } from './dialect.js';

/** Runs an insert into a table with an `id` key and returns the new id, on every dialect. */
export async function insertReturningId<DB, TB extends keyof DB>(
  dialect: DialectName,
  query: InsertQueryBuilder<DB, TB, InsertResult>,
): Promise<number> {
  if (dialect === 'postgres') {
    // PostgreSQL reports no insert id; MySQL has no RETURNING; SQLite reports both.
    const row = (await (query as unknown as InsertQueryBuilder<DB, TB, { id: number }>).returning('id' as never).executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}
