/**
 * Runs a calendar's subscriptions: on a timer (unref'd, stopped by `calendar.close()`), each
 * due subscription is claimed through its row's lease, so that instances sharing the database
 * run each one at a time, then fetched conditionally (ETag / Last-Modified: a 304 reads
 * nothing) and imported (`feeds/import-feed.ts`); what each run did is recorded in its row and
 * told to `onRun`, failures to `onError`. Runs go one after another: a slow feed delays only
 * the others of this instance.
 */
import { randomUUID } from 'node:crypto';
import { importUser, type ApiCall } from '../feeds/apply.js';
import { FEED_DEFAULTS, importFeed } from '../feeds/import-feed.js';
import type { Store } from '../resources/store.js';
import { SubscriptionRows, settingsOf, statusOf, type RunOutcome, type SubscriptionRow } from './rows.js';
import type { ResolvedSubscriptions, SubscriptionStatus } from './settings.js';

/** What the scheduler needs of its calendar. */
export interface SchedulerDeps {
  store: Store;
  call: ApiCall;
  /** The calendar's zone (floating times). */
  siteZone: string;
  /** Resolves once the store is ready (migrated); rejects while it is not. */
  ready: () => Promise<unknown>;
  onError: (error: unknown) => void;
}

/** The settings of runs without the option (`calendar-events-rest subscriptions run`): the defaults. */
const DEFAULT_SETTINGS: ResolvedSubscriptions = {
  feeds: [],
  run: false,
  pollMs: 60_000,
  leaseMs: 900_000,
  author: 0,
  allowHosts: [],
  ...FEED_DEFAULTS,
};

/** A calendar's subscriptions and the timer that runs them. */
export class SubscriptionScheduler {
  readonly #owner = randomUUID();
  readonly #rows: SubscriptionRows;
  readonly #o: ResolvedSubscriptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  /** Stops the run under way when the calendar closes (the next run goes on from what it wrote). */
  #abort = new AbortController();
  /** The runs of this instance go one at a time: the one under way. */
  #queue: Promise<unknown> = Promise.resolve();
  /** The option's feeds are written to the store once. */
  #synced: Promise<void> | undefined;

  constructor(
    private readonly deps: SchedulerDeps,
    options: ResolvedSubscriptions | undefined,
  ) {
    this.#o = options ?? DEFAULT_SETTINGS;
    this.#rows = new SubscriptionRows(deps.store.db);
  }

  /** Starts the timer (it does not keep the process alive), unless the option says this instance does not run them. */
  start(): void {
    if (this.#timer || this.#stopped || !this.#o.run) return;
    this.#timer = setInterval(() => this.#tick(), this.#o.pollMs);
    this.#timer.unref();
    this.#tick();
  }

  /** Stops the timer and the run under way (at its next slice: its events written so far stay). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#abort.abort();
    await this.#queue.catch(() => undefined);
  }

  /** Lets a stopped scheduler start again (after an uninstall and a migrate). */
  restart(): void {
    this.#stopped = false;
    this.#abort = new AbortController();
    this.start();
  }

  /** Every subscription and what its runs did. */
  async status(): Promise<SubscriptionStatus[]> {
    await this.#sync();
    const now = new Date();
    return (await this.#rows.list()).map((row) => statusOf(row, now));
  }

  /**
   * Runs one subscription (`name`) or all of them now, due or not, each unless another
   * instance holds it; their status after.
   */
  async run(name?: string): Promise<SubscriptionStatus[]> {
    await this.#sync();
    const rows = name === undefined ? await this.#rows.list() : [await this.#rows.get(name)].flatMap((r) => (r ? [r] : []));
    if (name !== undefined && !rows.length) throw new RangeError(`no subscription named ${JSON.stringify(name)}`);
    for (const row of rows) await this.#enqueue(() => this.#runOne(row.name, true));
    const now = new Date();
    const names = new Set(rows.map((r) => r.name));
    return (await this.#rows.list()).filter((r) => names.has(r.name)).map((r) => statusOf(r, now));
  }

  /** Writes the option's feeds to the store, once. */
  #sync(): Promise<void> {
    this.#synced ??= (async () => {
      await this.deps.ready();
      for (const f of this.#o.feeds) await this.#rows.save(f.name, f.url, f.settings, 'option');
    })().catch((e: unknown) => {
      this.#synced = undefined;
      throw e;
    });
    return this.#synced;
  }

  /** Runs `work` after the run under way. */
  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Runs the due subscriptions (the timer). */
  #tick(): void {
    if (this.#stopped) return;
    void this.#enqueue(async () => {
      try {
        await this.#sync();
      } catch {
        return; // Not migrated (or unreachable) yet: the next tick tries again.
      }
      const now = new Date().toISOString();
      for (const row of await this.#rows.list()) {
        if (this.#stopped) return;
        if (row.next_run_at <= now) await this.#runOne(row.name, false);
      }
    }).catch((e: unknown) => this.deps.onError(e));
  }

  /** Runs one subscription if its lease can be taken (and, unless `force`, it is due). */
  async #runOne(name: string, force: boolean): Promise<void> {
    const started = new Date();
    if (!(await this.#rows.claim(name, this.#owner, this.#o.leaseMs, started, force))) return;
    const row = await this.#rows.get(name);
    if (!row) return;
    const outcome = await this.#import(row);
    // Stopped as the calendar closes: not a failure of the feed.
    if (outcome.outcome === 'failed' && this.#abort.signal.aborted) {
      await this.#rows.release(name, this.#owner);
      return;
    }
    await this.#rows.finish(name, this.#owner, outcome, settingsOf(row).everyMinutes, new Date());
    if (outcome.outcome === 'failed') this.deps.onError(new Error(`calendar-events-rest: subscription ${JSON.stringify(name)} failed: ${outcome.error ?? ''}`));
    const after = await this.#rows.get(name);
    if (after) this.#o.onRun?.(statusOf(after, new Date()));
  }

  /** One import of a subscription's feed. */
  async #import(row: SubscriptionRow): Promise<RunOutcome> {
    const settings = settingsOf(row);
    try {
      const done = await importFeed({
        source: { url: row.url },
        store: this.deps.store,
        call: this.deps.call,
        user: importUser(this.#o.author),
        siteZone: this.deps.siteZone,
        status: settings.status,
        categories: settings.categories,
        overwrite: settings.overwrite,
        allowHosts: [...this.#o.allowHosts, ...settings.allowHosts],
        maxBytes: this.#o.maxBytes,
        timeoutMs: this.#o.timeoutMs,
        runTimeoutMs: this.#o.runTimeoutMs,
        maxEvents: this.#o.maxEvents,
        validators: { etag: row.etag, lastModified: row.last_modified },
        signal: this.#abort.signal,
      });
      return done.report ? { outcome: 'imported', report: done.report, validators: done.validators } : { outcome: 'not-modified', validators: done.validators };
    } catch (e) {
      return { outcome: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
  }
}
