/**
 * Reads too long for the event loop, on SQLite. better-sqlite3 runs a statement synchronously,
 * and counting the matches of an open archive reads every one of them: 2.4 s at a million
 * events, 0.24 s at 100,000 (measured, `bench/run.ts`), during which no other request would be
 * answered (docs/security.md, "Bounded work": no request holds the loop more than about 50 ms).
 * A database file the calendar opened itself gets a second connection in a worker thread,
 * started on first use, which runs such reads (the archives' totals) while the loop goes on
 * turning.
 *
 * The worker's connection sees what is committed, as the calendar's own does outside a
 * transaction: a total is read after the write it follows has committed. Reads inside a
 * transaction, and any read the worker cannot take (its driver would not load, it stopped), run
 * on the calendar's connection as before: the worker only ever spares the loop.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Compilable } from 'kysely';

/**
 * The worker, as CommonJS source (no file to find in a bundle or the packed tarball): one
 * read-only connection, its statements kept by text, each message one read answered by its id.
 *
 * Its page cache is SQLite's own default of about 2 MB, not better-sqlite3's 16 MB: a total
 * reads every matching index entry once per store version, a scan that an LRU cache smaller than
 * the index never hits (the operating system's cache serves it), and at a million events the
 * larger cache only held 16 MB more of the server's memory (measured: the worker added 28 MB to
 * the process with it, 11 MB without).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('query_only = ON');
db.pragma('cache_size = -2000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size < 200) statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/** What the worker answers a read. */
type Answer = { id: number; rows: unknown[] } | { id: number; error: string };

/** A read waiting for the worker or being run by it. */
interface Read {
  id: number;
  sql: string;
  parameters: readonly unknown[];
  /** Its rows, or `undefined` for the caller to read itself. */
  settle(rows: unknown[] | undefined): void;
  /** Its time is up: the caller gets {@link SideReadTimeout}. */
  expire(): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** A side read that did not end within its time (`timeoutMs` of {@link SideReader.all}): it was stopped, or never started. */
export class SideReadTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`calendar: a read beside the event loop did not end within ${timeoutMs} ms`);
    this.name = 'SideReadTimeout';
  }
}

/** Reads run sideways so far in this process (tests count them). */
let sideReads = 0;

/** How many reads a side reader has run since the process started. */
export function sideReadsRun(): number {
  return sideReads;
}

/**
 * A second connection to one SQLite file, in a worker thread started on first use. Its reads
 * run one at a time, in the order asked; one whose time runs out while it runs stops the worker
 * (better-sqlite3 cannot interrupt a statement from another thread, ending the thread can), and
 * the next read starts a new one.
 */
export class SideReader {
  readonly #file: string;
  readonly #driver: string;
  #worker: Worker | undefined;
  #unusable = false;
  #next = 0;
  readonly #queue: Read[] = [];
  #running: Read | undefined;

  /** `driver` is the resolved path of better-sqlite3's entry point. */
  constructor(file: string, driver: string) {
    this.#file = file;
    this.#driver = driver;
  }

  /**
   * The rows of a read run on the worker's connection; `undefined` when it cannot take it (the
   * caller reads itself). Rejected with {@link SideReadTimeout} when it has not ended within
   * `timeoutMs` of being asked, waiting included.
   */
  all(sql: string, parameters: readonly unknown[], timeoutMs = Infinity): Promise<unknown[] | undefined> {
    if (this.#unusable) return Promise.resolve(undefined);
    // No read ends within no time: refused before a worker is started for it.
    if (!(timeoutMs > 0)) return Promise.reject(new SideReadTimeout(timeoutMs));
    if (!this.#start()) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const read: Read = { id: this.#next++, sql, parameters, settle: resolve, expire: () => reject(new SideReadTimeout(timeoutMs)) };
      if (Number.isFinite(timeoutMs)) {
        read.timer = setTimeout(() => this.#expire(read), timeoutMs);
        // The pending read holds the process open (the worker is ref'd meanwhile), not its timer.
        read.timer.unref();
      }
      this.#queue.push(read);
      this.#pump();
    });
  }

  /** Stops the worker (the calendar's connection closed); reads still pending are given back to their callers. */
  async close(): Promise<void> {
    this.#unusable = true;
    const worker = this.#worker;
    this.#worker = undefined;
    this.#settleAll();
    await worker?.terminate();
  }

  /** Sends the next read to the worker when it is free. */
  #pump(): void {
    while (!this.#running && this.#queue.length) {
      const worker = this.#start();
      const read = this.#queue.shift();
      if (!read) return;
      if (!worker) {
        this.#done(read, undefined);
        continue;
      }
      try {
        worker.postMessage({ id: read.id, sql: read.sql, parameters: read.parameters });
        this.#running = read;
        // A read under way keeps the process alive, as a query on a server connection would.
        worker.ref();
      } catch {
        // A parameter that cannot be sent to another thread: read by the caller.
        this.#done(read, undefined);
      }
    }
    if (!this.#running) this.#worker?.unref();
  }

  #done(read: Read, rows: unknown[] | undefined): void {
    clearTimeout(read.timer);
    read.settle(rows);
  }

