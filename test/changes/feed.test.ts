import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/store/connect.js';
import { createCalendar, type Calendar } from '../../src/index.js';
import { DIALECTS, USERS, type As, type TestResponse } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { Store } from '../../src/resources/store.js';

// The change feed over real HTTP (issue 16, item 3), on every database, and read by a second
// instance over the same tables.

const WHEN = { start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 12:00:00' };

interface FeedEntry {
  kind: string;
  id: number;
  change: 'created' | 'updated' | 'deleted';
  time: string;
  item: Record<string, unknown> | null;
}

const dir = mkdtempSync(join(tmpdir(), 'calendar-feed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// SQLite on a file, so that a second instance can open the same tables.
const STORES = DIALECTS.map((d) => (d.name === 'sqlite' ? { ...d, url: join(dir, 'feed.sqlite') } : d));

describe.each(STORES)('GET /changes on $name', ({ url }) => {
  let t: HttpCalendar;

  /** Every entry from `token` on, page by page; the token to go on from. */
  const drain = async (token: string, as: As = null, query: Record<string, string | number> = {}) => {
    const entries: FeedEntry[] = [];
    let next = token;
    for (let page = 0; page < 50; page++) {
      const res = await t.request('GET', '/changes', { as, query: { sync_token: next, ...query } });
      expect(res.status, res.text).toBe(200);
      entries.push(...(res.body.changes as FeedEntry[]));
      next = res.body.next_sync_token;
      if (!res.body.more) return { entries, token: next };
    }
    throw new Error('the feed did not end');
  };
  const start = async (as: As = null) => {
    const res = await t.request('GET', '/changes', { as });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ changes: [], more: false });
    return res.body.next_sync_token as string;
  };
  const create = async (path: string, json: Record<string, unknown>) => {
    const res: TestResponse = await t.request('POST', path, { as: 'admin', json });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };

  beforeAll(async () => {
    t = await httpCalendar(url);
  });
  afterAll(() => t.close());

  it('reports creations, updates and deletions in order, each item as its own route shows it', async () => {
    const token = await start();
    const eventId = await create('/events', { title: 'Feed concert', status: 'publish', ...WHEN });
    const first = await drain(token);
    expect(first.entries.map((e) => [e.kind, e.id, e.change])).toEqual([['event', eventId, 'created']]);
    expect(first.entries[0]!.item).toEqual((await t.request('GET', `/events/${eventId}`)).body);
    expect(Date.parse(first.entries[0]!.time)).toBeGreaterThan(Date.now() - 60_000);

    expect((await t.request('POST', `/events/${eventId}`, { as: 'admin', json: { title: 'Feed concert, moved' } })).status).toBe(200);
    const second = await drain(first.token);
    expect(second.entries.map((e) => [e.id, e.change, e.item?.title])).toEqual([[eventId, 'updated', 'Feed concert, moved']]);
    // Nothing new: nothing reported, and the token stays usable.
    expect((await drain(second.token)).entries).toEqual([]);

    expect((await t.request('DELETE', `/events/${eventId}`, { as: 'admin', query: { force: 'true' } })).status).toBe(200);
    const third = await drain(second.token);
    expect(third.entries.map((e) => [e.id, e.change, e.item])).toEqual([[eventId, 'deleted', null]]);
    // From the first token, the item shows once, as it is now: gone (created after the token: not reported at all).
    expect((await drain(token)).entries.filter((e) => e.id === eventId)).toEqual([]);
  });

  it('applies visibility: what the caller may not read is a deletion, or nothing if they never knew it', async () => {
    const eventId = await create('/events', { title: 'Going private', status: 'publish', ...WHEN });
    const publicToken = await start();
    const adminToken = await start('admin');
    expect((await t.request('POST', `/events/${eventId}`, { as: 'admin', json: { status: 'private' } })).status).toBe(200);
    const draftId = await create('/events', { title: 'Quiet draft', status: 'draft', ...WHEN });
    const venueId = await create('/venues', { venue: 'Feed hall' });

    const anonymous = await drain(publicToken);
    expect(anonymous.entries.map((e) => [e.kind, e.id, e.change])).toEqual([
      ['event', eventId, 'deleted'],
      ['venue', venueId, 'created'],
    ]);
    const admin = await drain(adminToken, 'admin');
    expect(admin.entries.map((e) => [e.kind, e.id, e.change])).toEqual([
      ['event', eventId, 'updated'],
      ['event', draftId, 'created'],
      ['venue', venueId, 'created'],
    ]);
    expect(admin.entries[0]!.item?.status).toBe('private');
    // Kinds can be chosen.
    expect((await drain(adminToken, 'admin', { kinds: 'venue' })).entries.map((e) => e.id)).toEqual([venueId]);
  });

  it('reports linked items and terms, and the events a deletion changes', async () => {
    const token = await start();
    const venueId = await create('/venues', { venue: 'Linked hall' });
    const categoryId = await create('/categories', { name: 'Feed category' });
    const eventId = await create('/events', { title: 'Linked', status: 'publish', venue: venueId, categories: [categoryId], ...WHEN });
    const after = await start();
    expect((await t.request('DELETE', `/venues/${venueId}`, { as: 'admin', query: { force: 'true' } })).status).toBe(200);
    expect((await t.request('DELETE', `/categories/${categoryId}`, { as: 'admin', query: { force: 'true' } })).status).toBe(200);
    const changed = await drain(after);
    expect(changed.entries.map((e) => [e.kind, e.id, e.change])).toEqual([
      ['venue', venueId, 'deleted'],
      ['event', eventId, 'updated'],
      ['category', categoryId, 'deleted'],
    ]);
    expect(changed.entries[1]!.item).toMatchObject({ categories: [] });
    expect((await drain(token)).entries.map((e) => [e.kind, e.id, e.change])).toEqual([['event', eventId, 'created']]);
  });

  it('pages through many changes without losing or repeating one', async () => {
    const token = await start();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await create('/organizers', { organizer: `Feed organizer ${i}` }));
    let next = token;
    const seen: number[] = [];
    for (;;) {
      const res = await t.request('GET', '/changes', { query: { sync_token: next, per_page: 3 } });
      expect(res.body.changes.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.changes.map((e: FeedEntry) => e.id));
      next = res.body.next_sync_token;
      if (!res.body.more) break;
    }
    expect(seen).toEqual(ids);
  });

  it('keeps commit order for concurrent writes', async () => {
    const token = await start();
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => create('/tags', { name: `Concurrent ${i}` })));
    const { entries } = await drain(token);
    expect(entries.map((e) => e.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    const rows = await t.db.selectFrom('changes').select(['seq', 'item_id']).where('kind', '=', 'tag').orderBy('seq').execute();
    expect(new Set(rows.map((r) => Number(r.seq))).size).toBe(rows.length);
  });

  it('answers 410 to a token it does not know or has pruned, and 400 to bad arguments', async () => {
    for (const bad of ['nonsense', Buffer.from('1.other-store.1').toString('base64url'), Buffer.from('1.x.99999999').toString('base64url')]) {
      const res = await t.request('GET', '/changes', { query: { sync_token: bad } });
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ code: 'rest_sync_token_invalid', data: { status: 410 } });
    }
    const token = await start();
    await create('/tags', { name: 'Before pruning' });
    const head = await t.db.selectFrom('change_sequence').select('last_seq').executeTakeFirstOrThrow();
    await t.db
      .updateTable('change_sequence')
      .set({ pruned_through: Number(head.last_seq) })
      .execute();
    const expired = await t.request('GET', '/changes', { query: { sync_token: token } });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('rest_sync_token_expired');
    expect((await t.request('GET', '/changes', { query: { per_page: 0 } })).status).toBe(400);
    expect((await t.request('GET', '/changes', { query: { kinds: 'events' } })).status).toBe(400);
  });

  it('shows another instance’s writes on the same tables, in order', async () => {
    const other: Calendar = createCalendar({ db: await connectDatabase(url), tablePrefix: t.calendar.options.tablePrefix, getUser: () => USERS.admin });
    try {
      const token = await start();
      const made = await other.call('POST', '/venues', { params: { venue: 'From the other instance' }, user: USERS.admin });
      expect(made.status).toBe(201);
      const id = await create('/venues', { venue: 'From this instance' });
      const { entries } = await drain(token);
      expect(entries.map((e) => e.id)).toEqual([(made.body as { id: number }).id, id]);
    } finally {
      await other.close();
    }
  });
});

