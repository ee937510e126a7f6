import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { dialectOf } from '../../src/store/dialects/index.js';
import { dropStore, migrateToLatest, migrationNames } from '../../src/store/migrate.js';
import { inlineStatement } from '../../src/store/migration-sql.js';
import { USERS } from '../helpers/harness.js';
import { buildCli, lines, type BuiltCli } from './run-cli.js';

// Issue 31, trap 14: what hosts expect of a migrate CLI beyond `status` (exit 1 when pending):
// the SQL without running it, for a DBA to review or run by hand (`migrate --dry-run`), and a
// programmatic status for health checks (`calendar.migrationStatus()`).

const dir = mkdtempSync(join(tmpdir(), 'calendar-migrate-sql-'));
let cli: BuiltCli;
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => {
  cli.remove();
  rmSync(dir, { recursive: true, force: true });
});

const TARGETS: { name: string; db: string }[] = [
  { name: 'sqlite', db: join(dir, 'calendar.sqlite') },
  ...(process.env.CALENDAR_TEST_POSTGRES_URL ? [{ name: 'postgres', db: process.env.CALENDAR_TEST_POSTGRES_URL }] : []),
  ...(process.env.CALENDAR_TEST_MYSQL_URL ? [{ name: 'mysql', db: process.env.CALENDAR_TEST_MYSQL_URL }] : []),
];

/** Every column of the tables with `prefix` (the prefix taken off), as the database describes it. */
async function columns(db: Kysely<unknown>, prefix: string): Promise<string[]> {
  const dialect = dialectOf(db).name;
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name like ${`${prefix}%`} and sql is not null`.execute(db);
    return rows.map((r) => r.sql.replaceAll(prefix, '')).sort();
  }
  const schema = dialect === 'postgres' ? sql`current_schema()` : sql`database()`;
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>`
    select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = ${schema} and table_name like ${`${prefix}%`}`.execute(db);
  return rows
    .map((r) => `${r.table_name.replace(prefix, '')}.${r.column_name} ${r.data_type} ${r.is_nullable} ${(r.column_default ?? '').replaceAll(prefix, '')}`)
    .sort();
}

describe.each(TARGETS)('migrate --dry-run on $name', ({ name, db }) => {
  const prefix = `d${randomBytes(4).toString('hex')}_`;
  const reference = `r${randomBytes(4).toString('hex')}_`;
  const store = ['--db', db, '--table-prefix', prefix];
  let raw: Kysely<unknown> | undefined;

  afterAll(async () => {
    if (!raw) return;
    if (name !== 'sqlite') for (const p of [prefix, reference]) await dropStore(raw, p).catch(() => undefined);
    await raw.destroy();
  });

  it('prints the SQL of every pending migration, runs none of it, and the script run by hand makes the same store', async () => {
    const dry = await cli.run(['migrate', '--dry-run', ...store]);
    expect(dry.code, dry.stderr).toBe(0);
    const out = lines(dry.stdout);
    const pending = migrationNames();
    expect(out[0]).toMatch(new RegExp(`^-- .* \\(tables ${prefix}\\*\\): the SQL of ${pending.length} pending migrations \\(${name}\\), not run$`));
    expect(out.filter((l) => /^-- \d{3}_/.test(l))).toEqual(pending.map((m) => `-- ${m}`));
    // Nothing ran: no SQLite file made, and the server's store still wants every migration.
    if (name === 'sqlite') expect(existsSync(db)).toBe(false);
    const before = await cli.run(['status', ...store]);
    expect(before.code).toBe(1);

    // The script, run statement by statement as a DBA's client would (a statement ends with the line that ends with `;`).
    raw = await connectDatabase(db);
    const statements = dry.stdout
      .split('\n')
      .filter((l) => !l.startsWith('--'))
      .join('\n')
      .split(/;\n/)
      .map((s) => s.trim())
      .filter(Boolean);
    expect(statements.length).toBeGreaterThan(pending.length * 2);
    for (const statement of statements) await sql.raw(statement).execute(raw);
    const after = await cli.run(['status', ...store]);
    expect([after.code, lines(after.stdout).at(-1)]).toEqual([0, 'up to date']);
    expect(lines((await cli.run(['migrate', '--dry-run', ...store])).stdout)).toEqual([expect.stringMatching(/: up to date, no SQL to run$/)]);
    expect(lines((await cli.run(['migrate', ...store])).stdout)).toEqual([expect.stringMatching(/: up to date$/)]);

    // The same tables, columns, defaults and indexes as `migrate` makes.
    await migrateToLatest(raw, reference);
    expect(await columns(raw, prefix)).toEqual(await columns(raw, reference));

    // A calendar on it works, and reports it up to date.
    const calendar = createCalendar({ db: raw, tablePrefix: prefix });
    expect(await calendar.migrationStatus()).toEqual({ applied: pending, pending: [] });
    const venue = await calendar.call('POST', '/venues', { user: USERS.admin, params: { venue: 'By hand' } });
    expect(venue.status).toBe(201);
  }, 120_000);
});

describe('calendar.migrationStatus()', () => {
  it('tells a health check what is pending, changing nothing, and rejects when the database is away', async () => {
    const file = join(dir, 'health.sqlite');
    const calendar = createCalendar({ db: file });
    try {
      expect(await calendar.migrationStatus()).toEqual({ applied: [], pending: migrationNames() });
      expect(await calendar.migrationStatus()).toEqual({ applied: [], pending: migrationNames() });
      await calendar.migrate();
      expect(await calendar.migrationStatus()).toEqual({ applied: migrationNames(), pending: [] });
    } finally {
      await calendar.close();
    }
    const away = createCalendar({ db: 'postgres://calendar:secret@127.0.0.1:1/calendar' });
    try {
      await expect(away.migrationStatus()).rejects.toThrow(/ECONNREFUSED|connect/);
    } finally {
      await away.close();
    }
  });
});

describe('inlineStatement', () => {
  it('writes parameters as literals of each database, leaving placeholders in quotes alone', () => {
    const q = (text: string, parameters: unknown[]) => ({ sql: text, parameters });
    expect(inlineStatement(q(`insert into "t" (a, b, "c?") values (?, ?)`, ["it's", 2]), 'sqlite')).toBe(`insert into "t" (a, b, "c?") values ('it''s', 2);`);
    expect(inlineStatement(q('update t set a = $2, b = $1, c = $10', [true, 'x\\y', 0, 0, 0, 0, 0, 0, 0, null]), 'postgres')).toBe(
      `update t set a = 'x\\y', b = true, c = null;`,
    );
    expect(inlineStatement(q("select '?' , ?", ['x\\y']), 'mysql')).toBe(`select '?' , 'x\\\\y';`);
  });
});
