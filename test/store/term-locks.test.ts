/**
 * An event write that names terms by slug locks those terms' rows only (MariaDB): InnoDB locks
 * every record a locking read scans, so the slugs are found by a plain read and the rows locked
 * by key (`StoreDialect.locksScannedRows`, `EventStore.setTerms`). Another write may then lock
 * any other term of the taxonomy at once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldTransaction, lockingCalendar, type LockingCalendar } from '../helpers/store.js';

const URL = process.env.CALENDAR_TEST_MYSQL_URL;

describe.skipIf(!URL)('the locks of an event write on the terms it names (MariaDB)', () => {
  let t: LockingCalendar;
  beforeAll(async () => {
    t = await lockingCalendar(URL!);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('locks the terms named by slug and id, and no other term of the taxonomy', async () => {
    const term = async (name: string) => (await t.request('POST', '/categories', { as: 'admin', json: { name } })).body as { id: number; slug: string };
    const [named, byId, other, last] = [await term('Locked by slug'), await term('Locked by id'), await term('Not locked'), await term('Zz not locked')];
    const event: number = (
      await t.request('POST', '/events', { as: 'admin', json: { title: 'Locker', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' } })
    ).body.id;
    // A write linking the event with two terms, one by slug, holds its locks until released.
    const first = await heldTransaction(t.store, async (tx) => {
      const rows = await tx.events.setTerms(event, 'tribe_events_cat', { ids: [byId.id], slugs: [named.slug] }, { status: 'publish' });
      expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([named.id, byId.id].sort((a, b) => a - b));
    });
    const terms = sql.table(`${t.calendar.options.tablePrefix}terms`);
    const lockNow = (id: number) => t.store.transaction((tx) => sql`select id from ${terms} where id = ${id} for update nowait`.execute(tx.db));
    try {
      for (const id of [other.id, last.id]) await expect(lockNow(id)).resolves.toBeDefined();
      // The named terms are locked: taking one fails at once rather than waiting.
      await expect(lockNow(named.id)).rejects.toThrow(/lock/i);
    } finally {
      await first.release();
    }
  });
});
