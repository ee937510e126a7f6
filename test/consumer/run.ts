/**
 * The consumer test (`npm run test:consumer`): the library as a user gets it from the registry.
 *
 * Packs the package (`npm pack`, whose `prepack` builds it with tsup), creates throw-away apps
 * from the templates in `test/consumer/apps/` — Express as ES modules and as CommonJS, Fastify,
 * Hono on @hono/node-server, Node's own http with the plain Node handler, and Next.js built with plain `next build` (Turbopack), once as the
 * README shows it and once more with `serverExternalPackages: ['better-sqlite3']` — installs the
 * tarball into each with only the dependencies the README tells a user to install, starts it and
 * calls it over HTTP: the namespace index, an event created by an administrator, read back by id
 * and found in the list, a malformed JSON body (400 `rest_invalid_json`), an unknown id and an
 * unknown route (the API's JSON 404s). The CommonJS app also checks that the main and tRPC
 * entries share one core (one `ApiError` class), and both Express apps that a driver the app did
 * not install (mysql2) fails `migrate()` with the error naming it. Issue 31's traps, from the
 * packed package: the adapters check their arguments when mounted (Express, Fastify, Node) and
 * createCalendar its options (scripts in the templates), `npx calendar-events-rest import` reads
 * the Express ESM app's server without `--namespace` and refuses a wrong source before creating
 * its target, `/doc/complete` (Fastify), `X-Forwarded-Prefix` with trustProxy (Node) and the tRPC
 * router over HTTP (Express CommonJS, Hono); see `http-checks.ts`. One line per app (PASS/FAIL
 * and times); a failure prints the output of the step that failed and of the app's server; the
 * exit code is 1 when any app failed.
 *
 * Installs run as npm 12 does by default and npm 11 with `--strict-allow-scripts`: a dependency's
 * install script runs only when the app's `allowScripts` (package.json) covers it, and an
 * uncovered one fails the install. Each template allows better-sqlite3's, as the README tells
 * hosts to; its binary must be there afterwards and the app must load it. An install that
 * prints EBADENGINE for the package, a package it loads at run time or the driver fails, as does
 * an install-scripts warning naming the driver. `.ci/run` runs this test on each Node version it
 * tests (the Node running it is the one the apps get).
 *
 * The second Next.js build is expected to change nothing: Next.js' own list of server external
 * packages already holds better-sqlite3 (and pg), and the library loads its drivers by a name
 * no bundler sees (`src/store/drivers.ts`). It runs anyway (a few seconds), since apps do set it.
 *
 * Environment:
 * - `CALENDAR_TEST_POSTGRES_URL`: the CommonJS Express app runs on a fresh database of that
 *   server (created and dropped here), with `pg` installed instead of better-sqlite3.
 * - `KEEP_CONSUMER_APPS=1`: keep the directory of the tarball and the apps (its path is printed).
 * - `CONSUMER_APPS=express-esm,next`: run only these apps (names as in the report).
 * - `CONSUMER_TARBALL=/path/calendar-events-rest-0.1.0.tgz`: install that tarball instead of
 *   packing one. `.ci/run` packs once and hands the same tarball to every Node version, as a
 *   registry hands one published tarball to every user.
 * - `CONSUMER_CACHE_DIR`: where compiled better-sqlite3 binaries are kept between runs (default
 *   `.tmp/consumer-cache` in the repository); `CONSUMER_CACHE_DIR=off` compiles better-sqlite3 in
 *   every app, as a first install on a machine without a prebuilt binary does.
 *
 * The cache. better-sqlite3's install script is `prebuild-install || node-gyp rebuild`: with no
 * prebuilt binary reachable (here: no GitHub) each install compiles SQLite, one to two minutes on
 * two cores. The installs still run that script, unchanged (no `--ignore-scripts`): they are
 * only pointed at a directory of prebuilt tarballs through prebuild-install's own
 * `npm_config_better_sqlite3_local_prebuilds`. The directory holds one tarball per
 * better-sqlite3 version, Node ABI, platform and architecture (prebuild-install's file name),
 * made from the repository's own compiled `node_modules/better-sqlite3` when it loads in this
 * Node, and from the first app that had to compile a version the directory lacked. Any other
 * version installs and compiles as it would for a user. After each install the binary must be
 * there: a missing one means the install scripts did not run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { runtimeDependencies } from '../packaging/runtime-dependencies.js';
import { checkDocComplete, checkForwardedPrefix, checkTrpcHttp } from './http-checks.js';

const REPO = resolve(import.meta.dirname, '../..');
const TEMPLATES = join(REPO, 'test/consumer/apps');
const KEEP = process.env.KEEP_CONSUMER_APPS === '1';
const POSTGRES_URL = process.env.CALENDAR_TEST_POSTGRES_URL || undefined;
const GIVEN_TARBALL = process.env.CONSUMER_TARBALL ? resolve(process.env.CONSUMER_TARBALL) : undefined;
const CACHE_SETTING = process.env.CONSUMER_CACHE_DIR || join(REPO, '.tmp/consumer-cache');
const CACHE = CACHE_SETTING === 'off' ? undefined : resolve(CACHE_SETTING);
/** The bearer token every app's `getUser` maps to `{ id: 1, roles: ['administrator'] }`. */
const ADMIN = { authorization: 'Bearer consumer-admin-token' };
const NAMESPACE = 'calendar/events/v1';

