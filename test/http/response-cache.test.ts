import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { ResponseCache, type CachedResponse } from '../../src/http/response-cache.js';
import { DIALECTS } from '../helpers/harness.js';
import { withinOneVersion } from '../helpers/still-version.js';
import { createEvent, probedCalendar, type ProbedCalendar } from '../resources/events/fixtures.js';

/** Where the dialect gives the store a version, logged-out reads are answered from the cache. */
const CACHES: Record<string, boolean> = { sqlite: true, postgres: true, mysql: false };

describe.each(DIALECTS)('response cache on $name', ({ name, url }) => {
  let t: ProbedCalendar;
  let eventId: number;
  beforeAll(async () => {
    t = await probedCalendar(url);
    eventId = (await createEvent(t, { title: 'Cached concert', start_date: '2027-03-01 20:00:00', end_date: '2027-03-01 22:00:00' })).id;
  }, 180_000);
  afterAll(() => t?.close());
  afterEach(() => vi.useRealTimers());

  /**
   * Archive pages the handler computed while `run` ran: a computed archive may need no query but
   * the store version's, since its keys and total are kept per version too.
   */
  const archivesComputed = async (run: () => Promise<unknown>) => {
    const spy = vi.spyOn((await t.calendar.services()).events, 'list');
    try {
      await run();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  };

  /**
   * Single reads the handler computed while `run` ran (on `calendar`, the test's by default): a
   * computed one may need no query but the store version's, since its row is kept per version too.
   */
  const singlesComputed = async (run: () => Promise<unknown>, calendar: ProbedCalendar['calendar'] = t.calendar) => {
    const spy = vi.spyOn((await calendar.services()).events, 'readAt');
    try {
      await run();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  };

  /** Queries one anonymous read runs. */
  const queriesOf = async (path: string, init: Parameters<ProbedCalendar['request']>[2] = {}) => {
    const { value: res, statements: queries } = await t.probe.statementsOf(() => t.request('GET', path, init));
    return { res, queries };
  };

  it('answers a repeated logged-out read with the same bytes and headers, reading only the store version', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-15T10:00:00.100Z'));
    const [first, second] = await withinOneVersion(name, t.db, async () => [await queriesOf(`/events/${eventId}`), await queriesOf(`/events/${eventId}`)]);
    expect(first.res.status).toBe(200);
    expect(second.res.text).toBe(first.res.text);
    expect(second.res.headers).toEqual(first.res.headers);
    expect(first.queries).toBeGreaterThan(2);
    expect(second.queries).toBe(CACHES[name] ? 1 : first.queries);
  });

  it('keeps an answer that does not read the clock until the next write', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const [first, later] = await withinOneVersion(name, t.db, async () => {
      vi.setSystemTime(new Date('2030-01-15T09:00:00.000Z'));
      const read = await queriesOf(`/events/${eventId}`);
      vi.setSystemTime(new Date('2030-01-15T09:05:00.000Z'));
      return [read, await queriesOf(`/events/${eventId}`)];
    });
    expect(later.res.text).toBe(first.res.text);
    expect(later.queries).toBe(CACHES[name] ? 1 : first.queries);
    await t.request('POST', `/events/${eventId}`, { json: { excerpt: 'Now with an excerpt' }, as: 'admin' });
    const updated = await queriesOf(`/events/${eventId}`);
    expect(updated.queries).toBeGreaterThan(1);
    expect(updated.res.body.excerpt).toContain('Now with an excerpt');
  });

  it('computes the answer again when the client asks for a fresh one (Cache-Control or Pragma: no-cache)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-15T09:10:00.000Z'));
    const path = `/events/${eventId}`;
    let computed: Awaited<ReturnType<typeof t.request>> | undefined;
    const counts = await withinOneVersion(name, t.db, async () => [
      await singlesComputed(async () => (computed = await t.request('GET', path, { headers: { 'cache-control': 'no-cache' } }))),
      await singlesComputed(() => t.request('GET', path)),
    ]);
    expect(counts).toEqual([1, CACHES[name] ? 0 : 1]);
    for (const headers of [{ 'cache-control': 'max-age=0, No-Cache' }, { pragma: 'no-cache' }] as Record<string, string>[]) {
      let again: Awaited<ReturnType<typeof t.request>> | undefined;
      // Computed again (its row and rendering, kept under the same version, may be reused).
      expect(await singlesComputed(async () => (again = await t.request('GET', path, { headers })))).toBe(1);
      expect(again?.text).toBe(computed?.text);
    }
  });

  it('computes the answer again in the next second (the default window follows the clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const [first, second, kept, nextSecond] = await withinOneVersion(name, t.db, async () => {
      vi.setSystemTime(new Date('2030-01-15T10:00:00.100Z'));
      const reads = [await queriesOf('/events'), await queriesOf('/events')];
      const computed = [await archivesComputed(() => t.request('GET', '/events'))];
      vi.setSystemTime(new Date('2030-01-15T10:00:01.000Z'));
      return [...reads.map((r) => r.queries), ...computed, await archivesComputed(() => t.request('GET', '/events'))];
    });
    expect(second).toBe(CACHES[name] ? 1 : first);
    expect(kept).toBe(CACHES[name] ? 0 : 1);
    expect(nextSecond).toBe(1);
  });

  it('never serves an answer from before a write, whoever wrote', async () => {
    const path = '/events';
    const query = { start_date: '2027-01-01', end_date: '2027-12-31' };
    const titles = async () => ((await t.request('GET', path, { query })).body.events as { title: string }[]).map((e) => e.title);
    expect(await titles()).toEqual(['Cached concert']);
    // Through the API…
    await createEvent(t, { title: 'Second show', start_date: '2027-04-01 20:00:00', end_date: '2027-04-01 22:00:00' });
    expect(await titles()).toEqual(['Cached concert', 'Second show']);
    // …and behind its back, through the host's own connection.
    await t.db.updateTable('posts').set({ title: 'Renamed show' }).where('title', '=', 'Second show').execute();
    expect(await titles()).toEqual(['Cached concert', 'Renamed show']);
    await t.db.updateTable('posts').set({ status: 'draft' }).where('title', '=', 'Renamed show').execute();
    expect(await titles()).toEqual(['Cached concert']);
  });

  it('keeps callers apart: a logged-in read is computed for its caller and never kept', async () => {
    const draft = await createEvent(t, { title: 'Draft gala', status: 'draft', start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 22:00:00' });
    const query = { start_date: '2027-05-01', end_date: '2027-05-31' };
    const anonymous = await t.request('GET', '/events', { query });
    expect(anonymous.body.events).toEqual([]);
    const admin = await t.request('GET', '/events', { query, as: 'admin' });
    expect(admin.body.events.map((e: { id: number }) => e.id)).toEqual([draft.id]);
    expect(admin.headers['Cache-Control']).toMatch(/no-store/);
    expect((await t.request('GET', '/events', { query })).body.events).toEqual([]);
    expect(await archivesComputed(() => t.request('GET', '/events', { query, as: 'admin' }))).toBe(1);
  });

  it('sets the caller headers of each request on a kept answer (CORS), and drops the body for HEAD', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-15T11:00:00.000Z'));
    const plain = await t.request('GET', `/events/${eventId}`);
    const cors = await t.request('GET', `/events/${eventId}`, { headers: { origin: 'https://widget.example' } });
    expect(plain.headers['Access-Control-Allow-Origin']).toBeUndefined();
    expect(cors.headers['Access-Control-Allow-Origin']).toBe('https://widget.example');
    expect(cors.text).toBe(plain.text);
    const head = await t.request('HEAD', `/events/${eventId}`);
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
    expect(head.headers.Allow).toBe(plain.headers.Allow);
  });

  it('keeps answers per mount, host and query: URLs in a kept answer are the request’s own', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-15T12:00:00.000Z'));
    const v = await t.variant({ baseUrl: undefined });
    const en = await v.request('GET', `/events/${eventId}`, { headers: { host: 'one.example' } });
    const other = await v.request('GET', `/events/${eventId}`, { headers: { host: 'two.example' } });
    const fr = await v.request('GET', `/events/${eventId}`, { headers: { host: 'one.example' }, root: '/fr/wp-json', locale: 'fr' });
    expect(en.body.rest_url).toBe(`http://one.example/wp-json/calendar/events/v1/events/${eventId}`);
    expect(other.body.rest_url).toBe(`http://two.example/wp-json/calendar/events/v1/events/${eventId}`);
    expect(fr.body.rest_url).toBe(`http://one.example/fr/wp-json/calendar/events/v1/events/${eventId}`);
    const filtered = await t.request('GET', '/events', { query: { search: 'nothing-matches-this' } });
    expect(filtered.body.events).toEqual([]);
  });

  it('computes an answer once for requests that arrive while it is being computed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const [alone, { value: answers, statements }] = await withinOneVersion(name, t.db, async () => {
      vi.setSystemTime(new Date('2030-01-15T15:00:00.000Z'));
      await queriesOf('/events', { headers: { 'cache-control': 'no-cache' } });
      // Computed again, with the archive's total known: what one computation costs from now on.
      const once = await queriesOf('/events', { headers: { 'cache-control': 'no-cache' } });
      vi.setSystemTime(new Date('2030-01-15T15:00:01.000Z'));
      return [once, await t.probe.statementsOf(() => Promise.all(Array.from({ length: 8 }, () => t.request('GET', '/events'))))] as const;
    });
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    // Each request reads the version; one of them computes the answer.
    expect(statements).toBe(CACHES[name] ? 8 + alone.queries - 1 : 8 * alone.queries);
  });

  it('makes room by dropping the least recently used answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-15T17:00:00.000Z'));
    const one = await t.request('GET', `/events/${eventId}`);
    const v = await t.variant({ responseCache: { maxBytes: Math.round(one.text!.length * 1.5) } });
    // The same answer under other keys (an unknown parameter): only one fits at a time.
    const served = async (on: typeof v, k: string) =>
      (await singlesComputed(() => on.request('GET', `/events/${eventId}`, { query: { k } }), on.calendar)) ? 'computed' : 'kept';
    const kept = CACHES[name] ? 'kept' : 'computed';
    const oneFits = await withinOneVersion(name, t.db, async () => {
      const seen = [];
      for (const k of ['a', 'a', 'b', 'b', 'a']) seen.push(await served(v, k));
      return seen;
    });
    expect(oneFits).toEqual(['computed', kept, 'computed', kept, 'computed']);
    // Room for two: the one used last stays, the other makes room.
    const two = await t.variant({ responseCache: { maxBytes: Math.round(one.text!.length * 2.5) } });
    const twoFit = await withinOneVersion(name, t.db, async () => {
      for (const k of ['a', 'b', 'a', 'c']) await served(two, k);
      return [await served(two, 'a'), await served(two, 'b')];
    });
    expect(twoFit).toEqual([kept, 'computed']);
  });

  it('keeps nothing when turned off', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-15T13:00:00.000Z'));
    const off = await t.variant({ responseCache: false });
    for (let i = 0; i < 2; i++) expect(await singlesComputed(() => off.request('GET', `/events/${eventId}`), off.calendar)).toBe(1);
  });

  it('keeps no answer larger than its bound', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-15T14:00:00.000Z'));
    const small = await t.variant({ responseCache: { maxBytes: 100 } });
    await small.request('GET', `/events/${eventId}`);
    expect(await singlesComputed(() => small.request('GET', `/events/${eventId}`), small.calendar)).toBe(1);
  });
});

