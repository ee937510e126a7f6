import { BoundedCache, byteSize } from '../cache/bounded-cache.js';
import type { RawJson } from './raw-json.js';

/** A rendered response, without the headers that depend on the caller. */
export interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  /** Its bytes, or JSON joined from kept items and written from them (`RawJson.chunks`). */
  body: Uint8Array | RawJson;
}

interface Entry {
  response: CachedResponse;
  /** The clock second the answer is bound to, when it read the clock (the default date window). */
  second?: number;
  /** Bytes of the body and the key's UTF-8: the bound is on memory, and non-ASCII text takes 2–4 bytes a character. */
  size: number;
}

/** An answer being computed: requests for the same key in the same second wait for it. */
interface Pending {
  second: number;
  done: Promise<CachedResponse | undefined>;
}

/** Hands the outcome of a computation to the cache and to the requests waiting for it. */
export type Settle = (response: CachedResponse | undefined, readClock: boolean) => void;

/**
 * Rendered answers to logged-out reads, kept while the store's version is unchanged.
 *
 * The same public pages (the upcoming events of a home page, a popular event) are asked for
 * over and over, and rendering them is most of a request's cost. An answer is reused only
 * under the store version it was computed at (`store/version.ts`: it moves with every commit,
 * from any process), so no write is ever missed; an answer that read the clock (an archive's
 * default window starts "now") is reused within the same second only. Requests that arrive
 * while the same answer is being computed wait for it rather than compute it again.
 *
 * The cache holds one version's answers at a time, bounded in size (bytes of the UTF-8 JSON).
 * Answers bound to a second are dropped once an answer of a later second is kept (they will never
 * be served again); when it is full, the least recently used ones make room.
 */
export class ResponseCache {
  #version: string | undefined;
  readonly #entries: BoundedCache<string, Entry>;
  readonly #pending = new Map<string, Pending>();
  /**
   * The keys of the answers bound to each second, so that those of past seconds are found
   * without reading every entry (a full cache holds thousands: reading them all took about
   * 0.2 ms of every answer kept).
   */
  readonly #bySecond = new Map<number, Set<string>>();

  constructor(private readonly maxBytes: number) {
    this.#entries = new BoundedCache<string, Entry>({ maxSize: maxBytes, sizeOf: (entry) => entry.size });
  }

  /**
   * The answer kept for `key` at `version`, valid at `second`, or the one being computed for it
   * in that second; a new version drops every older answer.
   */
  lookup(version: string, key: string, second: number): CachedResponse | Promise<CachedResponse | undefined> | undefined {
    if (version !== this.#version) {
      this.#version = version;
      this.#entries.clear();
      this.#pending.clear();
      this.#bySecond.clear();
      return undefined;
    }
    // Peeked first: only an answer actually served counts as used.
    const entry = this.#entries.peek(key);
    if (entry && (entry.second === undefined || entry.second === second)) {
      this.#entries.get(key);
      return entry.response;
    }
    const pending = this.#pending.get(key);
    return pending?.second === second ? pending.done : undefined;
  }

  /** Announces that the answer for `key` is being computed at `version` in `second`; settle it with the outcome. */
  begin(version: string, key: string, second: number): Settle {
    let resolve!: (response: CachedResponse | undefined) => void;
    const pending: Pending = { second, done: new Promise((r) => (resolve = r)) };
    if (version === this.#version) this.#pending.set(key, pending);
    return (response, readClock) => {
      resolve(response);
      if (this.#pending.get(key) === pending) this.#pending.delete(key);
      if (response && version === this.#version)
        this.#keep(
          key,
          {
            response,
            second: readClock ? second : undefined,
            size: (response.body instanceof Uint8Array ? response.body.byteLength : response.body.size) + byteSize(key),
          },
          second,
        );
    };
  }

  #keep(key: string, entry: Entry, second: number): void {
    this.#entries.delete(key);
    this.#dropBefore(second);
    if (entry.size > this.maxBytes) return;
    // The least recently used answers make room, dropped by the cache itself.
    this.#entries.set(key, entry);
    if (entry.second === undefined) return;
    const keys = this.#bySecond.get(entry.second);
    if (keys) keys.add(key);
    else this.#bySecond.set(entry.second, new Set([key]));
  }

  /** Drops the answers bound to a second before `second`: no request will be served them again. */
  #dropBefore(second: number): void {
    for (const [past, keys] of this.#bySecond) {
      if (past >= second) continue;
      // A key kept again since (for a later second, or unbound) now holds another answer.
      for (const key of keys) if (this.#entries.peek(key)?.second === past) this.#entries.delete(key);
      this.#bySecond.delete(past);
    }
  }
}
