/**
 * The soak and hostile-load case (issue 28, `BENCH_SOAK=1` after the usual cases, `BENCH_SOAK=only`
 * alone): two instances of the Express example on one PostgreSQL database, minutes of mixed reads
 * and writes at a steady rate, the outside review's hostile requests sent alongside, and a probe
 * that times a small logged-out read on each instance every 100 ms. Each server watches its own
 * event loop (bench/soak-server.ts); each minute reports their loop delay, the probe's latency,
 * the requests done, the errors, RSS, and how much of the machine's CPU stayed idle.
 *
 * Targets: loop delay p99 < 50 ms and max < 200 ms on each server, no 5xx (nor a request left
 * unanswered), RSS at the end within 10 % of minute 1's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ADMIN_TOKEN, API } from './cases.js';
import { idleShare, machineTicks, soakCpu, type SoakCpu } from './soak-cpu.js';
import { SoakClient, type KindTotals, type LatencyFigures, type MinuteTally } from './soak-client.js';
import { CONTRIBUTOR_TOKEN, MILLENNIUM_BODY, SoakMix, WIDE_FEED, hostileActions, seriesBodies, type SoakFixtures, type SoakRequest } from './soak-requests.js';
import { query, startCluster, type Cluster } from './replicas.js';
import { seedCalendar } from './seed.js';
import { rssMb, startServer, stopServer, type ServerProcess } from './server.js';
import type { TargetResult } from './targets.js';

/** What the environment sets (run.ts reads it). */
export interface SoakConfig {
  minutes: number;
  /** Requests per second of the mix, over both instances. */
  rate: number;
  hostilePerSecond: number;
  /** Seconds between two reads of the century-wide feed (besides the hostile ones). */
  feedEverySeconds: number;
  warmupSeconds: number;
  /** `CALENDAR_BENCH_POSTGRES_URL`; otherwise a throw-away cluster is started. */
  postgres?: string;
}

/**
 * The default rate: on the 2-core machine the README's figures come from (AMD EPYC, shared), the
 * mix at 140 requests/s with the feeds, hostile requests and probes alongside left about a third
 * of the CPU idle (31–36 % in a 6-minute run; 160 left 26–36 %, 120 47 %); another machine
 * picks its own with BENCH_SOAK_RATE.
 */
export const DEFAULT_RATE = 140;

/** Reads the soak's knobs: `BENCH_SOAK_MINUTES` (5), `BENCH_SOAK_RATE`, `BENCH_SOAK_HOSTILE` (2 per second), `BENCH_SOAK_WARMUP` (20 s). */
export function soakConfig(env: NodeJS.ProcessEnv): SoakConfig {
  return {
    minutes: Number(env.BENCH_SOAK_MINUTES ?? 5),
    rate: Number(env.BENCH_SOAK_RATE ?? DEFAULT_RATE),
    hostilePerSecond: Number(env.BENCH_SOAK_HOSTILE ?? 2),
    feedEverySeconds: Number(env.BENCH_SOAK_FEED_EVERY ?? 5),
    warmupSeconds: Number(env.BENCH_SOAK_WARMUP ?? 20),
    postgres: env.CALENDAR_BENCH_POSTGRES_URL || undefined,
  };
}

/** Options of {@link benchSoak}. */
export interface SoakOptions extends SoakConfig {
  /** The soak server (bench/soak-server.ts, compiled or not). */
  script: string;
  /** The first instance's port; the second listens on the next. */
  port: number;
  log: (line: string) => void;
}

/** One server's event loop in a window, as bench/soak-server.ts reports it (ms). */
interface LoopFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

interface WindowLine {
  seq: number;
  resolutionMs: number;
  window: LoopFigures;
  total: LoopFigures;
  rssMb: number;
  heapUsedMb: number;
  /** V8's heap used, read every second in the window: least (about what full collections leave) and most. */
  heapFloorMb: number;
  heapPeakMb: number;
}

