import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Args } from '../../../src/args/arg.js';
import { arg } from '../../../src/args/arg.js';
import type { RequestContext } from '../../../src/http/context.js';
import { READABLE, endpoint, route } from '../../../src/http/route.js';
import { argsObject, routeObject } from '../../../src/http/route-description.js';
import { testCalendar, type TestCalendar } from '../../helpers/harness.js';

// The namespace index of index-and-doc.md §1, for the routes that exist so far.

type Json = Record<string, unknown>;

/** Route patterns in upstream registration order (index-and-doc.md §1.2), relative to the namespace. */
const SPEC_ORDER = [
  '',
  '/doc',
  // The complete OpenAPI document: an addition of this library.
  '/doc/complete',
  '/events',
  '/events/(?P<id>\\d+)',
  '/events/by-slug/(?P<slug>[^/]+)',
  '/venues',
  '/venues/(?P<id>\\d+)',
  '/venues/by-slug/(?P<slug>[^/]+)',
  '/organizers',
  '/organizers/(?P<id>\\d+)',
  '/organizers/by-slug/(?P<slug>[^/]+)',
  '/categories',
  '/categories/(?P<id>\\d+)',
  '/tags',
  '/tags/(?P<id>\\d+)',
  // The change feed: an addition of this library, after the original's routes.
  '/changes',
  // The iCalendar feed and files: additions too.
  '/ics/events',
  '/ics/events/(?P<id>\\d+)',
  '/ics/events/by-slug/(?P<slug>[^/]+)',
  // The occurrences of a recurring event: an addition too.
  '/events/(?P<id>\\d+)/occurrences',
];

const ARCHIVE_ARGS = ['page', 'per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug'];

