/** The speed targets of issues 6 and 15, checked against measured results. */

/** The fields of a case result the targets read. */
export interface MeasuredCase {
  size: number;
  framework: string;
  db: string;
  /** Measured on the calendar with the bench's host fields (BENCH_FIELDS). */
  fields?: boolean;
  /** Measured on an earlier commit's servers (BENCH_BASE). */
  base?: string;
  case: string;
  list: boolean;
  /** Mean body size of the answers. */
  bytes?: number;
  /** Events of a calendar file's answer (its VEVENTs), for the feed cases. */
  feedEvents?: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  aloneWallMs?: number;
  aloneCpuMs?: number;
  aloneDatabaseCpuMs?: number;
  rssPeakMb?: number;
  rssEndMb?: number;
  ceilingRps?: number;
  serverCpuMsPerRequest?: number;
  /** The database server's CPU per request, where the bench could read it (PostgreSQL on this machine). */
  databaseCpuMsPerRequest?: number;
  ceilingCpuMsPerRequest?: number;
}

/** One target's verdict. */
export interface TargetResult {
  name: string;
  ok: boolean;
  measured: string;
}

/** A latency for a verdict line (`—` when no request finished). */
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '—');

const LARGEST = 100_000;
const SMALLEST = 1_000;

/** Checks every target whose measurements are present. */
export function evaluateTargets(
  results: readonly MeasuredCase[],
  seeding: readonly { size: number; db: string; seconds: number; reused?: boolean }[],
): TargetResult[] {
  const out: TargetResult[] = [];
  const find = (size: number, framework: string, db: string, name: string) =>
    results.find((r) => r.size === size && r.framework === framework && r.db === db && r.case === name);

  const list = find(LARGEST, 'fastify', 'sqlite', 'GET /events');
  if (list) {
    out.push({
      name: 'GET /events at 100k, Fastify/SQLite: ≥ 2,000 req/s and p99 < 20 ms',
      ok: list.requestsPerSecond >= 2000 && list.p99Ms < 20,
      measured: `${list.requestsPerSecond.toFixed(0)} req/s, p99 ${ms(list.p99Ms)}`,
    });
  }
  for (const r of results.filter((x) => x.case === 'GET /events/<id>' && x.ceilingRps)) {
    const fraction = r.requestsPerSecond / r.ceilingRps!;
    const cpu =
      r.ceilingCpuMsPerRequest !== undefined && r.serverCpuMsPerRequest
        ? `; by server CPU ${r.ceilingCpuMsPerRequest.toFixed(2)} of ${r.serverCpuMsPerRequest.toFixed(2)} ms/req = ${((100 * r.ceilingCpuMsPerRequest) / r.serverCpuMsPerRequest).toFixed(0)} %`
        : '';
    out.push({
      name: `GET /events/<id> ≥ ½ static-JSON ceiling (${r.framework}/${r.db}, ${r.size})`,
      ok: fraction >= 0.5,
      measured: `${r.requestsPerSecond.toFixed(0)} of ${r.ceilingRps!.toFixed(0)} req/s = ${(100 * fraction).toFixed(0)} %${cpu}`,
    });
  }
  for (const big of results.filter((r) => r.list && r.size === LARGEST)) {
    const small = find(SMALLEST, big.framework, big.db, big.case);
    if (!small) continue;
    const slowdown = small.requestsPerSecond / big.requestsPerSecond;
    const cpu =
      small.serverCpuMsPerRequest && big.serverCpuMsPerRequest
        ? `; server CPU ${small.serverCpuMsPerRequest.toFixed(2)} → ${big.serverCpuMsPerRequest.toFixed(2)} ms/req = ${(big.serverCpuMsPerRequest / small.serverCpuMsPerRequest).toFixed(2)}×`
        : '';
    out.push({
      name: `growth ≤ 1.3× from 1k to 100k: ${big.case} (${big.framework}/${big.db})`,
      ok: slowdown <= 1.3,
      measured: big.requestsPerSecond
        ? `${small.requestsPerSecond.toFixed(0)} → ${big.requestsPerSecond.toFixed(0)} req/s = ${slowdown.toFixed(2)}× slower${cpu}`
        : `${small.requestsPerSecond.toFixed(0)} req/s at 1k; no request finished within the run at 100k`,
    });
  }
  out.push(...speedTargets(results));
  // Issue 19: anonymous windows past the occurrence index cost no memory that stays.
  for (const far of results.filter((r) => r.case === 'series: 30 far-future windows (anonymous), no-cache' && r.rssEndMb !== undefined)) {
    const before = results.find(
      (r) => r.framework === far.framework && r.db === far.db && r.size === far.size && r.case === 'series: GET /events/<occurrence id>, no-cache',
    );
    if (before?.rssEndMb === undefined) continue;
    const growth = far.rssEndMb! - before.rssEndMb;
    out.push({
      name: `30 anonymous far-future windows leave RSS flat (≤ +10 MB; ${far.framework}/${far.db})`,
      ok: growth <= 10,
      measured: `${before.rssEndMb.toFixed(0)} → ${far.rssEndMb!.toFixed(0)} MB`,
    });
  }
  const rss = results.filter((r) => r.size === LARGEST && r.rssPeakMb !== undefined);
  for (const server of [...new Set(rss.map((r) => `${r.framework}/${r.db}`))]) {
    const peak = Math.max(...rss.filter((r) => `${r.framework}/${r.db}` === server).map((r) => r.rssPeakMb!));
    out.push({ name: `server RSS < 200 MB at 100k (${server})`, ok: peak < 200, measured: `peak ${peak.toFixed(0)} MB` });
  }
  for (const s of seeding.filter((x) => x.size === LARGEST && !x.reused)) {
    out.push({ name: `seeding 100k events < 60 s (${s.db})`, ok: s.seconds < 60, measured: `${s.seconds.toFixed(1)} s` });
  }
  out.push(...millionTargets(results, seeding));
  return out;
}

