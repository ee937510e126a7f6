import {
  CompiledQuery,
  sql,
  type Insertable,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FieldStore } from '../../src/fields/store.js';
import { EventStore, type EventListQuery } from '../../src/resources/events/store.js';
import { connectDatabase } from '../../src/store/connect.js';
import { TABLES, type Database, type EventsTable } from '../../src/store/database.js';
import { dialectOf } from '../../src/store/dialects/index.js';
import { down, up } from '../../src/store/migrations/010_search_index.js';
import { AUTOMERGE, down as downMerges, up as upMerges } from '../../src/store/migrations/011_search_merges.js';
import { SearchIndex, indexedPart, indexedParts, searchIndexNames, trigramsOf } from '../../src/store/search-index.js';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { searchWords } from '../../src/text/search-terms.js';
import { DIALECTS, testCalendar, type TestCalendar } from '../helpers/harness.js';
import { postRow } from '../helpers/store.js';

// The posts' search index (migration 010): a search through the index finds exactly what the
// scan finds, in the same order, on every database; every kind of write keeps it right; and a
// search word of three characters or more is looked up in it, as each database's plan shows.

/** An event's details row starting (and ending) at `start`, in UTC. */
function eventRow(postId: number, start: string): Insertable<EventsTable> {
  return {
    post_id: postId,
    start_local: start,
    end_local: start,
    start_utc: start,
    end_utc: start,
    timezone: 'UTC',
    timezone_abbr: 'UTC',
    all_day: 0,
    hidden: 0,
    featured: 0,
    show_map: 0,
    show_map_link: 0,
    website: null,
    cost: null,
    currency_symbol: '',
    currency_position: '',
    currency_code: '',
    venue_id: null,
    series_id: null,
  };
}