  /** A read's time is up: dropped from the queue, or, under way, stopped with its worker. */
  #expire(read: Read): void {
    if (read === this.#running) {
      this.#running = undefined;
      const worker = this.#worker;
      // Unset first: the worker's `exit` is then not taken for a failure.
      this.#worker = undefined;
      void worker?.terminate();
    } else {
      const at = this.#queue.indexOf(read);
      if (at < 0) return;
      this.#queue.splice(at, 1);
    }
    read.expire();
    this.#pump();
  }

  #start(): Worker | undefined {
    if (this.#unusable) return undefined;
    if (this.#worker) return this.#worker;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.#file, driver: this.#driver } });
    } catch {
      // A runtime without threads (or out of them): the calendar's connection reads.
      this.#unusable = true;
      return undefined;
    }
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const read = this.#running;
      if (this.#worker !== worker || read?.id !== answer.id) return;
      this.#running = undefined;
      if ('error' in answer) this.#done(read, undefined);
      else {
        sideReads++;
        this.#done(read, answer.rows);
      }
      this.#pump();
    });
    // A worker that cannot open the file or load the driver is not tried again.
    const stop = () => {
      if (this.#worker !== worker) return;
      this.#unusable = true;
      this.#worker = undefined;
      this.#settleAll();
    };
    worker.on('error', stop);
    worker.on('exit', stop);
    this.#worker = worker;
    return worker;
  }

  /** Gives every pending read back to its caller. */
  #settleAll(): void {
    const reads = this.#running ? [this.#running, ...this.#queue] : [...this.#queue];
    this.#running = undefined;
    this.#queue.length = 0;
    for (const read of reads) this.#done(read, undefined);
  }
}

/** The driver's name, held apart so that a bundler does not try to resolve it at build time (`drivers.ts`). */
const DRIVER = 'better-sqlite3';

/** A side reader for `file`, or `undefined` where better-sqlite3 cannot be resolved from here. */
export function sideReaderFor(file: string): SideReader | undefined {
  try {
    // Resolved from where the library is installed, as `drivers.ts` imports it (the CommonJS
    // build gets `import.meta.url` from tsup's shims).
    return new SideReader(file, createRequire(import.meta.url).resolve(DRIVER));
  } catch {
    return undefined;
  }
}

const READERS = new WeakMap<object, SideReader>();

/** Records that the database a Kysely adapter speaks to has a side reader. */
export function attachSideReader(adapter: object, reader: SideReader): void {
  READERS.set(adapter, reader);
}

/** The executor of a Kysely instance or transaction, as far as a side read needs it. */
interface Reading {
  readonly isTransaction: boolean;
  getExecutor(): { readonly adapter: object };
}

/**
 * The rows of `query`, read by the side reader of its database when it has one and `db` is not
 * in a transaction (docs/security.md, "Bounded work"), else by `db` itself. On the side reader
 * only, a read longer than `timeoutMs` is stopped ({@link SideReadTimeout}): on the calendar's
 * own connection it could not be, and holds the loop as any statement there.
 */
export async function readAside<O>(db: Reading, query: Compilable<O> & { execute(): Promise<O[]> }, timeoutMs?: number): Promise<O[]> {
  const reader = db.isTransaction ? undefined : READERS.get(db.getExecutor().adapter);
  if (reader) {
    const compiled = query.compile();
    const rows = await reader.all(compiled.sql, compiled.parameters, timeoutMs);
    // The worker ran the statement Kysely compiled for `query`: its rows have the query's shape.
    if (rows) return rows as O[];
  }
  return query.execute();
}
