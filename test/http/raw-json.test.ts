// Kept JSON joined into answers (`http/raw-json.ts`): a page joined from kept items is the same
// bytes as the page serialised whole, and its entity tag, read from its parts' digests, changes
// whenever any byte of it does, and is the same for the same page built again.
import { describe, expect, it } from 'vitest';
import { entityTag } from '../../src/http/conditional.js';
import { RawJson, listEnvelope } from '../../src/http/raw-json.js';

const items = [
  { id: 1, title: 'Jazz' },
  { id: 2, title: 'Folk' },
  { id: 3, title: 'Été' },
];
const page = (list: readonly unknown[], rest: Record<string, unknown> = { total: list.length }) =>
  listEnvelope(
    'events',
    list.map((item) => RawJson.of(item)),
    rest,
  );

describe('a list envelope of kept items', () => {
  it('is the page serialised whole', () => {
    expect(JSON.parse(page(items).bytes.toString('utf8'))).toEqual({ events: items, total: 3 });
    expect(page(items).bytes.toString('utf8')).toBe(JSON.stringify({ events: items, total: 3 }));
    // Items given as objects are serialised in place.
    expect(listEnvelope('events', items, { total: 3 }).bytes.toString('utf8')).toBe(JSON.stringify({ events: items, total: 3 }));
  });

  it('is tagged alike when built again, and otherwise when any byte differs', () => {
    const tag = entityTag(page(items));
    expect(entityTag(page(items))).toBe(tag);
    const others = [
      page([items[0], items[1], { id: 3, title: 'Ete' }]),
      page([items[0], items[2], items[1]]),
      page(items.slice(0, 2), { total: 3 }),
      page(items, { total: 4 }),
      listEnvelope(
        'venues',
        items.map((item) => RawJson.of(item)),
        { total: 3 },
      ),
    ];
    const tags = others.map((other) => entityTag(other));
    expect(new Set([tag, ...tags]).size).toBe(others.length + 1);
    // A kept item's digest is its bytes' own: a single item is tagged as its bytes are.
    const single = RawJson.of(items[0]);
    expect(entityTag(single)).toBe(entityTag(single.bytes));
  });

  it('reads its parts unambiguously: each text with its length', () => {
    const a = new RawJson(undefined, [Buffer.from('ab'), Buffer.from('c')]);
    const b = new RawJson(undefined, [Buffer.from('a'), Buffer.from('bc')]);
    expect(a.bytes.toString()).toBe(b.bytes.toString());
    expect(entityTag(a)).not.toBe(entityTag(b));
  });

  it('is kept in its parts until its bytes are read, and tagged the same after', () => {
    const joined = page(items);
    const tag = entityTag(joined);
    expect(joined.inPieces).toBe(true);
    // The kept items' own buffers, not copies of them.
    const kept = items.map((item) => RawJson.of(item));
    const chunks = listEnvelope('events', kept, { total: 3 }).chunks();
    expect(kept.every((item) => chunks.includes(item.bytes))).toBe(true);
    expect(Buffer.concat(joined.chunks()).toString('utf8')).toBe(JSON.stringify({ events: items, total: 3 }));
    expect(joined.size).toBe(Buffer.byteLength(JSON.stringify({ events: items, total: 3 })));
    expect(joined.bytes.length).toBe(joined.size);
    expect(joined.inPieces).toBe(false);
    expect(joined.chunks()).toEqual([joined.bytes]);
    expect(entityTag(joined)).toBe(tag);
  });
});