describe('namespace index', () => {
  let t: TestCalendar;
  let index: { status: number; body: Json; text: string | undefined; headers: Record<string, string> };
  const routes = () => index.body.routes as Record<string, Json>;
  const key = (pattern: string) => `/${t.ns}${pattern}`;
  const endpoints = (pattern: string) => routes()[key(pattern)]?.endpoints as { methods: string[]; args: Record<string, Json> | [] }[];

  beforeAll(async () => {
    t = await testCalendar(':memory:');
    index = await t.request('GET', `/${t.ns}`);
  });
  afterAll(() => t.close());

  it('answers namespace, routes and _links.up, in that order', () => {
    expect(index.status).toBe(200);
    expect(Object.keys(index.body)).toEqual(['namespace', 'routes', '_links']);
    expect(index.body.namespace).toBe('calendar/events/v1');
    expect(index.body._links).toEqual({ up: [{ href: 'http://example.org/wp-json/' }] });
    expect(index.headers.Allow).toBe('GET');
    expect(index.headers['Content-Type']).toBe('application/json; charset=UTF-8');
  });

  it('lists the routes in registration order, keyed by their full regex pattern', () => {
    const keys = Object.keys(routes());
    const order = SPEC_ORDER.map(key);
    for (const k of keys) expect(order, k).toContain(k);
    const positions = keys.map((k) => order.indexOf(k));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const pattern of ['', '/categories', '/categories/(?P<id>\\d+)', '/tags', '/tags/(?P<id>\\d+)']) expect(keys).toContain(key(pattern));
    expect(keys[0]).toBe('/calendar/events/v1');
    // In the JSON text the backslash of `\d` is escaped.
    expect(index.text).toContain('"/calendar/events/v1/categories/(?P<id>\\\\d+)":');
  });

  it('gives every route namespace, methods, endpoints, and _links only without captures', () => {
    for (const [k, r] of Object.entries(routes())) {
      const captures = k.includes('(?P<');
      expect(Object.keys(r), k).toEqual(captures ? ['namespace', 'methods', 'endpoints'] : ['namespace', 'methods', 'endpoints', '_links']);
      expect(r.namespace, k).toBe('calendar/events/v1');
      const eps = r.endpoints as { methods: string[] }[];
      expect(r.methods, k).toEqual(eps.flatMap((e) => e.methods));
      for (const e of eps) expect(Object.keys(e), k).toEqual(['methods', 'args']);
      if (!captures) expect(r._links, k).toEqual({ self: [{ href: `http://example.org/wp-json${k}` }] });
    }
  });

  it('shows the methods of the term routes (GET, EDIT, DELETE order on items)', () => {
    for (const c of ['/categories', '/tags']) {
      expect(routes()[key(c)]?.methods).toEqual(['GET', 'POST']);
      expect(endpoints(c).map((e) => e.methods)).toEqual([['GET'], ['POST']]);
      const item = `${c}/(?P<id>\\d+)`;
      expect(routes()[key(item)]?.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      expect(endpoints(item).map((e) => e.methods)).toEqual([['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']]);
    }
  });

  it('shows the index route itself with its two args', () => {
    expect(routes()[key('')]).toEqual({
      namespace: 'calendar/events/v1',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { namespace: { default: 'calendar/events/v1', required: false }, context: { default: 'view', required: false } } }],
      _links: { self: [{ href: 'http://example.org/wp-json/calendar/events/v1' }] },
    });
  });

  it('shows the archive args with their keys in declaration order, then required', () => {
    const cats = endpoints('/categories')[0]?.args as Record<string, Json>;
    expect(Object.keys(cats)).toEqual(ARCHIVE_ARGS);
    expect(Object.keys(endpoints('/tags')[0]?.args ?? {})).toEqual(ARCHIVE_ARGS.filter((a) => a !== 'parent'));
    const shape = Object.fromEntries(Object.entries(cats).map(([name, a]) => [name, Object.keys(a)]));
    expect(shape).toEqual({
      page: ['default', 'description', 'type', 'required'],
      per_page: ['default', 'description', 'type', 'required'],
      search: ['description', 'type', 'required'],
      exclude: ['description', 'items', 'required'],
      include: ['description', 'items', 'required'],
      order: ['description', 'type', 'required'],
      orderby: ['description', 'type', 'required'],
      hide_empty: ['description', 'type', 'default', 'required'],
      parent: ['description', 'type', 'required'],
      post: ['description', 'type', 'required'],
      event: ['description', 'type', 'required'],
      slug: ['description', 'type', 'required'],
    });
    expect(cats.page).toMatchObject({ default: 1, type: 'integer', required: false });
    // Upstream shows the posts-per-page option as the string WordPress stores.
    expect(cats.per_page).toMatchObject({ default: '10', type: 'integer', required: false });
    expect(cats.hide_empty).toMatchObject({ type: 'boolean', default: '1', required: false });
    expect(cats.include).toMatchObject({ items: { type: 'integer' }, required: false });
    for (const [name, a] of Object.entries(cats)) {
      expect(typeof a.description, name).toBe('string');
      expect((a.description as string).length, name).toBeGreaterThan(5);
      expect(a.required, name).toBe(false);
    }
  });

  it('shows the write args: name required on create only, parent on categories only', () => {
    const create = endpoints('/categories')[1]?.args as Record<string, Json>;
    expect(Object.keys(create)).toEqual(['name', 'description', 'slug', 'parent']);
    for (const a of Object.values(create)) expect(Object.keys(a)).toEqual(['type', 'description', 'required']);
    expect(create.name).toMatchObject({ type: 'string', required: true });
    expect(create.parent).toMatchObject({ type: 'integer', required: false });
    expect(Object.keys(endpoints('/tags')[1]?.args ?? {})).toEqual(['name', 'description', 'slug']);
    const [get, edit, del] = endpoints('/categories/(?P<id>\\d+)').map((e) => e.args as Record<string, Json>);
    const id = { type: 'integer', description: 'The event category term ID', required: true };
    expect(get).toEqual({ id });
    expect(del).toEqual({ id });
    expect(Object.keys(edit ?? {})).toEqual(['id', 'name', 'description', 'slug', 'parent']);
    expect(edit?.id).toEqual(id);
    for (const name of ['name', 'description', 'slug', 'parent']) expect(edit?.[name]?.required, name).toBe(false);
    const tagEdit = endpoints('/tags/(?P<id>\\d+)')[1]?.args as Record<string, Json>;
    expect(Object.keys(tagEdit)).toEqual(['id', 'name', 'description', 'slug']);
    expect(tagEdit.id?.description).toBe('The event tag term ID');
  });

  it('answers the same document at {base}/, to every caller, and on HEAD without a body', async () => {
    // The events archive's date defaults are computed per request (to the second).
    const timeless = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"/g, '"<date>"'));
    expect(timeless((await t.request('GET', `/${t.ns}/`)).body)).toEqual(timeless(index.body));
    expect(timeless((await t.request('GET', `/${t.ns}`, { as: 'admin' })).body)).toEqual(timeless(index.body));
    const head = await t.request('HEAD', `/${t.ns}`);
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
  });

  it('answers 404 rest_invalid_namespace for another namespace parameter', async () => {
    const r = await t.request('GET', `/${t.ns}`, { query: 'namespace=wp/v2' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 'rest_invalid_namespace', message: 'The specified namespace could not be found.', data: { status: 404 } });
    expect(r.headers.Allow).toBe('GET');
  });

  it('answers OPTIONS on a route with its index entry', async () => {
    for (const [path, pattern] of [
      ['/categories', '/categories'],
      ['/tags/12', '/tags/(?P<id>\\d+)'],
      ['', ''],
    ] as const) {
      const r = await t.request('OPTIONS', `/${t.ns}${path}`);
      expect(r.body, path).toEqual(routes()[key(pattern)]);
    }
  });

  it('renders an endpoint without args as "args": []', () => {
    const ctx = { options: t.calendar.options, locale: 'en', urls: { root: 'http://example.org/wp-json/' } } as unknown as RequestContext;
    expect(argsObject({}, ctx)).toEqual([]);
    const bare = route('/doc', [endpoint({ methods: READABLE, args: {}, handler: () => ({ body: {} }) })]);
    expect(JSON.stringify(routeObject(bare, ctx))).toBe(
      '{"namespace":"calendar/events/v1","methods":["GET"],"endpoints":[{"methods":["GET"],"args":[]}],"_links":{"self":[{"href":"http://example.org/wp-json/calendar/events/v1/doc"}]}}',
    );
    const args: Args<RequestContext> = { n: arg({ default: null }) };
    expect(argsObject(args, ctx)).toEqual({ n: { default: null, required: false } });
  });
});