const MINUTE = 60_000;
const TIMEOUT = { pack: 5 * MINUTE, install: 6 * MINUTE, build: 5 * MINUTE, start: MINUTE, request: 20_000, stop: 5_000 };

// ---- output -----------------------------------------------------------------------------------

const say = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
/** The last `lines` lines of a command's output, indented. */
function tail(text: string, lines = 120): string {
  const all = text.trimEnd().split('\n');
  const shown = all.slice(-lines).map((l) => `    | ${l}`);
  return (all.length > lines ? [`    | … (${all.length - lines} earlier lines)`, ...shown] : shown).join('\n');
}

/** A failed step, with the output that explains it. */
class StepError extends Error {
  constructor(
    message: string,
    readonly output = '',
  ) {
    super(message);
  }
}

// ---- processes --------------------------------------------------------------------------------

/** Process groups still running: stopped on every way out. */
const groups = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

process.on('exit', () => groups.forEach((pid) => killGroup(pid, 'SIGKILL')));

/**
 * The environment of every command: this one, without what `npm run` adds for the repository's
 * own package (the apps are packages of their own) and without module paths outside the app.
 */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  for (const key of Object.keys(env)) {
    if (/^npm_(package_|lifecycle_|config_local_prefix$)|^INIT_CWD$|^NODE_PATH$/i.test(key)) delete env[key];
  }
  return { ...env, ...extra };
}

/** A command started in a process group of its own (so that its children are stopped with it). */
function launch(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) groups.add(child.pid);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  child.on('exit', () => {
    if (child.pid === undefined) return;
    // Nothing of a command outlives it (a server's workers included).
    killGroup(child.pid, 'SIGKILL');
    groups.delete(child.pid);
  });
  return { child, output: () => output };
}

/** Runs a command to its end within `timeout`; throws a StepError with its output otherwise. */
async function run(what: string, command: string, args: string[], cwd: string, timeout: number, env = childEnv()): Promise<string> {
  const { child, output } = launch(command, args, cwd, env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
  }, timeout);
  const code = await new Promise<number | string>((done) => {
    child.on('error', (error) => done(error.message));
    child.on('close', (c, signal) => done(c ?? signal ?? 'unknown'));
  });
  clearTimeout(timer);
  if (timedOut) throw new StepError(`${what} did not finish within ${seconds(timeout)}`, output());
  if (code !== 0) throw new StepError(`${what} failed (${code})`, output());
  return output();
}

