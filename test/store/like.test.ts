import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsIgnoringCase } from '../../src/store/like.js';
import { DIALECTS } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';

// `containsIgnoringCase` on every database: literal `%`, `_` and `!`, case, and needles too
// long for a LIKE pattern (SQLite refuses patterns over 50,000 bytes).

describe.each(DIALECTS)('containsIgnoringCase on $name', ({ url }) => {
  let t: StoreCalendar;
  const long = `${'Ab'.repeat(15_000)}NEEDLE`;

  beforeAll(async () => {
    t = await storeCalendar(url);
    const add = async (content: string) => {
      const id = await t.addEvent();
      await t.db.updateTable('posts').set({ content }).where('id', '=', id).execute();
      return id;
    };
    await add('50% off_now! Really');
    await add('500 offXnow');
    await add(`prefix ${long} suffix`);
  });
  afterAll(() => t.close());

  const matching = async (text: string) => {
    const rows = await t.db
      .selectFrom('posts')
      .select('content')
      .where((eb) => containsIgnoringCase(eb.ref('content'), text))
      .orderBy('id')
      .execute();
    return rows.map((r) => r.content.slice(0, 12));
  };

  it('matches substrings case-insensitively', async () => {
    expect(await matching('REALLY')).toEqual(['50% off_now!']);
    expect(await matching('off')).toEqual(['50% off_now!', '500 offXnow']);
  });

  it('takes %, _ and the escape character literally', async () => {
    expect(await matching('0%')).toEqual(['50% off_now!']);
    expect(await matching('f_n')).toEqual(['50% off_now!']);
    expect(await matching('!')).toEqual(['50% off_now!']);
    expect(await matching('%')).toEqual(['50% off_now!']);
  });

  it('finds (and misses) needles longer than a LIKE pattern may be', async () => {
    expect(await matching(long.toLowerCase())).toEqual(['prefix AbAbA']);
    expect(await matching(`${long}x`)).toEqual([]);
    expect(await matching('z'.repeat(60_000))).toEqual([]);
  });
});
