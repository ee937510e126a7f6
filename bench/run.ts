/**
 * `npm run bench`: seeds calendars of 1,000 / 10,000 / 100,000 events, starts the example
 * servers (Express and Fastify on SQLite; Fastify on PostgreSQL too when
 * `CALENDAR_BENCH_POSTGRES_URL` is set) as processes of their own, drives each case with
 * autocannon from this process over 127.0.0.1, measures the same framework's static-JSON
 * ceiling for every response size, checks the issue's targets, and writes
 * bench/results.json and bench/results.md (and the table of docs/internals/benchmarks.md with `--readme`).
 *
 * Environment (all optional): BENCH_SIZES=1000,10000,100000 · BENCH_FRAMEWORKS=express,fastify ·
 * BENCH_SECONDS=5 (per case) · BENCH_WARMUP=1 · BENCH_CEILING_SECONDS=3 (per case) · BENCH_CASES=<name or substring,…> ·
 * BENCH_REUSE=1 (reuse today's seeded files) · BENCH_TSX=1 (run the sources under tsx, not compiled) ·
 * BENCH_SERIES=0 (skip the recurring events' calendar: 1,000 weekly series, 100k occurrences) ·
 * BENCH_REPLICAS=0 (skip the read-replica case: a PostgreSQL primary and two replicas started
 * with .ci/replication.sh, which needs PostgreSQL's binaries) ·
 * BENCH_FIELDS=1 (the SQLite cases on a calendar with two host fields on events, bench/fields.ts;
 * `compare`: on it and on the plain calendar, case by case in the same run) ·
 * BENCH_SOAK=1 (then the soak and hostile-load case, bench/soak.ts; `only`: that case alone, its
 * results merged into the files) with BENCH_SOAK_MINUTES, BENCH_SOAK_RATE, BENCH_SOAK_HOSTILE ·
 * BENCH_BASE=<commit> (each SQLite case also on that commit's servers, in turn with this tree's, and
 * the speed-up judged: bench/base-commit.ts) · BENCH_ROUNDS=5 (the servers of a case and its static
 * ceiling take turns, in this many rounds of its seconds and of the ceiling's) ·
 * CALENDAR_BENCH_POSTGRES_URL=postgres://….
 */
import { cpus, loadavg } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { ADMIN_TOKEN, benchCases, type BenchCase, type BenchRequest } from './cases.js';
import { sqliteDataset, workingCopy } from './dataset.js';
import { combineRuns, drive, meanBodyBytes, type LoadResult } from './load.js';
import { formatTable, markdownTable, type Row } from './report.js';
import { seedCalendar, type SeedFixtures } from './seed.js';
import { buildServers } from './build.js';
import { addFieldValues } from './fields.js';
import { startServer, stopServer, type ServerProcess } from './server.js';
import { aloneTargets, baseTargets, evaluateTargets, fieldsTargets } from './targets.js';
import { prepareBase, type BaseCommit } from './base-commit.js';
import { localPostmaster, postmasterCpuSeconds } from './database-cpu.js';
import { SERIES_SIZE, seriesCases, seriesDataset, seriesWorkingCopy } from './series.js';
import { benchReplicas, replicaMarkdown, type ReplicaRow } from './replicas.js';
import { benchSoak, saveSoakAlone, soakConfig, soakMarkdown, type SoakReport } from './soak.js';

type Framework = 'express' | 'fastify';

