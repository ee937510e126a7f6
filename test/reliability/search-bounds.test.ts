/**
 * Issue 11, finding 1: a `search` of thousands of words once built one SQL condition per word
 * (a 500 from SQLite's expression-depth limit, then a call-stack overflow that kept every such
 * query alive in the table-prefix transformer). Every search is now cut into at most
 * `limits.searchTerms` fragments (venues, organizers; 400 past that), events follow WordPress'
 * own rule (more than nine words are one phrase, so never more than nine conditions), and a
 * failed query leaves nothing behind.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Kysely, SqliteDialect, sql } from 'kysely';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { searchWords } from '../../src/text/search-terms.js';
import { DIALECTS, type TestResponse } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const WINDOW = { start_date: '2000-01-01', end_date: '2100-01-01' };
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

function expectTooManyWords(r: TestResponse, most: number): void {
  const message = `search has more than ${most} words.`;
  expect(r.status, r.text).toBe(400);
  expect(r.body).toEqual({
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): search',
    data: { status: 400, params: { search: message }, details: { search: { code: 'rest_param_too_large', message, data: { param: 'search' } } } },
  });
}

describe.each(DIALECTS)('search bounds ($name)', ({ name, url }) => {
  let t: StoreCalendar;
  beforeAll(async () => {
    t = await storeCalendar(url);
    const times = { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` };
    for (const [path, json] of [
      ['/events', { title: 'Jazz at night', ...times }],
      ['/events', { title: 'one two three four five six seven eight nine ten', ...times }],
      ['/venues', { venue: 'Jazz hall', address: '1 Night Rd' }],
      ['/organizers', { organizer: 'Jazz club', phone: '555-0100' }],
    ] as const) {
      expect((await t.request('POST', path, { as: 'admin', json })).status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it.each(['/venues', '/organizers'])('refuses a search of thousands of fragments on %s, in the query or a JSON body', async (path) => {
    expectTooManyWords(await t.request('GET', path, { query: { search: words(1000) } }), 32);
    expectTooManyWords(await t.request('GET', path, { json: { search: 'ab '.repeat(33_000) } }), 32);
    // Fragments are cut at any character but letters, digits and `-`.
    expectTooManyWords(await t.request('GET', path, { query: { search: Array.from({ length: 40 }, (_, i) => `x${i}`).join('.') } }), 32);
  });

  it.each(['/venues', '/organizers'])('takes 32 fragments on %s and refuses 33', async (path) => {
    expect((await t.request('GET', path, { query: { search: words(32) } })).status).toBe(200);
    expectTooManyWords(await t.request('GET', path, { query: { search: words(33) } }), 32);
  });

  it('searches thousands of event words as one phrase, as WordPress does: a 200, never a 500', async () => {
    for (const init of [{ query: { ...WINDOW, search: words(1000) } }, { query: WINDOW, json: { search: 'ab '.repeat(33_000) } }]) {
      const r = await t.request('GET', '/events', init);
      expect([r.status, r.body.total], r.text).toEqual([200, 0]);
    }
  });

  it('follows a configured limit', async () => {
    const small = await storeCalendar(url, { limits: { searchTerms: 2 } });
    try {
      expect((await small.request('GET', '/venues', { query: { search: 'a b' } })).status).toBe(200);
      expectTooManyWords(await small.request('GET', '/venues', { query: { search: 'a b c' } }), 2);
      // Event terms as WordPress keeps them: `at` is a stop word.
      expect((await small.request('GET', '/events', { query: { search: 'jazz at night' } })).status).toBe(200);
      expectTooManyWords(await small.request('GET', '/events', { query: { search: 'jazz blues night' } }), 2);
    } finally {
      await small.close();
    }
  });

  it('refuses, on SQLite, a search that would test more events than limits.searchTests, unless its window has few enough', async () => {
    // Six candidates of the index at most, or three events of the window (each read twice).
    const small = await storeCalendar(url, { limits: { searchTests: 6 } });
    try {
      for (let i = 0; i < 9; i++) {
        const day = `2031-03-${String(i + 1).padStart(2, '0')}`;
        const json = { title: i === 8 ? 'Folk ab night' : `Jazz ab ${i}`, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00` };
        expect((await small.request('POST', '/events', { as: 'admin', json })).status).toBe(201);
      }
      const all = { start_date: '2031-01-01', end_date: '2031-12-31' };
      const two = { start_date: '2031-03-01', end_date: '2031-03-02 23:00:00' };
      const found = async (query: Record<string, string>) => {
        const r = await small.request('GET', '/events', { query });
        return r.status === 200 ? r.body.events.map((e: { title: string }) => e.title) : r;
      };
      const sqlite = name === 'sqlite';
      for (const search of ['jazz', 'ab']) {
        // Eight candidates of `jazz` in the index, nine events of the year for `ab` (too short for it).
        const broad = await found({ ...all, search });
        if (!sqlite) expect(broad).toHaveLength(search === 'jazz' ? 8 : 9);
        else {
          const r = broad as TestResponse;
          const message =
            'search would test too many events (more than 6): use longer or rarer words, or narrow it (start_date and end_date, venue, categories).';
          expect(r.status, r.text).toBe(400);
          expect(r.body).toEqual({
            code: 'rest_invalid_param',
            message: 'Invalid parameter(s): search',
            data: {
              status: 400,
              params: { search: message },
              details: { search: { code: 'rest_search_too_broad', message, data: { param: 'search', most: 6 } } },
            },
          });
          // The iCalendar feed takes the same filters, and the same bound.
          expect((await small.request('GET', '/ics/events', { query: { ...all, search } })).status).toBe(400);
        }
        // Two days hold two events: few enough to test them all, whatever the index gives.
        expect(await found({ ...two, search })).toEqual(['Jazz ab 0', 'Jazz ab 1']);
      }
      // A rare word has few candidates: the whole year is searched through them.
      expect(await found({ ...all, search: 'folk' })).toEqual(['Folk ab night']);
    } finally {
      await small.close();
    }
  });

  it('cuts event searches as WordPress does: commas and `+` separate words, more than nine words are one phrase', async () => {
    const titles = async (search: string) =>
      (await t.request('GET', '/events', { query: { ...WINDOW, search } })).body.events.map((e: { title: string }) => e.title);
    expect(await titles('jazz,night')).toEqual(['Jazz at night']);
    expect(await titles('night+jazz')).toEqual(['Jazz at night']);
    // Ten words in another order match nothing: they are looked for as one phrase.
    expect(await titles('ten nine eight seven six five four three two one')).toEqual([]);
    expect(await titles('one two three four five six seven eight nine ten')).toEqual(['one two three four five six seven eight nine ten']);
    // Nine words are words, in any order.
    expect(await titles('nine eight seven six five four three two one')).toEqual(['one two three four five six seven eight nine ten']);
  });
});

describe('search words', () => {
  it('are WordPress terms', () => {
    expect(searchWords('"live jazz" -rock a the night')).toEqual({ include: ['live jazz', 'night'], exclude: ['rock'] });
    expect(searchWords('"unclosed phrase')).toEqual({ include: ['unclosed phrase'], exclude: [] });
    expect(searchWords('the a of')).toEqual({ include: ['the a of'], exclude: [] });
    expect(searchWords('jazz,blues+rock')).toEqual({ include: ['jazz', 'blues', 'rock'], exclude: [] });
    const long = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ');
    expect(searchWords(long)).toEqual({ include: [long], exclude: [] });
  });
});

describe('the table-prefix plugin after a query that fails to compile', () => {
  it('keeps nothing of it', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const raw = new Kysely<Record<string, { a: number }>>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const plugin = new TablePrefixPlugin('p_', ['posts']);
    const db = raw.withPlugin(plugin);
    await sql`create table p_posts (a integer)`.execute(raw);
    let tracked: WeakRef<object> | undefined;
    (() => {
      // A condition nested deeper than the call stack allows: transforming it throws RangeError.
      let deep = sql<boolean>`1 = 1`;
      for (let i = 0; i < 50_000; i++) deep = sql<boolean>`(${deep})`;
      const node = raw.selectFrom('posts').selectAll().where(deep).toOperationNode();
      tracked = new WeakRef(node);
      expect(() => plugin.transformQuery({ node, queryId: { queryId: 'deep' } })).toThrow(RangeError);
    })();
    // The plugin still works, and the failed query can be collected.
    expect(await db.selectFrom('posts').selectAll().execute()).toEqual([]);
    for (let i = 0; i < 5 && tracked?.deref(); i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    expect(tracked?.deref()).toBeUndefined();
    await raw.destroy();
  });
});
