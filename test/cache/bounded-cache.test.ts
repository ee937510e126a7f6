import { describe, expect, it } from 'vitest';
import { BoundedCache, byteSize } from '../../src/cache/bounded-cache.js';

describe('BoundedCache', () => {
  it('evicts the least recently used entry: get refreshes, peek and has do not', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 3 });
    cache.set('a', 1).set('b', 2).set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.has(key))).toEqual([true, false, true, true]);
    expect(cache.peek('c')).toBe(3);
    expect(cache.has('c')).toBe(true);
    cache.set('e', 5);
    expect(cache.has('c')).toBe(false);
    expect(cache.get('a')).toBe(1);
  });

  it('keeps at most maxEntries entries, and set on a kept key replaces it', () => {
    const cache = new BoundedCache<number, string>({ maxEntries: 10 });
    for (let i = 0; i < 25; i++) cache.set(i, `v${i}`);
    expect(cache.size).toBe(10);
    expect(cache.get(14)).toBeUndefined();
    expect(cache.get(15)).toBe('v15');
    cache.set(15, 'again');
    expect(cache.size).toBe(10);
    expect(cache.get(15)).toBe('again');
    expect(cache.delete(15)).toBe(true);
    expect(cache.delete(15)).toBe(false);
    expect(cache.size).toBe(9);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get(20)).toBeUndefined();
  });

  it('bounds the total size in UTF-8 bytes, not UTF-16 code units', () => {
    expect(byteSize('abc')).toBe(3);
    expect(byteSize('é')).toBe(2);
    expect(byteSize('€')).toBe(3);
    expect(byteSize('😀')).toBe(4);
    const cache = new BoundedCache<string, string>({ maxSize: 12, sizeOf: byteSize });
    cache.set('a', 'éé'); // 4 bytes (2 code units)
    cache.set('b', '€€'); // 6 bytes (2 code units)
    expect(cache.totalSize).toBe(10);
    cache.set('c', '😀'); // 4 bytes: 14 > 12, so the least recently used (a) goes
    expect(cache.has('a')).toBe(false);
    expect(cache.totalSize).toBe(10);
    cache.get('b');
    cache.set('d', 'xyz'); // 3 bytes: c goes, b was used since
    expect(cache.has('c')).toBe(false);
    expect(cache.has('b')).toBe(true);
    expect(cache.totalSize).toBe(9);
  });

  it('keeps no entry larger than maxSize, and drops the key it was set for', () => {
    const cache = new BoundedCache<string, string>({ maxSize: 5, sizeOf: byteSize });
    cache.set('k', 'ok');
    cache.set('k', 'ééé'); // 6 bytes: does not fit even alone
    expect(cache.has('k')).toBe(false);
    expect(cache.totalSize).toBe(0);
    cache.set('k', 'fits!');
    expect(cache.get('k')).toBe('fits!');
  });

  it('applies both bounds at once', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 2, maxSize: 100, sizeOf: byteSize });
    cache.set('a', 'x').set('b', 'y').set('c', 'z');
    expect(cache.size).toBe(2);
    expect(cache.has('a')).toBe(false);
  });

  it('keeps nothing when the size bound has room for nothing', () => {
    const cache = new BoundedCache<string, string>({ maxSize: 0, sizeOf: byteSize });
    cache.set('a', 'x');
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
  });

  it('takes an infinite size bound as no size bound', () => {
    const cache = new BoundedCache<string, string>({ maxSize: Infinity, sizeOf: byteSize });
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, 'x'.repeat(1000));
    expect(cache.size).toBe(100);
    expect(cache.totalSize).toBe(100_000);
  });

  it('needs a bound, and a size function for a size bound', () => {
    expect(() => new BoundedCache<string, string>({})).toThrow(TypeError);
    expect(() => new BoundedCache<string, string>({ maxSize: 10 })).toThrow(TypeError);
  });
});
