import { describe, expect, it } from 'vitest';
import { VersionedValues } from '../../src/store/version.js';

/** A promise settled from outside, so that the test decides when a computation ends. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('VersionedValues', () => {
  it('shares one computation between the requests that ask for a value at once', async () => {
    const values = new VersionedValues<number>();
    const count = deferred<number>();
    let computed = 0;
    const compute = () => (computed++, count.promise);
    const asked = [values.get('k', 'v1', compute), values.get('k', 'v1', compute), values.get('k', 'v1', compute)];
    count.resolve(7);
    expect(await Promise.all(asked)).toEqual([7, 7, 7]);
    expect(computed).toBe(1);
    // Kept afterwards; another version computes anew.
    expect(await values.get('k', 'v1', compute)).toBe(7);
    expect(await values.get('k', 'v2', () => Promise.resolve(8))).toBe(8);
    expect(computed).toBe(1);
  });

  it('gives a failure to every request that waited, and keeps nothing of it', async () => {
    const values = new VersionedValues<number>();
    const count = deferred<number>();
    const asked = [values.get('k', 'v1', () => count.promise), values.get('k', 'v1', () => count.promise)];
    count.reject(new Error('too slow'));
    for (const one of asked) await expect(one).rejects.toThrow('too slow');
    expect(await values.get('k', 'v1', () => Promise.resolve(3))).toBe(3);
  });

  it('does not share between versions or keys', async () => {
    const values = new VersionedValues<number>();
    let computed = 0;
    const compute = (n: number) => () => (computed++, Promise.resolve(n));
    expect(await Promise.all([values.get('a', 'v1', compute(1)), values.get('b', 'v1', compute(2)), values.get('a', 'v2', compute(3))])).toEqual([1, 2, 3]);
    expect(computed).toBe(3);
  });
});