const MILLION = 1_000_000;

/**
 * Issue 33, a million events (`BENCH_SIZES=…,1000000`): what answers the same number of items at
 * every size costs at most 1.3× its server CPU per request at 1,000; a feed, whose answer grows
 * with the calendar, 1.3× per event it holds, against the smallest size whose feed holds any
 * (a month of one category is empty at 1,000 events: add 100,000 to judge it); server RSS
 * under 250 MB; seeding within 10 minutes.
 */
function millionTargets(results: readonly MeasuredCase[], seeding: readonly { size: number; db: string; seconds: number; reused?: boolean }[]): TargetResult[] {
  const out: TargetResult[] = [];
  for (const big of results.filter((r) => r.size === MILLION && r.serverCpuMsPerRequest && !r.case.startsWith('POST'))) {
    const same = (r: MeasuredCase) => r.framework === big.framework && r.db === big.db && r.case === big.case && !r.base && !r.fields;
    if (big.case.includes('/ics/')) {
      const small = results.filter((r) => same(r) && r.size < MILLION && r.serverCpuMsPerRequest && (r.feedEvents ?? 0) > 0).sort((a, b) => a.size - b.size)[0];
      const name = `${big.case} at 1M within 1.3× its CPU per event of the feed at a smaller size (${big.framework}/${big.db})`;
      if (!small || !big.feedEvents) {
        out.push({ name, ok: false, measured: 'not judged: no smaller size measured has an event in this feed (add 100000 to BENCH_SIZES)' });
        continue;
      }
      const perEvent = (r: MeasuredCase) => r.serverCpuMsPerRequest! / r.feedEvents!;
      const ratio = perEvent(big) / perEvent(small);
      out.push({
        name,
        ok: ratio <= 1.3,
        measured: `${(1000 * perEvent(small)).toFixed(1)} µs per event at ${small.size} (${small.feedEvents} events) → ${(1000 * perEvent(big)).toFixed(1)} µs (${big.feedEvents}) = ${ratio.toFixed(2)}×`,
      });
      continue;
    }
    const small = results.find((r) => same(r) && r.size === SMALLEST);
    if (!small?.serverCpuMsPerRequest) continue;
    const ratio = big.serverCpuMsPerRequest! / small.serverCpuMsPerRequest;
    // The two sizes run minutes apart: the static ceiling measured in each case's rounds (none of
    // the library's code) shows how much of the change is the machine's speed. Quoted, not judged.
    const ceiling =
      small.ceilingCpuMsPerRequest && big.ceilingCpuMsPerRequest
        ? `; its static ceiling ${small.ceilingCpuMsPerRequest.toFixed(3)} → ${big.ceilingCpuMsPerRequest.toFixed(3)} ms/req = ${(big.ceilingCpuMsPerRequest / small.ceilingCpuMsPerRequest).toFixed(2)}×`
        : '';
    out.push({
      name: `${big.case} at 1M within 1.3× its CPU per request at 1k (${big.framework}/${big.db})`,
      ok: ratio <= 1.3,
      measured: `${small.serverCpuMsPerRequest.toFixed(3)} → ${big.serverCpuMsPerRequest!.toFixed(3)} ms/req = ${ratio.toFixed(2)}×${ceiling}`,
    });
  }
  const rss = results.filter((r) => r.size === MILLION && r.rssPeakMb !== undefined);
  for (const server of [...new Set(rss.map((r) => `${r.framework}/${r.db}`))]) {
    const peak = Math.max(...rss.filter((r) => `${r.framework}/${r.db}` === server).map((r) => r.rssPeakMb!));
    out.push({ name: `server RSS < 250 MB at 1M (${server})`, ok: peak < 250, measured: `peak ${peak.toFixed(0)} MB` });
  }
  for (const s of seeding.filter((x) => x.size === MILLION && !x.reused)) {
    out.push({ name: `seeding 1M events with their indexes < 10 minutes (${s.db})`, ok: s.seconds < 600, measured: `${s.seconds.toFixed(0)} s` });
  }
  return out;
}

