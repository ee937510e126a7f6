import { MysqlAdapter, PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';
import type { StoreDialect } from './dialect.js';
import { mysqlDialect } from './mysql.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';

export type { StoreDialect } from './dialect.js';

/** The store's behaviour on the database a Kysely instance speaks to; throws for one it does not support. */
export function dialectOf(db: Pick<Kysely<unknown>, 'getExecutor'>): StoreDialect {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return postgresDialect;
  if (adapter instanceof MysqlAdapter) return mysqlDialect;
  if (adapter instanceof SqliteAdapter) return sqliteDialect;
  // Third-party dialects built on the same adapters (e.g. libsql) behave like them, even when
  // they extend another copy of Kysely's classes (where `instanceof` fails): go by class names.
  for (let proto: unknown = Object.getPrototypeOf(adapter); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const name = (proto as { constructor: { name: string } }).constructor.name.toLowerCase();
    if (name.includes('postgres')) return postgresDialect;
    if (name.includes('mysql')) return mysqlDialect;
    if (name.includes('sqlite') || name.includes('libsql')) return sqliteDialect;
  }
  throw new Error(
    `Unsupported database: the Kysely adapter ${adapter.constructor.name} is none of PostgresAdapter, MysqlAdapter or SqliteAdapter (nor built on one of them).`,
  );
}
