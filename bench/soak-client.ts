/**
 * The soak's HTTP client (bench/soak.ts): keep-alive sockets to each instance, a pool per
 * traffic (the mix, the hostile requests, the probe: a slow hostile answer holds none of the
 * probe's sockets), and what every request got, by kind for the whole run and by minute.
 */
import { Agent, request as httpRequest } from 'node:http';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { SoakAnswer, SoakRequest } from './soak-requests.js';

/** The traffics, each with sockets of its own. */
export type Pool = 'mix' | 'hostile' | 'probe';

const SOCKETS: Record<Pool, number> = { mix: 32, hostile: 4, probe: 1 };
/** A request unanswered after this long counts as a `timeout` error. */
const TIMEOUT_MS = 60_000;
/** Bodies kept for the report: unexpected answers, at most this many per kind and minute. */
const SAMPLES = 3;

/** What one kind of request got over the whole run. */
export interface KindTotals {
  kind: string;
  requests: number;
  /** Answers by status, and client errors by code (`ECONNRESET`, `timeout`…). */
  statuses: Record<string, number>;
  errors: Record<string, number>;
  /** Answers with a status the request does not expect (5xx included). */
  unexpected: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** What every request got in one minute. */
export interface MinuteTally {
  requests: number;
  /** 5xx answers, by kind. */
  serverErrors: Record<string, number>;
  /** Client errors (no answer), by code. */
  connectionErrors: Record<string, number>;
  /** Answers under 500 with a status the request does not expect, by kind and status. */
  unexpected: Record<string, number>;
  /** The first few of those (request, status, start of the body). */
  samples: string[];
  /** Requests sent again because the server closed their idle kept-alive socket as they went out. */
  keepAliveRaces: number;
  /** Latency of each kind in the minute, and of each pool's requests together. */
  latency: Map<string, LatencyFigures>;
  pools: Partial<Record<Pool, LatencyFigures>>;
}

/** Latency figures of some requests (ms). */
export interface LatencyFigures {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface KindState {
  requests: number;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  unexpected: number;
  run: RecordableHistogram;
  minute: RecordableHistogram;
}

const ms = (us: number) => us / 1000;
const bump = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);

/** Sends the soak's requests and keeps their tallies. */
export class SoakClient {
  private readonly agents: Record<Pool, Agent[]>;
  private readonly kinds = new Map<string, KindState>();
  private minuteTally = emptyMinute();
  private readonly poolMinute: Record<Pool, RecordableHistogram> = { mix: createHistogram(), hostile: createHistogram(), probe: createHistogram() };
  private readonly inFlight: Record<Pool, number> = { mix: 0, hostile: 0, probe: 0 };
  /** Requests sent again after a kept-alive socket was closed under them (see `send`), this minute. */
  private keepAliveRaces = 0;

  constructor(private readonly ports: readonly number[]) {
    // Idle sockets are closed after 4 s, before the server's keepAliveTimeout (5 s, which Node's
    // agent would otherwise take from the answers' Keep-Alive header and race the server on).
    const agents = (pool: Pool) => ports.map(() => new Agent({ keepAlive: true, maxSockets: SOCKETS[pool], timeout: 4000 }));
    this.agents = { mix: agents('mix'), hostile: agents('hostile'), probe: agents('probe') };
  }

  /** Requests of a pool sent and not yet answered. */
  pending(pool: Pool): number {
    return this.inFlight[pool];
  }