/** One minute of the soak. */
export interface SoakMinute {
  minute: number;
  seconds: number;
  loadAverage: number;
  requests: number;
  requestsPerSecond: number;
  /** 5xx answers by kind; requests that got no answer by error code. */
  serverErrors: Record<string, number>;
  connectionErrors: Record<string, number>;
  /** Other answers than the request expects (under 500), by kind and status. */
  unexpected: Record<string, number>;
  samples: string[];
  /** Mix requests not sent because too many were in flight (the servers fell behind). */
  dropped: number;
  /** Requests sent again because the server closed their idle kept-alive socket as they went out (not errors). */
  keepAliveRaces: number;
  /**
   * Each server's loop delay; its RSS read every second through the minute (mean: what the RSS
   * target compares; least, most: one reading swings by tens of MB with the collector's phase);
   * V8's heap used, least and most of a reading a second (the least grows if something leaks).
   */
  servers: {
    loopP99Ms: number;
    loopMaxMs: number;
    loopMeanMs: number;
    rssMb?: number;
    rssMinMb?: number;
    rssMaxMb?: number;
    heapFloorMb: number;
    heapPeakMb: number;
  }[];
  /** The probe's p99 and max on each instance (ms). */
  probeP99Ms: number[];
  probeMaxMs: number[];
  /** p99 of the mix's requests together, and of the hostile ones (ms). */
  mixP99Ms?: number;
  hostileP99Ms?: number;
  /** The machine's idle share, and the CPU cores the soak's processes used on average. */
  machineIdle?: number;
  cores: { servers: (number | undefined)[]; database?: number; driver: number };
  /** This driver's own loop delay p99 (ms): when it is high, the probe's figures include the driver's lateness. */
  driverLoopP99Ms: number;
  /** Each kind's latency in the minute (what grew, when a minute costs more than the one before). */
  kinds: Record<string, LatencyFigures>;
}

/** What the soak measured. */
export interface SoakReport {
  date: string;
  machine: { cores: number; cpu?: string; node: string };
  config: Omit<SoakConfig, 'postgres'> & { postgres: string; probeEveryMs: number; instances: number };
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  seeding: { events: number; series: number; seconds: number };
  minutes: SoakMinute[];
  /** The whole run, per server: loop delay (ms; the monitor's values include its 10 ms resolution), RSS means and heap floors of the first and last minutes. */
  servers: {
    port: number;
    loopP99Ms: number;
    loopMaxMs: number;
    loopMeanMs: number;
    rssFirstMinuteMb?: number;
    rssEndMb?: number;
    heapFloorFirstMinuteMb?: number;
    heapFloorEndMb?: number;
  }[];
  probeP99Ms: number[];
  machineIdle?: number;
  kinds: KindTotals[];
  /** Lines of the servers' output that name an error (an unexpected error logs its stack). */
  serverLog: string[];
  targets: TargetResult[];
}

const PROBE_EVERY_MS = 100;
/** Mix requests in flight beyond which the driver stops sending (and counts them as dropped). */
const MAX_IN_FLIGHT = 256;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** A server's `soak-window` lines, by sequence number, as they arrive on its stdout. */
function windowLines(server: ServerProcess): { next(seq: number, timeoutMs: number): Promise<WindowLine | undefined> } {
  const lines = new Map<number, WindowLine>();
  const waiting = new Map<number, (line: WindowLine) => void>();
  let rest = '';
  server.child.stdout!.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString();
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('soak-window ')) continue;
      const line = JSON.parse(part.slice('soak-window '.length)) as WindowLine;
      lines.set(line.seq, line);
      waiting.get(line.seq)?.(line);
    }
  });
  return {
    next: (seq, timeoutMs) =>
      lines.has(seq)
        ? Promise.resolve(lines.get(seq))
        : new Promise((resolve) => {
            const timer = setTimeout(() => resolve(undefined), timeoutMs);
            waiting.set(seq, (line) => {
              clearTimeout(timer);
              resolve(line);
            });
          }),
  };
}

