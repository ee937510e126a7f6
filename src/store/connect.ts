import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type Dialect, type DialectAdapter, type Driver, type SqliteDialectConfig } from 'kysely';
import { attachWalIndex, WalIndexHeader } from './wal-index.js';
import { attachSideReader, sideReaderFor, type SideReader } from './side-reader.js';
import { loadDriver } from './drivers.js';
import { namingStatements } from './named-statements.js';
import { invalidOption } from '../option-error.js';

/**
 * Opens a database from a connection string: `postgres://…`, `mysql://…` (or
 * `mariadb://…`), `sqlite:<file>`, `:memory:` or a plain file path (SQLite).
 * The drivers are optional peer dependencies, loaded only when used.
 */
export async function connectDatabase(target: string, { connectTimeoutMs = 5000 }: { connectTimeoutMs?: number } = {}): Promise<Kysely<unknown>> {
  return new Kysely<unknown>({ dialect: await dialectFor(target, connectTimeoutMs) });
}

/** Room for every query shape in use; the bound stops ever-new SQL (`IN` lists of each length) from growing it. */
const STATEMENT_CACHE_ENTRIES = 500;

/**
 * Reuses prepared statements by SQL text: Kysely prepares every query anew, which is the
 * largest cost of a read on SQLite. Statements are only ever run to completion (Kysely calls
 * `all`/`run`), so sharing one between calls is safe. A plain map, emptied when full: the
 * shapes in use come back at once, and a recency list cost 2 % of a write's CPU (profiled).
 */
function cachingStatements<D extends { prepare(sql: string): object }>(db: D): D {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, object>();
  db.prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (stmt === undefined) {
      if (cache.size >= STATEMENT_CACHE_ENTRIES) cache.clear();
      stmt = prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  return db;
}

/** Where a connection string points: a server URL, or a SQLite file (`:memory:` included). */
export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'mysql'; url: string } | { kind: 'sqlite'; file: string };

const SERVER_SCHEMES: Record<string, 'postgres' | 'mysql'> = { postgres: 'postgres', postgresql: 'postgres', mysql: 'mysql', mariadb: 'mysql' };

/**
 * Reads a connection string, or throws the option error that says what is wrong with it.
 * A scheme is two or more letters before a colon (a Windows drive letter is a file path); a
 * server scheme needs its `//` (`postgres:/db` would otherwise become a SQLite file of that name).
 */
export function databaseTarget(target: string, option = 'db'): DatabaseTarget {
  const takes = "a SQLite file path (or 'sqlite:<file>', ':memory:') or a server URL 'postgres://…', 'mysql://…' or 'mariadb://…'";
  if (!target.trim()) throw invalidOption(option, target, takes);
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(target)?.[1]?.toLowerCase();
  if (scheme === undefined || scheme === 'sqlite') return { kind: 'sqlite', file: scheme ? target.slice('sqlite:'.length) : target };
  const kind = SERVER_SCHEMES[scheme];
  if (kind === undefined) throw invalidOption(option, target, `${takes}; the scheme '${scheme}:' is none of these`);
  if (!target.slice(scheme.length + 1).startsWith('//')) throw invalidOption(option, target, `${takes}; a server URL has '//' after '${scheme}:'`);
  return kind === 'postgres' ? { kind, url: target } : { kind, url: target.replace(/^mariadb:/i, 'mysql:') };
}

async function dialectFor(target: string, connectTimeoutMs: number): Promise<Dialect> {
  const where = databaseTarget(target);
  if (where.kind === 'postgres') {
    const pg = await loadDriver('pg');
    const Pool = pg.Pool ?? pg.default.Pool;
    const pool = new Pool({ connectionString: where.url, max: 10, connectionTimeoutMillis: connectTimeoutMs, idleTimeoutMillis: 30_000, keepAlive: true });
    // An idle client losing its server must not crash the process: the pool replaces it.
    pool.on('error', () => undefined);
    // Nor may a checked-out one: pg-pool listens only while a client is idle, and an `error`
    // event nobody listens to kills the process. Its queries still fail (the request gets a
    // 503), and the pool drops the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new PostgresDialect({ pool: namingStatements(pool) });
  }
  if (where.kind === 'mysql') {
    const mysql = await loadDriver('mysql2');
    const createPool = mysql.createPool ?? mysql.default.createPool;
    const pool = createPool({
      uri: where.url,
      connectionLimit: 10,
      charset: 'utf8mb4',
      timezone: 'Z',
      connectTimeout: connectTimeoutMs,
      enableKeepAlive: true,
    });
    pool.on('connection', (connection) => connection.on('error', () => undefined));
    return new MysqlDialect({ pool });
  }
  const { file } = where;
  const { default: Database } = await loadDriver('better-sqlite3');
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = cachingStatements(new Database(file));
  const mode: unknown = sqlite.pragma('journal_mode = WAL', { simple: true });
  sqlite.pragma('busy_timeout = 5000');
  // A second connection reads beside this one only where both see the same committed data: a
  // file in WAL mode, whose readers never wait for its writer (`side-reader.ts`).
  const wal = mode === 'wal';
  return new OpenedSqliteDialect({ database: sqlite }, wal ? new WalIndexHeader(sqlite.name) : undefined, wal ? sideReaderFor(sqlite.name) : undefined);
}

/**
 * Kysely's SQLite dialect over a database the calendar opened itself: in WAL mode, its
 * WAL-index header and its side reader are attached to the adapter, where the store version
 * (`dialects/sqlite.ts`) and long reads (`side-reader.ts`) find them, and closed with the
 * connection.
 */
class OpenedSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly walIndex: WalIndexHeader | undefined,
    private readonly sideReader: SideReader | undefined,
  ) {
    super(config);
  }

  override createAdapter(): DialectAdapter {
    const adapter = super.createAdapter();
    if (this.walIndex) attachWalIndex(adapter, this.walIndex);
    if (this.sideReader) attachSideReader(adapter, this.sideReader);
    return adapter;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const { walIndex, sideReader } = this;
    if (!walIndex && !sideReader) return driver;
    const destroy = driver.destroy.bind(driver);
    return Object.assign(driver, {
      async destroy() {
        walIndex?.close();
        await sideReader?.close();
        await destroy();
      },
    });
  }
}