  /** Sends `request` to instance `instance` over the pool's sockets; never rejects. */
  send(request: SoakRequest, instance: number, pool: Pool): Promise<SoakAnswer> {
    const started = performance.now();
    this.inFlight[pool]++;
    return new Promise<SoakAnswer>((resolve) => {
      let done = false;
      const finish = (answer: SoakAnswer) => {
        if (done) return;
        done = true;
        this.inFlight[pool]--;
        this.record(request, pool, answer, performance.now() - started);
        if ('status' in answer && request.onAnswer) {
          try {
            request.onAnswer(answer.status, answer.body);
          } catch {
            // An answer the mix cannot read is already counted by its status.
          }
        }
        resolve(answer);
      };
      const payload = request.body === undefined ? undefined : Buffer.from(request.body);
      const headers: Record<string, string> = { ...request.headers };
      if (payload) headers['content-length'] = String(payload.length);
      const attempt = (first: boolean) => {
        let answered = false;
        const req = httpRequest(
          { host: '127.0.0.1', port: this.ports[instance], method: request.method, path: request.path, headers, agent: this.agents[pool][instance] },
          (res) => {
            answered = true;
            const status = res.statusCode ?? 0;
            // Bodies are read only where the mix needs them or the report quotes them.
            const keep = request.onAnswer !== undefined || !request.expect.includes(status);
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => {
              if (keep) chunks.push(chunk);
            });
            res.on('end', () => finish({ status, body: Buffer.concat(chunks).toString() }));
            res.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
          },
        );
        req.setTimeout(TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
        req.on('error', (error: NodeJS.ErrnoException) => {
          // The server closed a kept-alive socket (idle past its keepAliveTimeout) as this request
          // went out on it: no answer was started, so it is sent again once, as Node's docs advise;
          // the report counts these apart. A server that died would reset fresh sockets too.
          if (first && !answered && req.reusedSocket && error.code === 'ECONNRESET') {
            this.keepAliveRaces++;
            attempt(false);
          } else finish({ error: error.code ?? error.message });
        });
        req.end(payload);
      };
      attempt(true);
    });
  }

  /** Waits until no request is in flight, at most `timeoutMs`. */
  async drained(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight.mix + this.inFlight.hostile + this.inFlight.probe > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }

  /** The minute's tally, and a new one started. */
  endMinute(): MinuteTally {
    const tally = this.minuteTally;
    tally.keepAliveRaces = this.keepAliveRaces;
    this.keepAliveRaces = 0;
    for (const [kind, state] of this.kinds) {
      if (state.minute.count > 0) tally.latency.set(kind, figures(state.minute));
      state.minute.reset();
    }
    for (const [pool, histogram] of Object.entries(this.poolMinute) as [Pool, RecordableHistogram][]) {
      if (histogram.count > 0) tally.pools[pool] = figures(histogram);
      histogram.reset();
    }
    this.minuteTally = emptyMinute();
    return tally;
  }

  /** Forgets everything tallied so far (the warm-up). */
  reset(): void {
    this.kinds.clear();
    this.minuteTally = emptyMinute();
    this.keepAliveRaces = 0;
    for (const histogram of Object.values(this.poolMinute)) histogram.reset();
  }

  /** Every kind's totals over the run, in the order first sent. */
  totals(): KindTotals[] {
    return [...this.kinds].map(([kind, s]) => ({
      kind,
      requests: s.requests,
      statuses: s.statuses,
      errors: s.errors,
      unexpected: s.unexpected,
      p50Ms: ms(s.run.percentile(50)),
      p99Ms: ms(s.run.percentile(99)),
      maxMs: ms(s.run.max),
    }));
  }

  /** Closes the kept sockets. */
  close(): void {
    for (const pool of Object.values(this.agents)) for (const agent of pool) agent.destroy();
  }

  private record(request: SoakRequest, pool: Pool, answer: SoakAnswer, elapsedMs: number): void {
    let state = this.kinds.get(request.kind);
    if (!state) {
      state = { requests: 0, statuses: {}, errors: {}, unexpected: 0, run: createHistogram(), minute: createHistogram() };
      this.kinds.set(request.kind, state);
    }
    const tally = this.minuteTally;
    state.requests++;
    tally.requests++;
    const us = Math.max(1, Math.round(elapsedMs * 1000));
    state.run.record(us);
    state.minute.record(us);
    this.poolMinute[pool].record(us);
    if ('error' in answer) {
      bump(state.errors, answer.error);
      bump(tally.connectionErrors, answer.error);
      return;
    }
    bump(state.statuses, String(answer.status));
    if (request.expect.includes(answer.status) && answer.status < 500) return;
    state.unexpected++;
    if (answer.status >= 500) bump(tally.serverErrors, request.kind);
    else bump(tally.unexpected, `${request.kind} → ${answer.status}`);
    if (tally.samples.filter((s) => s.startsWith(request.kind)).length < SAMPLES) {
      tally.samples.push(`${request.kind}: ${request.method} ${request.path.slice(0, 160)} → ${answer.status} ${answer.body.slice(0, 400)}`);
    }
  }
}

function emptyMinute(): MinuteTally {
  return { requests: 0, serverErrors: {}, connectionErrors: {}, unexpected: {}, samples: [], keepAliveRaces: 0, latency: new Map(), pools: {} };
}

function figures(h: RecordableHistogram): LatencyFigures {
  return { count: h.count, p50Ms: ms(h.percentile(50)), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max) };
}