/** Sends a set-up request as the administrator and returns the JSON answer (throws on another status). */
async function setup<T>(base: string, method: string, path: string, body?: unknown, expect = 201): Promise<T> {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expect) throw new Error(`soak set-up: ${method} ${path} → ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Runs the soak; see the module's comment. */
export async function benchSoak(options: SoakOptions): Promise<SoakReport> {
  const { log } = options;
  const loadAverageAtStart = loadavg();
  let cluster: Cluster | undefined;
  const servers: ServerProcess[] = [];
  // Should this process die mid-run, its servers go with it (the cluster's directory stays in /tmp).
  const killServers = () => servers.forEach((s) => s.child.kill('SIGKILL'));
  process.once('exit', killServers);
  // Stopped on every way out, so that a failed run does not keep sending.
  const timers: { stop(): void }[] = [];
  try {
    if (!options.postgres) cluster = await startCluster();
    const url = options.postgres ?? cluster!.primary;
    const seeded = await seedCalendar({ target: url, events: 1000 });
    await query(url, 'vacuum analyze');
    const ports = [options.port, options.port + 1];
    const env = {
      CALENDAR_DB_URL: url,
      CALENDAR_DB: '',
      CALENDAR_DB_REPLICA_URLS: '',
      CALENDAR_TOKENS: `administrator:${ADMIN_TOKEN},contributor:${CONTRIBUTOR_TOKEN}`,
      CALENDAR_BASE_URL: `http://127.0.0.1:${ports[0]}`,
    };
    // One after the other: the first one migrates.
    for (const port of ports) servers.push(await startServer({ script: options.script, port, env }));
    const windows = servers.map(windowLines);
    const bases = ports.map((p) => `http://127.0.0.1:${p}${API}`);
    const seriesIds: number[] = [];
    for (const body of seriesBodies(seeded)) seriesIds.push((await setup<{ id: number }>(bases[0]!, 'POST', '/events', body)).id);
    const millenniumId = (await setup<{ id: number }>(bases[1]!, 'POST', '/events', MILLENNIUM_BODY)).id;
    const anonymousToken = ((await (await fetch(`${bases[0]}/changes`)).json()) as { next_sync_token: string }).next_sync_token;
    const adminToken = (await setup<{ next_sync_token: string }>(bases[1]!, 'GET', '/changes', undefined, 200)).next_sync_token;
    const fixtures: SoakFixtures = { ...seeded, seriesIds, millenniumId, anonymousToken, adminToken };
    log(
      `soak: ${cluster ? 'a throw-away PostgreSQL' : 'PostgreSQL at CALENDAR_BENCH_POSTGRES_URL'}, 1,000 events and ${seriesIds.length + 1} series seeded in ${seeded.seconds.toFixed(1)} s; ` +
        `Express instances on ${ports.join(', ')} (pids ${servers.map((s) => s.pid).join(', ')}); load average ${loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')}`,
    );

    const client = new SoakClient(ports);
    const mix = new SoakMix(fixtures);
    const hostile = hostileActions(fixtures, [...ports, Number(new URL(url).port) || 5432]);
    const traffic = startTraffic(client, mix, hostile, options, fixtures);
    timers.push(traffic, { stop: () => client.close() });
    log(`soak: ${options.warmupSeconds} s of warm-up at ${options.rate} req/s`);
    await sleep(options.warmupSeconds * 1000);

    // The measured run starts: every tally, window and counter from here.
    client.reset();
    traffic.dropped = 0;
    for (const s of servers) s.child.kill('SIGUSR2');
    await Promise.all(windows.map((w) => w.next(0, 30_000)));
    const driverLoop = monitorEventLoopDelay({ resolution: 10 });
    driverLoop.enable();
    let ticks = machineTicks();
    const runTicks = ticks;
    let cpu = soakCpu(
      servers.map((s) => s.pid),
      cluster?.dir,
    );
    let mark = performance.now();
    let rss: number[][] = servers.map(() => []);
    const sampler = setInterval(() => servers.forEach((s, i) => rss[i]!.push(rssMb(s.pid) ?? NaN)), 1000);
    timers.push({ stop: () => clearInterval(sampler) });
    const minutes: SoakMinute[] = [];
    const count = Math.ceil(options.minutes);
    let last: WindowLine[] = [];
    for (let m = 1; m <= count; m++) {
      const seconds = Math.min(60, (options.minutes - (m - 1)) * 60);
      await sleep(Math.max(0, mark + seconds * 1000 - performance.now()));
      if (m === count) {
        // The last minute takes in the requests still in flight: an error among them counts.
        traffic.stop();
        await client.drained(65_000);
      }
      for (const s of servers) s.child.kill('SIGUSR2');
      const tally = client.endMinute();
      const now = performance.now();
      const elapsed = (now - mark) / 1000;
      mark = now;
      const nextTicks = machineTicks();
      const nextCpu = soakCpu(
        servers.map((s) => s.pid),
        cluster?.dir,
      );
      const lines = await Promise.all(windows.map((w) => w.next(m, 120_000)));
      const silent = lines.findIndex((l) => !l);
      if (silent >= 0)
        throw new Error(`soak: instance ${'AB'[silent]} did not report minute ${m} within 30 s; its output ends:\n${servers[silent]!.output().slice(-2000)}`);
      last = lines as WindowLine[];
      const minute = minuteOf(
        m,
        elapsed,
        tally,
        last,
        rss,
        traffic.dropped,
        idleShare(ticks, nextTicks),
        cores(cpu, nextCpu, elapsed),
        driverLoop.percentile(99) / 1e6,
      );
      rss = servers.map(() => []);
      traffic.dropped = 0;
      driverLoop.reset();
      ticks = nextTicks;
      cpu = nextCpu;
      minutes.push(minute);
      log(minuteLine(minute));
    }
    driverLoop.disable();
    clearInterval(sampler);
    client.close();
    const kinds = client.totals();
    const report: SoakReport = {
      date: new Date().toISOString(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
      config: {
        minutes: options.minutes,
        rate: options.rate,
        hostilePerSecond: options.hostilePerSecond,
        feedEverySeconds: options.feedEverySeconds,
        warmupSeconds: options.warmupSeconds,
        postgres: cluster ? 'a throw-away cluster (.ci/replication.sh: the primary; its two replicas replay the writes)' : 'CALENDAR_BENCH_POSTGRES_URL',
        probeEveryMs: PROBE_EVERY_MS,
        instances: servers.length,
      },
      loadAverageAtStart,
      loadAverageAtEnd: loadavg(),
      seeding: { events: 1000, series: seriesIds.length + 1, seconds: round(seeded.seconds) },
      minutes,
      servers: servers.map((s, i) => ({
        port: s.port,
        loopP99Ms: last[i]!.total.p99,
        loopMaxMs: last[i]!.total.max,
        loopMeanMs: last[i]!.total.mean,
        rssFirstMinuteMb: minutes[0]?.servers[i]?.rssMb,
        rssEndMb: minutes.at(-1)?.servers[i]?.rssMb,
        heapFloorFirstMinuteMb: minutes[0]?.servers[i]?.heapFloorMb,
        heapFloorEndMb: minutes.at(-1)?.servers[i]?.heapFloorMb,
      })),
      probeP99Ms: ports.map((_, i) => kinds.find((k) => k.kind === probeKind(i))?.p99Ms ?? NaN),
      machineIdle: idleShare(runTicks, ticks),
      kinds,
      serverLog: [],
      targets: [],
    };
    report.serverLog = servers.flatMap((s, i) =>
      s
        .output()
        .split('\n')
        .filter((l) => /error|exception|unhandled|warning/i.test(l) && !l.startsWith('soak-window'))
        .map((l) => `instance ${'AB'[i]}: ${l}`),
    );
    report.targets = soakTargets(report);
    return report;
  } finally {
    for (const t of timers) t.stop();
    await Promise.all(servers.map((s) => stopServer(s)));
    process.off('exit', killServers);
    await cluster?.remove();
  }
}

