/**
 * Answers in pieces (`RawJson` lists) joined into one buffer, kept by their digest, so that an
 * answer computed again with the same bytes (the same page of the same version, `no-cache` or
 * signed in) is joined once, not once per request.
 *
 * A join allocates a new buffer the size of the answer outside V8's heap; at a few thousand
 * 57 KB lists a second those allocations alone set off a full collection every 150–250 ms
 * ("external memory pressure"), measured on the Fastify example, whose replies are one buffer.
 * A Node socket is written an answer's pieces as they are the first time (`CoreResponse.chunks`),
 * but one buffer costs less to write than twenty pieces (Express's `no-cache` list of 57 KB took
 * 1.3 times the CPU written in pieces on every request): an answer seen once is joined on its
 * second time, and one that never comes back is never joined.
 * The digest is the one the answer's `ETag` is made of: equal digests are equal bytes, so a kept
 * buffer serves whichever caller computed those bytes, and nothing another caller may not read.
 */
import { BoundedCache } from '../cache/bounded-cache.js';
import type { RawJson } from './raw-json.js';

/** Bytes of joined answers kept: some seventy 57 KB pages, or fourteen of 50 events. */
export const JOINED_BYTES = 4 * 1024 * 1024;

/** Digests of answers seen once, not joined (yet): a few dozen kilobytes of text. */
export const SEEN_ANSWERS = 1024;

/** Joined answers by digest, least recently used dropped first (bounded in bytes). */
export class JoinedBodies {
  readonly #kept: BoundedCache<string, Buffer>;
  readonly #seen = new BoundedCache<string, true>({ maxEntries: SEEN_ANSWERS });

  constructor(maxBytes = JOINED_BYTES) {
    this.#kept = new BoundedCache<string, Buffer>({ maxSize: maxBytes, sizeOf: (bytes) => bytes.length });
  }

  /**
   * The answer's bytes in one buffer when an answer with the same bytes came before: the buffer
   * joined then, or joined now, on their second time, and kept. `undefined` the first time.
   */
  again(json: RawJson): Buffer | undefined {
    const digest = json.digest();
    const kept = this.#kept.get(digest);
    if (kept || !json.inPieces) return kept;
    if (!this.#seen.has(digest)) {
      this.#seen.set(digest, true);
      return undefined;
    }
    this.#seen.delete(digest);
    return this.join(json);
  }

  /** The answer's bytes in one buffer: the one kept for its digest, or joined now and kept. */
  join(json: RawJson): Buffer {
    // Already one buffer (a kept answer of one piece): nothing to join, and nothing to take room
    // from the joins this store is for.
    if (!json.inPieces) return json.bytes;
    const digest = json.digest();
    const kept = this.#kept.get(digest);
    if (kept) return kept;
    const bytes = json.bytes;
    this.#kept.set(digest, bytes);
    return bytes;
  }
}
