/**
 * Faults (issue 7): the database going away mid-traffic, and a writer process killed in the
 * middle of its writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { TABLES, type Database } from '../../src/store/database.js';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { integrityProblems } from './fixtures/store-state.js';
import { TOKENS, TOKENS_ENV, bundleScript, http, runTs, startExampleServer, type ExampleServer, type HttpResult } from './fixtures/processes.js';
import { postgresBinaries, startPrivatePostgres, type PrivatePostgres } from './fixtures/postgres.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sqliteDir = mkdtempSync(join(tmpdir(), 'calendar-rel-kill-'));
let writerScript: string;
beforeAll(async () => {
  writerScript = await bundleScript('test/reliability/fixtures/writer.ts');
});
afterAll(() => {
  rmSync(sqliteDir, { recursive: true, force: true });
  if (writerScript) rmSync(writerScript, { force: true });
});

const KILL_TARGETS = [
  { name: 'sqlite', url: () => join(sqliteDir, 'killed.sqlite') },
  ...(process.env.CALENDAR_TEST_POSTGRES_URL ? [{ name: 'postgres', url: () => process.env.CALENDAR_TEST_POSTGRES_URL! }] : []),
];

describe.each(KILL_TARGETS)('a writer killed mid-write on $name', ({ url }) => {
  const prefix = `k${randomBytes(4).toString('hex')}_`;
  let raw: Kysely<unknown>;
  let db: Kysely<Database>;

  beforeAll(async () => {
    const calendar = createCalendar({ db: url(), tablePrefix: prefix });
    await calendar.migrate();
    await calendar.close();
    raw = await connectDatabase(url());
    db = raw.withPlugin(new TablePrefixPlugin(prefix, TABLES)) as unknown as Kysely<Database>;
  });
  afterAll(async () => {
    await raw?.destroy();
    // The shared server keeps no tables of ours.
    const calendar = createCalendar({ db: url(), tablePrefix: prefix });
    await calendar.uninstall();
    await calendar.close();
  });

  it('leaves no half-written event, venue, organizer or link after 10 SIGKILLs', { timeout: 180_000 }, async () => {
    let ticks = 0;
    /** Starts a writer, lets it write for a random moment, and kills it. */
    const killOne = async () => {
      const writer = runTs(writerScript, [url(), prefix], {});
      await writer.waitFor(/^tick \d+/);
      // Somewhere in the middle of a later operation (one takes a few milliseconds).
      await sleep(20 + Math.random() * 250);
      await writer.stop('SIGKILL');
      expect(writer.child.signalCode, writer.output()).toBe('SIGKILL');
      ticks += (writer.output().match(/^tick /gm) ?? []).length;
      expect(writer.output()).not.toMatch(/unexpected|Error/);
    };
    // Two writers at a time (they also contend with each other): 10 kills in 5 rounds.
    for (let round = 0; round < 5; round++) await Promise.all([killOne(), killOne()]);
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(await integrityProblems(db)).toEqual([]);
    const events = await db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'event')
      .executeTakeFirstOrThrow();
    expect(Number(events.n)).toBeGreaterThan(0);

    // And the store still takes writes.
    const calendar = createCalendar({ db: url(), tablePrefix: prefix });
    const r = await calendar.call('POST', '/events', {
      user: { id: 1, roles: ['administrator'] },
      params: { title: 'After the kills', start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00', venue: { venue: 'Survivor hall' } },
    });
    await calendar.close();
    expect(r.status).toBe(201);
    expect(await integrityProblems(db)).toEqual([]);
  });
});

const pgBin = postgresBinaries();
// eslint-disable-next-line no-console -- says why a test is skipped
if (!pgBin) console.warn('[faults] skipping "database goes away": PostgreSQL server binaries (initdb, pg_ctl, postgres) are not installed');

describe.skipIf(!pgBin)('the database going away mid-traffic (private PostgreSQL server)', () => {
  let pg: PrivatePostgres;
  let server: ExampleServer;

  beforeAll(async () => {
    pg = await startPrivatePostgres(pgBin!);
    server = await startExampleServer(pg.url, TOKENS_ENV);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await pg?.destroy();
  });

  /** One read and one write, as clients would send them. */
  const traffic = (n: number): Promise<HttpResult>[] => [
    http('GET', `${server.base}/events`, { timeoutMs: 20_000 }),
    http('POST', `${server.base}/venues`, { token: TOKENS.admin, json: { venue: `Venue ${n} ${Math.random()}` }, timeoutMs: 20_000 }),
  ];

  it('answers JSON 503s (no hang, no crash) while it is down and recovers by itself', { timeout: 120_000 }, async () => {
    // Healthy first.
    for (const r of await Promise.all(traffic(0))) expect(r.status, r.text).toBeLessThan(300);

    // Requests in flight while the server crashes: each either made it or is a JSON 503.
    const inFlight: Promise<HttpResult>[] = [];
    for (let i = 1; i <= 10; i++) inFlight.push(...traffic(i));
    await pg.stop('immediate');
    const during: HttpResult[] = await Promise.all(inFlight);
    for (let i = 0; i < 5; i++) {
      during.push(...(await Promise.all(traffic(100 + i))));
      await sleep(100);
    }
    const down = during.filter((r) => r.status >= 300);
    expect(down.length).toBeGreaterThan(0);
    for (const r of during) {
      if (r.status < 300) continue;
      expect(r.status, `${r.text}\n${server.output()}`).toBe(503);
      expect(r.body).toEqual({ code: 'rest_service_unavailable', message: expect.any(String), data: { status: 503 } });
      // Bounded by the pool's connect timeout (5 s), not by the client giving up.
      expect(r.ms).toBeLessThan(10_000);
    }
    expect(server.child.exitCode).toBeNull();

    // Back up: the same process answers 200/201 again without a restart.
    await pg.start();
    const deadline = Date.now() + 30_000;
    let ok = false;
    while (!ok && Date.now() < deadline) {
      const results = await Promise.all(traffic(1000));
      ok = results.every((r) => r.status < 300);
      if (!ok) {
        for (const r of results) if (r.status >= 300) expect(r.status, `${r.text}\n${server.output()}`).toBe(503);
        await sleep(250);
      }
    }
    expect(ok, server.output()).toBe(true);
    const list = await http('GET', `${server.base}/venues?per_page=50`, { token: TOKENS.admin });
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
  });
});