/** CPU budgets of computed answers (issue 15): the response cache is not used for these. */
const COMPUTED: readonly { case: string; ms: number }[] = [
  { case: 'GET /events (signed in)', ms: 0.6 },
  { case: 'GET /events, no-cache', ms: 0.6 },
  { case: 'GET /events?per_page=50 (signed in)', ms: 2 },
  { case: 'GET /events/<id> (signed in)', ms: 0.25 },
  { case: 'GET /events/<id>, no-cache', ms: 0.25 },
  { case: 'POST /events (administrator)', ms: 1.5 },
  // Issue 17: a feed is held to the budget of a 50-item list.
  { case: 'GET /ics/events?categories (month), no-cache', ms: 2 },
  // Issue 34: the distance filter is held to the budget of the archive it filters (bench/geoloc.ts).
  { case: 'GET /events?geoloc (150 km), no-cache', ms: 0.6 },
  // Issue 19: the same budgets with 1,000 weekly series (100k occurrences) in the archive.
  { case: 'series: GET /events, no-cache', ms: 0.6 },
  { case: 'series: GET /events (signed in)', ms: 0.6 },
  { case: 'series: GET /events?per_page=50 (signed in)', ms: 2 },
  { case: 'series: GET /events?start_date&end_date (month), no-cache', ms: 0.6 },
  { case: 'series: GET /events/<occurrence id>, no-cache', ms: 0.25 },
];

/** Logged-out reads answered from the response cache, held to a share of the framework's static ceiling. */
const CACHED = [
  'GET /events',
  'GET /events?per_page=50',
  'GET /events?categories&venue&search',
  'GET /events?start_date&end_date (month)',
  'GET /ics/events?categories (month)',
  'GET /events/<id>',
  'GET /events/by-slug/<slug>',
  'GET /venues',
];