// Another process's commit must be seen at once: two calendars with their own connections.
const SHARED = DIALECTS.map((d) => (d.name === 'sqlite' ? { ...d, url: '' } : d));
describe.each(SHARED)('response cache with two instances on $name', ({ name, url }) => {
  let dir: string | undefined;
  let a: ProbedCalendar;
  let b: ReturnType<typeof createCalendar>;
  beforeAll(async () => {
    if (name === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), 'calendar-cache-'));
      url = join(dir, 'shared.sqlite');
    }
    a = await probedCalendar(url);
    b = createCalendar({ db: url, tablePrefix: a.calendar.options.tablePrefix, baseUrl: 'http://example.org' });
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sees the other instance’s writes on the very next read', async () => {
    const query = { start_date: '2027-01-01', end_date: '2027-12-31' };
    const titles = async () => ((await a.request('GET', '/events', { query })).body.events as { title: string }[]).map((e) => e.title);
    expect(await titles()).toEqual([]);
    for (const title of ['One', 'Two', 'Three']) {
      const created = await b.call('POST', '/events', {
        params: { title, start_date: `2027-02-0${title.length} 10:00:00`, end_date: `2027-02-0${title.length} 11:00:00` },
        user: { id: 1, roles: ['administrator'] },
      });
      expect(created.status).toBe(201);
      expect(await titles()).toContain(title);
    }
    const removed = await b.call('DELETE', `/events/${(await a.request('GET', '/events', { query })).body.events[0].id}`, {
      params: { force: true },
      user: { id: 1, roles: ['administrator'] },
    });
    expect(removed.status).toBe(200);
    expect(await titles()).toHaveLength(2);
  });

  it('shows the other instance’s change of an event to the next signed-in and fresh single reads (rows are kept per version)', async () => {
    const admin = { id: 1, roles: ['administrator' as const] };
    const created = await b.call('POST', '/events', {
      params: { title: 'Row one', start_date: '2028-05-01 10:00:00', end_date: '2028-05-01 11:00:00' },
      user: admin,
    });
    const id = (created.body as { id: number }).id;
    const reads = [
      () => a.request('GET', `/events/${id}`, { as: 'admin' }),
      () => a.request('GET', `/events/${id}`, { headers: { 'cache-control': 'no-cache' } }),
      () => a.request('GET', `/events/by-slug/row-one`, { headers: { 'cache-control': 'no-cache' } }),
    ];
    for (const title of ['Row one', 'Row two']) {
      if (title !== 'Row one') expect((await b.call('POST', `/events/${id}`, { params: { title }, user: admin })).status).toBe(200);
      // Twice: the second read finds the row kept by the first.
      for (const read of [...reads, ...reads]) expect((await read()).body.title).toBe(title);
    }
    expect((await b.call('POST', `/events/${id}`, { params: { status: 'draft' }, user: admin })).status).toBe(200);
    expect((await reads[1]!()).status).toBe(403);
    expect((await reads[0]!()).body.status).toBe('draft');
  });

  it.runIf(name === 'sqlite')('reads no query for a kept answer of a SQLite file, and still sees the other instance’s next write', async () => {
    // The store version of a file in WAL mode is its WAL-index header, read without SQLite.
    const admin = { id: 1, roles: ['administrator' as const] };
    const created = await b.call('POST', '/events', {
      params: { title: 'Kept', start_date: '2028-02-01 10:00:00', end_date: '2028-02-01 11:00:00' },
      user: admin,
    });
    const id = (created.body as { id: number }).id;
    const read = async () => {
      const { value: res, statements: queries } = await a.probe.statementsOf(() => a.request('GET', `/events/${id}`));
      return { title: res.body.title as string, queries };
    };
    expect((await read()).queries).toBeGreaterThan(1);
    expect(await read()).toEqual({ title: 'Kept', queries: 0 });
    expect((await b.call('POST', `/events/${id}`, { params: { title: 'Changed' }, user: admin })).status).toBe(200);
    expect((await read()).title).toBe('Changed');
    expect(await read()).toEqual({ title: 'Changed', queries: 0 });
    // A host's own write on this instance's connection, behind the calendar's back.
    await a.db.updateTable('posts').set({ title: 'Host' }).where('id', '=', id).execute();
    expect((await read()).title).toBe('Host');
  });

  it('shows the other instance’s change of a linked venue to signed-in and fresh reads at once (rendered events are kept per version)', async () => {
    const admin = { id: 1, roles: ['administrator' as const] };
    const venue = await b.call('POST', '/venues', { params: { venue: 'Old Hall' }, user: admin });
    const created = await b.call('POST', '/events', {
      params: { title: 'Linked', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', venue: (venue.body as { id: number }).id },
      user: admin,
    });
    const id = (created.body as { id: number }).id;
    const reads = [
      () => a.request('GET', '/events', { query: { start_date: '2027-03-01', end_date: '2027-03-02' }, as: 'admin' }).then((r) => r.body.events[0]),
      () => a.request('GET', `/events/${id}`, { as: 'admin' }).then((r) => r.body),
      () => a.request('GET', `/events/${id}`, { headers: { 'cache-control': 'no-cache' } }).then((r) => r.body),
    ];
    for (const read of reads) expect((await read()).venue.venue).toBe('Old Hall');
    // Read twice: the second answer comes from the kept rendering.
    for (const read of reads) expect((await read()).venue.venue).toBe('Old Hall');
    const renamed = await b.call('POST', `/venues/${(venue.body as { id: number }).id}`, { params: { venue: 'New Hall' }, user: admin });
    expect(renamed.status).toBe(200);
    for (const read of reads) expect((await read()).venue.venue).toBe('New Hall');
  });
});

