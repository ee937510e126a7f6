import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { Store } from '../../src/resources/store.js';
import { dropStore, migrationNames } from '../../src/store/migrate.js';
import { countRows } from '../helpers/store.js';
import { buildCli, lines, type BuiltCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'calendar-cli-'));
let cli: BuiltCli;
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => {
  cli.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** SQLite in a fresh file always; the servers when their URL is set (test/helpers/harness.ts). */
const TARGETS: { name: string; db: string }[] = [
  { name: 'sqlite', db: join(dir, 'calendar.sqlite') },
  ...(process.env.CALENDAR_TEST_POSTGRES_URL ? [{ name: 'postgres', db: process.env.CALENDAR_TEST_POSTGRES_URL }] : []),
  ...(process.env.CALENDAR_TEST_MYSQL_URL ? [{ name: 'mysql', db: process.env.CALENDAR_TEST_MYSQL_URL }] : []),
];

const MIGRATIONS = migrationNames();

describe.each(TARGETS)('store commands on $name', ({ name, db }) => {
  // The servers are shared by every test file (and every run): tables of their own.
  const prefix = `c${randomBytes(4).toString('hex')}_`;
  const store = ['--db', db, '--table-prefix', prefix];

  afterAll(async () => {
    if (name === 'sqlite') return;
    const raw = await connectDatabase(db);
    try {
      await dropStore(raw, prefix);
    } finally {
      await raw.destroy();
    }
  });

  it('status lists every migration as pending, exits 1, and creates nothing', async () => {
    const run = await cli.run(['status', ...store]);
    expect(run.code).toBe(1);
    for (const migration of MIGRATIONS) expect(run.stdout).toContain(`pending  ${migration}`);
    expect(run.stdout).not.toContain('applied');
    if (name === 'sqlite') expect(existsSync(db)).toBe(false);
  });

  it('migrate prints the migrations it applied the first time, "up to date" the second', async () => {
    const first = await cli.run(['migrate', ...store]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(lines(first.stdout).slice(0, MIGRATIONS.length)).toEqual(MIGRATIONS.map((m) => `applied ${m}`));
    expect(first.stdout).not.toContain('up to date');

    const second = await cli.run(['migrate', ...store]);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(lines(second.stdout)).toEqual([expect.stringMatching(/: up to date$/)]);
  });

  it('status then lists every migration as applied and exits 0', async () => {
    const run = await cli.run(['status', ...store]);
    expect(run.code).toBe(0);
    for (const migration of MIGRATIONS) expect(run.stdout).toContain(`applied  ${migration}`);
    expect(run.stdout).not.toContain('pending');
    expect(run.stdout).toContain('up to date');
  });

  it('seed --events 200 fills the store, which the library then serves', async () => {
    const run = await cli.run(['seed', '--events', '200', ...store]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    // Not a terminal: plain progress lines, ending with all events.
    expect(run.stdout).toContain('events: 200/200');
    expect(run.stdout).toMatch(/seeded 200 events, 500 venues, 300 organizers, 26 categories and 60 tags/);

    const raw = await connectDatabase(db);
    try {
      expect(await countRows(Store.open(raw, prefix).db, 'events')).toBe(200);
    } finally {
      await raw.destroy();
    }
    const calendar = createCalendar({ db, tablePrefix: prefix });
    try {
      const total = async (path: string, params: Record<string, unknown> = {}) => Number((await calendar.call('GET', path, { params })).headers['X-TEC-Total']);
      expect(await total('/venues')).toBe(500);
      expect(await total('/tags')).toBe(60);
      const events = await total('/events', { start_date: '1990-01-01', end_date: '2100-01-01' });
      // Drafts and hidden events are left out of the public list.
      expect(events).toBeGreaterThan(150);
      expect(events).toBeLessThanOrEqual(200);
      // Seeding wrote explicit ids: the next id the database hands out must come after them.
      const created = await calendar.call('POST', '/venues', { params: { venue: 'New Hall' }, user: { id: 1, roles: ['administrator'] } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: 1001 });
    } finally {
      await calendar.close();
    }
  });

  it('seed refuses a store that already holds a calendar, in one line', async () => {
    const run = await cli.run(['seed', '--events', '10', ...store]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/already holds 200 events .*seed fills an empty store only/)]);
  });
});

describe('seed on a fresh store', () => {
  it('migrates first, printing the migrations it applied', async () => {
    const run = await cli.run(['seed', '--events', '5', '--db', `sqlite:${join(dir, 'fresh.sqlite')}`]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(lines(run.stdout).slice(0, MIGRATIONS.length)).toEqual(MIGRATIONS.map((m) => `applied ${m}`));
    expect(run.stdout).toContain('seeded 5 events');
  });
});

describe('the default database', () => {
  it('is $CALENDAR_DB_URL, else $CALENDAR_DB (as the example servers read them)', async () => {
    const byUrl = await cli.run(['status'], { CALENDAR_DB_URL: join(dir, 'by-url.sqlite'), CALENDAR_DB: join(dir, 'by-db.sqlite') });
    expect(lines(byUrl.stdout)[0]).toBe(`${join(dir, 'by-url.sqlite')} (tables tec_*)`);
    const byDb = await cli.run(['status'], { CALENDAR_DB: join(dir, 'by-db.sqlite') });
    expect(lines(byDb.stdout)[0]).toBe(`${join(dir, 'by-db.sqlite')} (tables tec_*)`);
  });
});
