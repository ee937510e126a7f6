import { BoundedCache, type BoundedCacheOptions } from './bounded-cache.js';

/**
 * Rendered items kept for one store version at a time (`store/version.ts`): an item is served
 * only under the version it was rendered at, so a write anywhere, by any instance, retires every
 * item before a request can see it. Read the version before the rows the item is rendered from.
 */
export class VersionedItems<T extends object> {
  #version: string | undefined;
  readonly #items: BoundedCache<string, T>;

  /** At most `bounds` items, or as the cache options say (a total size). */
  constructor(bounds: number | BoundedCacheOptions<string, T>) {
    this.#items = new BoundedCache<string, T>(typeof bounds === 'number' ? { maxEntries: bounds } : bounds);
  }

  /** The item kept under `key` at `version`, if any. */
  get(version: string, key: string): T | undefined {
    return version === this.#version ? this.#items.get(key) : undefined;
  }

  /** Keeps an item rendered at `version`; a newer version drops the older ones. */
  set(version: string, key: string, item: T): void {
    if (version !== this.#version) {
      this.#version = version;
      this.#items.clear();
    }
    this.#items.set(key, item);
  }
}