/** Remembers the operation nodes of the queries run, to compile and explain them afterwards. */
class Recorder implements KyselyPlugin {
  nodes: { node: RootOperationNode; queryId: PluginTransformQueryArgs['queryId'] }[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.nodes.push({ node: args.node, queryId: args.queryId });
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** A deterministic pseudo-random source (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Case and accents (É/é, Ü/ü, Ω/ω, ǅ/ǆ, İ, ß), LIKE's `%`, `_` and escape `!`, a backslash,
// quotes, characters without case (東京) and outside the BMP (🎷), short words.
const WORDS = [
  'jazz',
  'Jazz',
  'JAZZ',
  'night',
  'Nights',
  'rock',
  'été',
  'ÉTÉ',
  'Été',
  'fête',
  'FÊTE',
  'zürich',
  'ZÜRICH',
  'Zurich',
  'straße',
  'STRASSE',
  'café',
  'CAFÉ',
  'cafe',
  'naïve',
  'ωμέγα',
  'ΩΜΈΓΑ',
  '東京タワー',
  '50%',
  '5_0',
  '100%off',
  'a_b',
  '!bang',
  'back\\slash',
  '"quoted"',
  'İstanbul',
  'istanbul',
  'ǅemal',
  'ǆemal',
  'concert',
  'Concerto',
  'x',
  'ab',
  'le',
  'la',
  'Kelvin',
  '🎷sax',
  'sax🎷',
  'Ab!c',
  'ab!C',
  'trailing ',
];
const SEPARATORS = [' ', ', ', '-', '', '. ', '\n', ' — '];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const recase = (r: () => number, w: string) => pick(r, [w, w.toUpperCase(), w.toLowerCase(), w.charAt(0).toUpperCase() + w.slice(1)]);

function text(r: () => number, most: number): string {
  const n = Math.floor(r() * most);
  let out = '';
  for (let i = 0; i < n; i++) out += (i ? pick(r, SEPARATORS) : '') + recase(r, pick(r, WORDS));
  return out;
}

/** A search as a visitor might type it: words, bits of the stored texts, phrases, exclusions. */
function search(r: () => number, texts: readonly string[]): string {
  const terms: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    let term: string;
    const kind = r();
    if (kind < 0.35) term = recase(r, pick(r, WORDS));
    else if (kind < 0.85) {
      const chars = [...pick(r, texts)];
      const start = Math.floor(r() * chars.length);
      term = recase(r, chars.slice(start, start + 1 + Math.floor(r() * 8)).join(''));
    } else term = `"${recase(r, pick(r, WORDS))} ${recase(r, pick(r, WORDS))}"`;
    if (r() < 0.2) term = `-${term}`;
    terms.push(term);
  }
  return terms.join(' ').trim() || 'jazz';
}

describe('indexedPart', () => {
  it('is the longest run of ASCII or caseless characters of the lower-cased word, three or more', () => {
    expect(indexedPart('JAZZ')).toBe('jazz');
    expect(indexedPart('ab')).toBeUndefined();
    expect(indexedPart('été')).toBeUndefined();
    expect(indexedPart('Zürich')).toBe('rich');
    expect(indexedPart('FÊTE de')).toBe('te de');
    expect(indexedPart('東京タワー')).toBe('東京タワー');
    expect(indexedPart('50%')).toBe('50%');
    expect(indexedParts(['jazz', 'JAZZ', 'ab'])).toEqual(['jazz']);
    expect(trigramsOf('🎷sax')).toEqual(['🎷sa', 'sax']);
  });

  it('reads a phrase of 100,000 characters in one pass, up to a run of 64', () => {
    // Quadratic copying of the run took seconds here (the test timed out): checked by the result, not by the clock.
    expect(indexedPart(`${'ab'.repeat(50_000)}é${'x'.repeat(10)}`)).toBe('ab'.repeat(32));
    expect(indexedPart('éab'.repeat(33_000) + 'éxyzw')).toBe('xyzw');
    expect(indexedPart(`é${'Ab1'.repeat(3)}éxyzw`)).toBe('ab1'.repeat(3));
  });
});

describe.each(DIALECTS)('search index on $name', ({ name, url }) => {
  let t: TestCalendar;
  let raw: Kysely<unknown>;
  let db: Kysely<Database>;
  let prefix: string;
  let indexed: EventStore;
  /** The same, reading pages in start order and leaving the index out beside an ids filter (as for a search of many matches or candidates). */
  let walking: EventStore;
  let scanning: EventStore;
  const recorder = new Recorder();
  const texts: string[] = [];

  beforeAll(async () => {
    raw = await connectDatabase(url);
    t = await testCalendar(url, { db: raw });
    prefix = t.calendar.options.tablePrefix;
    const dialect = dialectOf(raw);
    db = raw.withPlugin(recorder).withPlugin(new TablePrefixPlugin(prefix, TABLES)) as unknown as Kysely<Database>;
    const fields = new FieldStore(db);
    indexed = new EventStore(db, dialect, fields, new SearchIndex(dialect, prefix));
    walking = new EventStore(db, dialect, fields, new SearchIndex(dialect, prefix), { matches: 0, candidates: 0 });
    // A store whose index is never found: it scans, as every search did before the index.
    scanning = new EventStore(db, dialect, fields, new SearchIndex(dialect, `${prefix}none_`));
    expect(await new SearchIndex(dialect, prefix).available(db)).toBe(true);

    const r = random(33);
    const posts = Array.from({ length: 150 }, (_, i) => {
      const [title, excerpt, content] = [text(r, 5), text(r, 4), text(r, 14)];
      texts.push(title, excerpt, content);
      return postRow({
        type: 'event',
        title,
        excerpt,
        content,
        date: `2026-01-01 10:${String(i % 60).padStart(2, '0')}:00`,
        password: r() < 0.1 ? 'secret' : null,
        status: r() < 0.1 ? 'draft' : 'publish',
      });
    });
    for (const [i, post] of posts.entries()) {
      const id = await dialect.insertReturningId(db.insertInto('posts').values(post));
      seeded.push(id);
      // Starts that tie now and then: the order's tie-breaker is compared too.
      const start = `2027-01-${String(1 + (i % 20)).padStart(2, '0')} 10:00:00`;
      await db.insertInto('events').values(eventRow(id, start)).execute();
    }
    // Series too: their occurrences are listed beside the events, by the same filters.
    for (let i = 0; i < 4; i++) {
      const [title, description] = [text(r, 5) || 'Series', text(r, 10)];
      texts.push(title, description);
      const day = String(3 + i * 4).padStart(2, '0');
      const res = await t.request('POST', '/events', {
        json: { title, description, start_date: `2027-01-${day} 10:00:00`, end_date: `2027-01-${day} 11:00:00`, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'] },
        as: 'admin',
      });
      expect(res.status).toBe(201);
    }
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await raw?.destroy();
  });

  /** The seeded events' ids: an `include` filter of them all, which the index's candidates may be tested after. */
  const seeded: number[] = [];
  const query = (text: string, searchPasswords: EventListQuery['searchPasswords'] = 'none', include?: readonly number[]): EventListQuery => ({
    include,
    statuses: ['publish', 'draft'],
    offset: 0,
    limit: 1000,
    search: searchWords(text),
    searchPasswords,
    orderByPublication: false,
  });

  /** What the indexed store and the scan find for `text`: ids in order, and totals. */
  const both = async (text: string, passwords?: EventListQuery['searchPasswords'], include?: readonly number[]) => {
    const read = async (store: EventStore) => {
      const { keys, total } = await store.list(query(text, passwords, include), undefined);
      return { ids: keys.map((k) => k.id), total };
    };
    const [a, w, b] = [await read(indexed), await read(walking), await read(scanning)];
    // Both ways of reading a page through the index find the same.
    expect(w, `search ${JSON.stringify(text)}`).toEqual(a);
    return { indexed: a, scanned: b };
  };

  it('finds what the scan finds, in the same order, for many random searches', async () => {
    const r = random(2026);
    let narrowed = 0;
    for (let i = 0; i < 200; i++) {
      const s = search(r, texts);
      const { indexed: a, scanned: b } = await both(s, r() < 0.2 ? 'all' : 'none', r() < 0.3 ? seeded : undefined);
      expect(a, `search ${JSON.stringify(s)}`).toEqual(b);
      if (b.total > 0 && indexedParts(searchWords(s).include).length) narrowed++;
    }
    // Enough of them went through the index and found something for the comparison to mean something.
    expect(narrowed).toBeGreaterThan(60);
  }, 120_000);

  it('finds what the scan finds for case, accents, LIKE characters and short words', async () => {
    for (const s of [
      'JAZZ',
      'jazz night',
      '"jazz night"',
      'ÉTÉ',
      'ete',
      'zürich',
      'ZURICH',
      'STRASSE',
      'straße',
      '50%',
      '5_0',
      '%off',
      'a_b',
      '!bang',
      'ab!c',
      'back\\slash',
      '東京',
      'タワー',
      'ΩΜΈΓΑ',
      'ωμέγα',
      'İstanbul',
      'ISTANBUL',
      'ǅEMAL',
      '🎷sax',
      'ab',
      'x',
      'jazz -rock',
      '-jazz',
      'trailing "ing "',
      'Kelvin',
      'KELVIN',
    ]) {
      const { indexed: a, scanned: b } = await both(s);
      expect(a, `search ${JSON.stringify(s)}`).toEqual(b);
    }
    expect((await both('jazz')).indexed.total).toBeGreaterThan(0);
  });

  it('is kept right by creates, edits, passwords, trash and deletes, through the API and by SQL', async () => {
    const found = async (word: string) => {
      const { indexed: a, scanned: b } = await both(word, 'all');
      expect(a, `search ${word}`).toEqual(b);
      return a.ids;
    };
    const res = await t.request('POST', '/events', {
      json: { title: 'Quasar gala', description: 'Zephyr lines', excerpt: 'Moonwalk', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' },
      as: 'admin',
    });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    expect(await found('quasar')).toEqual([id]);
    expect(await found('zephyr')).toEqual([id]);
    expect(await found('moonwalk')).toEqual([id]);

    expect((await t.request('POST', `/events/${id}`, { json: { title: 'Nebula gala' }, as: 'admin' })).status).toBe(200);
    expect(await found('quasar')).toEqual([]);
    expect(await found('nebula')).toEqual([id]);
    expect((await t.request('POST', `/events/${id}`, { json: { description: 'Pulsar lines', excerpt: 'Sunwalk' }, as: 'admin' })).status).toBe(200);
    expect(await found('zephyr')).toEqual([]);
    expect(await found('moonwalk')).toEqual([]);
    expect(await found('pulsar')).toEqual([id]);
    expect(await found('sunwalk')).toEqual([id]);

    // A password (the API writes none: set by SQL) keeps it out of searches that may not look into it, indexed or not.
    await db.updateTable('posts').set({ password: 'pw' }).where('id', '=', id).execute();
    expect(await both('nebula', 'none')).toEqual({ indexed: { ids: [], total: 0 }, scanned: { ids: [], total: 0 } });
    expect(await found('nebula')).toEqual([id]);

    // Trashed: out of the archive (its status), its text still indexed for when it comes back.
    expect((await t.request('DELETE', `/events/${id}`, { as: 'admin' })).status).toBe(200);
    expect(await found('nebula')).toEqual([]);
    await db.updateTable('posts').set({ status: 'publish' }).where('id', '=', id).execute();
    expect(await found('nebula')).toEqual([id]);

    // Written by SQL, not through the store: the database keeps the index.
    await db.updateTable('posts').set({ content: 'Magnetar' }).where('id', '=', id).execute();
    expect(await found('pulsar')).toEqual([]);
    expect(await found('magnetar')).toEqual([id]);

    // Deleted for good: gone from the index itself, not only from the archive.
    expect((await t.request('DELETE', `/events/${id}`, { query: { force: 'true' }, as: 'admin' })).status).toBe(200);
    expect(await found('nebula')).toEqual([]);
    expect(await indexRows(id)).toBe(0);
  });

  /** Rows the index holds for a post (SQLite and MySQL, whose index is a table; PostgreSQL's is on `posts` itself). */
  const indexRows = async (id: number) => {
    const { table } = searchIndexNames(prefix);
    if (name === 'postgres') return 0;
    const where = name === 'sqlite' ? sql`rowid = ${id}` : sql`post_id = ${id}`;
    // SQLite's external-content table reads `posts` for a rowid: ask the index instead, by the trigrams of `nebula`.
    const q =
      name === 'sqlite'
        ? sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${sql.table(table)} match '"neb" AND "ebu" AND "bul" AND "ula"' and ${where}`
        : sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${where}`;
    return Number((await q.execute(raw)).rows[0]?.n);
  };

  it('merges its segments eight at a time on SQLite (migration 011), four again once undone, and is no trouble elsewhere', async () => {
    const automerge = async () =>
      (await sql<{ v: number }>`select v from ${sql.table(`${searchIndexNames(prefix).table}_config`)} where k = 'automerge'`.execute(raw)).rows[0]?.v;
    // A store without the index (an SQLite without FTS5, or another database) is left as it is.
    await upMerges({ db: raw, prefix: `${prefix}none_` });
    if (name !== 'sqlite') return;
    expect(await automerge()).toBe(AUTOMERGE);
    await downMerges({ db: raw, prefix });
    expect(await automerge()).toBe(4);
    await raw.transaction().execute((trx) => upMerges({ db: trx, prefix }));
    expect(await automerge()).toBe(AUTOMERGE);
    // Posts added one at a time (a segment each) are still found as the scan finds them.
    const dialect = dialectOf(raw);
    const added: number[] = [];
    for (let i = 0; i < 40; i++) {
      const id = await dialect.insertReturningId(
        db.insertInto('posts').values(postRow({ type: 'event', title: `Merged ${i} Cassiopeia`, date: '2026-01-01 10:00:00' })),
      );
      await db.insertInto('events').values(eventRow(id, '2027-06-01 10:00:00')).execute();
      added.push(id);
    }
    const { indexed: a, scanned: b } = await both('cassiopeia');
    expect(a.total).toBe(40);
    expect(a).toEqual(b);
    for (const id of added) await db.deleteFrom('events').where('post_id', '=', id).execute();
    await db.deleteFrom('posts').where('id', 'in', added).execute();
  });

  it('indexes the posts stored before the migration', async () => {
    await down({ db: raw, prefix });
    const dialect = dialectOf(raw);
    const id = await dialect.insertReturningId(
      db.insertInto('posts').values(postRow({ type: 'event', title: 'Before the index: Andromeda', date: '2026-01-01 10:00:00' })),
    );
    await db.insertInto('events').values(eventRow(id, '2027-05-01 10:00:00')).execute();
    await raw.transaction().execute((trx) => up({ db: trx, prefix }));
    expect(await new SearchIndex(dialect, prefix).available(db)).toBe(true);
    const { indexed: a, scanned: b } = await both('andromeda');
    expect(a).toEqual({ ids: [id], total: 1 });
    expect(a).toEqual(b);
    for (let i = 0; i < 20; i++) {
      const s = search(random(i), texts);
      const r = await both(s);
      expect(r.indexed, `search ${JSON.stringify(s)}`).toEqual(r.scanned);
    }
  });

  it("looks a word of three characters or more up in the index (the database's plan)", async () => {
    // A word one post holds, and the tables' statistics up to date: the plan the planner would choose for a rare word.
    const dialect = dialectOf(raw);
    const id = await dialect.insertReturningId(db.insertInto('posts').values(postRow({ type: 'event', title: 'Xylophonic', date: '2026-01-01 10:00:00' })));
    await db.insertInto('events').values(eventRow(id, '2027-05-02 10:00:00')).execute();
    if (name === 'postgres') {
      // PostgreSQL reads a table of a few hundred rows by another index whatever the settings: 20,000 more posts.
      const posts = sql.table(`${prefix}posts`);
      await sql`insert into ${posts} (type, author, status, title, content, excerpt, date, date_utc, modified, modified_utc)
        select 'event', 1, 'publish', 'Filler ' || g, 'Some text ' || g, '', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00'
        from generate_series(1, 20000) g`.execute(raw);
    }
    if (name !== 'sqlite')
      for (const table of ['posts', 'events']) await sql`analyze ${name === 'mysql' ? sql`table ` : sql``}${sql.table(prefix + table)}`.execute(raw);
    recorder.nodes = [];
    expect((await indexed.list({ ...query('xylophonic'), limit: 10 }, undefined)).total).toBe(1);
    const prefixer = new TablePrefixPlugin(prefix, TABLES);
    const compiled = recorder.nodes
      .map(({ node, queryId }) => raw.getExecutor().compileQuery(prefixer.transformQuery({ node, queryId }), queryId))
      // The events' count and page (the few occurrences of the series are read from their own table first).
      .filter(
        (q) =>
          /^select/i.test(q.sql) &&
          q.sql.includes(searchIndexNames(prefix).table) === (name !== 'postgres') &&
          /like/i.test(q.sql) &&
          !/occurrences/.test(q.sql),
      );
    expect(compiled.length).toBeGreaterThan(0);
    for (const q of compiled) expect(await plan(q)).toMatch(expected());
  });

  const expected = () => {
    const { table, index } = searchIndexNames(prefix);
    if (name === 'sqlite') return new RegExp(`SCAN ${table} VIRTUAL TABLE INDEX`);
    if (name === 'postgres') return new RegExp(`Bitmap Index Scan on ${index}\\b`);
    // MariaDB: the side table (aliased g0…) read by its primary key (trigram, post).
    return /"table":"g0"[^}]*"key":"PRIMARY"/;
  };

  /** The database's plan of a compiled query, as text. */
  const plan = async (q: CompiledQuery): Promise<string> => {
    if (name === 'sqlite') {
      const { rows } = await raw.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
      return rows.map((r) => r.detail).join('\n');
    }
    if (name === 'postgres') {
      // A table this small is read whole when the planner may: asked not to, it shows the index it can use.
      return raw.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    }
    const { rows } = await raw.executeQuery(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
    return rows.map((r) => JSON.stringify(r)).join('\n');
  };

  it('scans for words the index cannot narrow (shorter than three plain characters)', async () => {
    recorder.nodes = [];
    await indexed.list({ ...query('ab été'), limit: 10 }, undefined);
    const prefixer = new TablePrefixPlugin(prefix, TABLES);
    const sqls = recorder.nodes.map(({ node, queryId }) => raw.getExecutor().compileQuery(prefixer.transformQuery({ node, queryId }), queryId).sql);
    expect(sqls.some((s) => /like/i.test(s))).toBe(true);
    expect(sqls.some((s) => s.includes(searchIndexNames(prefix).table) || /\|\| ' '/.test(s))).toBe(false);
  });
});