const env = process.env;
const list = (v: string | undefined, fallback: string) =>
  (v ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const config = {
  sizes: list(env.BENCH_SIZES, '1000,10000,100000').map(Number),
  frameworks: list(env.BENCH_FRAMEWORKS, 'express,fastify') as Framework[],
  seconds: Number(env.BENCH_SECONDS ?? 5),
  warmupSeconds: Number(env.BENCH_WARMUP ?? 1),
  ceilingSeconds: Number(env.BENCH_CEILING_SECONDS ?? 3),
  connections: 8,
  cases: env.BENCH_CASES ? list(env.BENCH_CASES, '') : undefined,
  reuse: env.BENCH_REUSE === '1',
  postgres: env.CALENDAR_BENCH_POSTGRES_URL || undefined,
  /** Flags for the calendar servers' `node` (e.g. V8 heap sizes), to measure what they trade. */
  nodeFlags: list(env.BENCH_NODE_FLAGS, '')
    .flatMap((f) => f.split(' '))
    .filter(Boolean),
  readme: process.argv.includes('--readme'),
  soak: env.BENCH_SOAK === 'only' ? 'only' : env.BENCH_SOAK === '1' ? 'after' : undefined,
  /** The calendars the SQLite size cases run on: plain, with the bench's host fields, or both. */
  variants: env.BENCH_FIELDS === 'compare' ? [false, true] : [env.BENCH_FIELDS === '1'],
  /** An earlier commit whose servers run each SQLite case in turn with this tree's. */
  base: env.BENCH_BASE || undefined,
  /**
   * Servers compared side by side (an earlier commit, host fields) take turns within a case, in
   * this many rounds of its seconds, so that a change in the machine's speed meets both.
   */
  rounds: Math.max(1, Number(env.BENCH_ROUNDS ?? 5)),
};

const SOURCES = {
  'express-server': 'examples/express/server.ts',
  'fastify-server': 'examples/fastify/server.ts',
  'ceiling-express': 'bench/ceiling-express.ts',
  'ceiling-fastify': 'bench/ceiling-fastify.ts',
  'soak-server': 'bench/soak-server.ts',
  'express-fields': 'bench/fields-express.ts',
  'fastify-fields': 'bench/fields-fastify.ts',
};
// Filled by main(): the compiled files (BENCH_TSX=1 runs the sources under tsx instead).
let SERVER_SCRIPT: Record<Framework, string>;
let FIELDS_SCRIPT: Record<Framework, string>;
let CEILING_SCRIPT: Record<Framework, string>;
const PORT = Number(env.BENCH_PORT ?? 18_480);
const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

interface CaseResult extends LoadResult {
  size: number;
  framework: Framework;
  db: 'sqlite' | 'postgres';
  /** Whether the calendar declared the bench's host fields (BENCH_FIELDS). */
  fields?: boolean;
  /** The earlier commit whose servers answered (BENCH_BASE); this tree's when absent. */
  base?: string;
  case: string;
  list: boolean;
  bytes: number;
  /** Events of a calendar file's answer (its VEVENTs), for the feed cases. */
  feedEvents?: number;
  /** Mean latency of the probing requests, sent one at a time before the run (cold). */
  probeMs: number;
  loadBefore: number;
  ceilingRps?: number;
  fractionOfCeiling?: number;
  /** The ceiling server's CPU ms per request, and the case's share judged by CPU (ceiling CPU / case CPU). */
  ceilingCpuMsPerRequest?: number;
  cpuFractionOfCeiling?: number;
  /** Writes: mean wall time and server CPU of one request at a time (one connection), in ms. */
  aloneWallMs?: number;
  aloneCpuMs?: number;
  /** The database server's CPU of a write sent alone, in ms (PostgreSQL on this machine). */
  aloneDatabaseCpuMs?: number;
}

/** One server under test, the cases it runs (the same names in the same order for each server) and the labels of its results. */
interface UnderTest {
  server: ServerProcess;
  cases: BenchCase[];
  meta: Pick<CaseResult, 'size' | 'framework' | 'db' | 'fields' | 'base'>;
  /** CPU seconds its database server has used so far, where that can be read (PostgreSQL on this machine). */
  databaseCpu?: () => number;
}

/**
 * Runs every case against each server: probe (status and size), warm-up, timed run. Each case
 * runs on each server before the next case, and the timed run is taken in rounds
 * (`config.rounds`), the servers in turn in each (each round starting with the next), then the
 * framework's static ceiling answering the bytes the first server's probe got: a shared
 * machine's speed moves by more, from one minute to the next, than the difference being
 * measured (docs/internals/benchmarks.md), so a case, the same case on another commit and its
 * ceiling are measured in the same minutes.
 */
async function runCases(servers: UnderTest[], ceiling: ServerProcess): Promise<CaseResult[]> {
  const out: CaseResult[] = [];
  const rounds = config.rounds;
  const seconds = Math.max(1, Math.round(config.seconds / rounds));
  const ceilingSeconds = Math.max(1, Math.round(config.ceilingSeconds / rounds));
  for (const [i, first] of (servers[0]?.cases ?? []).entries()) {
    const running = servers.map((s) => ({ ...s, c: s.cases[i] ?? first, runs: [] as LoadResult[] }));
    const probed = [];
    for (const s of running) probed.push(await prepareCase(s.server, s.c));
    const ceilingRequest = await prepareCeiling(ceiling, first, probed[0]!);
    const ceilingRuns: LoadResult[] = [];
    const loadBefore = loadavg()[0] ?? 0;
    for (let round = 0; round < rounds; round++) {
      // Each round starts with the next server, so that none always runs right after the ceiling.
      for (const s of running.map((_, k) => running[(k + round) % running.length]!)) {
        const url = `http://127.0.0.1:${s.server.port}`;
        s.runs.push(
          await drive({
            url,
            connections: config.connections,
            seconds,
            request: s.c.request,
            expectStatus: s.c.status,
            pid: s.server.pid,
            databaseCpu: s.databaseCpu,
          }),
        );
        // Requests still queued when the run stopped would slow the next one down.
        await drain(url);
      }
      ceilingRuns.push(
        await drive({
          url: `http://127.0.0.1:${ceiling.port}`,
          connections: config.connections,
          seconds: ceilingSeconds,
          request: ceilingRequest,
          expectStatus: ceilingRequest(0).method === 'POST' ? 201 : 200,
          pid: ceiling.pid,
        }),
      );
    }
    const top = combineRuns(ceilingRuns);
    for (const [k, s] of running.entries()) {
      const r = await finishCase(s.server, s.c, s.meta, probed[k]!, loadBefore, combineRuns(s.runs), s.databaseCpu);
      r.ceilingRps = top.requestsPerSecond;
      r.fractionOfCeiling = r.requestsPerSecond / top.requestsPerSecond;
      r.ceilingCpuMsPerRequest = top.serverCpuMsPerRequest;
      if (top.serverCpuMsPerRequest !== undefined && r.serverCpuMsPerRequest) r.cpuFractionOfCeiling = top.serverCpuMsPerRequest / r.serverCpuMsPerRequest;
      out.push(r);
    }
    log(
      `  ${'  its static-JSON ceiling'.padEnd(42)} ${top.requestsPerSecond.toFixed(0).padStart(6)} req/s  CPU ${top.serverCpuMsPerRequest?.toFixed(2)} ms/req`,
    );
  }
  return out;
}

/**
 * Stores a case's probed answer in the ceiling server and warms it up; returns the ceiling's
 * request. The case's own bytes rather than a padding of their size: autocannon turns every body
 * into a string, which costs it two to three times as much for a body with a few non-ASCII
 * characters as for one of ASCII only (285 KB from the same Fastify route: 1,287 against 3,269
 * requests per second on one connection), and a padded ceiling would measure the client. A probe
 * that got no body falls back to a padding of its size.
 */
async function prepareCeiling(ceiling: ServerProcess, c: BenchCase, { bytes, sample }: Probed): Promise<(n: number) => BenchRequest> {
  const base = `http://127.0.0.1:${ceiling.port}`;
  let path = `/wp-json/static/${bytes}`;
  if (sample) {
    path = '/wp-json/static/as/case';
    const put = await fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: sample });
    if (put.status !== 204) throw new Error(`the static ceiling did not store a body: ${put.status}`);
  }
  const first = c.request(0);
  const request = (): BenchRequest => ({ ...first, path });
  if (config.warmupSeconds > 0) await drive({ url: base, connections: config.connections, seconds: config.warmupSeconds, request, expectStatus: 0 });
  return request;
}

