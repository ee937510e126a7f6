/**
 * The read-replica case (issue 20): a PostgreSQL primary with two streaming replicas on loopback
 * (`.ci/replication.sh`, started here and removed afterwards), 1,000 events, and two instances of
 * the example server driven at once. Measured twice, without and with `CALENDAR_DB_REPLICA_URLS`:
 *
 * - throughput of logged-out reads across both instances, computed (`Cache-Control: no-cache`,
 *   so every read queries its node) and kept (the response cache);
 * - what the read-your-writes check adds to one request: a kept logged-out read, one connection,
 *   with and without replicas (the replica's state query replaces the version query), and with
 *   replicas and a position header from a write.
 *
 * All servers share this machine's cores: a replica here takes CPU from the primary and the app
 * instances instead of bringing its own, so throughput cannot grow here as it does when each
 * server has a machine of its own; the CPU each server spends per read shows where the work went.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ADMIN_TOKEN, API, type BenchRequest } from './cases.js';
import { postmasterCpuSeconds } from './database-cpu.js';
import { drive, type LoadResult } from './load.js';
import { seedCalendar } from './seed.js';
import { startServer, stopServer, type ServerProcess } from './server.js';
import type { TargetResult } from './targets.js';

const run = promisify(execFile);

/** One measured configuration of the replica case. */
export interface ReplicaRow {
  case: string;
  replicas: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  bad: number;
  /** Server CPU ms per request, summed over the instances driven. */
  cpuMsPerRequest?: number;
  /** CPU ms per request of the primary's server processes, and of the two replicas' together, during the run. */
  primaryCpuMsPerRequest?: number;
  replicasCpuMsPerRequest?: number;
}

/** Options of {@link benchReplicas}. */
export interface ReplicaBenchOptions {
  script: string;
  port: number;
  seconds: number;
  warmupSeconds: number;
  log: (line: string) => void;
}

/** A throw-away primary and two replicas (`.ci/replication.sh`). */
export interface Cluster {
  primary: string;
  replicas: string[];
  /** Data directories: `primary`, `r1`, `r2`. */
  dir: string;
  remove(): Promise<void>;
}

/** CPU seconds used so far by one server of the cluster: its postmaster and every backend and worker it started. */
export function serverCpuSeconds(dir: string, server: 'primary' | 'r1' | 'r2'): number {
  return postmasterCpuSeconds(Number(readFileSync(join(dir, server, 'postmaster.pid'), 'utf8').split('\n')[0]));
}

/** CPU seconds of the primary and of the two replicas together. */
const databaseCpu = (dir: string) => ({ primary: serverCpuSeconds(dir, 'primary'), replicas: serverCpuSeconds(dir, 'r1') + serverCpuSeconds(dir, 'r2') });

