/**
 * The SQL a migration run would send, without running it (`calendar-events-rest migrate
 * --dry-run`), for a DBA to review or to run by hand. The store's migrations are code (Kysely
 * builders, one set of statements per database), so each pending one is run against a
 * connection that answers nothing (Kysely's DummyDriver, with the database's own query
 * compiler) and the statements it sends are recorded, then written as a script with their
 * values inline.
 */
import {
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type Dialect,
} from 'kysely';
import type { StoreDialect } from './dialects/index.js';
import { MIGRATIONS, createLedger, recordMigration } from './migrate.js';

/** The databases the store speaks to, by their dialect's name. */
export type DialectName = StoreDialect['name'];

/** One migration's statements, each ending with `;`. */
export interface MigrationSql {
  name: string;
  statements: string[];
}

/** A Kysely dialect that compiles for `name` and runs nothing. */
function compileOnly(name: DialectName): Dialect {
  const parts = {
    sqlite: { adapter: SqliteAdapter, introspector: SqliteIntrospector, compiler: SqliteQueryCompiler },
    postgres: { adapter: PostgresAdapter, introspector: PostgresIntrospector, compiler: PostgresQueryCompiler },
    mysql: { adapter: MysqlAdapter, introspector: MysqlIntrospector, compiler: MysqlQueryCompiler },
  }[name];
  return {
    createAdapter: () => new parts.adapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new parts.introspector(db),
    createQueryCompiler: () => new parts.compiler(),
  };
}

/** A value as an SQL literal of `dialect`. */
function literal(value: unknown, dialect: DialectName): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return dialect === 'postgres' ? String(value) : value ? '1' : '0';
  const text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : undefined;
  if (text === undefined) throw new TypeError(`migration SQL: a parameter of type ${typeof value} cannot be written inline`);
  // MySQL reads backslashes in literals as escapes (unless NO_BACKSLASH_ESCAPES): doubled there.
  return `'${(dialect === 'mysql' ? text.replace(/\\/g, '\\\\') : text).replace(/'/g, "''")}'`;
}

/** A compiled statement with its parameters written inline (placeholders inside quotes left alone). */
export function inlineStatement({ sql, parameters }: Pick<CompiledQuery, 'sql' | 'parameters'>, dialect: DialectName): string {
  let out = '';
  let quote: string | undefined;
  let next = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql.charAt(i);
    if (quote) {
      out += c;
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
      out += c;
    } else if (dialect === 'postgres' && c === '$' && /\d/.test(sql[i + 1] ?? '')) {
      const [digits = ''] = /^\d+/.exec(sql.slice(i + 1)) ?? [];
      out += literal(parameters[Number(digits) - 1], dialect);
      i += digits.length;
    } else if (dialect !== 'postgres' && c === '?') {
      out += literal(parameters[next++], dialect);
    } else {
      out += c;
    }
  }
  return `${out};`;
}

/**
 * The statements each of the migrations `names` (pending ones, in order) would run on a store
 * of `dialect` with tables prefixed `prefix`, each followed by its line in the ledger; the
 * ledger's creation (`if not exists`) comes first. Statements that a migration would build from
 * what it reads are not there: none of the store's migrations does.
 */
export async function migrationSql(dialect: DialectName, prefix: string, names: readonly string[]): Promise<MigrationSql[]> {
  let recorded: CompiledQuery[] = [];
  const db = new Kysely<unknown>({
    dialect: compileOnly(dialect),
    log: (event) => {
      if (event.level === 'query') recorded.push(event.query);
    },
  });
  const take = () => {
    const statements = recorded.map((q) => inlineStatement(q, dialect));
    recorded = [];
    return statements;
  };
  try {
    const table = `${prefix}migrations`;
    await createLedger(db, table);
    const out: MigrationSql[] = [{ name: 'ledger', statements: take() }];
    for (const name of names) {
      const migration = MIGRATIONS.find(([n]) => n === name)?.[1];
      if (!migration) throw new Error(`migration SQL: no migration ${name}`);
      await migration.up({ db, prefix });
      await recordMigration(db, table, name);
      out.push({ name, statements: take() });
    }
    return out;
  } finally {
    await db.destroy();
  }
}
