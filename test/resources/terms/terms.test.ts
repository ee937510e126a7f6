import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TermStore } from '../../../src/resources/terms/store.js';
import type { As, TestResponse } from '../../helpers/harness.js';
import { DIALECTS } from '../../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

// Categories and tags (lists.md §1–3 and §7, writes.md §5, responses.md §5.1, auth.md §2),
// on every database of DIALECTS.

type Json = Record<string, unknown>;

const MISSING_NAME = { code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } };
const TERM_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'];
const TAG_KEYS = TERM_KEYS.filter((k) => k !== 'parent');
const NOT_HIERARCHICAL = { code: 'rest_taxonomy_not_hierarchical', message: 'Cannot set parent term, taxonomy is not hierarchical.', data: { status: 400 } };

function invalid(...names: string[]) {
  return {
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${names.join(', ')}`,
    data: { status: 400, params: Object.fromEntries(names.map((n) => [n, 'Invalid parameter.'])), details: [] },
  };
}

function typeError(name: string, type: string) {
  const message = `${name} is not of type ${type}.`;
  return {
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${name}`,
    data: { status: 400, params: { [name]: message }, details: { [name]: { code: 'rest_invalid_type', message, data: { param: name } } } },
  };
}

/** Every error answer: the JSON error shape, never a 5xx. */
function expectClientError(r: TestResponse, context: string): void {
  expect(r.status, context).toBeGreaterThanOrEqual(400);
  expect(r.status, context).toBeLessThan(500);
  expect(Object.keys(r.body).slice(0, 3), context).toEqual(['code', 'message', 'data']);
  expect(typeof r.body.code, context).toBe('string');
  expect(r.body.data.status, context).toBe(r.status);
}

const names = (r: TestResponse, key = 'categories') => (r.body[key] as Json[]).map((c) => c.name);
const ids = (r: TestResponse, key = 'categories') => (r.body[key] as Json[]).map((c) => c.id);