/** Starts a primary and two replicas with the CI script. */
export async function startCluster(): Promise<Cluster> {
  const parent = mkdtempSync(join(tmpdir(), 'calendar-bench-replicas-'));
  chmodSync(parent, 0o755);
  const dir = join(parent, 'cluster');
  const remove = async () => {
    await run('bash', ['.ci/replication.sh', 'stop', dir]).catch(() => undefined);
    rmSync(parent, { recursive: true, force: true });
  };
  try {
    const { stdout } = await run('bash', ['.ci/replication.sh', 'start', dir], { timeout: 120_000 });
    const vars = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    return { primary: vars.CALENDAR_TEST_PG_PRIMARY_URL!, replicas: vars.CALENDAR_TEST_PG_REPLICA_URLS!.split(','), dir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The first column of the first row of `text` on `url`, as text. */
export async function query(url: string, text: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return String(Object.values((await client.query(text)).rows[0] ?? {})[0]);
  } finally {
    await client.end();
  }
}

/** Waits until every replica has replayed the primary's log as it is now. */
async function caughtUp(cluster: Cluster): Promise<void> {
  const target = await query(cluster.primary, 'select pg_current_wal_insert_lsn()::text as l');
  for (const url of cluster.replicas) {
    for (let i = 0; i < 600; i++) {
      if ((await query(url, `select pg_last_wal_replay_lsn() >= '${target}'::pg_lsn as l`)) === 'true') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Drives each server with its own connections at once; the requests per second add up. */
async function driveAll(
  servers: ServerProcess[],
  options: { seconds: number; connections: number; request: (n: number) => BenchRequest },
): Promise<LoadResult[]> {
  return Promise.all(
    servers.map((s) =>
      drive({
        url: `http://127.0.0.1:${s.port}`,
        connections: options.connections,
        seconds: options.seconds,
        request: options.request,
        expectStatus: 200,
        pid: s.pid,
      }),
    ),
  );
}

const combine = (name: string, replicas: number, results: LoadResult[]): ReplicaRow => {
  const requests = results.reduce((n, r) => n + r.requests, 0);
  const cpu = results.every((r) => r.serverCpuMsPerRequest !== undefined)
    ? results.reduce((n, r) => n + (r.serverCpuMsPerRequest ?? 0) * r.requests, 0) / Math.max(1, requests)
    : undefined;
  return {
    case: name,
    replicas,
    requestsPerSecond: results.reduce((n, r) => n + r.requestsPerSecond, 0),
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    bad: results.reduce((n, r) => n + r.wrongStatus + r.errors, 0),
    cpuMsPerRequest: cpu,
  };
};

/** Runs the replica case; the rows and the two targets. */
export async function benchReplicas(options: ReplicaBenchOptions): Promise<{ rows: ReplicaRow[]; targets: TargetResult[] }> {
  const { log } = options;
  const cluster = await startCluster();
  const rows: ReplicaRow[] = [];
  try {
    const seeded = await seedCalendar({ target: cluster.primary, events: 1000 });
    // Quiet before measuring: autovacuum's analyze of the new rows would move every node's version meanwhile.
    await query(cluster.primary, 'vacuum analyze');
    await query(cluster.primary, 'checkpoint');
    await caughtUp(cluster);
    log(`replicas: primary and two replicas, 1,000 events seeded in ${seeded.seconds.toFixed(1)} s`);
    const list = `${API}/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01`;
    const computed = (): BenchRequest => ({ method: 'GET', path: list, headers: { 'cache-control': 'no-cache' } });
    const kept = (): BenchRequest => ({ method: 'GET', path: list });
    const single = (): BenchRequest => ({ method: 'GET', path: `${API}/events/${seeded.eventIds[0]}` });
    for (const replicas of [0, 2]) {
      const env = {
        CALENDAR_DB_URL: cluster.primary,
        CALENDAR_DB: '',
        CALENDAR_DB_REPLICA_URLS: replicas ? cluster.replicas.join(',') : '',
        CALENDAR_TOKENS: `administrator:${ADMIN_TOKEN}`,
      };
      const servers = [
        await startServer({ script: options.script, port: options.port, env }),
        await startServer({ script: options.script, port: options.port + 1, env }),
      ];
      try {
        for (const [name, request] of [
          ['logged-out list, computed (no-cache), 2 instances', computed],
          ['logged-out list, kept, 2 instances', kept],
        ] as const) {
          if (options.warmupSeconds > 0) await driveAll(servers, { seconds: options.warmupSeconds, connections: 4, request });
          const before = databaseCpu(cluster.dir);
          const loads = await driveAll(servers, { seconds: options.seconds, connections: 4, request });
          const after = databaseCpu(cluster.dir);
          const row = combine(name, replicas, loads);
          const requests = Math.max(
            1,
            loads.reduce((n, r) => n + r.requests, 0),
          );
          row.primaryCpuMsPerRequest = ((after.primary - before.primary) * 1000) / requests;
          row.replicasCpuMsPerRequest = ((after.replicas - before.replicas) * 1000) / requests;
          rows.push(row);
          log(
            `  ${replicas} replicas  ${name.padEnd(50)} ${row.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${row.p50Ms.toFixed(2)} ms  app CPU ${row.cpuMsPerRequest?.toFixed(2)} ms/req  ` +
              `primary ${row.primaryCpuMsPerRequest.toFixed(2)}, replicas ${row.replicasCpuMsPerRequest.toFixed(2)} ms/req  bad ${row.bad}`,
          );
        }
        // One request at a time: the latency a request pays for the check.
        const one = servers.slice(0, 1);
        const probes: [string, () => BenchRequest][] = [['logged-out single event, kept, 1 connection', single]];
        if (replicas) {
          const written = await fetch(`http://127.0.0.1:${one[0]!.port}${API}/events`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'Position probe', status: 'draft', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' }),
          });
          const position = written.headers.get('x-calendar-position') ?? '';
          await written.arrayBuffer();
          await caughtUp(cluster);
          probes.push(['logged-out single event, kept, 1 connection, with a position', () => ({ ...single(), headers: { 'x-calendar-position': position } })]);
        }
        for (const [name, request] of probes) {
          if (options.warmupSeconds > 0) await driveAll(one, { seconds: options.warmupSeconds, connections: 1, request });
          const row = combine(name, replicas, await driveAll(one, { seconds: options.seconds, connections: 1, request }));
          rows.push(row);
          log(
            `  ${replicas} replicas  ${name.padEnd(50)} ${row.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${row.p50Ms.toFixed(3)} ms  CPU ${row.cpuMsPerRequest?.toFixed(3)} ms/req  bad ${row.bad}`,
          );
        }
      } finally {
        await Promise.all(servers.map((s) => stopServer(s)));
      }
    }
  } finally {
    await cluster.remove();
  }
  return { rows, targets: replicaTargets(rows) };
}

/** The targets: reads scale with the replicas, and the check costs under 0.5 ms a request. */
export function replicaTargets(rows: readonly ReplicaRow[]): TargetResult[] {
  const find = (name: string, replicas: number) => rows.find((r) => r.case === name && r.replicas === replicas);
  const out: TargetResult[] = [];
  const without = find('logged-out list, computed (no-cache), 2 instances', 0);
  const withReplicas = find('logged-out list, computed (no-cache), 2 instances', 2);
  if (without && withReplicas) {
    out.push({
      name: 'logged-out read throughput across two instances grows with two replicas (computed reads)',
      ok: withReplicas.requestsPerSecond > without.requestsPerSecond && withReplicas.bad === 0,
      measured: `${without.requestsPerSecond.toFixed(0)} → ${withReplicas.requestsPerSecond.toFixed(0)} req/s (×${(withReplicas.requestsPerSecond / without.requestsPerSecond).toFixed(2)}); the primary's CPU per read ${without.primaryCpuMsPerRequest?.toFixed(2)} → ${withReplicas.primaryCpuMsPerRequest?.toFixed(2)} ms, the replicas' ${withReplicas.replicasCpuMsPerRequest?.toFixed(2)} ms (one 2-core machine: replicas take cores from the rest, they add none)`,
    });
  }
  const base = find('logged-out single event, kept, 1 connection', 0);
  for (const name of ['logged-out single event, kept, 1 connection', 'logged-out single event, kept, 1 connection, with a position']) {
    const checked = find(name, 2);
    if (!base || !checked) continue;
    const added = checked.p50Ms - base.p50Ms;
    out.push({
      name: `the read-your-writes check adds under 0.5 ms to a request (${name.endsWith('position') ? 'with' : 'without'} a position header, p50)`,
      ok: added < 0.5 && checked.bad === 0,
      measured: `${base.p50Ms.toFixed(3)} → ${checked.p50Ms.toFixed(3)} ms (${added >= 0 ? '+' : ''}${added.toFixed(3)} ms)`,
    });
  }
  return out;
}

/** The replica rows as a Markdown table, for bench/results.md. */
export function replicaMarkdown(rows: readonly ReplicaRow[]): string {
  const lines = [
    '| case | replicas | req/s | p50 ms | p99 ms | app CPU ms/req | primary CPU ms/req | replicas CPU ms/req | bad |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.case} | ${r.replicas} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(2)} | ${r.cpuMsPerRequest?.toFixed(3) ?? '—'} | ${r.primaryCpuMsPerRequest?.toFixed(3) ?? '—'} | ${r.replicasCpuMsPerRequest?.toFixed(3) ?? '—'} | ${r.bad} |`,
    ),
  ];
  return `### Read replicas (PostgreSQL primary + 2 streaming replicas, two Fastify instances)\n\n${lines.join('\n')}\n`;
}
