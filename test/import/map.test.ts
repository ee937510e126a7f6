import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportMap, sourceKey } from '../../src/import/map.js';
import { DIALECTS } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';

// The record of imported items (issue 18): what each source item became, per source.

describe.each(DIALECTS)('import record on $name', ({ url }) => {
  let t: StoreCalendar;
  beforeAll(async () => {
    t = await storeCalendar(url);
  });
  afterAll(() => t.close());

  it('records what a source item became, replaces the record, and keeps sources apart', async () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const old = new ImportMap(t.db, sourceKey('https://old.example/wp-json/', '/tribe/events/v1/'));
    const other = new ImportMap(t.db, sourceKey('https://other.example/wp-json', 'tribe/events/v1'));
    expect(old.source).toBe('https://old.example/wp-json/tribe/events/v1');
    expect(await old.find('event', 12)).toBeUndefined();
    await old.record('event', 12, { itemId: 7, sourceModified: '2026-01-01 10:00:00' }, now);
    await old.record('venue', 12, { itemId: 8, sourceModified: '2026-01-02 10:00:00' }, now);
    await other.record('event', 12, { itemId: 9, sourceModified: '' }, now);
    expect(await old.find('event', 12)).toEqual({ itemId: 7, sourceModified: '2026-01-01 10:00:00' });
    await old.record('event', 12, { itemId: 7, sourceModified: '2026-03-01 10:00:00' }, now);
    expect(await old.find('event', 12)).toEqual({ itemId: 7, sourceModified: '2026-03-01 10:00:00' });
    expect([...(await old.lookup('event'))]).toEqual([[12, 7]]);
    expect([...(await other.lookup('event'))]).toEqual([[12, 9]]);
    expect(await t.rows('imported_items')).toBe(3);
  });

  it('writes a record with the transaction that writes the item, or not at all', async () => {
    const map = new ImportMap(t.db, sourceKey('https://tx.example/wp-json', 'tribe/events/v1'));
    await expect(
      t.db.transaction().execute(async (tx) => {
        await map.in(tx).record('tag', 1, { itemId: 1, sourceModified: '' }, new Date());
        throw new Error('the item could not be written');
      }),
    ).rejects.toThrow('the item could not be written');
    expect(await map.find('tag', 1)).toBeUndefined();
  });
});
