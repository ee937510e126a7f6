// What an argument check resolves is handed to the handler of the same request (issue 30): the
// terms an events archive's `categories`/`tags` name are looked up once, by the check, and the
// archive filters by them; the statements are counted on the calendar's own connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Kysely,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { connectDatabase } from '../../../src/store/connect.js';
import { DIALECTS, testCalendar, type TestCalendar } from '../../helpers/harness.js';
import { createEvent, createTerm, idsOf } from './fixtures.js';

/** Whether an operation node reads or writes the table `name` (the name before the table prefix). */
function names(node: unknown, name: string): boolean {
  if (typeof node !== 'object' || node === null) return false;
  const n = node as Partial<OperationNode> & { table?: { identifier?: { name?: string } } };
  if (n.kind === 'TableNode' && n.table?.identifier?.name === name) return true;
  return Object.values(node).some((v) => (Array.isArray(v) ? v.some((e) => names(e, name)) : names(v, name)));
}

/**
 * Records the statements that name the `terms` table, in the order they run: known as they are
 * compiled, recorded by their results (prepared queries are compiled once and run again).
 */
class TermStatements implements KyselyPlugin {
  readonly seen: string[] = [];
  readonly #kinds = new WeakMap<object, string>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (names(args.node, 'terms')) this.#kinds.set(args.queryId, args.node.kind);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const kind = this.#kinds.get(args.queryId);
    if (kind) this.seen.push(kind);
    return args.result;
  }
}

describe.each(DIALECTS)('checks hand what they resolved to the handler on $name', ({ url }) => {
  let t: TestCalendar;
  let raw: Kysely<unknown>;
  const statements = new TermStatements();
  let concert: number;
  let music: number;
  beforeAll(async () => {
    raw = await connectDatabase(url);
    t = await testCalendar(url, { db: raw.withPlugin(statements) });
    music = (await createTerm(t, 'categories', { name: 'Music' })).id;
    await createTerm(t, 'tags', { name: 'Outdoor' });
    await createTerm(t, 'tags', { name: 'Free' });
    concert = (
      await createEvent(t, {
        title: 'Concert',
        start_date: '2031-05-01 20:00:00',
        end_date: '2031-05-01 22:00:00',
        categories: ['music'],
        tags: ['outdoor', 'free'],
      })
    ).id;
    await createEvent(t, { title: 'Lecture', start_date: '2031-05-02 20:00:00', end_date: '2031-05-02 22:00:00' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await raw?.destroy();
  });

  /**
   * The statements naming `terms` that one archive read runs. The window holds no event, so that
   * rendering (the embedded terms of a page, one batch per taxonomy) adds none.
   */
  const termStatements = async (query: Record<string, string>, as: 'admin' | null = null) => {
    statements.seen.length = 0;
    const res = await t.request('GET', '/events', { query: { start_date: '2040-01-01', end_date: '2040-01-31', ...query }, as });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([]);
    return statements.seen.length;
  };

  it('filters by the terms named', async () => {
    const queries: Record<string, string>[] = [{ categories: 'music' }, { tags: 'outdoor' }, { categories: String(music) }, { tags: 'Outdoor,free' }];
    for (const query of queries) {
      const res = await t.request('GET', '/events', { query: { start_date: '2031-05-01', end_date: '2031-05-31', ...query } });
      expect(idsOf(res), JSON.stringify(query)).toEqual([concert]);
    }
  });

  it('looks a category filter up once: one statement for the name, one for its descendants', async () => {
    // Anonymous and signed in (a new query string each time: the response cache has no answer).
    // Before: 3 (the check looked `music` up, then the archive again).
    expect(await termStatements({ categories: 'music' })).toBe(2);
    expect(await termStatements({ categories: 'music' }, 'admin')).toBe(2);
    expect(await termStatements({ categories: String(music), per_page: '3' })).toBe(2);
  });

  it('looks a tag filter up once: one statement for the name', async () => {
    // Before: 2.
    expect(await termStatements({ tags: 'outdoor' })).toBe(1);
  });

  it('looks each of several terms up once', async () => {
    // Before: 4.
    expect(await termStatements({ tags: 'outdoor,free' }, 'admin')).toBe(2);
  });

  it('refuses a filter at its first term that names none, as before', async () => {
    statements.seen.length = 0;
    const res = await t.request('GET', '/events', { query: { tags: 'no-such-tag,outdoor' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    // By slug, then by name; `outdoor` is not looked up.
    expect(statements.seen.length).toBe(2);
  });
});
