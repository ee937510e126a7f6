/** A rendered response, without the headers that depend on the caller. */
export interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Entry {
  response: CachedResponse;
  /** The clock second the answer is bound to, when it read the clock (the default date window). */
  second?: number;
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
 * The cache holds one version's answers at a time, bounded in size (characters of JSON). When
 * it is full, answers of past seconds make room first, then the least recently used ones.
 */
export class ResponseCache {
  #version: string | undefined;
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Map<string, Pending>();
  #size = 0;

  constructor(private readonly maxBytes: number) {}

  /**
   * The answer kept for `key` at `version`, valid at `second`, or the one being computed for it
   * in that second; a new version drops every older answer.
   */
  lookup(version: string, key: string, second: number): CachedResponse | Promise<CachedResponse | undefined> | undefined {
    if (version !== this.#version) {
      this.#version = version;
      this.#entries.clear();
      this.#pending.clear();
      this.#size = 0;
      return undefined;
    }
    const entry = this.#entries.get(key);
    if (entry && (entry.second === undefined || entry.second === second)) {
      // Most recently used last: eviction starts from the front.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
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
      if (response && version === this.#version) this.#keep(key, { response, second: readClock ? second : undefined, size: response.body.length + key.length }, second);
    };
  }

  #keep(key: string, entry: Entry, second: number): void {
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#size -= previous.size;
    }
    if (entry.size > this.maxBytes) return;
    if (this.#size + entry.size > this.maxBytes) this.#drop((e) => e.second !== undefined && e.second < second);
    if (this.#size + entry.size > this.maxBytes) this.#drop(() => true, entry.size);
    this.#entries.set(key, entry);
    this.#size += entry.size;
  }

  /** Drops entries that match, least recently used first, until `room` fits (all that match without it). */
  #drop(matches: (entry: Entry) => boolean, room = Infinity): void {
    for (const [k, e] of this.#entries) {
      if (this.#size + room <= this.maxBytes) return;
      if (!matches(e)) continue;
      this.#entries.delete(k);
      this.#size -= e.size;
    }
  }
}
