import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTerms } from '../../src/import/terms.js';
import { CATEGORIES, TAGS } from '../../src/resources/terms/args.js';
import type { Store } from '../../src/resources/store.js';
import { DIALECTS, type TestCalendar } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { importTarget, type ImportTarget } from './target.js';

// Importing a source's categories and tags (issue 18) from a real server speaking the
// original's API (a calendar under tribe/events/v1), into a fresh store on every database.

describe.each(DIALECTS)('importing terms into $name', ({ url }) => {
  let source: HttpCalendar;
  let target: ImportTarget;
  let request: TestCalendar['request'];
  let store: Store;

  const create = async (collection: string, json: Record<string, unknown>) => {
    const res = await source.request('POST', `/${collection}`, { as: 'admin', json });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  /** A taxonomy as an API answers it, its parents named by slug (ids differ between the sites). */
  type Ask = (
    path: string,
    init: { query: Record<string, string | number> },
  ) => Promise<{ body: { [k: string]: { id: number; name: string; slug: string; description: string; parent?: number }[] } }>;
  const terms = async (ask: Ask, collection: string) => {
    const list: { id: number; name: string; slug: string; description: string; parent?: number }[] = [];
    for (let page = 1; page <= 2; page++) list.push(...(await ask(`/${collection}`, { query: { per_page: 50, page, hide_empty: 'false' } })).body[collection]!);
    const slugOf = new Map(list.map((t) => [t.id, t.slug]));
    return list
      .map((t) => ({ name: t.name, slug: t.slug, description: t.description, parent: t.parent ? slugOf.get(t.parent) : undefined }))
      .sort((a, b) => a.slug.localeCompare(b.slug));
  };

  beforeAll(async () => {
    source = await httpCalendar(':memory:', { namespace: 'tribe/events/v1' });
    const music = await create('categories', { name: 'Music & Arts', description: 'All <em>music</em>' });
    const jazz = await create('categories', { name: 'Jazz', parent: music });
    await create('categories', { name: 'Bebop', parent: jazz });
    await create('categories', { name: 'Théâtre' });
    for (let i = 0; i < 55; i++) await create('tags', { name: `Tag ${i}` });
    await create('tags', { name: 'Été & plein air' });
    target = await importTarget(url, source);
    ({ store, request } = target);
  }, 60_000);
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  it('copies every term with its hierarchy, then changes nothing on a second run', async () => {
    const first = await importTerms(target.run(), CATEGORIES);
    expect(first.report).toMatchObject({ created: 4, updated: 0, unchanged: 0, skipped: [], warnings: [] });
    const tags = await importTerms(target.run(), TAGS);
    // 56 tags over two pages of 50.
    expect(tags.report).toMatchObject({ created: 56, skipped: [] });
    for (const collection of ['categories', 'tags']) {
      expect(await terms((p, init) => request('GET', p, init), collection), collection).toEqual(
        await terms((p, init) => source.request('GET', p, init), collection),
      );
    }
    const before = await store.db.selectFrom('terms').selectAll().orderBy('id').execute();
    const again = await importTerms(target.run(), CATEGORIES);
    expect(again.report).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    expect((await importTerms(target.run(), TAGS)).report).toMatchObject({ created: 0, updated: 0, unchanged: 56 });
    expect(await store.db.selectFrom('terms').selectAll().orderBy('id').execute()).toEqual(before);
    expect([...again.ids.keys()].sort()).toEqual([...first.ids.keys()].sort());
  });

  it('updates what the source changed and adds what is new', async () => {
    const jazz = (await source.request('GET', '/categories', { query: { search: 'Jazz', hide_empty: 'false' } })).body.categories[0];
    expect((await source.request('POST', `/categories/${jazz.id}`, { as: 'admin', json: { name: 'Jazz & Blues', description: 'Blue notes' } })).status).toBe(
      200,
    );
    await create('categories', { name: 'Opera', parent: jazz.id });
    const run = await importTerms(target.run(), CATEGORIES);
    expect(run.report).toMatchObject({ created: 1, updated: 1, unchanged: 3 });
    expect(await terms((p, init) => request('GET', p, init), 'categories')).toEqual(await terms((p, init) => source.request('GET', p, init), 'categories'));
  });
});
