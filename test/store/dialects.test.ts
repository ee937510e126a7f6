/**
 * The per-database behaviour of the store: which object `dialectOf` picks for a Kysely
 * instance (and that it refuses an adapter it does not know), and what each object does.
 */
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  DialectAdapterBase,
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type DialectAdapter,
  type Generated,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/store/connect.js';
import { dialectOf, type StoreDialect } from '../../src/store/dialects/index.js';
import { mysqlDialect } from '../../src/store/dialects/mysql.js';
import { postgresDialect } from '../../src/store/dialects/postgres.js';
import { sqliteDialect } from '../../src/store/dialects/sqlite.js';
import { Store } from '../../src/resources/store.js';
import { DIALECTS } from '../helpers/harness.js';

const OBJECTS: Record<string, StoreDialect> = { sqlite: sqliteDialect, postgres: postgresDialect, mysql: mysqlDialect };

type Tables = Record<string, { id: Generated<number>; v: string }>;

/** A Kysely instance whose adapter is `adapter` (it compiles SQLite and never runs a query). */
const withAdapter = (adapter: DialectAdapter) =>
  new Kysely<unknown>({
    dialect: {
      createAdapter: () => adapter,
      createDriver: () => new DummyDriver(),
      createQueryCompiler: () => new SqliteQueryCompiler(),
      createIntrospector: (db) => new SqliteIntrospector(db),
    },
  });