/** What a case's probe found, before its timed run. */
type Probed = Awaited<ReturnType<typeof meanBodyBytes>>;

/** Probes a case on a server (its status and size, one request at a time) and warms the server up. */
async function prepareCase(server: ServerProcess, c: BenchCase): Promise<Probed> {
  const base = `http://127.0.0.1:${server.port}`;
  const probed = await meanBodyBytes(base, c, c.rotates ? 5 : 1, 1_000_000);
  if (probed.failures.length) log(`  ! ${c.name}: unexpected answers while probing:\n    ${probed.failures.slice(0, 3).join('\n    ')}`);
  if (config.warmupSeconds > 0) {
    await drive({
      url: base,
      connections: config.connections,
      seconds: config.warmupSeconds,
      request: (n) => c.request(2_000_000 + n),
      expectStatus: c.status,
    });
  }
  return probed;
}

/** After a case's timed run `r`: a write's time alone, the log line and the result. */
async function finishCase(
  server: ServerProcess,
  c: BenchCase,
  meta: UnderTest['meta'],
  { bytes, events, meanMs }: Probed,
  loadBefore: number,
  r: LoadResult,
  databaseCpu?: () => number,
): Promise<CaseResult> {
  const base = `http://127.0.0.1:${server.port}`;
  // A write's own latency, with no queue in front of it: how much of it is waiting, not computing.
  const alone = c.writes
    ? await drive({
        url: base,
        connections: 1,
        seconds: Math.min(3, config.seconds),
        request: (n) => c.request(3_000_000 + n),
        expectStatus: c.status,
        pid: server.pid,
        databaseCpu,
      })
    : undefined;
  const aloneMs = alone?.requestsPerSecond
    ? { aloneWallMs: 1000 / alone.requestsPerSecond, aloneCpuMs: alone.serverCpuMsPerRequest, aloneDatabaseCpuMs: alone.databaseCpuMsPerRequest }
    : {};
  const dbCpu = (ms: number | undefined) => (ms === undefined ? '' : ` + DB ${ms.toFixed(2)}`);
  log(
    `  ${`${c.name}${meta.fields ? ' +fields' : ''}${meta.base ? ` @${meta.base}` : ''}`.padEnd(42)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  ` +
      `single ${meanMs.toFixed(1)} ms  bad ${r.wrongStatus + r.errors}  RSS ${r.rssPeakMb?.toFixed(0)} MB  CPU ${r.serverCpuMsPerRequest?.toFixed(2)}${dbCpu(r.databaseCpuMsPerRequest)} ms/req  ${bytes} B` +
      (aloneMs.aloneWallMs !== undefined
        ? `  alone ${aloneMs.aloneWallMs.toFixed(2)} ms (CPU ${aloneMs.aloneCpuMs?.toFixed(2)}${dbCpu(aloneMs.aloneDatabaseCpuMs)} ms)`
        : ''),
  );
  const feed = c.name.includes('/ics/') ? { feedEvents: events } : {};
  const result: CaseResult = { ...meta, case: c.name, list: c.list, bytes, ...feed, loadBefore, probeMs: meanMs, ...r, ...aloneMs };
  return result;
}

