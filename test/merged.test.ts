import { describe, expect, it } from 'vitest';
import { merged } from '../src/merged.js';

describe('merged', () => {
  it('merges as a spread does: a new object, each part in turn, a later key winning in its first place', () => {
    const head = { id: 1, url: 'a' };
    const more = { url: 'b', show_map: true };
    const out = merged(head, more, { id: 2 });
    expect(out).toEqual({ ...head, ...more, id: 2 });
    expect(Object.keys(out)).toEqual(Object.keys({ ...head, ...more, id: 2 }));
    expect(out).not.toBe(head);
    expect(head).toEqual({ id: 1, url: 'a' });
  });

  it('skips what a spread skips: properties that are inherited or not enumerable', () => {
    const base = Object.create({ inherited: 1 }) as Record<string, unknown>;
    Object.defineProperty(base, 'hidden', { value: 2, enumerable: false });
    base.own = 3;
    expect(merged(base, {})).toEqual({ own: 3 });
  });
});
