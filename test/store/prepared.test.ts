// Prepared queries (`store/prepared.ts`): compiled once per store and shape, run with new values,
// they answer what the same query built each time answers, on every database, inside
// transactions too; inserts with optional columns and an explicit id return the new row's id;
// a build that changes a value instead of passing it is refused.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/store/connect.js';
import { Connection } from '../../src/store/connection.js';
import { PreparedInsert, PreparedQuery } from '../../src/store/prepared.js';
import type { Insertable } from 'kysely';
import type { PostsTable } from '../../src/store/database.js';
import { DIALECTS, testCalendar, type TestCalendar } from '../helpers/harness.js';
import { postRow } from '../helpers/store.js';

/** Counts the queries compiled (a plugin sees each one as it is compiled, never as it is run again). */
class Compiles implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const BY_TYPE_AND_IDS = new PreparedQuery((db, v: { type: 'venue' | 'organizer'; ids: number[] }) =>
  db.selectFrom('posts').select(['id', 'title']).where('type', '=', v.type).where('id', 'in', v.ids).orderBy('id'),
);
const INSERT_POST = new PreparedInsert((db, v: Insertable<PostsTable>) => db.insertInto('posts').values(v));
const TITLE_OF = new PreparedQuery((db, v: { id: number }) => db.selectFrom('posts').select('title').where('id', '=', v.id));

describe.each(DIALECTS)('prepared queries ($name)', ({ url }) => {
  let t: TestCalendar;
  let raw: Awaited<ReturnType<typeof connectDatabase>>;
  let store: Connection;
  const compiles = new Compiles();
  const ids: number[] = [];

  beforeAll(async () => {
    raw = await connectDatabase(url);
    t = await testCalendar(url, { db: raw });
    store = Connection.open(raw.withPlugin(compiles), t.calendar.options.tablePrefix);
    for (let i = 0; i < 6; i++) {
      const row = postRow({ type: i % 2 ? 'organizer' : 'venue', title: `Item ${i}`, date: '2026-01-01 10:00:00' });
      ids.push(await store.dialect.insertReturningId(store.db.insertInto('posts').values(row)));
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await raw?.destroy();
  });

  it('answers what the query built each time answers, for scalars and lists of any length', async () => {
    for (const type of ['venue', 'organizer'] as const) {
      for (let n = 1; n <= ids.length; n++) {
        const wanted = ids.slice(0, n);
        const built = await store.db.selectFrom('posts').select(['id', 'title']).where('type', '=', type).where('id', 'in', wanted).orderBy('id').execute();
        expect(await BY_TYPE_AND_IDS.rows(store.db, { type, ids: wanted })).toEqual(built);
      }
    }
    expect(await TITLE_OF.first(store.db, { id: ids[2] ?? 0 })).toEqual({ title: 'Item 2' });
    expect(await TITLE_OF.first(store.db, { id: 999_999 })).toBeUndefined();
  });

  it('compiles once per store and shape, transactions included, which run it on their own connection', async () => {
    // Lists longer than any run before: shapes not compiled yet.
    const seven = [...ids, ids[0] ?? 0];
    const before = compiles.count;
    for (let i = 0; i < 5; i++) await BY_TYPE_AND_IDS.rows(store.db, { type: 'venue', ids: seven });
    expect(compiles.count - before).toBe(1);
    await store.transaction(async (tx) => {
      await tx.db
        .updateTable('posts')
        .set({ title: 'Renamed' })
        .where('id', '=', ids[0] ?? 0)
        .execute();
      // The transaction's own write is seen: the query ran on its connection, compiled as before.
      const seen = compiles.count;
      expect((await BY_TYPE_AND_IDS.rows(tx.db, { type: 'organizer', ids: seven })).length).toBe(3);
      expect(await TITLE_OF.first(tx.db, { id: ids[0] ?? 0 })).toEqual({ title: 'Renamed' });
      expect(compiles.count - seen).toBe(0);
    });
    // Another shape (eight ids) is compiled once more (and the transaction's update was built).
    await BY_TYPE_AND_IDS.rows(store.db, { type: 'venue', ids: [...seven, ids[1] ?? 0] });
    await BY_TYPE_AND_IDS.rows(store.db, { type: 'organizer', ids: [...seven, ids[2] ?? 0] });
    expect(compiles.count - before).toBe(3);
  });

  it('inserts rows whose values differ in which are given or undefined, and returns their ids', async () => {
    // Left out, or `undefined`, a password is the column's default (null).
    const base = postRow({ type: 'venue', title: 'Inserted', date: '2026-01-01 10:00:00', password: 'first' });
    const { password: _password, ...withoutPassword } = base;
    const given = [base, withoutPassword, { ...base, password: undefined }, { ...base, password: 'other' }, base];
    const inserted: number[] = [];
    for (const [i, row] of given.entries()) inserted.push(await INSERT_POST.execute(store.db, store.dialect, { ...row, title: `Inserted ${i}` }));
    // An explicit id is a column of its own: the next shape, not the one without it.
    const explicit = Math.max(...inserted) + 100;
    expect(await INSERT_POST.execute(store.db, store.dialect, { ...base, id: explicit, title: 'Explicit' })).toBe(explicit);
    expect(new Set(inserted).size).toBe(given.length);
    const rows = await store.db
      .selectFrom('posts')
      .select(['id', 'title', 'password'])
      .where('id', 'in', [...inserted, explicit])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      ...inserted.map((id, i) => ({ id, title: `Inserted ${i}`, password: ['first', null, null, 'other', 'first'][i] })),
      { id: explicit, title: 'Explicit', password: 'first' },
    ]);
  });

  it('keeps a store apart from another with another prefix', async () => {
    const other = Connection.open(raw, 'other_');
    await expect(TITLE_OF.first(other.db, { id: ids[0] ?? 0 })).rejects.toThrow(/other_posts/);
    expect(await TITLE_OF.first(store.db, { id: ids[1] ?? 0 })).toEqual({ title: 'Item 1' });
  });

  it('refuses a build that changes a value instead of passing it on', async () => {
    const lossy = new PreparedQuery((db, v: { id: number }) =>
      db
        .selectFrom('posts')
        .select('title')
        .where('id', '=', Number(v.id) + 1),
    );
    await expect(lossy.first(store.db, { id: 1 })).rejects.toThrow(/lost its value "id"/);
  });
});
