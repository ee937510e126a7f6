import { MysqlAdapter, PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';

/** The SQL dialects the store supports. */
export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** Which of the supported dialects a Kysely instance speaks. */
export function dialectOf(db: Kysely<unknown>): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  // Third-party dialects built on the same adapters (e.g. libsql) behave like them.
  const name = adapter.constructor.name.toLowerCase();
  if (name.includes('postgres')) return 'postgres';
  if (name.includes('mysql')) return 'mysql';
  return 'sqlite';
}
