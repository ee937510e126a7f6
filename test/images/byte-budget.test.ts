import { describe, expect, it } from 'vitest';
import { ByteBudget, type Reservation } from '../../src/images/byte-budget.js';

/** Records the order in which reservations are granted. */
function track(budget: ByteBudget, order: string[], name: string, bytes: number, signal?: AbortSignal): Promise<Reservation> {
  return budget.reserve(bytes, signal).then((r) => {
    order.push(name);
    return r;
  });
}

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ByteBudget', () => {
  it('grants at once what fits and counts use and peak', async () => {
    const budget = new ByteBudget(100);
    const a = await budget.reserve(60);
    const b = await budget.reserve(40);
    expect([budget.used, budget.peak, budget.waiting]).toEqual([100, 100, 0]);
    a.release();
    b.release();
    expect([budget.used, budget.peak]).toEqual([0, 100]);
  });

  it('makes a request wait until enough is released', async () => {
    const budget = new ByteBudget(100);
    const order: string[] = [];
    const a = await budget.reserve(70);
    const b = track(budget, order, 'b', 50);
    await settle();
    expect(order).toEqual([]);
    expect(budget.waiting).toBe(1);
    a.release();
    expect((await b).bytes).toBe(50);
    expect([budget.used, budget.peak, budget.waiting]).toEqual([50, 70, 0]);
  });

  it('grants in arrival order: a small request does not pass a large one waiting ahead of it', async () => {
    const budget = new ByteBudget(100);
    const order: string[] = [];
    const a = await budget.reserve(60);
    const big = track(budget, order, 'big', 80);
    const small = track(budget, order, 'small', 10); // would fit now, but is behind `big`
    await settle();
    expect(order).toEqual([]);
    a.release();
    (await big).release();
    (await small).release();
    expect(order).toEqual(['big', 'small']);
    expect(budget.used).toBe(0);
    expect(budget.peak).toBeLessThanOrEqual(100);
  });

  it('grants every request that fits at a release, not just the first', async () => {
    const budget = new ByteBudget(100);
    const order: string[] = [];
    const a = await budget.reserve(100);
    const waits = [track(budget, order, 'x', 30), track(budget, order, 'y', 30), track(budget, order, 'z', 50)] as const;
    a.release();
    await settle();
    expect(order).toEqual(['x', 'y']);
    expect(budget.used).toBe(60);
    (await waits[0]).release();
    await settle();
    expect(order).toEqual(['x', 'y', 'z']);
    (await waits[1]).release();
    (await waits[2]).release();
    expect(budget.used).toBe(0);
  });

  it('releases only once, however often release is called', async () => {
    const budget = new ByteBudget(100);
    const a = await budget.reserve(40);
    const b = await budget.reserve(40);
    a.release();
    a.release();
    a.release();
    expect(budget.used).toBe(40);
    b.release();
    expect(budget.used).toBe(0);
  });

  it('withdraws a waiting request when its signal aborts, and lets those behind it go', async () => {
    const budget = new ByteBudget(100);
    const order: string[] = [];
    const a = await budget.reserve(50);
    const stop = new AbortController();
    const big = track(budget, order, 'big', 90, stop.signal);
    const small = track(budget, order, 'small', 40);
    await settle();
    expect(budget.waiting).toBe(2);
    stop.abort(new Error('gave up'));
    await expect(big).rejects.toThrow('gave up');
    (await small).release();
    expect(order).toEqual(['small']);
    expect(budget.waiting).toBe(0);
    a.release();
    expect(budget.used).toBe(0);
  });

  it('refuses at once what can never fit, and an already aborted request', async () => {
    const budget = new ByteBudget(100);
    expect(budget.fits(100)).toBe(true);
    expect(budget.fits(101)).toBe(false);
    await expect(budget.reserve(101)).rejects.toThrow(RangeError);
    await expect(budget.reserve(-1)).rejects.toThrow(RangeError);
    await expect(budget.reserve(Number.NaN)).rejects.toThrow(RangeError);
    await expect(budget.reserve(10, AbortSignal.abort(new Error('late')))).rejects.toThrow('late');
    expect([budget.used, budget.waiting, budget.peak]).toEqual([0, 0, 0]);
  });

  it('grants zero bytes even when full', async () => {
    const budget = new ByteBudget(10);
    const a = await budget.reserve(10);
    const none = await budget.reserve(0);
    none.release();
    a.release();
    expect(budget.used).toBe(0);
  });

  it('refuses a capacity that is not a size', () => {
    expect(() => new ByteBudget(-1)).toThrow(RangeError);
    expect(() => new ByteBudget(Number.NaN)).toThrow(RangeError);
    expect(new ByteBudget(Infinity).fits(Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});
