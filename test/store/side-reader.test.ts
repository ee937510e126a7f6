import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/store/connect.js';
import { readAside, SideReader, SideReadTimeout, sideReadsRun } from '../../src/store/side-reader.js';
import { testCalendar, type TestCalendar } from '../helpers/harness.js';
import { createEvent } from '../resources/events/fixtures.js';

const query = { start_date: '2027-01-01', end_date: '2027-12-31' };
const fresh = { 'cache-control': 'no-cache' };

/** The archive's total, computed (not from the response cache). */
const total = async (t: TestCalendar) => Number((await t.request('GET', '/events', { query, headers: fresh })).body.total);

/** The directory of this file's SQLite files (side reads need a file, not `:memory:`). */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'calendar-side-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('archive totals of a SQLite file are counted beside the event loop', () => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(join(dir, 'side.sqlite'));
  });
  afterAll(() => t?.close());

  it('reads the total on the second connection, and sees the write committed just before', async () => {
    const before = sideReadsRun();
    expect(await total(t)).toBe(0);
    expect(sideReadsRun()).toBe(before + 1);
    await createEvent(t, { start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' });
    expect(await total(t)).toBe(1);
    await createEvent(t, { start_date: '2027-04-01 10:00:00', end_date: '2027-04-01 11:00:00' });
    expect(await total(t)).toBe(2);
    expect(sideReadsRun()).toBe(before + 3);
  });
});

describe('where there is no second connection, totals are counted as before', () => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(':memory:');
  });
  afterAll(() => t?.close());

  it('counts an in-memory archive on its own connection', async () => {
    const before = sideReadsRun();
    await createEvent(t, { start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' });
    expect(await total(t)).toBe(1);
    expect(sideReadsRun()).toBe(before);
  });
});

describe('readAside', () => {
  it('reads in a transaction on the transaction’s connection, which sees its own writes', async () => {
    const db = await connectDatabase(join(dir, 'tx.sqlite'));
    try {
      await sql`CREATE TABLE t (n INTEGER)`.execute(db);
      const before = sideReadsRun();
      const seen = await db.transaction().execute(async (tx) => {
        await sql`INSERT INTO t VALUES (1)`.execute(tx);
        return readAside(tx, tx.selectFrom('t' as never).select(sql<number>`count(*)`.as('n')));
      });
      expect(seen).toEqual([{ n: 1 }]);
      expect(sideReadsRun()).toBe(before);
      expect(await readAside(db, db.selectFrom('t' as never).select(sql<number>`count(*)`.as('n')))).toEqual([{ n: 1 }]);
      expect(sideReadsRun()).toBe(before + 1);
    } finally {
      await db.destroy();
    }
  });

  it('gives a read back to its caller when the worker cannot start', async () => {
    const broken = new SideReader(join(dir, 'none.sqlite'), join(dir, 'no-such-driver.js'));
    expect(await broken.all('SELECT 1 AS one', [])).toBeUndefined();
    // And does not try again.
    expect(await broken.all('SELECT 1 AS one', [])).toBeUndefined();
    await broken.close();
  });

  it('reads through a working driver', async () => {
    const db = await connectDatabase(join(dir, 'works.sqlite'));
    await db.destroy();
    const reader = new SideReader(join(dir, 'works.sqlite'), createRequire(import.meta.url).resolve('better-sqlite3'));
    try {
      expect(await reader.all('SELECT ? + 1 AS n', [41])).toEqual([{ n: 42 }]);
      // A statement SQLite refuses is given back too: the caller's own connection reports it.
      expect(await reader.all('SELECT * FROM no_such_table', [])).toBeUndefined();
      // So is a parameter that cannot be sent to another thread.
      expect(await reader.all('SELECT ? AS n', [() => 1])).toBeUndefined();
      expect(await reader.all('SELECT ? AS n', [7])).toEqual([{ n: 7 }]);
      // Its page cache is SQLite's default (2,000 KiB), not the driver's 16 MB: totals are scans.
      expect(await reader.all('SELECT cache_size FROM pragma_cache_size', [])).toEqual([{ cache_size: -2000 }]);
      // While SQLite works on a long read in the worker (10 million rows), this thread's timers run.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const long = await reader.all('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000) SELECT count(*) AS n FROM c', []);
      clearInterval(timer);
      expect(long).toEqual([{ n: 10_000_000 }]);
      expect(ticks).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
  });

  it('stops a read that outlasts its time, and reads again on a new worker', async () => {
    const db = await connectDatabase(join(dir, 'slow.sqlite'));
    await db.destroy();
    const reader = new SideReader(join(dir, 'slow.sqlite'), createRequire(import.meta.url).resolve('better-sqlite3'));
    const long = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT count(*) AS n FROM c';
    try {
      // 100 million rows take SQLite seconds: the worker is stopped at 50 ms.
      await expect(reader.all(long, [], 50)).rejects.toBeInstanceOf(SideReadTimeout);
      expect(await reader.all('SELECT ? + 1 AS n', [1], 10_000)).toEqual([{ n: 2 }]);
      // A read waiting behind a long one runs out of time without being run; the long one goes on.
      const first = reader.all('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) AS n FROM c', []);
      await expect(reader.all('SELECT 1 AS n', [], 1)).rejects.toMatchObject({ timeoutMs: 1 });
      expect(await first).toEqual([{ n: 2_000_000 }]);
      // No time at all: refused before it is sent.
      await expect(reader.all('SELECT 1 AS n', [], 0)).rejects.toBeInstanceOf(SideReadTimeout);
    } finally {
      await reader.close();
    }
  });
});

describe('an archive whose total may not be counted within limits.countMs', () => {
  it('is answered 503 rest_count_too_slow where the count runs beside the loop, and counted as before elsewhere', async () => {
    const file = await testCalendar(join(dir, 'limited.sqlite'), { limits: { countMs: 0 } });
    const memory = await testCalendar(':memory:', { limits: { countMs: 0 } });
    try {
      const res = await file.request('GET', '/events', { query, headers: fresh });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'rest_count_too_slow', data: { status: 503 } });
      // The calendar's own connection cannot stop a count: the limit does not apply there.
      expect((await memory.request('GET', '/events', { query, headers: fresh })).status).toBe(200);
    } finally {
      await file.close();
      await memory.close();
    }
  });
});