/** The probe's kind name on instance `i`. */
const probeKind = (i: number) => `probe: GET /events/<id> (small logged-out read), instance ${'AB'[i]}`;

/** The soak's generators: the mix at its rate, the wide feed, the hostile actions, the probes. */
function startTraffic(
  client: SoakClient,
  mix: SoakMix,
  hostile: ReturnType<typeof hostileActions>,
  options: SoakConfig,
  f: SoakFixtures,
): { dropped: number; stop(): void } {
  const timers: NodeJS.Timeout[] = [];
  const state = { dropped: 0, stop: () => timers.forEach((t) => clearInterval(t)) };
  const started = performance.now();
  let sent = 0;
  // Open loop: requests go out at the rate whatever the answers do, spread evenly over the instances.
  timers.push(
    setInterval(() => {
      const due = Math.floor(((performance.now() - started) / 1000) * options.rate) - sent;
      for (let k = 0; k < due; k++, sent++) {
        if (client.pending('mix') >= MAX_IN_FLIGHT) state.dropped++;
        else void client.send(mix.next(), sent % 2, 'mix');
      }
    }, 10),
  );
  let feeds = 0;
  timers.push(
    setInterval(() => {
      const fresh = feeds % 2 === 1;
      const request: SoakRequest = {
        kind: `GET /ics/events (a century: ≥ 1,000 events)${fresh ? ', no-cache' : ''}`,
        method: 'GET',
        path: WIDE_FEED,
        headers: fresh ? { 'cache-control': 'no-cache' } : undefined,
        expect: [200],
      };
      void client.send(request, feeds++ % 2, 'mix');
    }, options.feedEverySeconds * 1000),
  );
  let turn = 0;
  if (options.hostilePerSecond > 0) {
    timers.push(
      setInterval(() => {
        const action = hostile[turn % hostile.length]!;
        // A few hostile requests in flight at most: slow ones do not pile up.
        if (client.pending('hostile') < 4)
          action
            .run((request, instance) => client.send(request, instance, 'hostile'), turn % 2)
            .catch((error: unknown) => console.error('soak: hostile action failed', error));
        turn++;
      }, 1000 / options.hostilePerSecond),
    );
  }
  const ids = f.eventIds.slice(0, 20);
  for (const instance of [0, 1]) {
    let busy = false;
    let n = 0;
    timers.push(
      setInterval(() => {
        // One probe at a time per instance: a late answer shows as its own latency, not as a queue.
        if (busy) return;
        busy = true;
        const request: SoakRequest = { kind: probeKind(instance), method: 'GET', path: `${API}/events/${ids[n++ % ids.length]}`, expect: [200] };
        void client.send(request, instance, 'probe').then(() => (busy = false));
      }, PROBE_EVERY_MS),
    );
  }
  return state;
}