describe('response cache size', () => {
  const keep = (cache: ResponseCache, key: string, body: string) => {
    const response: CachedResponse = { status: 200, headers: {}, body: Buffer.from(body) };
    void cache.lookup('v1', key, 0); // only selects version v1: the answer is not needed
    cache.begin('v1', key, 0)(response, false);
    return cache.lookup('v1', key, 0) === response;
  };

  it('drops the answers bound to a past second once a later answer is kept, and no other', () => {
    const cache = new ResponseCache(1_000_000);
    const answer = (text: string): CachedResponse => ({ status: 200, headers: {}, body: Buffer.from(text) });
    const [archive, again, event, later] = [answer('archive'), answer('again'), answer('event'), answer('later')];
    void cache.lookup('v1', 'archive', 1);
    cache.begin('v1', 'archive', 1)(archive, true);
    cache.begin('v1', 'kept again', 1)(again, true);
    cache.begin('v1', 'event', 1)(event, false);
    // Kept again, unbound: what second 1 listed under its key is no longer there.
    cache.begin('v1', 'kept again', 1)(again, false);
    expect(cache.lookup('v1', 'archive', 1)).toBe(archive);
    cache.begin('v1', 'later', 2)(later, true);
    // A request still in second 1 no longer finds the archive of second 1 …
    expect(cache.lookup('v1', 'archive', 1)).toBeUndefined();
    // … while the answers not bound to it stay.
    expect(cache.lookup('v1', 'kept again', 3)).toBe(again);
    expect(cache.lookup('v1', 'event', 3)).toBe(event);
    expect(cache.lookup('v1', 'later', 2)).toBe(later);
  });

  it('counts a body of multi-byte characters in bytes (UTF-8), not in characters', () => {
    // 60 characters: 60 bytes in ASCII, 120 as `é` (2 bytes each), 240 as emoji (4 bytes, 2 code units each).
    const cache = new ResponseCache(100);
    expect(keep(cache, 'k', 'e'.repeat(60))).toBe(true);
    expect(keep(cache, 'k', 'é'.repeat(60))).toBe(false);
    expect(keep(cache, 'k', '😀'.repeat(30))).toBe(false);
    expect(keep(new ResponseCache(121), 'k', 'é'.repeat(60))).toBe(true);
  });
});