describe('the change log', () => {
  it('prunes entries older than its retention, and records one entry per item and transaction', async () => {
    const raw = await connectDatabase(':memory:');
    const { migrateStore } = await import('../../src/store/index.js');
    await migrateStore(raw, 'cl_');
    const store = Store.open(raw, 'cl_', 1000);
    const old = new Date(Date.now() - 10_000);
    await store.transaction(async (tx) => {
      tx.changes.record('tag', 1, 'created');
      tx.changes.record('tag', 1, 'updated');
      tx.changes.record('tag', 2, 'updated');
      tx.changes.record('tag', 2, 'deleted');
      tx.changes.record('tag', 3, 'created');
      tx.changes.record('tag', 3, 'deleted');
      await tx.changes.flush(old);
    });
    expect((await store.changes.after(0, 10, 10)).map((r) => [r.item_id, r.change_type])).toEqual([
      [1, 'created'],
      [2, 'deleted'],
    ]);
    // Outside a transaction nothing can be recorded.
    expect(() => store.changes.record('tag', 4, 'created')).toThrow(/inside a write transaction/);
    // Crossing a multiple of 256 positions prunes what is older than the retention.
    await store.transaction(async (tx) => {
      for (let i = 0; i < 260; i++) tx.changes.record('event', 100 + i, 'updated');
    });
    const head = await store.changes.head();
    expect(head.prunedThrough).toBe(2);
    expect((await store.changes.after(0, head.lastSeq, 1000)).length).toBe(260);
    await raw.destroy();
  });
});

describe('what a read tells the feed and webhooks', () => {
  it('reports a deletion only when the item is hidden or gone, never when the read failed', async () => {
    const { readOutcome } = await import('../../src/changes/visibility.js');
    expect([200, 400, 401, 403, 404, 410, 500, 503].map(readOutcome)).toEqual([
      'visible',
      'hidden',
      'hidden',
      'hidden',
      'hidden',
      'hidden',
      'unknown',
      'unknown',
    ]);
  });
});