/** CPU cores used on average between two readings. */
function cores(before: SoakCpu, after: SoakCpu, seconds: number): SoakMinute['cores'] {
  const per = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : round((b - a) / seconds));
  return {
    servers: after.servers.map((v, i) => per(before.servers[i], v)),
    database: per(before.database, after.database),
    driver: per(before.driver, after.driver) ?? 0,
  };
}

function minuteOf(
  m: number,
  seconds: number,
  tally: MinuteTally,
  lines: WindowLine[],
  rss: number[][],
  dropped: number,
  machineIdle: number | undefined,
  used: SoakMinute['cores'],
  driverLoopP99Ms: number,
): SoakMinute {
  const probe = (i: number) => tally.latency.get(probeKind(i));
  return {
    minute: m,
    seconds: round(seconds, 1),
    loadAverage: round(loadavg()[0] ?? 0),
    requests: tally.requests,
    requestsPerSecond: round(tally.requests / seconds, 1),
    serverErrors: tally.serverErrors,
    connectionErrors: tally.connectionErrors,
    unexpected: tally.unexpected,
    samples: tally.samples,
    dropped,
    keepAliveRaces: tally.keepAliveRaces,
    servers: lines.map((l, i) => {
      const samples = (rss[i] ?? []).filter(Number.isFinite);
      return {
        loopP99Ms: l.window.p99,
        loopMaxMs: l.window.max,
        loopMeanMs: l.window.mean,
        rssMb: samples.length ? round(samples.reduce((a, b) => a + b, 0) / samples.length, 1) : undefined,
        rssMinMb: samples.length ? round(Math.min(...samples), 1) : undefined,
        rssMaxMb: samples.length ? round(Math.max(...samples), 1) : undefined,
        heapFloorMb: l.heapFloorMb,
        heapPeakMb: l.heapPeakMb,
      };
    }),
    probeP99Ms: lines.map((_, i) => round(probe(i)?.p99Ms ?? NaN)),
    probeMaxMs: lines.map((_, i) => round(probe(i)?.maxMs ?? NaN)),
    mixP99Ms: tally.pools.mix && round(tally.pools.mix.p99Ms),
    hostileP99Ms: tally.pools.hostile && round(tally.pools.hostile.p99Ms),
    machineIdle: machineIdle === undefined ? undefined : round(machineIdle, 3),
    cores: used,
    driverLoopP99Ms: round(driverLoopP99Ms),
    kinds: Object.fromEntries(
      [...tally.latency].map(([kind, l]) => [kind, { count: l.count, p50Ms: round(l.p50Ms), p99Ms: round(l.p99Ms), maxMs: round(l.maxMs) }]),
    ),
  };
}