/** Waits until the server answers a cheap request promptly again (at most 30 s). */
async function drain(base: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const t0 = Date.now();
    const ok = await fetch(`${base}/wp-json/`, { signal: AbortSignal.timeout(30_000) }).then(
      (r) => r.arrayBuffer().then(() => true),
      () => false,
    );
    if (ok && Date.now() - t0 < 200) return;
  }
}

/** Starts one example server over a database and runs the cases. */
function benchServer(framework: Framework, db: CaseResult['db'], target: string, cases: BenchCase[], size: number): Promise<CaseResult[]> {
  return benchServers(framework, db, [{ target, cases, fields: false }], size);
}

/** One calendar a server is started over: this tree's example (or its host-fields variant), or an earlier commit's. */
interface Calendar {
  target: string;
  cases: BenchCase[];
  fields: boolean;
  /** The earlier commit's server script and label (BENCH_BASE). */
  base?: { label: string; script: string };
}

/**
 * Starts one server per calendar (the example's, or the same with the bench's host fields,
 * bench/fields.ts), each over its own database, and runs the cases on each in turn.
 */
async function benchServers(framework: Framework, db: CaseResult['db'], calendars: Calendar[], size: number): Promise<CaseResult[]> {
  const servers: UnderTest[] = [];
  let ceiling: ServerProcess | undefined;
  try {
    for (const [i, { target, cases, fields, base }] of calendars.entries()) {
      const server = await startServer({
        script: base?.script ?? (fields ? FIELDS_SCRIPT : SERVER_SCRIPT)[framework],
        port: PORT + 2 * i,
        nodeFlags: config.nodeFlags,
        env: {
          ...(db === 'sqlite' ? { CALENDAR_DB: target, CALENDAR_DB_URL: '' } : { CALENDAR_DB_URL: target }),
          CALENDAR_TOKENS: `administrator:${ADMIN_TOKEN}`,
        },
      });
      const postmaster = db === 'postgres' ? await localPostmaster(target) : undefined;
      servers.push({
        server,
        cases,
        meta: { size, framework, db, fields, ...(base ? { base: base.label } : {}) },
        ...(postmaster ? { databaseCpu: () => postmasterCpuSeconds(postmaster) } : {}),
      });
      log(` ${framework}${fields ? ' with host fields' : ''}${base ? ` of ${base.label}` : ''} on ${db}, ${size} events (pid ${server.pid})`);
    }
    // PORT + 1: the framework's static ceiling, measured in the same rounds.
    ceiling = await startServer({ script: CEILING_SCRIPT[framework], port: PORT + 1 });
    log(` ${framework} static-JSON ceiling (pid ${ceiling.pid})`);
    return await runCases(servers, ceiling);
  } finally {
    for (const { server } of servers) await stopServer(server);
    if (ceiling) await stopServer(ceiling);
  }
}

