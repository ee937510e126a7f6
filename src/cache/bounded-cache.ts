/**
 * The one bounded cache every memo uses: least recently used entries go first once it holds
 * `maxEntries` entries or, when a size function is given, `maxSize` in total.
 *
 * Built on `lru-cache` rather than by hand: it has no dependencies of its own, is maintained
 * and widely used, and already does both bounds (`max`, `maxSize` with `sizeCalculation`) in
 * constant time. This wrapper keeps its options and its quirks (sizes must be positive
 * integers, `maxSize` must be finite) in one place, so the memos state only their bounds.
 */
import { LRUCache } from 'lru-cache';

export interface BoundedCacheOptions<K, V> {
  /** Most entries kept; without it, only `maxSize` bounds the cache. */
  maxEntries?: number;
  /** Most total size kept, as measured by `sizeOf`; below 1, nothing is kept. */
  maxSize?: number;
  /** Size of one entry (e.g. `byteSize` for text); required with `maxSize`. */
  sizeOf?: (value: V, key: K) => number;
}

/** The UTF-8 size of text: what a size bound in bytes must count, not UTF-16 code units. */
export function byteSize(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export class BoundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  readonly #lru: LRUCache<K, V> | undefined;

  constructor({ maxEntries, maxSize, sizeOf }: BoundedCacheOptions<K, V>) {
    if (maxSize === undefined) {
      if (maxEntries === undefined) throw new TypeError('a bounded cache needs maxEntries or maxSize');
      this.#lru = new LRUCache<K, V>({ max: maxEntries });
      return;
    }
    if (!sizeOf) throw new TypeError('a size bound needs a size function');
    if (!(maxSize >= 1)) return; // Room for nothing: every `set` is a no-op.
    this.#lru = new LRUCache<K, V>({
      max: maxEntries,
      // lru-cache wants a finite bound; an infinite one is as good as the largest safe integer.
      maxSize: Math.min(Math.floor(maxSize), Number.MAX_SAFE_INTEGER),
      // …and positive whole sizes.
      sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key))),
    });
  }

  /** The value for `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    return this.#lru?.get(key);
  }

  /** The value for `key`, leaving the order of use as it is. */
  peek(key: K): V | undefined {
    return this.#lru?.peek(key);
  }

  /** Keeps `value` as the most recently used, evicting the least recently used ones to make room. A value larger than `maxSize` is not kept (and `key` is dropped). */
  set(key: K, value: V): this {
    this.#lru?.set(key, value);
    return this;
  }

  has(key: K): boolean {
    return this.#lru?.has(key) ?? false;
  }

  delete(key: K): boolean {
    return this.#lru?.delete(key) ?? false;
  }

  clear(): void {
    this.#lru?.clear();
  }

  get size(): number {
    return this.#lru?.size ?? 0;
  }

  /** Total size of the entries, as `sizeOf` measures them (0 without a size bound). */
  get totalSize(): number {
    return this.#lru?.calculatedSize ?? 0;
  }
}