const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);
const pair = (values: (number | undefined)[], digits = 1) => values.map((v) => (v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits))).join(' / ');

function minuteLine(m: SoakMinute): string {
  return (
    `  minute ${m.minute}: ${m.requestsPerSecond.toFixed(0)} req/s, 5xx ${sum(m.serverErrors)}, no answer ${sum(m.connectionErrors)}, unexpected ${sum(m.unexpected)}, dropped ${m.dropped}, keep-alive races retried ${m.keepAliveRaces}; ` +
    `loop p99 ${pair(m.servers.map((s) => s.loopP99Ms))} ms, max ${pair(m.servers.map((s) => s.loopMaxMs))} ms; probe p99 ${pair(m.probeP99Ms)} ms, mix p99 ${pair([m.mixP99Ms])} ms; ` +
    `RSS ${pair(
      m.servers.map((s) => s.rssMb),
      0,
    )} MB (mean; ${m.servers.map((s) => `${s.rssMinMb?.toFixed(0)}–${s.rssMaxMb?.toFixed(0)}`).join(' / ')}), heap ${m.servers.map((s) => `${s.heapFloorMb.toFixed(0)}–${s.heapPeakMb.toFixed(0)}`).join(' / ')} MB; idle ${m.machineIdle === undefined ? '—' : (100 * m.machineIdle).toFixed(0)} %; ` +
    `cores: servers ${pair(m.cores.servers, 2)}, database ${m.cores.database?.toFixed(2) ?? '—'}, driver ${m.cores.driver.toFixed(2)} (its loop p99 ${m.driverLoopP99Ms} ms); load ${m.loadAverage}`
  );
}

