/**
 * Issue 11, finding 3: an update or a trash racing a permanent delete, through two instances of
 * the example server on one database, once answered 500 (the write read its target back after
 * the delete had removed it) and left links to deleted events behind. Every write now locks
 * and re-reads its target, and the items it links to, inside its transaction.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { connectDatabase } from '../../src/store/connect.js';
import { TABLES, type Database } from '../../src/store/database.js';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { createScratchDatabase } from './fixtures/postgres.js';
import { TOKENS, TOKENS_ENV, http, startExampleServer, type ExampleServer, type HttpResult } from './fixtures/processes.js';
import { integrityProblems } from './fixtures/store-state.js';

const ROUNDS = 25;

/** A fresh database of each kind, with a way to drop it. */
const STORES: { name: string; create(): Promise<{ url: string; drop(): Promise<void> }> }[] = [
  {
    name: 'sqlite',
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'calendar-races-'));
      return { url: join(dir, 'calendar.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...(process.env.CALENDAR_TEST_POSTGRES_URL
    ? [{ name: 'postgres', create: () => createScratchDatabase(process.env.CALENDAR_TEST_POSTGRES_URL!, 'races') }]
    : []),
  ...(process.env.CALENDAR_TEST_MYSQL_URL
    ? [
        {
          name: 'mysql',
          async create() {
            const server = process.env.CALENDAR_TEST_MYSQL_URL!;
            const name = `calendar_races_${randomBytes(4).toString('hex')}`;
            const admin = await connectDatabase(server);
            const { sql } = await import('kysely');
            await sql`create database ${sql.id(name)}`.execute(admin);
            await admin.destroy();
            const url = new URL(server);
            url.pathname = `/${name}`;
            return {
              url: url.href,
              async drop() {
                const again = await connectDatabase(server);
                await sql`drop database if exists ${sql.id(name)}`.execute(again);
                await again.destroy();
              },
            };
          },
        },
      ]
    : []),
];

describe.each(STORES)('writes racing deletes through two instances ($name)', ({ create }) => {
  let store: { url: string; drop(): Promise<void> };
  let a: ExampleServer;
  let b: ExampleServer;
  let db: Kysely<Database>;

  beforeAll(async () => {
    store = await create();
    // One starts (and migrates) first: two SQLite migrations at once would only wait on each other.
    a = await startExampleServer(store.url, TOKENS_ENV);
    b = await startExampleServer(store.url, TOKENS_ENV);
    db = (await connectDatabase(store.url)).withPlugin(new TablePrefixPlugin('tec_', TABLES)) as unknown as Kysely<Database>;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
    await store?.drop();
  });

  it('answers no 5xx and leaves no link pointing at nothing', { timeout: 240_000 }, async () => {
    const token = TOKENS.admin;
    const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const problems: string[] = [];
    const seen = new Map<string, number>();
    const note = (what: string, r: HttpResult, allowed: number[]) => {
      seen.set(`${what} ${r.status}`, (seen.get(`${what} ${r.status}`) ?? 0) + 1);
      if (!allowed.includes(r.status)) problems.push(`${what} → ${r.status} ${r.text.slice(0, 300)}`);
    };
    const created = async (server: ExampleServer, path: string, json: Record<string, unknown>) => {
      const r = await http('POST', `${server.base}${path}`, { token, json });
      expect(r.status, r.text).toBe(201);
      return r.body.id as number;
    };

    for (let round = 0; round < ROUNDS; round++) {
      const organizer = await created(a, '/organizers', { organizer: `Racing org ${round}` });
      const venue = await created(a, '/venues', { venue: `Racing hall ${round}` });
      const tag = await created(a, '/tags', { name: `racing-tag-${round}` });
      const event = await created(a, '/events', { title: `Race ${round}`, start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` });
      const [first, second] = round % 2 ? [a, b] : [b, a];
      const writes: Promise<void>[] = [];
      // Updates linking the event to an organizer, a venue and a tag, through one instance…
      for (let i = 0; i < 3; i++) {
        writes.push(
          http('PATCH', `${first.base}/events/${event}`, {
            token,
            json: { organizer: [organizer], venue, tags: [`racing-tag-${round}`], description: `try ${i}` },
          }).then((r) => note('PATCH event', r, [200, 400, 404])),
        );
      }
      writes.push(http('DELETE', `${first.base}/events/${event}`, { token }).then((r) => note('DELETE (trash) event', r, [200, 404, 410])));
      // …while the other deletes the event, the venue, the organizer and the tag for good.
      writes.push(http('DELETE', `${second.base}/events/${event}?force=true`, { token }).then((r) => note('DELETE event', r, [200, 404])));
      writes.push(http('DELETE', `${second.base}/venues/${venue}?force=true`, { token }).then((r) => note('DELETE venue', r, [200, 400])));
      writes.push(http('DELETE', `${second.base}/organizers/${organizer}?force=true`, { token }).then((r) => note('DELETE organizer', r, [200, 400])));
      writes.push(http('DELETE', `${second.base}/tags/${tag}?force=true`, { token }).then((r) => note('DELETE tag', r, [200, 400, 404])));
      await Promise.all(writes);
    }

    expect(problems, [...seen].map(([k, n]) => `${k}: ${n}`).join('\n')).toEqual([]);
    expect(await integrityProblems(db)).toEqual([]);
  });
});