describe.each(DIALECTS)('categories and tags on $name', ({ url }) => {
  const errors: unknown[] = [];
  const open = (options = {}) => storeCalendar(url, { onError: (e) => errors.push(e), ...options });
  afterAll(() => expect(errors).toEqual([]));

  const create = async (t: StoreCalendar, collection: 'categories' | 'tags', body: Json, as: As = 'admin') => {
    const r = await t.request('POST', `/${collection}`, { json: body, as });
    if (r.status !== 201) throw new Error(`create ${JSON.stringify(body)}: ${r.status} ${r.text}`);
    return r.body as Json & { id: number; slug: string };
  };

  describe('archive paging', () => {
    let t: StoreCalendar;
    beforeAll(async () => {
      t = await open();
      for (let i = 1; i <= 52; i++) await create(t, 'tags', { name: `Tag ${String(i).padStart(2, '0')}` });
    });
    afterAll(() => t.close());

    it.each(['foo', '-1', '0', 'foo bar', '1.5', '', '0x10', '1e-1'])('rejects page and per_page %j', async (value) => {
      const page = await t.request('GET', '/tags', { query: { page: value } });
      expect(page.status).toBe(400);
      expect(page.body).toEqual(invalid('page'));
      expect(page.headers).not.toHaveProperty('X-TEC-Total');
      const both = await t.request('GET', '/categories', { query: { per_page: value, page: value } });
      expect(both.body).toEqual(invalid('page', 'per_page'));
    });

    it('clamps per_page to 50 (52 tags, per_page=100 → 50 items, 2 pages)', async () => {
      const r = await t.request('GET', '/tags', { query: 'per_page=100&hide_empty=0' });
      expect(r.status).toBe(200);
      expect(r.body.tags).toHaveLength(50);
      expect(r.body.total).toBe(52);
      expect(r.body.total_pages).toBe(2);
      expect(r.headers['X-TEC-Total']).toBe('52');
      expect(r.headers['X-TEC-TotalPages']).toBe('2');
      // The carried per_page is the effective one, so that following the URL gives the same pages.
      expect(r.body.rest_url).toBe(`${t.base}/tags/?per_page=50&hide_empty=0`);
      expect(r.body.next_rest_url).toBe(`${t.base}/tags/?per_page=50&hide_empty=0&page=2`);
      const second = await t.request('GET', '/tags', { query: 'per_page=100&hide_empty=0&page=2' });
      expect(names(second, 'tags')).toEqual(['Tag 51', 'Tag 52']);
      expect(second.body).not.toHaveProperty('next_rest_url');
      expect(second.body.previous_rest_url).toBe(`${t.base}/tags/?per_page=50&hide_empty=0`);
    });

    it('uses the default per_page of 10', async () => {
      const r = await t.request('GET', '/tags', { query: 'hide_empty=0&page=3' });
      expect(names(r, 'tags')).toEqual(Array.from({ length: 10 }, (_, i) => `Tag ${21 + i}`));
      expect(r.body.total_pages).toBe(6);
      expect(Object.keys(r.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags', 'next_rest_url', 'previous_rest_url']);
      expect(r.body.next_rest_url).toBe(`${t.base}/tags/?hide_empty=0&page=4`);
      expect(r.body.previous_rest_url).toBe(`${t.base}/tags/?hide_empty=0&page=2`);
    });

    it('answers a page past the last with 200, an empty list and previous_rest_url', async () => {
      const r = await t.request('GET', '/tags', { query: 'hide_empty=0&page=999' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        rest_url: `${t.base}/tags/?hide_empty=0`,
        total: 52,
        total_pages: 6,
        tags: [],
        previous_rest_url: `${t.base}/tags/?hide_empty=0&page=998`,
      });
      expect(r.headers['X-TEC-Total']).toBe('52');
      const huge = await t.request('GET', '/tags', { query: 'hide_empty=0&page=999999999999999&per_page=50' });
      expect(huge.status).toBe(200);
      expect(huge.body.tags).toEqual([]);
    });

    it('answers an empty archive with total 0 and no paging URLs', async () => {
      const r = await t.request('GET', '/categories');
      expect(r.body).toEqual({ rest_url: `${t.base}/categories/`, total: 0, total_pages: 0, categories: [] });
      expect(r.headers['X-TEC-Total']).toBe('0');
      expect(r.headers['X-TEC-TotalPages']).toBe('0');
    });
  });

  describe('archive paging URLs without filters (upstream form)', () => {
    let t: StoreCalendar;
    beforeAll(async () => {
      t = await open({ perPage: 2 });
      const tags: number[] = [];
      for (const name of ['t1', 't2', 't3', 't4', 't5']) tags.push((await create(t, 'tags', { name })).id);
      await t.addEvent({ terms: tags });
    });
    afterAll(() => t.close());

    it('gives rest_url without a query and page-only next/previous URLs', async () => {
      const p1 = await t.request('GET', '/tags');
      expect(p1.body.rest_url).toBe(`${t.base}/tags/`);
      expect(p1.body.next_rest_url).toBe(`${t.base}/tags/?page=2`);
      expect(p1.body).not.toHaveProperty('previous_rest_url');
      const p2 = await t.request('GET', '/tags', { query: 'page=2' });
      expect(Object.keys(p2.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags', 'next_rest_url', 'previous_rest_url']);
      expect(p2.body).toMatchObject({
        rest_url: `${t.base}/tags/`,
        total: 5,
        total_pages: 3,
        next_rest_url: `${t.base}/tags/?page=3`,
        previous_rest_url: `${t.base}/tags/`,
      });
      const p3 = await t.request('GET', '/tags', { query: 'page=3' });
      expect(names(p3, 'tags')).toEqual(['t5']);
      expect(p3.body).not.toHaveProperty('next_rest_url');
      expect(p3.body.previous_rest_url).toBe(`${t.base}/tags/?page=2`);
    });

    it('carries the filters sent (never page) into the paging URLs', async () => {
      const r = await t.request('GET', '/tags', { query: 'search=t&order=desc&page=2&per_page=1' });
      expect(r.body.rest_url).toBe(`${t.base}/tags/?per_page=1&search=t&order=desc`);
      expect(r.body.next_rest_url).toBe(`${t.base}/tags/?per_page=1&search=t&order=desc&page=3`);
      expect(r.body.previous_rest_url).toBe(`${t.base}/tags/?per_page=1&search=t&order=desc`);
      const followed = await t.request('GET', '/tags', { query: new URL(r.body.next_rest_url).search.slice(1) });
      expect(names(followed, 'tags')).toEqual(['t3']);
    });
  });

  describe('archive filters', () => {
    let t: StoreCalendar;
    const id = {} as Record<'b' | 'A' | 'C' | 'foo' | 'bar' | 'pct' | 'parent' | 'child' | 'grandchild' | 'privateOnly' | 'tag' | 'tag2', number>;
    let event: number;
    let other: number;
    let venue: number;

    beforeAll(async () => {
      t = await open();
      // Created in this order, so that id order differs from name order.
      for (const name of ['b', 'A', 'C'] as const) id[name] = (await create(t, 'categories', { name })).id;
      id.foo = (await create(t, 'categories', { name: 'Foo' })).id;
      id.bar = (await create(t, 'categories', { name: 'Bar', slug: 'foo-bar' })).id;
      id.pct = (await create(t, 'categories', { name: '50% off_now' })).id;
      id.parent = (await create(t, 'categories', { name: 'Parent' })).id;
      id.child = (await create(t, 'categories', { name: 'Child', parent: id.parent })).id;
      id.grandchild = (await create(t, 'categories', { name: 'Grandchild', parent: id.child })).id;
      id.privateOnly = (await create(t, 'categories', { name: 'Private only' })).id;
      id.tag = (await create(t, 'tags', { name: 'Tagged' })).id;
      id.tag2 = (await create(t, 'tags', { name: 'Unused tag' })).id;
      event = await t.addEvent({ terms: [id.child, id.b, id.tag] });
      other = await t.addEvent({ terms: [id.A, id.b] });
      await t.addEvent({ status: 'private', terms: [id.privateOnly] });
      await t.addEvent({ status: 'draft', terms: [id.C] });
      venue = await t.addEvent({ type: 'venue' });
    });
    afterAll(() => t.close());

    const all = (query: string, key = 'categories') =>
      t.request('GET', `/${key}`, { query: query ? `hide_empty=0&per_page=50&${query}` : 'hide_empty=0&per_page=50' });

    it('hides terms without a published event by default, but shows ancestors of non-empty ones', async () => {
      const r = await t.request('GET', '/categories');
      expect(names(r)).toEqual(['A', 'b', 'Child', 'Parent']);
      expect(r.body.total).toBe(4);
      const counts = Object.fromEntries((r.body.categories as Json[]).map((c) => [c.name, c.count]));
      expect(counts).toEqual({ A: 1, b: 2, Child: 1, Parent: 0 });
      expect(names(await t.request('GET', '/tags'), 'tags')).toEqual(['Tagged']);
      expect(names(await t.request('GET', '/tags', { query: 'hide_empty=false' }), 'tags')).toEqual(['Tagged', 'Unused tag']);
      expect(names(await t.request('GET', '/categories', { query: 'hide_empty=1' }))).toEqual(['A', 'b', 'Child', 'Parent']);
    });

    it('shows every term with hide_empty=false, counting published events only', async () => {
      const r = await all('');
      expect(r.body.total).toBe(10);
      const privateOnly = (r.body.categories as Json[]).find((c) => c.id === id.privateOnly);
      expect(privateOnly?.count).toBe(0);
      expect((r.body.categories as Json[]).find((c) => c.id === id.C)?.count).toBe(0);
    });

    it.each(['yes', 'on', '', '2', 'truee'])('rejects hide_empty=%j with rest_invalid_type', async (value) => {
      expect((await t.request('GET', '/categories', { query: { hide_empty: value } })).body).toEqual(typeError('hide_empty', 'boolean'));
    });

    it('orders by name case-insensitively by default: b, A, C → A, b, C', async () => {
      const r = await all(`include=${id.b},${id.A},${id.C}`);
      expect(names(r)).toEqual(['A', 'b', 'C']);
      expect(names(await all(`include=${id.b},${id.A},${id.C}&order=desc`))).toEqual(['C', 'b', 'A']);
      expect(names(await all(`include=${id.b},${id.A},${id.C}&orderby=name&order=ASC`))).toEqual(['A', 'b', 'C']);
    });

    it('orders by id; any order but asc is descending', async () => {
      expect(names(await all(`include=${id.b},${id.A},${id.C}&orderby=id&order=desc`))).toEqual(['C', 'A', 'b']);
      expect(names(await all(`include=${id.b},${id.A},${id.C}&orderby=id`))).toEqual(['b', 'A', 'C']);
      expect(names(await all(`include=${id.b},${id.A},${id.C}&orderby=term_id&order=whatever`))).toEqual(['C', 'A', 'b']);
      expect(names(await all(`include=${id.b},${id.A},${id.C}&order=whatever`))).toEqual(['C', 'b', 'A']);
    });

    it('orders by slug, count and include order; an unknown orderby orders by name', async () => {
      expect(names(await all(`include=${id.foo},${id.bar},${id.A}&orderby=slug`))).toEqual(['A', 'Foo', 'Bar']);
      expect(names(await all(`include=${id.A},${id.b},${id.C}&orderby=count&order=desc`))).toEqual(['b', 'A', 'C']);
      expect(names(await all(`include=${id.C},${id.A},${id.b}&orderby=include`))).toEqual(['C', 'A', 'b']);
      expect(names(await all(`include=${id.C},${id.A},${id.b}&orderby=bogus`))).toEqual(['A', 'b', 'C']);
    });

    it('rejects empty order and orderby', async () => {
      expect((await all('orderby=')).body).toEqual(invalid('orderby'));
      expect((await all('order=&orderby=')).body).toEqual(invalid('order', 'orderby'));
      expect((await all('order[]=asc')).body).toEqual(invalid('order'));
    });

    it('searches name or slug, case-insensitively, with % and _ taken literally', async () => {
      expect(names(await all('search=foo'))).toEqual(['Bar', 'Foo']);
      expect(names(await all('search=FOO-B'))).toEqual(['Bar']);
      expect(names(await all('search=%25'))).toEqual(['50% off_now']);
      expect(names(await all('search=_'))).toEqual(['50% off_now']);
      expect((await all('search=zzz')).body.total).toBe(0);
      expect((await all('search=')).body).toEqual(invalid('search'));
      expect((await all('search[]=a')).body).toEqual(invalid('search'));
    });

    it('includes and excludes by id; slugs and names validate but match nothing', async () => {
      expect(names(await all(`include=${id.A},${id.C}`))).toEqual(['A', 'C']);
      expect(names(await all(`include[]=${id.A}&include[]=${id.C}`))).toEqual(['A', 'C']);
      expect((await all('include=foo')).body.total).toBe(0);
      expect((await all('include=Foo')).body.total).toBe(0);
      expect(names(await all(`include=foo,${id.A}`))).toEqual(['A']);
      const excluded = await all(`exclude=${id.A},${id.b},foo`);
      expect(excluded.body.total).toBe(8);
      expect(names(excluded)).not.toContain('A');
    });

    it('rejects include and exclude elements that name no term of the taxonomy', async () => {
      expect((await all('include=987654')).body).toEqual(invalid('include'));
      expect((await all(`exclude=${id.A},987654`)).body).toEqual(invalid('exclude'));
      expect((await all(`include=${id.tag}`)).body).toEqual(invalid('include'));
      expect((await all(`include=${id.A}`, 'tags')).body).toEqual(invalid('include'));
      expect((await all('include=nothing-like-this')).body).toEqual(invalid('include'));
      expect((await all('include=')).body).toEqual(invalid('include'));
      expect((await all('include[a]=1')).body).toEqual(invalid('include'));
      // Each element costs a look-up: a list far over the limits fails, a long one is fine.
      const huge = await t.request('GET', '/categories', { json: { include: Array.from({ length: 5000 }, (_, i) => i + 1), hide_empty: false } });
      expect(huge.status).toBe(400);
      expect(huge.body.message).toBe('Invalid parameter(s): include');
      const repeated = Array.from({ length: 150 }, () => id.A);
      expect(names(await t.request('GET', '/categories', { json: { include: repeated, hide_empty: false } }))).toEqual(['A']);
      expect((await all(`include[0][0]=${id.A}`)).body).toEqual(invalid('include'));
    });

    it('lists the direct children of parent', async () => {
      expect(names(await all(`parent=${id.parent}`))).toEqual(['Child']);
      expect(names(await all(`parent=${id.child}`))).toEqual(['Grandchild']);
      expect((await all(`parent=${id.A}`)).body.total).toBe(0);
    });

    it('rejects parent 0, "", unknown ids, tags, and a slug (with rest_invalid_type)', async () => {
      for (const value of ['0', '', '2389', String(id.tag), '-1', 'nothing']) {
        expect((await all(`parent=${value}`)).body, value).toEqual(invalid('parent'));
      }
      expect((await all('parent=parent')).body).toEqual(typeError('parent', 'integer'));
    });

    it('ignores parent on /tags', async () => {
      const r = await all(`parent=${id.parent}`, 'tags');
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(2);
    });

    it('filters by event (alias post); event wins over post', async () => {
      expect(names(await all(`event=${event}`))).toEqual(['b', 'Child']);
      expect(names(await all(`post=${event}`))).toEqual(['b', 'Child']);
      expect(names(await all(`post=${event}&event=${other}`))).toEqual(['A', 'b']);
      expect(names(await all(`event=${event}`, 'tags'), 'tags')).toEqual(['Tagged']);
      expect(names(await t.request('GET', '/categories', { query: `event=${event}` }))).toEqual(['b', 'Child']);
    });

    it('rejects post and event that are not event ids', async () => {
      for (const value of ['', '23', 'foo', String(venue), '0', '-1', '1.5', '99999999999']) {
        expect((await all(`post=${value}`)).body, value).toEqual(invalid('post'));
        expect((await all(`event=${value}`, 'tags')).body, value).toEqual(invalid('event'));
      }
    });

    it('filters by exactly one slug (sanitised as WordPress does)', async () => {
      expect(names(await all('slug=foo-bar'))).toEqual(['Bar']);
      expect(names(await all('slug=FOO-BAR'))).toEqual(['Bar']);
      expect(names(await all('slug=foo'))).toEqual(['Foo']);
      expect((await all('slug=fo')).body.total).toBe(0);
      expect((await all('slug=')).body).toEqual(invalid('slug'));
      expect((await all('slug[]=foo')).body).toEqual(invalid('slug'));
    });

    it('combines filters, counting total across pages', async () => {
      const r = await t.request('GET', '/categories', { query: `hide_empty=0&search=a&per_page=2&exclude=${id.bar}` });
      expect(r.body.total).toBe(4);
      expect(r.body.total_pages).toBe(2);
      expect(names(r)).toEqual(['A', 'Grandchild']);
    });

    it('survives hostile filter values', async () => {
      const hostile = [
        "search='; drop table x; --",
        `search=${encodeURIComponent("' OR 1=1 --")}`,
        'search=%00',
        'search=%ED%A0%80',
        'search=\uD800',
        `search=${'a'.repeat(100_000)}`,
        `slug=${encodeURIComponent('😀 مرحبا')}`,
        `slug=${'x'.repeat(5000)}`,
        `include=${encodeURIComponent('1) OR (1=1')}`,
        `exclude[]=${encodeURIComponent('{"a":1}')}`,
        'orderby=id;drop',
        `orderby=${encodeURIComponent('name desc, (select 1)')}`,
        'order=%00',
        `page=1&per_page=${'9'.repeat(40)}`,
        'event=%F0%9F%98%80',
        `parent=${'1'.repeat(30)}`,
      ];
      for (const query of hostile) {
        const r = await t.request('GET', '/categories', { query });
        expect(r.status, query.slice(0, 60)).toBeLessThan(500);
        if (r.status !== 200) expectClientError(r, query.slice(0, 60));
      }
      // A needle too long for SQLite's LIKE (test/store/like.test.ts covers the matching).
      const long = await t.request('GET', '/tags', { query: 'hide_empty=0', json: { search: 'x'.repeat(60_000) } });
      if (long.status === 200) expect(long.body.total).toBe(0);
      else expectClientError(long, '60 kB search');
      expect(await t.rows('terms')).toBe(12);
    });
  });

  describe('single term', () => {
    let t: StoreCalendar;
    let parent: Json & { id: number };
    let child: Json & { id: number };
    let tag: Json & { id: number };
    beforeAll(async () => {
      t = await open();
      parent = await create(t, 'categories', { name: 'Foo parent', description: 'Parent description' });
      child = await create(t, 'categories', { name: 'foo', slug: 'foo-bar', parent: parent.id, description: 'Term description' });
      tag = await create(t, 'tags', { name: 'Some tag' });
      await t.addEvent({ terms: [child.id] });
      await t.addEvent({ terms: [child.id] });
    });
    afterAll(() => t.close());

    it('answers the term shape of responses.md §5.1 with _links', async () => {
      const r = await t.request('GET', `/categories/${child.id}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual([...TERM_KEYS, '_links']);
      expect(r.body).toMatchObject({
        id: child.id,
        count: 2,
        description: 'Term description',
        name: 'foo',
        slug: 'foo-bar',
        taxonomy: 'tribe_events_cat',
        parent: parent.id,
        meta: [],
        url: 'http://example.org/events/category/foo-parent/foo-bar/',
        urls: {
          self: `${t.base}/categories/${child.id}`,
          collection: `${t.base}/categories`,
          up: `${t.base}/categories/${parent.id}`,
        },
      });
      expect(Object.keys(r.body.urls)).toEqual(['self', 'collection', 'up']);
      expect(r.body._links.self).toEqual([{ href: `${t.base}/categories/${child.id}`, targetHints: { allow: ['GET'] } }]);
      expect(r.body._links.up).toEqual([{ embeddable: true, href: `${t.base}/categories/${parent.id}` }]);
      const admin = await t.request('GET', `/categories/${child.id}`, { as: 'admin' });
      expect(admin.body._links.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      const top = await t.request('GET', `/categories/${parent.id}`);
      expect(Object.keys(top.body.urls)).toEqual(['self', 'collection']);
      expect(top.body.parent).toBe(0);
      expect(top.body._links).not.toHaveProperty('up');
    });

    it('gives tags no parent key and tag URLs', async () => {
      const r = await t.request('GET', `/tags/${tag.id}`);
      expect(Object.keys(r.body)).toEqual([...TAG_KEYS, '_links']);
      expect(r.body).toMatchObject({
        taxonomy: 'post_tag',
        url: 'http://example.org/tag/some-tag/',
        urls: { self: `${t.base}/tags/${tag.id}`, collection: `${t.base}/tags` },
      });
    });

    it('answers 400 rest_invalid_param (not 404) for ids that are no term of the taxonomy', async () => {
      for (const path of [
        '/categories/2389',
        `/categories/${tag.id}`,
        `/tags/${parent.id}`,
        '/categories/0',
        '/categories/2147483648',
        '/categories/99999999999999999999',
        `/categories/${'9'.repeat(400)}`,
      ]) {
        const r = await t.request('GET', path);
        expect(r.status, path).toBe(400);
        expect(r.body, path).toEqual(invalid('id'));
      }
      expect((await t.request('GET', `/categories/000${parent.id}`)).body.id).toBe(parent.id);
    });
  });

  describe('create', () => {
    let t: StoreCalendar;
    beforeAll(async () => {
      t = await open();
    });
    afterAll(() => t.close());

    it('answers 201 with Location and the term (count 0, _links last)', async () => {
      const r = await t.request('POST', '/categories', { json: { name: 'Music', description: 'Desc <b>b</b>' }, as: 'admin' });
      expect(r.status).toBe(201);
      expect(r.headers.Location).toBe(`${t.base}/categories/${r.body.id}`);
      expect(Object.keys(r.body)).toEqual([...TERM_KEYS, '_links']);
      expect(r.body).toMatchObject({ count: 0, description: 'Desc <b>b</b>', name: 'Music', slug: 'music', taxonomy: 'tribe_events_cat', parent: 0, meta: [] });
      const tag = await t.request('POST', '/tags', { form: 'name=Outdoor', as: 'editor' });
      expect(tag.status).toBe(201);
      expect(tag.headers.Location).toBe(`${t.base}/tags/${tag.body.id}`);
      expect(Object.keys(tag.body)).toEqual([...TAG_KEYS, '_links']);
      expect(tag.body.taxonomy).toBe('post_tag');
    });

    it('sanitises the name as WordPress stores it: `A & B <b>x</b>` → `A &amp; B x`', async () => {
      const r = await create(t, 'categories', { name: 'A & B <b>x</b>' });
      expect(r.name).toBe('A &amp; B x');
      expect(r.slug).toBe('a-b-x');
      expect((await t.request('GET', `/categories/${r.id}`)).body.name).toBe('A &amp; B x');
      const entity = await create(t, 'tags', { name: 'Tom &amp; Jerry\n\t  show' });
      expect(entity.name).toBe('Tom &amp; Jerry show');
    });

    it('answers term_exists with the existing id for a duplicate name at the same level', async () => {
      const first = await create(t, 'categories', { name: 'Dup' });
      const again = await t.request('POST', '/categories', { json: { name: 'dup' }, as: 'admin' });
      expect(again.status).toBe(400);
      expect(again.text).toBe(
        `{"code":"term_exists","message":"A term with the name provided already exists with this parent.","data":{"status":400,"term_id":${first.id}},"additional_data":[${first.id},${first.id}]}`,
      );
      const tag = await create(t, 'tags', { name: 'DupTag' });
      const tagAgain = await t.request('POST', '/tags', { json: { name: 'DupTag', slug: 'duptag' }, as: 'admin' });
      expect(tagAgain.body).toEqual({
        code: 'term_exists',
        message: 'A term with the name provided already exists in this taxonomy.',
        data: { status: 400, term_id: tag.id },
        additional_data: [tag.id, tag.id],
      });
      // A different, free slug makes a second term of the same name.
      const distinct = await t.request('POST', '/tags', { json: { name: 'DupTag', slug: 'duptag-other' }, as: 'admin' });
      expect(distinct.status).toBe(201);
      expect(distinct.body.slug).toBe('duptag-other');
    });

    it('numbers a taken slug with the first free number, asking for many numbers at a time', async () => {
      // Names that differ but give one slug: `crowd`, `crowd-2`… `crowd-300` but `crowd-150`.
      const rows = [{ name: 'Crowd', slug: 'crowd' }];
      for (let n = 2; n <= 300; n++) if (n !== 150) rows.push({ name: `Crowd ${n}`, slug: `crowd-${n}` });
      await t.db
        .insertInto('terms')
        .values(rows.map((r) => ({ taxonomy: 'post_tag', description: '', parent: 0, ...r })))
        .execute();
      const one = vi.spyOn(TermStore.prototype, 'slugTaken');
      const many = vi.spyOn(TermStore.prototype, 'slugsTaken');
      try {
        expect((await create(t, 'tags', { name: 'Crowd!' })).slug).toBe('crowd-150');
        expect((await create(t, 'tags', { name: 'Crowd?' })).slug).toBe('crowd-301');
        // One number at a time, as WordPress asks, would be some 450 queries for the two.
        expect(one.mock.calls.length + many.mock.calls.length).toBeLessThanOrEqual(16);
      } finally {
        one.mockRestore();
        many.mockRestore();
      }
    });

    it('makes slugs unique: child categories get -parentslug, then numbers', async () => {
      const a = await create(t, 'categories', { name: 'ZZ Cat A' });
      const child = await create(t, 'categories', { name: 'ZZ Cat Child' });
      const underChild = await create(t, 'categories', { name: 'ZZ Cat A', parent: child.id });
      expect(a.slug).toBe('zz-cat-a');
      expect(underChild.slug).toBe('zz-cat-a-zz-cat-child');
      expect(underChild.url).toBe('http://example.org/events/category/zz-cat-child/zz-cat-a-zz-cat-child/');
      const given = await create(t, 'categories', { name: 'Another', slug: 'zz-cat-a' });
      expect(given.slug).toBe('zz-cat-a-2');
      const tagged = await create(t, 'tags', { name: 'Elsewhere', slug: 'zz-cat-a' });
      expect(tagged.slug).toBe('zz-cat-a');
      const symbols = await create(t, 'tags', { name: '!!!' });
      expect(symbols.slug).toBe(String(symbols.id));
      const given2 = await create(t, 'tags', { name: 'Sluggy', slug: 'Mixed Case Slug' });
      expect(given2.slug).toBe('mixed-case-slug');
    });

    it('rejects parent on tags with rest_taxonomy_not_hierarchical (even 0), but not a null parent', async () => {
      for (const parent of [1, 0, 'x']) {
        const r = await t.request('POST', '/tags', { json: { name: `With parent ${parent}`, parent }, as: 'admin' });
        expect(r.body).toEqual(NOT_HIERARCHICAL);
      }
      expect((await t.request('POST', '/tags', { json: { name: 'Null parent', parent: null }, as: 'admin' })).status).toBe(201);
    });

    it('validates the fields', async () => {
      const before = await t.rows('terms');
      const cases: [Json | string, unknown][] = [
        [{}, MISSING_NAME],
        [{ description: 'only' }, MISSING_NAME],
        [{ name: '' }, invalid('name')],
        [{ name: '0' }, invalid('name')],
        [{ name: 'x', description: '' }, invalid('description')],
        [{ name: 'x', slug: '' }, invalid('slug')],
        [{ name: 'x', parent: 0 }, invalid('parent')],
        [{ name: 'x', parent: 2389 }, invalid('parent')],
        [{ name: 'x', parent: '' }, invalid('parent')],
        [{ name: 'x', parent: 'music' }, typeError('parent', 'integer')],
        [{ name: 5 }, invalid('name')],
        [{ name: true }, invalid('name')],
        [{ name: ['a'] }, invalid('name')],
        [{ name: { a: 'b' } }, invalid('name')],
        [{ name: 'x', description: ['x'] }, invalid('description')],
        [{ name: 'x', slug: {} }, invalid('slug')],
        [{ name: 'x', parent: [1] }, invalid('parent')],
        [{ name: 'x', parent: {} }, invalid('parent')],
        [{ name: 'x', parent: -1 }, invalid('parent')],
        [{ name: 'x', parent: 1.5 }, invalid('parent')],
        [{ name: 'x', parent: 1e300 }, invalid('parent')],
        [{ name: 'x', parent: '99999999999999999999' }, invalid('parent')],
        [{ name: '', description: '', slug: '' }, invalid('name', 'description', 'slug')],
        [{ name: '<b></b>' }, { code: 'empty_term_name', message: 'A name is required for this term.', data: { status: 400 } }],
        [{ name: ' \u0000 ' }, { code: 'empty_term_name', message: 'A name is required for this term.', data: { status: 400 } }],
        ['name[a][b]=x', invalid('name')],
        ['name[]=a&name[]=b', invalid('name')],
      ];
      for (const [body, expected] of cases) {
        const r = await t.request('POST', '/categories', typeof body === 'string' ? { form: body, as: 'admin' } : { json: body, as: 'admin' });
        expect(r.body, JSON.stringify(body)).toEqual(expected);
        expectClientError(r, JSON.stringify(body));
      }
      // Nested past the bracket depth: refused (as too large, or by the check).
      const deep = await t.request('POST', '/categories', { form: 'name[a][b][c][d][e][f][g][h]=x', as: 'admin' });
      expectClientError(deep, 'deep brackets');
      expect(deep.body.message).toBe('Invalid parameter(s): name');
      expect(await t.rows('terms')).toBe(before);
    });

    it('rejects names and slugs too long to store, writing nothing', async () => {
      const before = await t.rows('terms');
      const tooLong = { code: 'db_insert_error', message: 'Could not insert term into the database.', data: { status: 400 } };
      for (const body of [{ name: 'n'.repeat(201) }, { name: '&'.repeat(50) }, { name: 'ok', description: 'd'.repeat(65_536) }]) {
        const r = await t.request('POST', '/categories', { json: body, as: 'admin' });
        expect(r.body, JSON.stringify(body).slice(0, 40)).toEqual(tooLong);
      }
      // 100 kB: refused as too long to store, or earlier by the parameter limits.
      const huge = await t.request('POST', '/categories', { json: { name: 'x'.repeat(100_000) }, as: 'admin' });
      expectClientError(huge, '100 kB name');
      expect(['db_insert_error', 'rest_invalid_param']).toContain(huge.body.code);
      expect(await t.rows('terms')).toBe(before);
      const max = await create(t, 'categories', { name: 'm'.repeat(200) });
      expect(max.name).toHaveLength(200);
      expect(max.slug).toHaveLength(200);
      // Given slugs are cut at 200 too, and unique suffixes shorten them rather than overflow.
      const cut = await create(t, 'categories', { name: 'Cut', slug: 's'.repeat(300) });
      expect(cut.slug).toBe('s'.repeat(200));
      const suffixed = await create(t, 'categories', { name: 'Cut again', slug: 's'.repeat(300) });
      expect(suffixed.slug).toBe(`${'s'.repeat(198)}-2`);
      const emoji = await create(t, 'categories', { name: '🎉'.repeat(200) });
      expect([...(emoji.name as string)]).toHaveLength(200);
      // A long non-ASCII name: the slug is cut at 200 octets of its encoded form, as WordPress does.
      const long = await create(t, 'categories', { name: 'é'.repeat(150) });
      expect(long.slug.length).toBeLessThanOrEqual(200);
      expect(long.slug.startsWith('e'.repeat(150))).toBe(true);
      const wide = await create(t, 'categories', { name: '日'.repeat(150) });
      expect(wide.slug).toBe('%e6%97%a5'.repeat(22));
      // A description as long as the request allows is kept whole.
      const described = await t.request('POST', '/categories', { json: { name: 'Long description', description: 'd'.repeat(60_000) }, as: 'admin' });
      expect(described.status).toBe(201);
      expect(described.body.description).toHaveLength(60_000);
    });

    it('stores odd Unicode and SQL-looking text as text', async () => {
      const cases: [string, string][] = [
        ['Party 🎉🎉', 'Party 🎉🎉'],
        ['مهرجان الموسيقى', 'مهرجان الموسيقى'],
        ['‮rtl override‬', '‮rtl override‬'],
        ["'; drop table x; --", "'; drop table x; --"],
        ['Robert"); DROP TABLE terms;--', 'Robert"); DROP TABLE terms;--'],
        ['nul\u0000inside', 'nulinside'],
        ['100% _real_', '100% _real_'],
        ['back\\slash', 'back\\slash'],
      ];
      for (const [name, stored] of cases) {
        const r = await t.request('POST', '/tags', { json: { name, description: name }, as: 'admin' });
        expect(r.status, name).toBe(201);
        expect(r.body.name, name).toBe(stored);
        const again = await t.request('GET', `/tags/${r.body.id}`);
        expect(again.body.name, name).toBe(stored);
        expect(again.body.description, name).toBe(stored);
        const found = await t.request('GET', '/tags', { query: { hide_empty: 0, slug: r.body.slug } });
        expect(ids(found, 'tags'), name).toEqual([r.body.id]);
      }
      expect((await t.request('GET', '/tags', { query: 'hide_empty=0&per_page=50' })).status).toBe(200);
      // A lone surrogate escape is refused as PHP's decoder refuses it (errors.md §3).
      const json = await t.request('POST', '/tags', { json: { name: 'lone \uD800 surrogate' }, as: 'admin' });
      expect([json.status, json.body.data.json_error_code]).toEqual([400, 10]);
    });
  });

  describe('update', () => {
    let t: StoreCalendar;
    let music: Json & { id: number };
    let jazz: Json & { id: number };
    let bebop: Json & { id: number };
    let tag: Json & { id: number };
    beforeAll(async () => {
      t = await open();
      music = await create(t, 'categories', { name: 'Music', description: 'All music' });
      jazz = await create(t, 'categories', { name: 'Jazz', parent: music.id });
      bebop = await create(t, 'categories', { name: 'Bebop', parent: jazz.id });
      tag = await create(t, 'tags', { name: 'Loud' });
    });
    afterAll(() => t.close());

    it('changes only the fields sent, with POST, PUT and PATCH', async () => {
      const r = await t.request('POST', `/categories/${music.id}`, { json: { description: 'Sounds' }, as: 'admin' });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual([...TERM_KEYS, '_links']);
      expect(r.body).toMatchObject({ name: 'Music', slug: 'music', description: 'Sounds', parent: 0 });
      const renamed = await t.request('PUT', `/categories/${music.id}`, { json: { name: 'Music & Co' }, as: 'author' });
      expect(renamed.body).toMatchObject({ name: 'Music &amp; Co', slug: 'music', description: 'Sounds' });
      const slugged = await t.request('PATCH', `/categories/${music.id}`, { form: 'slug=Sounds Good', as: 'editor' });
      expect(slugged.body).toMatchObject({ name: 'Music &amp; Co', slug: 'sounds-good', description: 'Sounds' });
      const same = await t.request('PATCH', `/categories/${music.id}`, { json: { slug: 'sounds-good' }, as: 'admin' });
      expect(same.status).toBe(200);
      const nothing = await t.request('PATCH', `/categories/${music.id}`, { as: 'admin' });
      expect(nothing.body).toMatchObject({ name: 'Music &amp; Co', slug: 'sounds-good', description: 'Sounds' });
      expect((await t.request('GET', `/categories/${jazz.id}`)).body.url).toBe('http://example.org/events/category/sounds-good/jazz/');
    });

    it('answers 400 duplicate_term_slug with the entity-quoted message', async () => {
      const r = await t.request('PATCH', `/categories/${jazz.id}`, { json: { slug: 'Sounds Good' }, as: 'admin' });
      expect(r.status).toBe(400);
      expect(r.text).toBe(
        '{"code":"duplicate_term_slug","message":"The slug &#8220;sounds-good&#8221; is already in use by another term.","data":{"status":400}}',
      );
      expect((await t.request('GET', `/categories/${jazz.id}`)).body.slug).toBe('jazz');
      // Slugs are unique per taxonomy only.
      expect((await t.request('PATCH', `/tags/${tag.id}`, { json: { slug: 'jazz' }, as: 'admin' })).body.slug).toBe('jazz');
    });

    it('sets and moves the parent; urls.up follows', async () => {
      const top = await create(t, 'categories', { name: 'Standalone' });
      expect(top.urls).not.toHaveProperty('up');
      const moved = await t.request('POST', `/categories/${top.id}`, { json: { parent: music.id }, as: 'admin' });
      expect(moved.body.parent).toBe(music.id);
      expect(moved.body.urls.up).toBe(`${t.base}/categories/${music.id}`);
      expect(moved.body._links.up).toEqual([{ embeddable: true, href: `${t.base}/categories/${music.id}` }]);
      const again = await t.request('POST', `/categories/${top.id}`, { json: { parent: music.id }, as: 'admin' });
      expect(again.status).toBe(200);
      const deeper = await t.request('POST', `/categories/${bebop.id}`, { json: { parent: music.id }, as: 'admin' });
      expect(deeper.body.parent).toBe(music.id);
      const back = await t.request('POST', `/categories/${bebop.id}`, { json: { parent: jazz.id }, as: 'admin' });
      expect(back.body.parent).toBe(jazz.id);
    });

    it('refuses a parent that is the term itself or one of its descendants', async () => {
      for (const parent of [music.id, jazz.id, bebop.id]) {
        const r = await t.request('PATCH', `/categories/${music.id}`, { json: { parent }, as: 'admin' });
        expect(r.body, String(parent)).toEqual(invalid('parent'));
      }
      expect((await t.request('GET', `/categories/${music.id}`)).body.parent).toBe(0);
    });

    it('validates like create, without requiring name', async () => {
      const cases: [Json, unknown][] = [
        [{ name: '' }, invalid('name')],
        [{ description: '' }, invalid('description')],
        [{ slug: '' }, invalid('slug')],
        [{ parent: 0 }, invalid('parent')],
        [{ parent: 'no-such-category' }, invalid('parent')],
        [{ parent: 'bebop' }, typeError('parent', 'integer')],
        [{ name: null }, typeError('name', 'string')],
        [{ name: 'x'.repeat(300) }, { code: 'db_update_error', message: 'Could not update term in the database.', data: { status: 400 } }],
      ];
      for (const [body, expected] of cases) {
        expect((await t.request('PATCH', `/categories/${jazz.id}`, { json: body, as: 'admin' })).body, JSON.stringify(body).slice(0, 40)).toEqual(expected);
      }
      expect((await t.request('PATCH', `/tags/${tag.id}`, { json: { parent: music.id }, as: 'admin' })).body).toEqual(NOT_HIERARCHICAL);
      expect((await t.request('PATCH', '/categories/987654', { json: { name: 'x' }, as: 'admin' })).body).toEqual(invalid('id'));
      expect((await t.request('GET', `/categories/${jazz.id}`)).body).toMatchObject({ name: 'Jazz', slug: 'jazz', parent: music.id });
    });
  });

  describe('delete', () => {
    let t: StoreCalendar;
    beforeAll(async () => {
      t = await open();
    });
    afterAll(() => t.close());

    it('answers the term as it was, without _links; children move up; events lose the term', async () => {
      const top = await create(t, 'categories', { name: 'Top' });
      const mid = await create(t, 'categories', { name: 'Mid', parent: top.id, description: 'middle' });
      const leaf = await create(t, 'categories', { name: 'Leaf', parent: mid.id });
      const event = await t.addEvent({ terms: [mid.id, leaf.id] });
      const r = await t.request('DELETE', `/categories/${mid.id}`, { as: 'author' });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(TERM_KEYS);
      expect(r.body).toMatchObject({
        id: mid.id,
        count: 1,
        name: 'Mid',
        description: 'middle',
        parent: top.id,
        urls: { up: `${t.base}/categories/${top.id}` },
      });
      expect(r.body.url).toBe('http://example.org/events/category/top/mid/');
      const moved = await t.request('GET', `/categories/${leaf.id}`);
      expect(moved.body.parent).toBe(top.id);
      expect(moved.body.url).toBe('http://example.org/events/category/top/leaf/');
      const left = await t.db.selectFrom('term_relationships').select('term_id').where('post_id', '=', event).execute();
      expect(left.map((x) => x.term_id)).toEqual([leaf.id]);
      const again = await t.request('DELETE', `/categories/${mid.id}`, { as: 'author' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(invalid('id'));
    });

    it('deletes tags (editor) and top-level categories (children become top-level)', async () => {
      const tag = await create(t, 'tags', { name: 'Gone' });
      const r = await t.request('DELETE', `/tags/${tag.id}`, { as: 'editor' });
      expect(Object.keys(r.body)).toEqual(TAG_KEYS);
      const root = await create(t, 'categories', { name: 'Root' });
      const kid = await create(t, 'categories', { name: 'Kid', parent: root.id });
      expect((await t.request('DELETE', `/categories/${root.id}`, { as: 'admin' })).status).toBe(200);
      expect((await t.request('GET', `/categories/${kid.id}`)).body.parent).toBe(0);
    });
  });

  describe('role matrix (auth.md §2)', () => {
    let t: StoreCalendar;
    beforeAll(async () => {
      t = await open();
    });
    afterAll(() => t.close());

    const matrix: ['categories' | 'tags', As, number][] = [
      ['categories', 'admin', 2],
      ['categories', 'editor', 2],
      ['categories', 'author', 2],
      ['categories', 'contributor', 403],
      ['categories', 'subscriber', 403],
      ['categories', null, 401],
      ['tags', 'admin', 2],
      ['tags', 'editor', 2],
      ['tags', 'author', 403],
      ['tags', 'contributor', 403],
      ['tags', 'subscriber', 403],
      ['tags', null, 401],
    ];

    it.each(matrix)('%s as %s → %s', async (collection, as, expected) => {
      const existing = await create(t, collection, { name: `Existing ${collection} ${as} ${Math.random()}` });
      const before = await t.rows('terms');
      const results = [
        await t.request('POST', `/${collection}`, { json: { name: `New by ${as} ${Math.random()}` }, as }),
        await t.request('PATCH', `/${collection}/${existing.id}`, { json: { description: `by ${as}` }, as }),
        await t.request('DELETE', `/${collection}/${existing.id}`, { as }),
      ];
      if (expected === 2) {
        expect(results.map((r) => r.status)).toEqual([201, 200, 200]);
        expect(await t.rows('terms')).toBe(before);
      } else {
        for (const r of results) {
          expect(r.status).toBe(expected);
          expect(r.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: expected } });
        }
        expect(await t.rows('terms')).toBe(before);
        expect((await t.request('GET', `/${collection}/${existing.id}`)).body.description).toBe('');
      }
      // Reading is public.
      expect((await t.request('GET', `/${collection}/${existing.id}`, { as })).status).toBe(expected === 2 ? 400 : 200);
    });

    it('validates before checking permission: a subscriber deleting a missing category gets 400', async () => {
      for (const as of ['subscriber', 'contributor', null] as As[]) {
        const r = await t.request('DELETE', '/categories/987654', { as });
        expect(r.status).toBe(400);
        expect(r.body).toEqual(invalid('id'));
      }
      expect((await t.request('POST', '/tags', { json: {}, as: null })).body).toEqual(MISSING_NAME);
    });
  });
});
