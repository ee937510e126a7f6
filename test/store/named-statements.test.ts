import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, namingStatements } from '../../src/index.js';
import { isRetryable } from '../../src/store/retry.js';
import { isPlanChanged } from '../../src/store/named-statements.js';

const url = process.env.CALENDAR_TEST_POSTGRES_URL;

/** The statements prepared under a name on the connection `db` runs on. */
async function prepared(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
  return rows.map((r) => r.statement);
}

describe.skipIf(!url)('a PostgreSQL pool opened from a URL prepares recurring statements under names', () => {
  let db: Kysely<unknown>;
  const table = `named_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    db = await connectDatabase(url!);
    await sql`create table ${sql.table(table)} (id integer primary key, title text)`.execute(db);
    await sql`insert into ${sql.table(table)} values (1, 'one'), (2, 'two')`.execute(db);
  });
  afterAll(async () => {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
    await db.destroy();
  });

  it('names a statement the second time it runs, and answers the same through the name', async () => {
    await db.connection().execute(async (conn) => {
      const select = (id: number) => sql<{ title: string }>`select title from ${sql.table(table)} where id = ${id}`.execute(conn);
      expect((await select(1)).rows).toEqual([{ title: 'one' }]);
      expect((await prepared(conn)).filter((s) => s.includes(table))).toEqual([]);
      expect((await select(2)).rows).toEqual([{ title: 'two' }]);
      expect((await select(1)).rows).toEqual([{ title: 'one' }]);
      expect((await prepared(conn)).filter((s) => s.includes(table))).toEqual([`select title from "${table}" where id = $1`]);
    });
  });

  it('leaves statements without values and DDL unnamed', async () => {
    await db.connection().execute(async (conn) => {
      for (let i = 0; i < 3; i++) await sql`select count(*) from ${sql.table(table)}`.execute(conn);
      expect((await prepared(conn)).some((s) => s.startsWith('select count(*)'))).toBe(false);
    });
  });

  it('sends a statement again unnamed once a migration has changed the columns it reads', async () => {
    await db.connection().execute(async (conn) => {
      const all = (id: number) => sql<Record<string, unknown>>`select * from ${sql.table(table)} where id = ${id}`.execute(conn);
      await all(1);
      await all(1); // now named
      await sql`alter table ${sql.table(table)} add column place text`.execute(conn);
      // PostgreSQL refuses the prepared form (its columns changed): it is sent again as it is.
      expect((await all(1)).rows).toEqual([{ id: 1, title: 'one', place: null }]);
      expect((await all(2)).rows).toEqual([{ id: 2, title: 'two', place: null }]);
      expect((await prepared(conn)).filter((s) => s.startsWith('select *'))).toHaveLength(1); // the stale one, no longer used
    });
  });

  it('in a transaction, fails the statement with an error the store retries the transaction for', async () => {
    const pick = (on: Kysely<unknown>, id: number) => sql<Record<string, unknown>>`select *, 1 as one from ${sql.table(table)} where id = ${id}`.execute(on);
    await db.connection().execute(async (conn) => {
      await pick(conn, 1);
      await pick(conn, 1);
      await sql`alter table ${sql.table(table)} add column other text`.execute(conn);
      const error: unknown = await conn
        .transaction()
        .execute((trx) => pick(trx, 1))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: '0A000', routine: 'RevalidateCachedQuery' });
      // Known by the server function that raised it, whatever the language of its message.
      expect(isPlanChanged({ code: '0A000', routine: 'RevalidateCachedQuery', message: 'le plan en cache ne doit pas modifier le type du résultat' })).toBe(
        true,
      );
      expect(isPlanChanged({ code: '0A000', routine: 'transformSelectStmt', message: 'not supported' })).toBe(false);
      expect(isRetryable(error)).toBe(true);
      // The transaction run again: the statement is now sent unnamed.
      expect((await conn.transaction().execute((trx) => pick(trx, 1))).rows).toEqual([{ id: 1, title: 'one', place: null, other: null, one: 1 }]);
    });
  });

  it('names at most 300 statements per pool', async () => {
    await db.connection().execute(async (conn) => {
      for (let i = 0; i < 320; i++) {
        for (let run = 0; run < 2; run++) await sql`select ${sql.lit(i)} + ${run} as n from ${sql.table(table)} where id = ${1}`.execute(conn);
      }
      expect((await prepared(conn)).length).toBeLessThanOrEqual(300);
      expect((await prepared(conn)).length).toBeGreaterThan(250);
    });
  });
});

describe.skipIf(!url)('a pool of the host’s, wrapped with namingStatements', () => {
  it('names the statements a Kysely instance built on it runs', async () => {
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: namingStatements(new pg.Pool({ connectionString: url, max: 1 })) }) });
    try {
      await db.connection().execute(async (conn) => {
        for (let i = 0; i < 3; i++) await sql`select ${i}::int + 1 as n`.execute(conn);
        expect(await prepared(conn)).toContain('select $1::int + 1 as n');
      });
    } finally {
      await db.destroy();
    }
  });
});
