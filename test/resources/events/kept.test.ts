import { describe, expect, it } from 'vitest';
import { VersionedItems } from '../../../src/cache/versioned-items.js';
import { RawJson } from '../../../src/http/raw-json.js';
import { RENDERED_EVENTS, rowSize, SINGLE_ROWS } from '../../../src/resources/events/service.js';
import type { EventRow } from '../../../src/resources/events/store.js';

const MB = 1024 * 1024;
/** A row as a single read keeps it, with a description of `length` characters. */
const row = (id: number, length: number) => ({ id, title: `Event ${id}`, content: 'x'.repeat(length), status: 'publish', author: 1 }) as unknown as EventRow;
/** How many of `keys` are still kept at `version`. */
const keptOf = <T extends object>(items: VersionedItems<T>, keys: string[]) => keys.filter((key) => items.get('v1', key) !== undefined).length;

describe('events kept per store version are bounded in bytes as well as in number', () => {
  it('keeps 2,000 small rendered events, and no more', () => {
    const items = new VersionedItems(RENDERED_EVENTS);
    const keys = Array.from({ length: 2001 }, (_, i) => `view\n${i}`);
    for (const key of keys) items.set('v1', key, RawJson.of({ id: key, title: 'A small event' }));
    expect(keptOf(items, keys)).toBe(2000);
    expect(items.get('v1', keys[0]!)).toBeUndefined();
  });

  it('keeps at most 32 MB of rendered events whose descriptions are as long as a request body', () => {
    const items = new VersionedItems(RENDERED_EVENTS);
    const keys = Array.from({ length: 40 }, (_, i) => `view\n${i}`);
    for (const key of keys) items.set('v1', key, RawJson.of({ id: key, description: 'x'.repeat(MB) }));
    expect(keptOf(items, keys)).toBeLessThan(32);
    expect(keptOf(items, keys)).toBeGreaterThan(25);
    // The latest stays: it is the one being served.
    expect(items.get('v1', keys.at(-1)!)).toBeDefined();
  });

  it('keeps at most 16 MB of rows found by single reads, counting their texts', () => {
    expect(rowSize(row(1, MB))).toBeGreaterThan(2 * MB);
    expect(rowSize(undefined)).toBeGreaterThan(0);
    const items = new VersionedItems(SINGLE_ROWS);
    const keys = Array.from({ length: 20 }, (_, i) => `i${i}`);
    for (const [i, key] of keys.entries()) items.set('v1', key, { row: row(i, MB) });
    expect(keptOf(items, keys)).toBeLessThanOrEqual(8);
    expect(keptOf(items, keys)).toBeGreaterThan(5);
    // Rows with short texts: 2,000 of them.
    const small = Array.from({ length: 2001 }, (_, i) => `s${i}`);
    for (const [i, key] of small.entries()) items.set('v1', key, { row: row(i, 100) });
    expect(keptOf(items, small)).toBe(2000);
  });
});
