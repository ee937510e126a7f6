/**
 * In-process change events (`calendar.on('change', …)`, README "Extending: hooks, change events,
 * roles"): the change log read from where it stood when the first listener subscribed, as the
 * webhook deliverer reads it, so that every instance sharing a database hears every change,
 * whichever instance made it. Nothing is kept in the database: a listener hears the changes
 * committed while it listens.
 */
import type { ChangeLog, ChangeScope } from '../changes/log.js';
import type { ChangeKind, ChangeType } from '../store/database.js';

/** One committed change, as listeners hear it. */
export interface ChangeEvent {
  /** The kind of item (`event`, `venue`, `organizer`, `category`, `tag`), as in the change feed and webhooks. */
  kind: ChangeKind;
  id: number;
  change: ChangeType;
  /** For a change to a recurring event: what it applied to. */
  scope?: ChangeScope;
  /** When it was committed. */
  at: Date;
  /** Its position in the change log (increasing, one store's). */
  seq: number;
}

/** Hears one change; what it throws (or rejects with) goes to `onError`. */
export type ChangeListener = (event: ChangeEvent) => void | Promise<void>;

/**
 * Stops a listener. `ready` settles once the listener hears every change committed from then on
 * (the log's head was read), or once that failed (reported to `onError`).
 */
export interface Unsubscribe {
  (): void;
  readonly ready: Promise<void>;
}

/** Entries read at a time. */
const BATCH = 100;

/** The change log, read for the listeners of one calendar. */
export class ChangeEvents {
  readonly #listeners = new Set<ChangeListener>();
  /** The last position heard, of which store; unset while nobody listens. */
  #cursor: { seq: number; storeId: string } | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  /** The last failure reported: the same one, every poll, is reported once. */
  #reported: string | undefined;

  constructor(
    /** The log, once the store is ready (rejects while it is not). */
    private readonly log: () => Promise<ChangeLog>,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Adds a listener; the first one starts reading the log from its head. */
  on(listener: ChangeListener): Unsubscribe {
    if (typeof listener !== 'function') throw new TypeError("calendar-events-rest: calendar.on('change', listener) takes a function");
    let ready: Promise<void> = Promise.resolve();
    if (!this.#stopped) {
      const first = this.#listeners.size === 0;
      this.#listeners.add(listener);
      if (first) ready = this.#start();
      else ready = this.#running ?? Promise.resolve();
    }
    const off = () => {
      this.#listeners.delete(listener);
      if (!this.#listeners.size) this.#halt();
    };
    return Object.assign(off, { ready });
  }

  /** Reads the log now (after a write on this instance), without waiting for it. */
  kick(): void {
    if (this.#stopped || !this.#listeners.size) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#pollAll().finally(() => (this.#running = undefined));
  }

  /** Stops listening for good (the calendar closes), once the listeners being told are done. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#listeners.clear();
    this.#halt();
    await this.#running;
  }

  /** Reads the log's head, then polls it. */
  #start(): Promise<void> {
    const start = (async () => {
      // A store not set up yet has no head: the first poll after it is takes it.
      const log = await this.log().catch(() => undefined);
      try {
        const head = await log?.head();
        if (head) this.#cursor ??= { seq: head.lastSeq, storeId: head.storeId };
      } catch (error) {
        this.#report(error);
      }
    })();
    this.#running = start.finally(() => {
      this.#running = undefined;
      // A write heard of meanwhile.
      if (this.#again) this.kick();
    });
    this.#timer = setInterval(() => this.kick(), this.pollMs);
    // The timer does not keep the host's process alive.
    this.#timer.unref();
    return start;
  }

  #halt(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#cursor = undefined;
  }

  async #pollAll(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#poll();
        this.#reported = undefined;
      } catch (error) {
        this.#report(error);
      }
    } while (this.#again && !this.#stopped && this.#listeners.size);
  }

  /** Tells the listeners of the entries after the cursor, in log order. */
  async #poll(): Promise<void> {
    const log = await this.log().catch(() => undefined);
    if (!log) return;
    const head = await log.head();
    // A first read that failed starts here; a store made again (an uninstall) from its start.
    if (!this.#cursor) this.#cursor = { seq: head.lastSeq, storeId: head.storeId };
    else if (this.#cursor.storeId !== head.storeId) this.#cursor = { seq: 0, storeId: head.storeId };
    const cursor = this.#cursor;
    if (cursor.seq < head.prunedThrough) {
      this.onError(new Error(`calendar-events-rest: change listeners missed changes ${cursor.seq + 1}–${head.prunedThrough}, pruned before they were read`));
      cursor.seq = head.prunedThrough;
    }
    while (cursor.seq < head.lastSeq && this.#cursor === cursor) {
      const rows = await log.after(cursor.seq, head.lastSeq, BATCH);
      for (const row of rows) {
        if (this.#cursor !== cursor) return;
        const event: ChangeEvent = {
          kind: row.kind,
          id: row.item_id,
          change: row.change_type,
          ...(row.scope ? { scope: row.scope } : {}),
          at: new Date(row.at_utc),
          seq: row.seq,
        };
        for (const listener of [...this.#listeners]) {
          try {
            await listener(event);
          } catch (error) {
            this.onError(error);
          }
        }
        cursor.seq = row.seq;
      }
      if (rows.length < BATCH) break;
    }
  }

  #report(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message !== this.#reported) this.onError(error);
    this.#reported = message;
  }
}
