/**
 * An event write locks the venue and organizers it links in shared mode (PostgreSQL): events
 * written at once may link one venue without waiting for each other, while a change or delete
 * of the venue waits for them (`resources/events/links.ts`).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldTransaction, lockingCalendar, type LockingCalendar } from '../helpers/store.js';

const URL = process.env.CALENDAR_TEST_POSTGRES_URL;

describe.skipIf(!URL)('the lock of an event write on the items it links (PostgreSQL)', () => {
  let t: LockingCalendar;
  beforeAll(async () => {
    t = await lockingCalendar(URL!);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets another event write read the venue at once, and makes a change of it wait', async () => {
    const venue: number = (await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Shared hall' } })).body.id;
    // A first event write holds its lock on the venue until released.
    const first = await heldTransaction(t.store, async (tx) => {
      expect((await tx.venues.get(venue, { lock: 'share' }))?.id).toBe(venue);
    });
    try {
      // A second one reads it without waiting: a wait would end in its lock timeout.
      await t.store.transaction(async (tx) => {
        await sql`set local lock_timeout = '10s'`.execute(tx.db);
        expect((await tx.venues.get(venue, { lock: 'share' }))?.id).toBe(venue);
      });
      // A write of the venue itself (its update, its delete) waits for the first.
      const change = t.store.transaction(async (tx) => {
        await sql`set local lock_timeout = '50ms'`.execute(tx.db);
        return tx.venues.get(venue, { lock: true });
      });
      await expect(change).rejects.toThrow(/lock timeout/);
    } finally {
      await first.release();
    }
  });
});
