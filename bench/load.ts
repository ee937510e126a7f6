/** Drives a server with autocannon for a bounded time and measures what the issue asks for. */
import autocannon from 'autocannon';
import type { BenchCase, BenchRequest } from './cases.js';
import { cpuSeconds, watchRss } from './server.js';

/** What one timed run measured. */
export interface LoadResult {
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds (from every response, not autocannon's integer histogram). */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses with another status than the case expects, and connection errors/timeouts. */
  wrongStatus: number;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Server RSS in MB: peak during the run and at its end. */
  rssPeakMb?: number;
  rssEndMb?: number;
  /**
   * Server CPU milliseconds per answered request: steadier than requests/s on a shared
   * machine (the server's own work, whatever share of the cores it got).
   */
  serverCpuMsPerRequest?: number;
  /** The database server's CPU milliseconds per answered request, where the run could read it (PostgreSQL on this machine). */
  databaseCpuMsPerRequest?: number;
}

/** Options of {@link drive}. */
export interface DriveOptions {
  url: string;
  connections: number;
  seconds: number;
  /** The request of the `n`-th call (ids, slugs and titles rotate). */
  request: (n: number) => BenchRequest;
  expectStatus: number;
  /** Server pid, for RSS sampling. */
  pid?: number;
  /** CPU seconds the database server has used so far, read before and after the run. */
  databaseCpu?: () => number;
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN) : NaN;

/** Runs autocannon with `connections` connections for `seconds` seconds. */
export async function drive(options: DriveOptions): Promise<LoadResult> {
  let n = 0;
  const first = options.request(0);
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: [
      {
        method: first.method,
        setupRequest: (request) => {
          const next = options.request(n++);
          return { ...request, method: next.method, path: next.path, headers: { ...request.headers, ...next.headers }, body: next.body };
        },
      },
    ],
  });
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
  });
  const stopRss = options.pid !== undefined ? watchRss(options.pid) : undefined;
  const cpuBefore = options.pid !== undefined ? cpuSeconds(options.pid) : undefined;
  const databaseBefore = options.databaseCpu?.();
  const result = await instance;
  const cpuAfter = options.pid !== undefined ? cpuSeconds(options.pid) : undefined;
  const databaseAfter = options.databaseCpu?.();
  const rss = stopRss?.();
  const sorted = Float64Array.from(latencies).sort();
  const wrong = Object.entries(statusCounts).reduce((sum, [status, count]) => sum + (Number(status) === options.expectStatus ? 0 : count), 0);
  return {
    requestsPerSecond: latencies.length / result.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    requests: latencies.length,
    wrongStatus: wrong,
    statusCounts,
    errors: result.errors,
    timeouts: result.timeouts,
    rssPeakMb: rss?.peakMb,
    rssEndMb: rss?.lastMb,
    serverCpuMsPerRequest:
      cpuBefore !== undefined && cpuAfter !== undefined && latencies.length ? (1000 * (cpuAfter - cpuBefore)) / latencies.length : undefined,
    databaseCpuMsPerRequest:
      databaseBefore !== undefined && databaseAfter !== undefined && latencies.length
        ? (1000 * (databaseAfter - databaseBefore)) / latencies.length
        : undefined,
  };
}

/**
 * Several timed runs of one case on one server as one: counts and CPU summed over them (CPU per
 * request is their total over every request), requests per second over their total time, the
 * peak RSS the highest; the latency percentiles are the median of the runs' own.
 */
export function combineRuns(runs: readonly LoadResult[]): LoadResult {
  const [only] = runs;
  if (!only) throw new Error('combineRuns: no run');
  if (runs.length === 1) return only;
  const sum = (f: (r: LoadResult) => number) => runs.reduce((s, r) => s + f(r), 0);
  const median = (f: (r: LoadResult) => number) => [...runs].map(f).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? NaN;
  const requests = sum((r) => r.requests);
  const seconds = sum((r) => (r.requestsPerSecond > 0 ? r.requests / r.requestsPerSecond : 0));
  const perRequest = (f: (r: LoadResult) => number | undefined) =>
    runs.every((r) => f(r) !== undefined) && requests ? sum((r) => (f(r) ?? 0) * r.requests) / requests : undefined;
  const statusCounts: Record<string, number> = {};
  for (const r of runs) for (const [status, count] of Object.entries(r.statusCounts)) statusCounts[status] = (statusCounts[status] ?? 0) + count;
  const rss = runs.map((r) => r.rssPeakMb).filter((mb): mb is number => mb !== undefined);
  return {
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    p50Ms: median((r) => r.p50Ms),
    p99Ms: median((r) => r.p99Ms),
    requests,
    wrongStatus: sum((r) => r.wrongStatus),
    statusCounts,
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    rssPeakMb: rss.length ? Math.max(...rss) : undefined,
    rssEndMb: runs[runs.length - 1]?.rssEndMb,
    serverCpuMsPerRequest: perRequest((r) => r.serverCpuMsPerRequest),
    databaseCpuMsPerRequest: perRequest((r) => r.databaseCpuMsPerRequest),
  };
}

/** Sends one request of a case and returns its status and body (to check it and size the ceiling). */
export async function probe(base: string, request: BenchRequest): Promise<{ status: number; body: string }> {
  const response = await fetch(base + request.path, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, body: await response.text() };
}

/**
 * The mean response size of a case over its first `count` requests (rotating cases vary), the
 * mean number of events of a calendar file among them,
 * and their mean latency one at a time on the idle server (cold: the first ones of the case);
 * `sample`: the first answer's body, for the ceiling to answer the same bytes.
 */
export async function meanBodyBytes(
  base: string,
  c: BenchCase,
  count: number,
  offset = 0,
): Promise<{ bytes: number; events: number; failures: string[]; meanMs: number; sample: string }> {
  let total = 0;
  let events = 0;
  let ms = 0;
  let sample = '';
  const failures: string[] = [];
  for (let i = 0; i < count; i++) {
    const request = c.request(offset + i);
    const t0 = performance.now();
    const { status, body } = await probe(base, request);
    ms += performance.now() - t0;
    if (status !== c.status) failures.push(`${request.method} ${request.path} → ${status} ${body.slice(0, 300)}`);
    if (i === 0) sample = body;
    total += Buffer.byteLength(body);
    events += body.split('BEGIN:VEVENT').length - 1;
  }
  return { bytes: Math.round(total / count), events: Math.round(events / count), failures, meanMs: ms / count, sample };
}