/** The issue's targets. */
export function soakTargets(r: SoakReport): TargetResult[] {
  const out: TargetResult[] = [];
  r.servers.forEach((s, i) => {
    const name = `instance ${'AB'[i]}`;
    out.push({
      name: `soak, ${name}: event-loop delay p99 < 50 ms over the run`,
      ok: s.loopP99Ms < 50,
      measured: `${s.loopP99Ms.toFixed(1)} ms (the monitor's 10 ms resolution included)`,
    });
    out.push({ name: `soak, ${name}: event-loop delay max < 200 ms`, ok: s.loopMaxMs < 200, measured: `${s.loopMaxMs.toFixed(1)} ms` });
    const first = s.rssFirstMinuteMb;
    const end = s.rssEndMb;
    if (first !== undefined && end !== undefined) {
      const change = (end - first) / first;
      out.push({
        name: `soak, ${name}: RSS in the last minute within 10 % of minute 1 (means of a reading a second)`,
        ok: Math.abs(change) <= 0.1,
        measured:
          `${first.toFixed(0)} → ${end.toFixed(0)} MB (${change >= 0 ? '+' : ''}${(100 * change).toFixed(1)} %); ` +
          `through the run ${Math.min(...r.minutes.map((m) => m.servers[i]?.rssMinMb ?? Infinity)).toFixed(0)}–${Math.max(...r.minutes.map((m) => m.servers[i]?.rssMaxMb ?? 0)).toFixed(0)} MB; ` +
          `V8 heap floor ${s.heapFloorFirstMinuteMb?.toFixed(0)} → ${s.heapFloorEndMb?.toFixed(0)} MB`,
      });
    }
  });
  const fiveXx = r.minutes.reduce((n, m) => n + sum(m.serverErrors), 0);
  const unanswered = r.minutes.reduce((n, m) => n + sum(m.connectionErrors), 0);
  const requests = r.minutes.reduce((n, m) => n + m.requests, 0);
  out.push({
    name: 'soak: no 5xx, every request answered',
    ok: fiveXx === 0 && unanswered === 0,
    measured: `${fiveXx} 5xx and ${unanswered} unanswered of ${requests.toLocaleString('en-US')} requests`,
  });
  return out;
}

