/**
 * Several instances on one PostgreSQL (issue 7): the example server twice on a fresh
 * database, 50 concurrent writers with clashing titles and slugs through both.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.js';
import { TABLES } from '../../src/store/database.js';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { createScratchDatabase, type ScratchDatabase } from './fixtures/postgres.js';
import { TOKENS, TOKENS_ENV, http, startExampleServer, type ExampleServer, type HttpResult } from './fixtures/processes.js';
import { integrityProblems } from './fixtures/store-state.js';

const PG = process.env.CALENDAR_TEST_POSTGRES_URL;
const WRITERS = 50;
const ROUNDS = 2;

type Kind = 'events' | 'venues' | 'organizers';
const KINDS: Kind[] = ['events', 'venues', 'organizers'];
const NAME_KEY: Record<Kind, string> = { events: 'title', venues: 'venue', organizers: 'organizer' };

/**
 * A title that clashes with every other writer's once slugged (`clash-hall`) but differs as
 * text, so venues and organizers are not merged as duplicates (writes.md §3.2): the
 * punctuation spells the writer, round and step in binary.
 */
function clashingTitle(kind: Kind, writer: number, round: number, step: number): string {
  const n = (writer * 16 + round * 4 + step).toString(2).replace(/0/g, '!').replace(/1/g, '?');
  return kind === 'events' ? `Clash party ${n}` : `Clash hall ${n}`;
}

describe.skipIf(!PG)('two instances of the example server on one PostgreSQL database', () => {
  let scratch: ScratchDatabase;
  let servers: ExampleServer[] = [];
  let db: Kysely<Database>;

  beforeAll(async () => {
    scratch = await createScratchDatabase(PG!, 'multi');
    // Both start (and migrate) at the same time, as two instances of one deployment would.
    servers = await Promise.all([startExampleServer(scratch.url, TOKENS_ENV), startExampleServer(scratch.url, TOKENS_ENV)]);
    db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 2 }) }) }).withPlugin(
      new TablePrefixPlugin('tec_', TABLES),
    ) as unknown as Kysely<Database>;
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db?.destroy();
    await scratch?.drop();
  });

  it('keeps slugs unique, loses no write, answers no 5xx and reads committed data on both', { timeout: 180_000 }, async () => {
    const problems: string[] = [];
    /** The title each created item must finally have, by kind and id. */
    const expected = new Map<string, string>();
    const statuses = new Map<number, number>();
    const note = (what: string, r: HttpResult) => {
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status >= 500) problems.push(`${what} → ${r.status} ${r.text}`);
    };

    const writer = async (w: number) => {
      const mine = servers[w % 2];
      const other = servers[(w + 1) % 2];
      if (!mine || !other) throw new Error('two servers expected');
      const token = w % 5 === 0 ? TOKENS.editor : TOKENS.admin;
      for (let round = 0; round < ROUNDS; round++) {
        const kind = KINDS[(w + round) % KINDS.length]!;
        const title = clashingTitle(kind, w, round, 0);
        const body: Record<string, unknown> = { [NAME_KEY[kind]]: title };
        if (kind === 'events') Object.assign(body, { start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00', slug: 'clash' });
        const created = await http('POST', `${mine.base}/${kind}`, { token, json: body });
        note(`create ${kind} (writer ${w})`, created);
        if (created.status !== 201) {
          problems.push(`create ${kind} by writer ${w}: ${created.status} ${created.text}`);
          continue;
        }
        const id = created.body.id as number;
        let last = title;
        // Read-your-write through the other instance, then two updates, each read back there too.
        for (let step = 0; step <= 2; step++) {
          if (step > 0) {
            const next = clashingTitle(kind, w, round, step);
            const update: Record<string, unknown> = { [NAME_KEY[kind]]: next };
            if (kind === 'events') update.slug = 'clash';
            const r = await http(step === 1 ? 'POST' : 'PUT', `${(step === 1 ? other : mine).base}/${kind}/${id}`, { token, json: update });
            note(`update ${kind} ${id}`, r);
            if (r.status !== 200) problems.push(`update ${kind} ${id} by writer ${w}: ${r.status} ${r.text}`);
            else last = next;
          }
          const reader = step % 2 === 0 ? other : mine;
          const read = await http('GET', `${reader.base}/${kind}/${id}`, { token });
          note(`read ${kind} ${id}`, read);
          const shown = kind === 'events' ? read.body?.title : read.body?.[NAME_KEY[kind]];
          if (read.status !== 200 || shown !== last)
            problems.push(`read ${kind} ${id} after a write: ${read.status}, saw ${JSON.stringify(shown)}, wrote ${JSON.stringify(last)}`);
        }
        expected.set(`${kind}:${id}`, last);
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

    // The servers' own logs say why a request failed.
    if (problems.length)
      // eslint-disable-next-line no-console -- printed only when the test fails
      console.error(
        servers
          .map((s) => s.output())
          .join('\n---\n')
          .slice(0, 6000),
      );
    expect(problems).toEqual([]);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    expect(expected.size).toBe(WRITERS * ROUNDS);

    // No write lost: every created id is there with the title written last.
    const rows = await db.selectFrom('posts').select(['id', 'type', 'title', 'slug']).execute();
    const byKey = new Map(rows.map((r) => [`${r.type}s:${r.id}`, r]));
    for (const [key, title] of expected) expect(byKey.get(key)?.title, key).toBe(title);
    // Slugs unique per type, and every clashing item got a numbered variant of the same slug.
    expect(await integrityProblems(db)).toEqual([]);
    for (const r of rows) {
      if (r.type === 'event') expect(r.slug).toMatch(/^clash(-\d+)?$/);
      else expect(r.slug).toMatch(/^clash-hall(-\d+)?$/);
    }

    // Lists agree on both instances (no per-instance cache).
    const totals = await Promise.all(
      servers.flatMap((s) =>
        KINDS.map((k) =>
          http('GET', `${s.base}/${k}?per_page=1${k === 'events' ? '&start_date=2000-01-01&end_date=2100-01-01' : ''}`, { token: TOKENS.admin }).then(
            (r) => r.body?.total as number,
          ),
        ),
      ),
    );
    expect(totals.slice(0, 3)).toEqual(totals.slice(3));
    const events = rows.filter((r) => r.type === 'event').length;
    expect(totals[0]).toBe(events);
  });
});