/** Issue 15: computed answers within their CPU budget, cached ones near the ceiling, PostgreSQL near SQLite. */
function speedTargets(results: readonly MeasuredCase[]): TargetResult[] {
  const out: TargetResult[] = [];
  for (const budget of COMPUTED) {
    for (const r of results.filter((x) => x.case === budget.case && x.db === 'sqlite' && x.serverCpuMsPerRequest !== undefined)) {
      out.push({
        name: `${budget.case} ≤ ${budget.ms} ms CPU (${r.framework}/${r.db}, ${r.size})`,
        ok: r.serverCpuMsPerRequest! <= budget.ms,
        measured: `${r.serverCpuMsPerRequest!.toFixed(2)} ms/req`,
      });
    }
  }
  for (const r of results.filter((x) => CACHED.includes(x.case) && x.ceilingRps && x.db === 'sqlite')) {
    const fraction = r.requestsPerSecond / r.ceilingRps!;
    out.push({
      name: `${r.case} ≥ 80 % of the static ceiling (${r.framework}/${r.db}, ${r.size})`,
      ok: fraction >= 0.8,
      measured: `${r.requestsPerSecond.toFixed(0)} of ${r.ceilingRps!.toFixed(0)} req/s = ${(100 * fraction).toFixed(0)} %`,
    });
  }
  for (const pg of results.filter((x) => x.db === 'postgres' && (x.case === 'GET /events (signed in)' || x.case === 'GET /events, no-cache'))) {
    const lite = results.find((x) => x.db === 'sqlite' && x.framework === pg.framework && x.size === pg.size && x.case === pg.case);
    if (!lite?.serverCpuMsPerRequest || !pg.serverCpuMsPerRequest) continue;
    const ratio = pg.serverCpuMsPerRequest / lite.serverCpuMsPerRequest;
    out.push({
      name: `${pg.case} on PostgreSQL within 2× SQLite's CPU (${pg.framework}, ${pg.size})`,
      ok: ratio <= 2,
      measured: `${pg.serverCpuMsPerRequest.toFixed(2)} vs ${lite.serverCpuMsPerRequest.toFixed(2)} ms/req = ${ratio.toFixed(2)}×`,
    });
  }
  return out;
}

/** Issue 32: with two host fields declared (one filterable), each computed answer costs at most 10 % more CPU than the plain calendar's in the same run. */
export function fieldsTargets(results: readonly MeasuredCase[]): TargetResult[] {
  const out: TargetResult[] = [];
  const computed = new Set(COMPUTED.map((c) => c.case));
  for (const f of results.filter((r) => r.fields && computed.has(r.case) && r.serverCpuMsPerRequest)) {
    const plain = results.find((r) => !r.fields && r.framework === f.framework && r.db === f.db && r.size === f.size && r.case === f.case);
    if (!plain?.serverCpuMsPerRequest) continue;
    const ratio = f.serverCpuMsPerRequest! / plain.serverCpuMsPerRequest;
    out.push({
      name: `${f.case} with host fields ≤ 1.1× the plain calendar's CPU (${f.framework}/${f.db}, ${f.size})`,
      ok: ratio <= 1.1,
      measured: `${f.serverCpuMsPerRequest!.toFixed(3)} vs ${plain.serverCpuMsPerRequest.toFixed(3)} ms/req = ${ratio >= 1 ? '+' : ''}${(100 * (ratio - 1)).toFixed(1)} %`,
    });
  }
  return out;
}

/**
 * Issue 33: how much less server CPU than an earlier commit (BENCH_BASE) each computed answer
 * takes, measured in turn on one machine: 1.6× on reads, 3× on a POST; on PostgreSQL a POST 2×
 * less CPU and a 3× lower p50 under the bench's connections.
 */
