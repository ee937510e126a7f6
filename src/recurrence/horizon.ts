/**
 * How far ahead the occurrence index reaches. Series that never end are indexed
 * `recurrence.horizonMonths` ahead when written; the horizon then slides with time (a minute
 * after the calendar starts, then once a day, on a timer of its own), and moves further on
 * demand: `calendar.extendOccurrences(until)`, the `occurrences` command, or an archive read by
 * an editor past it (in the background, up to `maxHorizonMonths`). Reads never wait for it, and
 * anonymous reads never start it: their work stays bounded whatever window they ask for.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { withRetry } from '../store/retry.js';
import { isDatabaseUnavailable } from '../store/unavailable.js';
import { yieldTurn } from '../scheduling/turns.js';
import type { SeriesAccess, SeriesService } from './series.js';

/** What the horizon job needs of the calendar's store: its tables, and transactions in which to read and index a series. */
export interface HorizonStore {
  db: Kysely<Database>;
  transaction<T>(work: (tx: HorizonTx) => Promise<T>): Promise<T>;
}

/** A transaction of the horizon job: the index, and the series' own event (its times and zone, locked). */
interface HorizonTx extends SeriesAccess {
  events: SeriesAccess['events'] & {
    get(id: number, options: { lock: boolean }): Promise<{ start_local: string; end_local: string; timezone: string; series_id: number | null } | undefined>;
  };
}

/** `until` as a wall clock (`YYYY-MM-DD HH:MM:SS`, UTC). */
const wallClock = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * Indexes every series that never ends up to `until` (at most the furthest horizon), one
 * series per transaction; the number of occurrences added.
 */
export async function extendIndex(
  store: HorizonStore,
  series: SeriesService,
  siteZone: string,
  until: Date,
  now: Date = new Date(),
  onError: (error: unknown) => void = () => undefined,
): Promise<number> {
  const target = wallClock(until);
  const ids = (await store.db.selectFrom('series').select('id').where('complete', '=', 0).where('indexed_until', '<', target).execute()).map((r) => r.id);
  let added = 0;
  for (const [i, id] of ids.entries()) {
    // SQLite answers without ever leaving the loop: it turns between two series, or a thousand
    // of them would hold it for seconds.
    if (i > 0) await yieldTurn();
    try {
      added += await withRetry(() =>
        store.transaction(async (tx) => {
          const [row, event] = [await tx.occurrences.series(id), await tx.events.get(id, { lock: true })];
          if (!row || !event || event.series_id !== id) return 0;
          return series.extend(tx, id, series.seriesTimes(row, event, siteZone), target, now);
        }),
      );
    } catch (error) {
      // One series that cannot be extended (its rule gives up) keeps the others from nothing.
      if (isDatabaseUnavailable(error)) throw error;
      onError(
        new Error(
          `calendar-events-rest: the occurrences of event ${id} could not be indexed further: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }
  return added;
}

/** The first slide of the horizon after a start, then every day. */
const FIRST_MS = 60_000;
const EVERY_MS = 86_400_000;

/** Runs index extensions in the background, one at a time. */
export class HorizonKeeper {
  #running: Promise<unknown> | undefined;
  #wanted: string | undefined;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  /** The horizon `beyond` last compared with, and the second it was computed for. */
  #horizonAt: { second: number; horizon: string } | undefined;

  constructor(
    private readonly series: SeriesService,
    private readonly run: (until: Date) => Promise<number>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Keeps the horizon `horizonMonths` ahead: a minute from now, then once a day (the timer keeps no process alive). */
  start(): void {
    if (this.#timer || this.#stopped) return;
    const slide = (delay: number) => {
      this.#timer = setTimeout(() => {
        this.request(new Date(`${this.series.horizon(new Date()).replace(' ', 'T')}Z`));
        slide(EVERY_MS);
      }, delay);
      this.#timer.unref();
    };
    slide(FIRST_MS);
  }

  /** Whether a window ending at `end` (a wall clock) reaches past the horizon every write indexes to. */
  beyond(end: string, now: Date): boolean {
    // The horizon is a wall clock to the second: every editor's archive read in one second
    // compares with the same one, computed once (date arithmetic costs a few µs a read).
    const second = Math.floor(now.getTime() / 1000);
    if (this.#horizonAt?.second !== second) this.#horizonAt = { second, horizon: this.series.horizon(new Date(now.getTime() + 86_400_000)) };
    return end > this.#horizonAt.horizon;
  }

  /** Extends the index up to `until` (at most the furthest horizon) in the background. */
  request(until: Date): void {
    if (this.#stopped) return;
    const max = new Date(`${this.series.maxHorizon(new Date()).replace(' ', 'T')}Z`);
    const target = until > max ? max : until;
    const key = wallClock(target);
    if (this.#wanted !== undefined && this.#wanted >= key) return;
    this.#wanted = key;
    const previous = this.#running ?? Promise.resolve();
    this.#running = previous
      .then(() => (this.#stopped ? 0 : this.run(target)))
      .catch((error: unknown) => {
        // A store that cannot be reached is no news (reads say so); a later request tries again.
        if (!isDatabaseUnavailable(error)) this.onError(error);
      })
      .finally(() => {
        // Done: a later request for as far (a new series, the daily slide) runs again.
        if (this.#wanted === key) this.#wanted = undefined;
      });
  }

  /** Waits for the extension under way, and starts no other. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Lets extensions run again (after an uninstall and a migrate). */
  restart(): void {
    this.#stopped = false;
    this.#wanted = undefined;
    this.start();
  }

  /** Extends the index up to `until` now (at most the furthest horizon); the occurrences added. */
  extend(until: Date): Promise<number> {
    const max = new Date(`${this.series.maxHorizon(new Date()).replace(' ', 'T')}Z`);
    return this.run(until > max ? max : until);
  }

  /** Resolves once the extensions asked for so far are done. */
  async settled(): Promise<void> {
    await this.#running;
  }
}
