/** A seeded pseudo-random source: numbers, integers, picks and coin flips. */
export interface Random {
  next(): number;
  int(n: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
}

/** A small deterministic PRNG (mulberry32), so that every run with the same seed makes the same calendar. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => {
    const item = list[int(list.length)];
    if (item === undefined) throw new RangeError('seed: nothing to pick from');
    return item;
  };
  return { next, int, pick, chance: (p: number) => next() < p };
}