const FASTER_THAN_BASE: readonly { case: string; times: number }[] = [
  { case: 'GET /events, no-cache', times: 1.6 },
  { case: 'GET /events (signed in)', times: 1.6 },
  { case: 'GET /events?per_page=50 (signed in)', times: 1.6 },
  { case: 'GET /events/<id>, no-cache', times: 1.6 },
  { case: 'GET /events/<id> (signed in)', times: 1.6 },
  { case: 'POST /events (administrator)', times: 3 },
];

/** The speed-up over the earlier commit's servers, case by case (results of a `BENCH_BASE` run). */
export function baseTargets(results: readonly MeasuredCase[]): TargetResult[] {
  const out: TargetResult[] = [];
  for (const old of results.filter((r) => r.base && r.serverCpuMsPerRequest)) {
    const now = results.find((r) => !r.base && !r.fields && r.framework === old.framework && r.db === old.db && r.size === old.size && r.case === old.case);
    if (!now?.serverCpuMsPerRequest) continue;
    const wanted = FASTER_THAN_BASE.find((t) => t.case === old.case);
    const times = old.db === 'postgres' && old.case.startsWith('POST') ? 2 : wanted?.times;
    if (times === undefined) continue;
    const ratio = old.serverCpuMsPerRequest! / now.serverCpuMsPerRequest;
    // Issue 33: on a database server, its CPU is quoted beside the calendar's, which it does not count.
    const database =
      old.databaseCpuMsPerRequest !== undefined && now.databaseCpuMsPerRequest !== undefined
        ? ` (database ${old.databaseCpuMsPerRequest.toFixed(3)} → ${now.databaseCpuMsPerRequest.toFixed(3)} ms/req)`
        : '';
    out.push({
      name: `${old.case}: ≥ ${times}× less server CPU than ${old.base} (${old.framework}/${old.db}, ${old.size})`,
      ok: ratio >= times,
      measured: `${old.serverCpuMsPerRequest!.toFixed(3)} → ${now.serverCpuMsPerRequest.toFixed(3)} ms/req = ${ratio.toFixed(2)}×${database}`,
    });
    if (old.db === 'postgres' && old.case.startsWith('POST')) {
      const p50 = old.p50Ms / now.p50Ms;
      out.push({
        name: `${old.case}: p50 under load ≥ 3× lower than ${old.base} (${old.framework}/${old.db}, ${old.size})`,
        ok: p50 >= 3,
        measured: `${old.p50Ms.toFixed(1)} → ${now.p50Ms.toFixed(1)} ms = ${p50.toFixed(2)}×`,
      });
    }
  }
  return out;
}

/**
 * Issue 33: a write sent alone waits little: its wall time within 1.5× of the CPU it takes, the
 * server's and, where the bench could read it, the database server's (work, not waiting).
 */
export function aloneTargets(results: readonly MeasuredCase[]): TargetResult[] {
  return results
    .filter((r) => r.aloneWallMs !== undefined && r.aloneCpuMs)
    .map((r) => {
      const cpu = r.aloneCpuMs! + (r.aloneDatabaseCpuMs ?? 0);
      const parts =
        r.aloneDatabaseCpuMs === undefined
          ? `${cpu.toFixed(2)} ms CPU`
          : `${cpu.toFixed(2)} ms CPU (server ${r.aloneCpuMs!.toFixed(2)}, database ${r.aloneDatabaseCpuMs.toFixed(2)})`;
      return {
        name: `${r.case} alone: wall time ≤ 1.5× its CPU (${r.framework}/${r.db}, ${r.size})`,
        ok: r.aloneWallMs! <= 1.5 * cpu,
        measured: `${r.aloneWallMs!.toFixed(2)} ms wall, ${parts} = ${(r.aloneWallMs! / cpu).toFixed(2)}×`,
      };
    });
}