describe('namespace index options', () => {
  it('follows a custom namespace (tribe/events/v1) everywhere', async () => {
    const t = await testCalendar(':memory:', { namespace: '/tribe/events/v1/' });
    try {
      expect(t.ns).toBe('tribe/events/v1');
      const r = await t.request('GET', '/tribe/events/v1');
      expect(r.body.namespace).toBe('tribe/events/v1');
      const keys = Object.keys(r.body.routes);
      expect(keys).toContain('/tribe/events/v1/categories/(?P<id>\\d+)');
      for (const k of keys) expect(k.startsWith('/tribe/events/v1')).toBe(true);
      expect(r.body.routes['/tribe/events/v1/tags']._links.self[0].href).toBe('http://example.org/wp-json/tribe/events/v1/tags');
      expect(r.body.routes['/tribe/events/v1'].endpoints[0].args.namespace.default).toBe('tribe/events/v1');
      const req = { method: 'GET', headers: {}, root: '/wp-json', user: null };
      expect(await t.calendar.handle({ ...req, path: '/calendar/events/v1' })).toBeNull();
      expect(await t.calendar.handle({ ...req, path: '/calendar/events/v1/categories' })).toBeNull();
      const cats = await t.request('GET', '/tribe/events/v1/categories');
      expect(cats.body.rest_url).toBe('http://example.org/wp-json/tribe/events/v1/categories/');
    } finally {
      await t.close();
    }
  });

  it('shows the configured per_page default, the mount root and the mount locale', async () => {
    const t = await testCalendar(':memory:', { perPage: 20, dictionaries: { fr: { 'terms.search': 'Limiter aux termes correspondant à une chaîne' } } });
    try {
      const r = await t.request('GET', `/${t.ns}`, { root: '/fr/wp-json', locale: 'fr' });
      expect(r.body._links.up[0].href).toBe('http://example.org/fr/wp-json/');
      const cats = r.body.routes[`/${t.ns}/categories`];
      expect(cats._links.self[0].href).toBe('http://example.org/fr/wp-json/calendar/events/v1/categories');
      expect(cats.endpoints[0].args.per_page.default).toBe('20');
      expect(cats.endpoints[0].args.search.description).toBe('Limiter aux termes correspondant à une chaîne');
      const en = await t.request('GET', `/${t.ns}`);
      expect(en.body.routes[`/${t.ns}/categories`].endpoints[0].args.search.description).toBe('Limit results to those matching a string');
    } finally {
      await t.close();
    }
  });
});
