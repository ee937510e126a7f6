import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testCalendar, type TestCalendar } from '../../helpers/harness.js';

describe.each(DIALECTS)('terms smoke on $name', ({ url }) => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(url);
  });
  afterAll(() => t.close());

  it('creates, lists, updates and deletes a category', async () => {
    const created = await t.request('POST', '/categories', { json: { name: 'Music', description: 'd' }, as: 'admin' });
    expect(created.status).toBe(201);
    expect(created.headers.Location).toBe(`${t.base}/categories/${created.body.id}`);
    const child = await t.request('POST', '/categories', { form: `name=Jazz&parent=${created.body.id}`, as: 'admin' });
    expect(child.status).toBe(201);
    expect(child.body.url).toBe('http://example.org/events/category/music/jazz/');
    const list = await t.request('GET', '/categories', { query: { hide_empty: 'false', search: 'JA' } });
    expect(list.body.total).toBe(1);
    expect(list.body.categories[0].name).toBe('Jazz');
    const hidden = await t.request('GET', '/categories');
    expect(hidden.body.total).toBe(0);
    const upd = await t.request('PATCH', `/categories/${child.body.id}`, { json: { slug: 'music' }, as: 'admin' });
    expect(upd.status).toBe(400);
    expect(upd.body.code).toBe('duplicate_term_slug');
    const del = await t.request('DELETE', `/categories/${created.body.id}`, { as: 'editor' });
    expect(del.status).toBe(200);
    const after = await t.request('GET', `/categories/${child.body.id}`);
    expect(after.body.parent).toBe(0);
  });
});