/** A running app server. */
interface Server {
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts a server and waits until `ready` finds its port in what it printed (or it exits, or
 * `TIMEOUT.start` passes). `stop` ends its whole process group: SIGTERM, then SIGKILL.
 */
async function startServer(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: (output: string) => number | undefined,
): Promise<Server> {
  const { child, output } = launch(command, args, cwd, env);
  let exited: string | undefined;
  const exit = new Promise<void>((done) => {
    child.on('error', (error) => ((exited = error.message), done()));
    child.on('exit', (code, signal) => ((exited = `exited with ${code ?? signal}`), done()));
  });
  const stop = async () => {
    if (exited !== undefined || child.pid === undefined) return;
    killGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid !== undefined && killGroup(child.pid, 'SIGKILL'), TIMEOUT.stop);
    await exit;
    clearTimeout(timer);
  };
  const deadline = Date.now() + TIMEOUT.start;
  for (;;) {
    const port = ready(output());
    if (port !== undefined) return { base: `http://127.0.0.1:${port}`, output, stop };
    if (exited !== undefined) throw new StepError(`the server ${exited} before it was ready`, output());
    if (Date.now() > deadline) {
      await stop();
      throw new StepError(`the server was not ready within ${seconds(TIMEOUT.start)}`, output());
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A port nobody listens on right now (for `next start`, which takes its port up front). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

// ---- better-sqlite3 binaries ------------------------------------------------------------------

/** prebuild-install's name for a better-sqlite3 binary of this Node, platform and architecture. */
function prebuildName(version: string): string {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  const libc = process.platform === 'linux' && !header?.glibcVersionRuntime ? 'musl' : '';
  return `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${libc}-${process.arch}.tar.gz`;
}

const versionOf = (packageDir: string) => (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
const BINARY = 'build/Release/better_sqlite3.node';

/** Whether the package in `packageDir` builds itself on install (better-sqlite3 12 does, 13 does not). */
function hasInstallScript(packageDir: string): boolean {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string>; gypfile?: boolean };
  const gyp = manifest.gypfile !== false && existsSync(join(packageDir, 'binding.gyp'));
  return Boolean(manifest.scripts?.install || manifest.scripts?.preinstall || manifest.scripts?.postinstall || gyp);
}

// ---- what npm said ----------------------------------------------------------------------------

const NPM_VERSION = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.trim();
/** npm 11.16 and later can fail an install whose install scripts `allowScripts` does not cover. */
const STRICT_SCRIPTS = semver.valid(NPM_VERSION) !== null && semver.gte(NPM_VERSION, '11.16.0');

/**
 * Refuses an install that printed EBADENGINE for the package, a package it loads at run time or
 * `driver`, or an install-scripts warning naming the driver (issue 31). Returns a note on
 * EBADENGINE warnings of the app's other packages (its framework's), which are not the
 * package's to fix.
 */
function checkInstallLog(log: string, dir: string, driver: string): string | undefined {
  const library = join(dir, 'node_modules/calendar-events-rest');
  const ours = new Set(['calendar-events-rest', driver, ...runtimeDependencies(library).map((p) => p.name)]);
  const unsupported = [...log.matchAll(/EBADENGINE\s+package: '((?:@[^/']+\/)?[^@']+)@[^']*'/g)].map((m) => m[1] ?? '');
  const mine = unsupported.filter((name) => ours.has(name));
  if (mine.length) throw new StepError(`npm install printed EBADENGINE for ${[...new Set(mine)].join(', ')} on Node ${process.version}`, log);
  const scripts = log.split('\n').filter((line) => /^npm (warn|error) (install-scripts|allow-scripts)\b/.test(line) && line.includes(driver));
  if (scripts.length) throw new StepError(`npm install did not run ${driver}'s install script under the app's allowScripts:\n${scripts.join('\n')}`, log);
  const others = unsupported.filter((name) => !ours.has(name));
  return others.length ? `EBADENGINE for the app's ${[...new Set(others)].join(', ')}` : undefined;
}

/** Keeps the compiled binary of an installed better-sqlite3 in the cache (atomically), if missing. */
function cacheBinary(packageDir: string): void {
  if (!CACHE) return;
  const target = join(CACHE, prebuildName(versionOf(packageDir)));
  if (existsSync(target)) return;
  mkdirSync(CACHE, { recursive: true });
  const partial = `${target}.${process.pid}.tmp`;
  const tar = spawnSync('tar', ['-czf', partial, '-C', packageDir, BINARY], { encoding: 'utf8' });
  if (tar.status !== 0) {
    rmSync(partial, { force: true });
    say(`  (could not cache better-sqlite3's binary: ${tar.stderr || tar.error?.message})`);
    return;
  }
  renameSync(partial, target);
}

/** Seeds the cache from the repository's own better-sqlite3, when it loads in this Node. */
function seedCacheFromRepository(): void {
  const repoPackage = join(REPO, 'node_modules/better-sqlite3');
  if (!CACHE || !existsSync(join(repoPackage, BINARY)) || existsSync(join(CACHE, prebuildName(versionOf(repoPackage))))) return;
  const probe = spawnSync(process.execPath, ['-e', `new (require(${JSON.stringify(repoPackage)}))(':memory:').close()`], { encoding: 'utf8' });
  if (probe.status === 0) cacheBinary(repoPackage);
}

// ---- HTTP -------------------------------------------------------------------------------------

interface Reply {
  status: number;
  type: string;
  text: string;
  json: unknown;
}

async function call(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT.request) });
  } catch (error) {
    throw new StepError(`${method} ${url}: ${error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error)}`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, json };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws a StepError describing the reply unless `ok`. */
function expect(ok: boolean, what: string, method: string, url: string, reply: Reply): void {
  if (!ok)
    throw new StepError(
      `${method} ${new URL(url).pathname}${new URL(url).search}: expected ${what}; got ${reply.status} (${reply.type}) ${reply.text.slice(0, 600)}`,
    );
}

/** `YYYY-MM-DD HH:MM:SS`, `days` from today at `hour` o'clock. */
function wallClock(days: number, hour: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
}

/** The calls every app must answer as the API does; returns how many passed (all, or it throws). */
async function checkApi(base: string, app: string): Promise<number> {
  const ns = `${base}/wp-json/${NAMESPACE}`;
  const json = { 'content-type': 'application/json' };
  let checks = 0;

  const index = await call('GET', ns);
  expect(
    index.status === 200 && isObject(index.json) && isObject(index.json.routes) && `/${NAMESPACE}/events` in index.json.routes,
    '200 and the namespace index (`routes` with /events)',
    'GET',
    ns,
    index,
  );
  checks++;

  const title = `Consumer test (${app}) ${Date.now()}`;
  const event = { title, start_date: wallClock(30, 10), end_date: wallClock(30, 12) };
  const created = await call('POST', `${ns}/events`, { ...ADMIN, ...json }, JSON.stringify(event));
  const id = isObject(created.json) ? created.json.id : undefined;
  expect(
    created.status === 201 && typeof id === 'number' && id > 0 && isObject(created.json) && created.json.title === title,
    '201 and the new event',
    'POST',
    `${ns}/events`,
    created,
  );
  checks++;

  const read = await call('GET', `${ns}/events/${id}`);
  expect(
    read.status === 200 && isObject(read.json) && read.json.id === id && read.json.title === title && read.json.start_date === event.start_date,
    `200 and event ${id} as created`,
    'GET',
    `${ns}/events/${id}`,
    read,
  );
  checks++;

  const list = await call('GET', `${ns}/events?per_page=50`);
  const listed = isObject(list.json) && Array.isArray(list.json.events) && list.json.events.some((e) => isObject(e) && e.id === id);
  expect(list.status === 200 && listed, `200 and a list holding event ${id}`, 'GET', `${ns}/events?per_page=50`, list);
  checks++;

  const malformed = await call('POST', `${ns}/events`, { ...ADMIN, ...json }, '{"title": "unterminated');
  expect(
    malformed.status === 400 && malformed.type.includes('json') && isObject(malformed.json) && malformed.json.code === 'rest_invalid_json',
    '400 rest_invalid_json',
    'POST',
    `${ns}/events`,
    malformed,
  );
  checks++;

  const missing = await call('GET', `${ns}/events/987654321`);
  const missingData = isObject(missing.json) ? missing.json.data : undefined;
  expect(
    missing.status === 404 &&
      missing.type.includes('json') &&
      isObject(missing.json) &&
      missing.json.code === 'rest-event-not-found' &&
      isObject(missingData) &&
      missingData.status === 404,
    'the JSON 404 rest-event-not-found',
    'GET',
    `${ns}/events/987654321`,
    missing,
  );
  checks++;

  const noRoute = await call('GET', `${ns}/no-such-route`);
  expect(
    noRoute.status === 404 && isObject(noRoute.json) && noRoute.json.code === 'rest_no_route',
    'the JSON 404 rest_no_route',
    'GET',
    `${ns}/no-such-route`,
    noRoute,
  );
  checks++;

  // The REST root every answer's Link header names.
  const root = await call('GET', `${base}/wp-json/`);
  const namespaces = isObject(root.json) ? root.json.namespaces : undefined;
  expect(
    root.status === 200 && Array.isArray(namespaces) && namespaces.includes(NAMESPACE),
    '200 and the root index naming the namespace',
    'GET',
    `${base}/wp-json/`,
    root,
  );
  checks++;

  return checks;
}

/**
 * A driver the app did not install (mysql2: none of the apps has it) fails the first connection
 * with the error that names the package to install (README "Install"), in ES modules or CommonJS.
 */
async function checkMissingDriver(dir: string, env: NodeJS.ProcessEnv, format: 'esm' | 'cjs'): Promise<string> {
  const expected = 'needs the "mysql2" package, which is not installed (or was left out of a bundled or standalone build). Install it with: npm install mysql2';
  const code = [
    format === 'esm' ? "import { createCalendar } from 'calendar-events-rest';" : "const { createCalendar } = require('calendar-events-rest');",
    "createCalendar({ db: 'mysql://nobody@127.0.0.1:9/none' }).migrate().then(",
    "  () => { console.log('migrate() resolved without mysql2'); process.exit(1); },",
    `  (error) => { console.log(error.message); process.exit(error.message.includes(${JSON.stringify(expected)}) ? 0 : 1); },`,
    ');',
  ].join('\n');
  const args = format === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
  await run(`the missing-driver check (${format === 'esm' ? 'ES module' : 'CommonJS'})`, process.execPath, args, dir, TIMEOUT.start, env);
  return 'a missing mysql2 is named';
}

/**
 * The plain Node handler's own answer outside its roots (the API's JSON 404, as no framework gives
 * one), and its CommonJS entry, which shares the main entry's core.
 */
async function checkPlainNode(dir: string, env: NodeJS.ProcessEnv, base: string): Promise<string> {
  const url = `${base}/elsewhere`;
  const outside = await call('GET', url);
  expect(
    outside.status === 404 && outside.type.includes('json') && isObject(outside.json) && outside.json.code === 'rest_no_route',
    'the JSON 404 rest_no_route outside the roots',
    'GET',
    url,
    outside,
  );
  const code = [
    "const { calendarNodeHandler, answerNode } = require('calendar-events-rest/node');",
    "if (typeof calendarNodeHandler !== 'function' || typeof answerNode !== 'function') { console.log('calendar-events-rest/node lacks its exports'); process.exit(1); }",
  ].join('\n');
  await run('the CommonJS entry of calendar-events-rest/node', process.execPath, ['-e', code], dir, TIMEOUT.start, env);
  return 'JSON 404 outside the roots · require() of /node';
}

// ---- PostgreSQL -------------------------------------------------------------------------------

/** A fresh database on the test server for one app, dropped by `drop`. */
async function postgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `calendar_consumer_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

// ---- the apps ---------------------------------------------------------------------------------

interface App {
  /** Its name in the report and in `CONSUMER_APPS`. */
  name: string;
  /** Its template under `test/consumer/apps/`. */
  template: string;
  kind: 'node' | 'next';
  /** Runs on PostgreSQL when `CALENDAR_TEST_POSTGRES_URL` is set. */
  postgres?: boolean;
  /** Builds the installed directory of another app again, with this `next.config.ts`. */
  rebuildOf?: string;
  nextConfig?: string;
  /** More checks, run in the app's directory while its server (at `base`) runs. */
  extra?: (dir: string, env: NodeJS.ProcessEnv, base: string) => Promise<string>;
}

const NEXT_EXTERNAL_CONFIG = `import type { NextConfig } from 'next';

const config: NextConfig = {
  skipTrailingSlashRedirect: true,
  // Variant: the driver marked as external explicitly.
  serverExternalPackages: ['better-sqlite3'],
};

export default config;
`;

/** One of the app's own check scripts, run in its directory as `node <file> <base URL>`; it prints what it checked. */
const script =
  (file: string): NonNullable<App['extra']> =>
  async (dir, env, base) =>
    (await run(`node ${file}`, process.execPath, [file, base], dir, TIMEOUT.start, env)).trim();
/** Several checks of one app, one after another; their notes joined. */
const all =
  (...checks: NonNullable<App['extra']>[]): NonNullable<App['extra']> =>
  async (dir, env, base) => {
    const notes: string[] = [];
    for (const check of checks) notes.push(await check(dir, env, base));
    return notes.join(' · ');
  };

const APPS: App[] = [
  {
    name: 'express-esm',
    template: 'express-esm',
    kind: 'node',
    extra: all((dir, env) => checkMissingDriver(dir, env, 'esm'), script('mount-checks.js'), script('import-check.js')),
  },
  {
    name: 'express-cjs',
    template: 'express-cjs',
    kind: 'node',
    postgres: true,
    extra: all(
      script('shared-core.js'),
      (dir, env) => checkMissingDriver(dir, env, 'cjs'),
      (_dir, _env, base) => checkTrpcHttp(base, 'Express, createNodeContext'),
    ),
  },
  {
    name: 'fastify',
    template: 'fastify',
    kind: 'node',
    extra: all(script('register-checks.js'), (_dir, _env, base) => checkDocComplete(base, ['/wp-json', '/fr/wp-json'])),
  },
  { name: 'hono', template: 'hono', kind: 'node', extra: (_dir, _env, base) => checkTrpcHttp(base, 'Fetch adapter on Hono, createFetchContext') },
  {
    name: 'node',
    template: 'node',
    kind: 'node',
    extra: all(checkPlainNode, script('option-checks.js'), (_dir, _env, base) => checkForwardedPrefix(base, ['/wp-json', '/fr/wp-json'])),
  },
  { name: 'next', template: 'next', kind: 'next' },
  { name: 'next-external', template: 'next', kind: 'next', rebuildOf: 'next', nextConfig: NEXT_EXTERNAL_CONFIG },
];

interface Result {
  name: string;
  ok: boolean;
  ms: number;
  notes: string[];
  error?: StepError;
  server?: string;
}

/** Installs, (builds,) starts and checks one app. */
async function runApp(app: App, work: string, tarball: string, installed: Map<string, string>): Promise<Result> {
  const t0 = Date.now();
  const notes: string[] = [];
  const timed = async <T>(label: string, step: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    const value = await step();
    notes.push(`${label} ${seconds(Date.now() - t)}`);
    return value;
  };
  let server: Server | undefined;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  try {
    let dir: string;
    if (app.rebuildOf) {
      const of = installed.get(app.rebuildOf);
      if (!of) throw new StepError(`reuses the installed app ${app.rebuildOf}, which did not install`);
      dir = of;
    } else {
      dir = join(work, app.name);
      cpSync(join(TEMPLATES, app.template), dir, { recursive: true });
      const usePostgres = Boolean(app.postgres && POSTGRES_URL);
      if (usePostgres) {
        // A PostgreSQL user installs `pg`, not better-sqlite3 (README "Install").
        const file = join(dir, 'package.json');
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { dependencies: Record<string, string> };
        delete pkg.dependencies['better-sqlite3'];
        pkg.dependencies.pg = '^8.0.0';
        writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
      }
      const env = childEnv(CACHE ? { npm_config_better_sqlite3_local_prebuilds: CACHE } : {});
      const strict = STRICT_SCRIPTS ? ['--strict-allow-scripts'] : [];
      const log = await timed('install', () =>
        run(
          'npm install',
          'npm',
          ['install', '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts', ...strict, tarball],
          dir,
          TIMEOUT.install,
          env,
        ),
      );
      const engines = checkInstallLog(log, dir, usePostgres ? 'pg' : 'better-sqlite3');
      if (engines) notes.push(engines);
      const sqlite = join(dir, 'node_modules/better-sqlite3');
      if (!usePostgres && !hasInstallScript(sqlite)) {
        // better-sqlite3 13 (what npm picks on Node 22 and later): Node-API binaries inside the
        // package, nothing to build; the server loading it is the check.
        notes.push(`better-sqlite3 ${versionOf(sqlite)} (Node-API, prebuilt in the package)`);
      } else if (!usePostgres) {
        if (!existsSync(join(sqlite, BINARY))) throw new StepError(`better-sqlite3 was installed without ${BINARY}: its install script did not run`, log);
        // node-gyp leaves its Makefile behind; a prebuilt binary comes alone.
        notes.push(`better-sqlite3 ${versionOf(sqlite)} ${existsSync(join(sqlite, 'build/Makefile')) ? 'compiled' : 'prebuilt from the cache'}`);
        cacheBinary(sqlite);
      } else {
        if (existsSync(sqlite)) throw new StepError('better-sqlite3 was installed although the app does not depend on it', log);
        notes.push(`PostgreSQL, pg ${versionOf(join(dir, 'node_modules/pg'))}`);
      }
      installed.set(app.name, dir);
    }

    const env = childEnv({ CALENDAR_DB: `data/${app.name}.sqlite` });
    if (app.postgres && POSTGRES_URL) {
      database = await postgresDatabase(POSTGRES_URL);
      env.CALENDAR_DB_URL = database.url;
    }
    if (app.kind === 'next') {
      if (app.nextConfig) writeFileSync(join(dir, 'next.config.ts'), app.nextConfig);
      rmSync(join(dir, '.next'), { recursive: true, force: true });
      const log = await timed('next build', () => run('next build', join(dir, 'node_modules/.bin/next'), ['build'], dir, TIMEOUT.build, env));
      if (!/Turbopack/.test(log)) throw new StepError('next build did not say it used Turbopack', log);
      server = await timed('start', async () => {
        // `next start` takes its port up front: another process may take a free one first.
        for (let attempt = 1; ; attempt++) {
          const port = await freePort();
          try {
            return await startServer(join(dir, 'node_modules/.bin/next'), ['start', '-H', '127.0.0.1', '-p', String(port)], dir, env, (out) =>
              /Ready in/.test(out) ? port : undefined,
            );
          } catch (error) {
            if (attempt === 3 || !(error instanceof StepError && error.output.includes('EADDRINUSE'))) throw error;
          }
        }
      });
    } else {
      server = await timed('start', () =>
        startServer(process.execPath, ['server.js'], dir, { ...env, PORT: '0' }, (out) => {
          const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
          return port ? Number(port) : undefined;
        }),
      );
    }
    const tChecks = Date.now();
    const checks = await checkApi(server.base, app.name);
    notes.push(`${checks} HTTP checks ${seconds(Date.now() - tChecks)}`);
    if (app.extra) notes.push(await app.extra(dir, env, server.base));
    return { name: app.name, ok: true, ms: Date.now() - t0, notes };
  } catch (error) {
    const failure = error instanceof StepError ? error : new StepError(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return { name: app.name, ok: false, ms: Date.now() - t0, notes, error: failure, server: server?.output() };
  } finally {
    await server?.stop();
    await database?.drop().catch((error: unknown) => say(`  (could not drop the test database: ${String(error)})`));
  }
}

// ---- main -------------------------------------------------------------------------------------

/** Packs the repository into `packDir` and returns the tarball's path; fails when prepack did not rebuild `dist/`. */
async function pack(packDir: string, packStart: number): Promise<string> {
  const log = await run('npm pack', 'npm', ['pack', '--pack-destination', packDir], REPO, TIMEOUT.pack);
  const file = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
  if (!file) throw new StepError('npm pack wrote no tarball', log);
  if (statSync(join(REPO, 'dist/index.js')).mtimeMs < packStart)
    throw new StepError('npm pack did not rebuild dist/ (prepack did not run): the tarball would hold an old build', log);
  return join(packDir, file);
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const only = process.env.CONSUMER_APPS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const apps = only?.length ? APPS.filter((a) => only.includes(a.name)) : APPS;
  if (only?.length && apps.length !== only.length) throw new Error(`CONSUMER_APPS names an unknown app; known: ${APPS.map((a) => a.name).join(', ')}`);
  if (apps.some((a) => a.rebuildOf && !apps.some((b) => b.name === a.rebuildOf))) throw new Error('next-external rebuilds the app `next`: list both');

  const work = mkdtempSync(join(tmpdir(), 'calendar-consumer-'));
  const cleanUp = () => {
    groups.forEach((pid) => killGroup(pid, 'SIGKILL'));
    if (!KEEP) rmSync(work, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      cleanUp();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }

  try {
    say(
      `consumer test on Node ${process.version}, npm ${NPM_VERSION}${STRICT_SCRIPTS ? ' (--strict-allow-scripts)' : ' (older than 11.16: install scripts not checked against allowScripts)'}: ${apps.map((a) => a.name).join(', ')}${POSTGRES_URL ? ' (express-cjs on PostgreSQL)' : ''}; better-sqlite3 binaries ${CACHE ? `cached in ${CACHE}` : 'compiled in every app'}`,
    );
    // The package as it would be published: `npm pack` runs `prepack` (the tsup build).
    const packStart = Date.now();
    const packDir = join(work, 'pack');
    mkdirSync(packDir);
    let tarball: string;
    try {
      if (GIVEN_TARBALL && !existsSync(GIVEN_TARBALL)) throw new StepError(`CONSUMER_TARBALL names no file: ${GIVEN_TARBALL}`);
      tarball = GIVEN_TARBALL ?? (await pack(packDir, packStart));
    } catch (error) {
      const failure = error instanceof StepError ? error : new StepError(String(error));
      say(`FAIL pack: ${failure.message}`);
      if (failure.output) say(tail(failure.output));
      return 1;
    }
    say(
      GIVEN_TARBALL
        ? `installing ${GIVEN_TARBALL} (CONSUMER_TARBALL), not packed here`
        : `packed ${tarball.slice(packDir.length + 1)} in ${seconds(Date.now() - packStart)}`,
    );
    seedCacheFromRepository();

    const installed = new Map<string, string>();
    const results: Result[] = [];
    for (const app of apps) {
      const result = await runApp(app, work, tarball, installed);
      results.push(result);
      say(`${result.ok ? 'PASS' : 'FAIL'} ${result.name.padEnd(14)} ${seconds(result.ms).padStart(6)}  ${result.notes.join(' · ')}`);
      if (result.error) {
        say(`  ${result.error.message.split('\n').join('\n  ')}`);
        if (result.error.output) say(`  output of the failed step:\n${tail(result.error.output)}`);
        if (result.server !== undefined) say(`  server output:\n${tail(result.server || '(nothing)')}`);
      }
    }
    const failed = results.filter((r) => !r.ok).length;
    const tCleanUp = Date.now();
    cleanUp();
    say(
      `${results.length - failed} passed, ${failed} failed in ${seconds(Date.now() - t0)}${KEEP ? `; apps kept in ${work}` : ` (removing the apps: ${seconds(Date.now() - tCleanUp)})`}`,
    );
    return failed ? 1 : 0;
  } finally {
    cleanUp();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`consumer test: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