/** An adapter of none of Kysely's built-in classes. */
class AcmeAdapter extends DialectAdapterBase {
  override get supportsReturning(): boolean {
    return false;
  }
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

/** An in-memory SQLite database that records the SQL it runs in `log`. */
const sqliteDb = (log: string[]) =>
  new Kysely<Tables>({ dialect: new SqliteDialect({ database: new Database(':memory:') }), log: (event) => void log.push(event.query.sql) });

describe.each(DIALECTS)('the dialect of $name', ({ name, url }) => {
  let raw: Kysely<unknown>;
  let db: Kysely<Tables>;
  let dialect: StoreDialect;
  const table = `d${randomBytes(4).toString('hex')}_rows`;

  beforeAll(async () => {
    raw = await connectDatabase(url);
    db = raw as unknown as Kysely<Tables>;
    dialect = dialectOf(raw);
    await dialect.tableOptions(dialect.autoIncrementId(db.schema.createTable(table)).addColumn('v', 'varchar(20)', (c) => c.notNull())).execute();
  });
  afterAll(async () => {
    await db.schema.dropTable(table).ifExists().execute();
    await raw.destroy();
  });

  it('is chosen by the adapter', () => {
    expect(dialect).toBe(OBJECTS[name]);
    expect(dialect.name).toBe(name);
  });

  it('returns the ids of inserted rows', async () => {
    const first = await dialect.insertReturningId(db.insertInto(table).values({ v: 'a' }));
    const second = await dialect.insertReturningId(db.insertInto(table).values({ v: 'b' }));
    expect(second).toBe(first + 1);
    expect((await db.selectFrom(table).select('v').where('id', '=', second).executeTakeFirstOrThrow()).v).toBe('b');
  });

  it('reads locked rows inside a transaction', async () => {
    const rows = await db.transaction().execute((trx) => dialect.locking(trx.selectFrom(table).select('v').orderBy('id')).execute());
    expect(rows.map((r) => r.v)).toEqual(['a', 'b']);
  });

  it('has a version that follows writes, or none', async () => {
    const before = await dialect.version(db, 0);
    if (name === 'mysql') {
      expect(before).toBeUndefined();
      return;
    }
    expect(before).toMatch(/^0:/);
    expect(await dialect.version(db, 1)).toMatch(/^1:/);
    await db.insertInto(table).values({ v: 'c' }).execute();
    expect(await dialect.version(db, 0)).not.toBe(before);
  });

  it('runs work under the migration lock and returns its result', async () => {
    expect(
      await dialect.migrationLock(raw, `calendar_test_${table}`, async (conn) => (await sql<{ one: number }>`select 1 as one`.execute(conn)).rows.length),
    ).toBe(1);
  });
});

describe('dialectOf on adapters it does not know', () => {
  it('refuses them, naming the adapter', () => {
    expect(() => dialectOf(withAdapter(new AcmeAdapter()))).toThrow(/AcmeAdapter/);
    expect(() => Store.open(withAdapter(new AcmeAdapter()), 't_')).toThrow(/Unsupported database/);
  });

  it('takes subclasses of the built-in adapters for them', () => {
    class LibsqlAdapter extends SqliteAdapter {}
    expect(dialectOf(withAdapter(new LibsqlAdapter()))).toBe(sqliteDialect);
  });

  it('goes by class names for adapters extending another copy of Kysely', () => {
    class OtherPostgresAdapter extends AcmeAdapter {}
    class OtherMysqlAdapter extends AcmeAdapter {}
    class SqliteAdapterCopy extends AcmeAdapter {}
    class ClientAdapter extends SqliteAdapterCopy {}
    expect(dialectOf(withAdapter(new OtherPostgresAdapter()))).toBe(postgresDialect);
    expect(dialectOf(withAdapter(new OtherMysqlAdapter()))).toBe(mysqlDialect);
    expect(dialectOf(withAdapter(new ClientAdapter()))).toBe(sqliteDialect);
  });
});

describe('the dialect objects on SQLite', () => {
  const log: string[] = [];
  let db: Kysely<Tables>;
  beforeAll(async () => {
    db = sqliteDb(log);
    await db.schema
      .createTable('rows')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('v', 'text')
      .execute();
  });
  afterAll(() => db.destroy());

  it('all return the new id: from the insert id (SQLite, MySQL) or RETURNING (PostgreSQL)', async () => {
    const inserted = async (d: StoreDialect, v: string) => {
      log.length = 0;
      return { id: await d.insertReturningId(db.insertInto('rows').values({ v })), sql: log.join(';') };
    };
    expect(await inserted(sqliteDialect, 'a')).toEqual({ id: 1, sql: 'insert into "rows" ("v") values (?)' });
    expect(await inserted(mysqlDialect, 'b')).toEqual({ id: 2, sql: 'insert into "rows" ("v") values (?)' });
    expect(await inserted(postgresDialect, 'c')).toEqual({ id: 3, sql: 'insert into "rows" ("v") values (?) returning "id"' });
  });

  it('lock rows with FOR UPDATE except on SQLite', () => {
    const query = db.selectFrom('rows').select('id');
    expect(sqliteDialect.locking(query).compile().sql).not.toMatch(/for update/i);
    expect(postgresDialect.locking(query).compile().sql).toMatch(/ for update$/);
    expect(mysqlDialect.locking(query).compile().sql).toMatch(/ for update$/);
  });

  it('version SQLite by its change counters and the generation; MySQL not at all', async () => {
    const before = await sqliteDialect.version(db, 7);
    expect(before).toMatch(/^7:\d+:\d+$/);
    await db.insertInto('rows').values({ v: 'd' }).execute();
    expect(await sqliteDialect.version(db, 7)).not.toBe(before);
    expect(await mysqlDialect.version(db, 7)).toBeUndefined();
  });

  it('roll the SQLite migration back when the work fails', async () => {
    const failing = sqliteDialect.migrationLock(db as unknown as Kysely<unknown>, 'lock', async (conn) => {
      await (conn as unknown as Kysely<Tables>).insertInto('rows').values({ v: 'lost' }).execute();
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await db.selectFrom('rows').select('id').where('v', '=', 'lost').execute()).toEqual([]);
  });

  it('create tables with the options and id column of each database', () => {
    const create = (d: StoreDialect) => d.tableOptions(d.autoIncrementId(db.schema.createTable('t'))).compile().sql;
    expect(create(sqliteDialect)).toBe('create table "t" ("id" integer primary key autoincrement)');
    expect(create(postgresDialect)).toBe('create table "t" ("id" serial primary key)');
    expect(create(mysqlDialect)).toBe('create table "t" ("id" integer primary key autoincrement) engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin');
  });
});