/** The cases BENCH_CASES names: a case named exactly alone, otherwise every case whose name contains the text. */
const selected = (cases: BenchCase[]) =>
  config.cases ? cases.filter((c) => config.cases!.some((s) => c.name === s || (!cases.some((x) => x.name === s) && c.name.includes(s)))) : cases;

/** The soak case (bench/soak.ts) on ports of its own. */
async function runSoak(script: string): Promise<SoakReport> {
  const soak = soakConfig(env);
  log(
    `soak: ${soak.minutes} minute${soak.minutes === 1 ? '' : 's'} at ${soak.rate} req/s, ${soak.hostilePerSecond} hostile actions/s, two Express instances on PostgreSQL`,
  );
  const report = await benchSoak({ ...soak, script, port: PORT + 20, log });
  for (const t of report.targets) console.log(`${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}`);
  return report;
}

async function main(): Promise<void> {
  if (config.soak === 'only') {
    const compiled = env.BENCH_TSX === '1' ? SOURCES : await buildServers({ 'soak-server': SOURCES['soak-server'] });
    saveSoakAlone(await runSoak(compiled['soak-server']));
    log('done: the soak in bench/results.json (soak) and bench/results.md');
    return;
  }
  log(
    `bench: sizes ${config.sizes.join(', ')} · ${config.frameworks.join(', ')}${config.postgres ? ' (+ fastify on postgres)' : ''} · ${config.seconds} s per case, ${config.connections} connections`,
  );
  const loadAverageAtStart = loadavg();
  const compiled = env.BENCH_TSX === '1' ? SOURCES : await buildServers(SOURCES);
  SERVER_SCRIPT = { express: compiled['express-server'], fastify: compiled['fastify-server'] };
  FIELDS_SCRIPT = { express: compiled['express-fields'], fastify: compiled['fastify-fields'] };
  CEILING_SCRIPT = { express: compiled['ceiling-express'], fastify: compiled['ceiling-fastify'] };
  log(`servers: ${env.BENCH_TSX === '1' ? 'TypeScript sources under tsx' : 'compiled with tsup to bench/.data/build (plain node)'}`);
  log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${(loadavg()[0] ?? 0) > 1.5 ? ' — loaded: figures are pessimistic' : ''}`,
  );
  const base: BaseCommit | undefined = config.base ? await prepareBase(config.base, log) : undefined;
  const results: CaseResult[] = [];
  const seeding: { size: number; db: string; seconds: number; cpuSeconds?: number; reused?: boolean }[] = [];
  for (const size of config.sizes) {
    const fixtures = await sqliteDataset(size, config.reuse);
    seeding.push({ size, db: 'sqlite', seconds: fixtures.seconds, cpuSeconds: fixtures.cpuSeconds, reused: fixtures.reused });
    log(`seeded ${size} events on SQLite in ${fixtures.seconds.toFixed(1)} s (${fixtures.cpuSeconds?.toFixed(1)} s CPU)${fixtures.reused ? ' (reused)' : ''}`);
    const cases = selected(benchCases(fixtures));
    const fieldsCases = selected(benchCases(fixtures, { fields: true }));
    for (const framework of config.frameworks) {
      const copies = config.variants.map((fields) => ({ fields, copy: workingCopy(size, fields ? `${framework}-fields` : framework) }));
      try {
        for (const { fields, copy } of copies) if (fields) log(`host field values given to ${await addFieldValues(copy.file)} events`);
        const calendars: Calendar[] = copies.map(({ fields, copy }) => ({ target: copy.file, fields, cases: fields ? fieldsCases : cases }));
        const baseCopy = base?.dataset(size, framework);
        if (base && baseCopy) {
          calendars.push({
            target: baseCopy.file,
            fields: false,
            cases: selected(benchCases(baseCopy.fixtures)),
            base: { label: base.label, script: base.scripts[framework] },
          });
          copies.push({ fields: false, copy: baseCopy });
        }
        results.push(...(await benchServers(framework, 'sqlite', calendars, size)));
      } finally {
        for (const { copy } of copies) copy.remove();
      }
    }
    if (config.postgres && config.frameworks.includes('fastify')) {
      const pg: SeedFixtures = await seedCalendar({ target: config.postgres, events: size });
      seeding.push({ size, db: 'postgres', seconds: pg.seconds, cpuSeconds: pg.cpuSeconds });
      log(`seeded ${size} events on PostgreSQL in ${pg.seconds.toFixed(1)} s`);
      const calendars: Calendar[] = [{ target: config.postgres, cases: selected(benchCases(pg)), fields: false }];
      if (base) {
        const old = await base.postgresDataset(size, config.postgres);
        log(`seeded ${size} events on PostgreSQL for ${base.label} (${new URL(old.url).pathname.slice(1)})`);
        calendars.push({
          target: old.url,
          fields: false,
          cases: selected(benchCases(old.fixtures)),
          base: { label: base.label, script: base.scripts.fastify },
        });
      }
      results.push(...(await benchServers('fastify', 'postgres', calendars, size)));
    }
  }
  if (env.BENCH_SERIES !== '0') {
    const fixtures = await seriesDataset(config.reuse);
    seeding.push({ size: SERIES_SIZE, db: 'sqlite (series)', seconds: fixtures.seconds + fixtures.seriesSeconds, reused: fixtures.reused });
    log(
      `seeded 1,000 events and 1,000 weekly series (100k occurrences) on SQLite: series in ${fixtures.seriesSeconds.toFixed(1)} s${fixtures.reused ? ' (reused)' : ''}`,
    );
    const cases = selected(seriesCases(fixtures));
    for (const framework of config.frameworks) {
      const copy = seriesWorkingCopy(framework);
      try {
        results.push(...(await benchServer(framework, 'sqlite', copy.file, cases, SERIES_SIZE)));
      } finally {
        copy.remove();
      }
    }
  }
  let replicaRows: ReplicaRow[] = [];
  const replicaTargets: ReturnType<typeof evaluateTargets> = [];
  if (env.BENCH_REPLICAS !== '0' && config.frameworks.includes('fastify')) {
    try {
      const measured = await benchReplicas({
        script: SERVER_SCRIPT.fastify,
        port: PORT + 10,
        seconds: config.seconds,
        warmupSeconds: config.warmupSeconds,
        log,
      });
      replicaRows = measured.rows;
      replicaTargets.push(...measured.targets);
    } catch (error) {
      log(`replicas: not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  const soak = config.soak ? await runSoak(compiled['soak-server']) : undefined;

  const rows: Row[] = results.map((r) => ({
    size: r.size,
    server: `${r.framework}/${r.db}${r.fields ? '+fields' : ''}${r.base ? ` @${r.base}` : ''}`,
    case: r.case,
    rps: r.requestsPerSecond,
    single: r.probeMs,
    p50: r.p50Ms,
    p99: r.p99Ms,
    bad: r.wrongStatus + r.errors,
    rss: r.rssPeakMb,
    cpu: r.serverCpuMsPerRequest,
    databaseCpu: r.databaseCpuMsPerRequest,
    bytes: r.bytes,
    ceiling: r.ceilingRps,
    fraction: r.fractionOfCeiling,
  }));
  const caseTargets = [
    ...evaluateTargets(
      results.filter((r) => !r.fields && !r.base),
      seeding,
    ),
    ...fieldsTargets(results.filter((r) => !r.base)),
    ...baseTargets(results),
    ...aloneTargets(results.filter((r) => !r.base && !r.fields)),
    ...replicaTargets,
  ];
  // The soak's verdicts are listed in its own section of the Markdown.
  const targets = [...caseTargets, ...(soak?.targets ?? [])];
  const machine = { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageAtStart, loadAverageAtEnd: loadavg() };
  const report = {
    date: new Date().toISOString(),
    machine,
    config: { ...config, postgres: Boolean(config.postgres) },
    seeding,
    results,
    replicas: replicaRows,
    soak,
    targets,
  };
  writeFileSync('bench/results.json', `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${formatTable(rows)}\n`);
  for (const s of seeding)
    console.log(`seeding ${s.size} events (${s.db}): ${s.seconds.toFixed(1)} s (${s.cpuSeconds?.toFixed(1)} s CPU)${s.reused ? ' (reused)' : ''}`);
  console.log('');
  for (const t of targets) console.log(`${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}`);
  const md =
    markdownTable(rows, seeding, caseTargets, { ...machine, date: report.date, seconds: config.seconds, connections: config.connections }) +
    (replicaRows.length ? `\n${replicaMarkdown(replicaRows)}` : '') +
    (soak ? `\n${soakMarkdown(soak)}` : '');
  writeFileSync('bench/results.md', md);
  if (config.readme) updateReadme(md);
  log('done: bench/results.json, bench/results.md');
}

/**
 * Replaces the generated table of docs/internals/benchmarks.md (between the bench markers) with
 * the latest one. Angle brackets outside code (`GET /events/<id>`) are written as entities: the
 * docs site reads bare ones as HTML tags.
 */
function updateReadme(md: string): void {
  const page = 'docs/internals/benchmarks.md';
  const text = readFileSync(page, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) {
    log(`${page} has no bench markers: table not updated`);
    return;
  }
  const escaped = md
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '&lt;').replace(/>/g, '&gt;') : part))
    .join('`');
  writeFileSync(page, `${text.slice(0, a + start.length)}\n${escaped}\n${text.slice(b)}`);
  log(`${page} table updated`);
}

await main();