/** The soak as Markdown for bench/results.md (between markers, so that `BENCH_SOAK=only` can replace it). */
export function soakMarkdown(r: SoakReport): string {
  const hostile = r.kinds.filter((k) => k.kind.startsWith('hostile'));
  const totalRequests = r.minutes.reduce((n, m) => n + m.requests, 0);
  const statuses = (k: KindTotals) =>
    [...Object.entries(k.statuses).map(([s, n]) => `${s}×${n}`), ...Object.entries(k.errors).map(([e, n]) => `${e}×${n}`)].join(', ');
  const lines = [
    SOAK_START,
    `### Soak: two Express instances on PostgreSQL, ${r.config.minutes} minute${r.config.minutes === 1 ? '' : 's'} of mixed load with hostile requests`,
    '',
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${r.machine.cores} cores (${r.machine.cpu ?? 'unknown CPU'}), Node ${r.machine.node}; ` +
      `load average at the start ${r.loadAverageAtStart.map((l) => l.toFixed(2)).join(' / ')}, at the end ${r.loadAverageAtEnd.map((l) => l.toFixed(2)).join(' / ')}. ` +
      `${r.config.rate} requests/s of the mix over both instances, a century-wide feed every ${r.config.feedEverySeconds} s, ${r.config.hostilePerSecond} hostile actions/s, ` +
      `a probe every ${r.config.probeEveryMs} ms on each instance; ${totalRequests.toLocaleString('en-US')} requests in all` +
      ` (${r.minutes.reduce((n, m) => n + m.keepAliveRaces, 0)} sent again after the server closed their idle kept-alive socket as they went out). ` +
      `Machine CPU idle over the run: ${r.machineIdle === undefined ? '—' : `${(100 * r.machineIdle).toFixed(0)} %`}. ` +
      'Loop delay: `monitorEventLoopDelay` at 10 ms resolution, whose values include it (an idle loop reads 10.1 ms). ' +
      "RSS: the mean of a reading a second (one reading swings by tens of MB with the garbage collector); heap floor: the least of V8's heap used, read every second (what full collections leave: it grows if something leaks).",
    '',
    '| minute | req/s | 5xx | unanswered | unexpected | loop p99 A / B ms | loop max A / B ms | probe p99 A / B ms | mix p99 ms | RSS A / B MB (mean; least–most) | heap floor A / B MB | idle % | cores: servers / db / driver |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.minutes.map(
      (m) =>
        `| ${m.minute} | ${m.requestsPerSecond.toFixed(0)} | ${sum(m.serverErrors)} | ${sum(m.connectionErrors)} | ${sum(m.unexpected)} | ${pair(m.servers.map((s) => s.loopP99Ms))} | ${pair(m.servers.map((s) => s.loopMaxMs))} | ` +
        `${pair(m.probeP99Ms)} | ${pair([m.mixP99Ms])} | ${m.servers.map((s) => `${s.rssMb?.toFixed(0) ?? '—'} (${s.rssMinMb?.toFixed(0) ?? '—'}–${s.rssMaxMb?.toFixed(0) ?? '—'})`).join(' / ')} | ${pair(
          m.servers.map((s) => s.heapFloorMb),
          0,
        )} | ${m.machineIdle === undefined ? '—' : (100 * m.machineIdle).toFixed(0)} | ` +
        `${pair(m.cores.servers, 2)} / ${m.cores.database?.toFixed(2) ?? '—'} / ${m.cores.driver.toFixed(2)} |`,
    ),
    '',
    ...r.targets.map((t) => `- ${t.ok ? '✅' : '❌'} ${t.name}: ${t.measured}`),
    '',
    '| hostile request | sent | answers | p50 ms | p99 ms | max ms |',
    '|---|---:|---|---:|---:|---:|',
    ...hostile.map(
      (k) => `| ${k.kind.replace('hostile: ', '')} | ${k.requests} | ${statuses(k)} | ${k.p50Ms.toFixed(1)} | ${k.p99Ms.toFixed(1)} | ${k.maxMs.toFixed(1)} |`,
    ),
    '',
    '<details><summary>Every kind of request</summary>',
    '',
    '| request | sent | answers | p50 ms | p99 ms | max ms |',
    '|---|---:|---|---:|---:|---:|',
    ...r.kinds
      .filter((k) => !k.kind.startsWith('hostile'))
      .map((k) => `| ${k.kind} | ${k.requests} | ${statuses(k)} | ${k.p50Ms.toFixed(1)} | ${k.p99Ms.toFixed(1)} | ${k.maxMs.toFixed(1)} |`),
    '',
    '</details>',
    ...(r.serverLog.length ? ['', 'Servers logged:', '', '```', ...r.serverLog.slice(0, 20), '```'] : []),
    SOAK_END,
  ];
  return `${lines.join('\n')}\n`;
}

const SOAK_START = '<!-- soak:start -->';
const SOAK_END = '<!-- soak:end -->';

/** `BENCH_SOAK=only`: puts the soak into bench/results.json (`soak`) and bench/results.md, keeping the other cases' results. */
export function saveSoakAlone(report: SoakReport, json = 'bench/results.json', md = 'bench/results.md'): void {
  let previous: Record<string, unknown> = {};
  try {
    previous = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>;
  } catch {
    // No earlier results: the soak alone.
  }
  writeFileSync(json, `${JSON.stringify({ ...previous, soak: report }, null, 2)}\n`);
  let text = '';
  try {
    text = readFileSync(md, 'utf8');
  } catch {
    // As above.
  }
  const a = text.indexOf(SOAK_START);
  const b = text.indexOf(SOAK_END);
  const kept = a >= 0 && b > a ? text.slice(0, a) + text.slice(b + SOAK_END.length).replace(/^\n/, '') : text;
  writeFileSync(md, `${kept.trimEnd()}${kept.trim() ? '\n\n' : ''}${soakMarkdown(report)}`);
}
