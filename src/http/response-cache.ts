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

/**
 * Rendered answers to logged-out reads, kept while the store's version is unchanged.
 *
 * The same public pages (the upcoming events of a home page, a popular event) are asked for
 * over and over, and rendering them is most of a request's cost. An answer is reused only
 * under the store version it was computed at (`store/version.ts`: it moves with every commit,
 * from any process), so no write is ever missed; an answer that read the clock (an archive's
 * default window starts "now") is reused within the same second only. The cache holds one
 * version's answers at a time, bounded in size (characters of JSON), oldest dropped first.
 */
export class ResponseCache {
  #version: string | undefined;
  readonly #entries = new Map<string, Entry>();
  #size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The answer kept for `key` at `version`, valid at `second`; a new version drops every older answer. */
  get(version: string, key: string, second: number): CachedResponse | undefined {
    if (version !== this.#version) {
      this.#version = version;
      this.#entries.clear();
      this.#size = 0;
      return undefined;
    }
    const entry = this.#entries.get(key);
    return entry && (entry.second === undefined || entry.second === second) ? entry.response : undefined;
  }

  /** Keeps an answer computed at `version` (bound to `second` if it read the clock), unless a newer version was seen meanwhile. */
  set(version: string, key: string, response: CachedResponse, second: number | undefined): void {
    if (version !== this.#version) return;
    const size = response.body.length + key.length;
    if (size > this.maxBytes) return;
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#size -= previous.size;
    }
    for (const [oldest, entry] of this.#entries) {
      if (this.#size + size <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#size -= entry.size;
    }
    this.#entries.set(key, { response, second, size });
    this.#size += size;
  }
}
