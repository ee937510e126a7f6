/**
 * The header of a SQLite database's WAL index (the `-shm` file beside a database in WAL mode),
 * read as a token of the commits of every connection: SQLite rewrites it on each commit, and
 * `PRAGMA data_version` is derived from it. Reading it is one `pread` of 96 bytes, where the
 * pragma is a statement with the read locks of a transaction: about 12 µs of the 95 µs of CPU
 * a cached answer costs through Fastify (profiled, `bench/profile.ts`).
 *
 * Layout (SQLite's file format, "The WAL-Index Header"): two copies of a 48-byte header, the
 * second written first. A copy that differs from the other is being rewritten; a header not
 * marked initialized is not in use yet. Either way there is no token, and the caller asks
 * SQLite instead.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const HEADER_BYTES = 48;
/** Offset of the `isInit` byte in a header copy. */
const IS_INIT = 12;

/** An open `-shm` file whose header gives the token; `undefined` reads while it cannot be read or trusted. */
export class WalIndexHeader {
  readonly #path: string;
  readonly #buffer = Buffer.alloc(2 * HEADER_BYTES);
  #fd: number | undefined;
  #closed = false;

  constructor(databaseFile: string) {
    this.#path = `${databaseFile}-shm`;
  }

  /** The header as a token, or `undefined` when it cannot be read now (no file yet, being rewritten). */
  read(): string | undefined {
    if (this.#closed) return undefined;
    try {
      this.#fd ??= openSync(this.#path, 'r');
      if (readSync(this.#fd, this.#buffer, 0, 2 * HEADER_BYTES, 0) < 2 * HEADER_BYTES) return undefined;
    } catch {
      return undefined;
    }
    const b = this.#buffer;
    if (b[IS_INIT] !== 1 || b.compare(b, HEADER_BYTES, 2 * HEADER_BYTES, 0, HEADER_BYTES) !== 0) return undefined;
    return b.toString('base64', 0, HEADER_BYTES);
  }

  /** Closes the file (the calendar's connection closed). */
  close(): void {
    this.#closed = true;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** The WAL-index header of the database behind each Kysely adapter (one adapter per opened database, shared by its plugins and transactions). */
const HEADERS = new WeakMap<object, WalIndexHeader>();

/** Records that the database a Kysely adapter speaks to has this WAL-index header. */
export function attachWalIndex(adapter: object, header: WalIndexHeader): void {
  HEADERS.set(adapter, header);
}

/** The WAL-index header of the database behind a Kysely adapter, if the calendar opened it in WAL mode. */
export function walIndexOf(adapter: object): WalIndexHeader | undefined {
  return HEADERS.get(adapter);
}
