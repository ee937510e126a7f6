/**
 * `BENCH_BASE=<commit>`: the same cases on an earlier commit's example servers, run in turn with
 * this tree's so that both see the same machine load, and the speed-up judged case by case.
 *
 * The commit is checked out as a git worktree under bench/.data (its own `npm ci` the first
 * time), its servers are compiled there with this bench's build, and its calendars are seeded
 * with its own seeding code, so that each side runs on the schema its migrations make.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { buildServers } from './build.js';
import type { SeedFixtures } from './seed.js';

/** An earlier commit prepared for the bench. */
export interface BaseCommit {
  /** The commit's short name as given, for labels. */
  label: string;
  /** Its compiled example servers, by framework. */
  scripts: { express: string; fastify: string };
  /** Its seeded SQLite calendar of `events` events: a private working copy and the fixtures the cases address. */
  dataset(events: number, label: string): { file: string; fixtures: SeedFixtures; remove: () => void };
  /**
   * Its calendar of `events` events on the PostgreSQL server of `url`, seeded by its own code in a
   * database of its own beside that URL's (`<name>_base`, created when missing): its URL and fixtures.
   */
  postgresDataset(events: number, url: string): Promise<{ url: string; fixtures: SeedFixtures }>;
}

/** Checks out, installs, compiles and seeds `commit` (each step skipped when already done). */
export async function prepareBase(commit: string, log: (line: string) => void): Promise<BaseCommit> {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${commit}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = resolve('bench/.data', `base-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, 'package.json'))) {
    log(`base ${commit}: git worktree in ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { stdio: 'inherit' });
  }
  if (!existsSync(join(dir, 'node_modules'))) {
    log(`base ${commit}: npm ci (compiles better-sqlite3: a few minutes)`);
    run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], dir);
  }
  const built = await buildServers(
    { 'express-server': join(dir, 'examples/express/server.ts'), 'fastify-server': join(dir, 'examples/fastify/server.ts') },
    join(dir, 'bench/.data/build'),
  );
  log(`base ${commit}: servers compiled in ${join(dir, 'bench/.data/build')}`);
  return {
    label: commit,
    scripts: { express: built['express-server'], fastify: built['fastify-server'] },
    dataset(events, label) {
      const db = join(dir, `bench/.data/events-${events}.sqlite`);
      const fixturesFile = join(dir, `bench/.data/events-${events}.json`);
      // The commit's own seeding (reused the same day, as this tree's is with BENCH_REUSE).
      run(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', `await (await import('./bench/dataset.ts')).sqliteDataset(${events}, true);`],
        dir,
      );
      const file = join(dir, `bench/.data/events-${events}-${label}.sqlite`);
      const remove = () => {
        for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      };
      remove();
      copyFileSync(db, file);
      return { file, fixtures: JSON.parse(readFileSync(fixturesFile, 'utf8')) as SeedFixtures, remove };
    },
    async postgresDataset(events, url) {
      const target = await siblingDatabase(url, '_base');
      const fixturesFile = join(dir, `bench/.data/postgres-${events}.json`);
      run(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `const fixtures = await (await import('./bench/seed.ts')).seedCalendar({ target: process.env.BENCH_BASE_TARGET, events: ${events} });
           (await import('node:fs')).writeFileSync(${JSON.stringify(fixturesFile)}, JSON.stringify(fixtures));`,
        ],
        dir,
        { BENCH_BASE_TARGET: target },
      );
      return { url: target, fixtures: JSON.parse(readFileSync(fixturesFile, 'utf8')) as SeedFixtures };
    },
  };
}

/** The URL of a database named like `url`'s plus `suffix` on the same server, created when missing. */
async function siblingDatabase(url: string, suffix: string): Promise<string> {
  const sibling = new URL(url);
  const name = `${decodeURIComponent(sibling.pathname.slice(1)) || 'postgres'}${suffix}`;
  sibling.pathname = `/${encodeURIComponent(name)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
  return sibling.href;
}

/** Runs a command in `cwd`, its output shown, and throws when it fails. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): void {
  const r = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${r.status})`);
}
