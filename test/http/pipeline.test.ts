import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCalendar, type As, type TestCalendar, type TestResponse } from '../helpers/harness.js';

// The global request pipeline of spec/README.md, through the core (no HTTP server): routing,
// method override, parameter sources, validation passes, errors and their precedence, headers.

const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };
const FORBIDDEN = (status: 401 | 403) => ({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status } });
const INVALID_JSON = {
  code: 'rest_invalid_json',
  message: 'Invalid JSON body passed.',
  data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
};
const ALL_VERBS = 'GET, POST, PUT, PATCH, DELETE';

function typeError(name: string, type: string) {
  const message = `${name} is not of type ${type}.`;
  return {
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${name}`,
    data: { status: 400, params: { [name]: message }, details: { [name]: { code: 'rest_invalid_type', message, data: { param: name } } } },
  };
}

function invalid(...names: string[]) {
  return {
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${names.join(', ')}`,
    data: { status: 400, params: Object.fromEntries(names.map((n) => [n, 'Invalid parameter.'])), details: [] },
  };
}

function multipart(fields: [string, string][]): { body: string; type: string } {
  const boundary = '----calendar-test-boundary';
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe('request pipeline', () => {
  let t: TestCalendar;
  let music: number;
  let jazz: number;
  let tag: number;
  const errors: unknown[] = [];

  beforeAll(async () => {
    t = await testCalendar(':memory:', { onError: (e) => errors.push(e) });
    music = (await t.request('POST', '/categories', { json: { name: 'Music' }, as: 'admin' })).body.id;
    jazz = (await t.request('POST', '/categories', { json: { name: 'Jazz', parent: music }, as: 'admin' })).body.id;
    tag = (await t.request('POST', '/tags', { json: { name: 'Outdoor' }, as: 'admin' })).body.id;
  });
  afterAll(async () => {
    expect(errors).toEqual([]);
    await t.close();
  });

  const names = (r: TestResponse) => (r.body.categories as { name: string }[]).map((c) => c.name);

  describe('route match', () => {
    it('answers 404 rest_no_route, without Allow, for an unknown path', async () => {
      const r = await t.request('GET', '/nothing-here');
      expect(r.status).toBe(404);
      expect(r.body).toEqual(NO_ROUTE);
      expect(r.headers).not.toHaveProperty('Allow');
      expect(r.headers['Content-Type']).toBe('application/json; charset=UTF-8');
    });

    it('answers 404 for a verb the route has no handler for (WordPress never answers 405)', async () => {
      for (const verb of ['DELETE', 'PUT', 'PATCH']) {
        const r = await t.request(verb, '/categories', { as: 'admin' });
        expect(r.status, verb).toBe(404);
        expect(r.body).toEqual(NO_ROUTE);
        expect(r.headers).not.toHaveProperty('Allow');
      }
      expect((await t.request('TRACE', `/categories/${music}`, { as: 'admin' })).status).toBe(404);
      expect((await t.request('POST', '/', { as: 'admin' })).status).toBe(404);
    });

    it('answers 404 for ids the route pattern does not accept', async () => {
      for (const path of ['/categories/foo', '/categories/-1', '/categories/1.5', '/categories/1/2', '/categories/%20', '/categories/1%2F2']) {
        const r = await t.request('GET', path);
        expect(r.status, path).toBe(404);
        expect(r.body.code).toBe('rest_no_route');
      }
    });

    it('leaves paths outside the namespace to the host', async () => {
      const req = { method: 'GET', headers: {}, root: '/wp-json', user: null };
      expect(await t.calendar.handle({ ...req, path: '/wp/v2/posts' })).toBeNull();
      expect(await t.calendar.handle({ ...req, path: '/calendar/events/v10' })).toBeNull();
      expect(await t.calendar.handle({ ...req, path: '/calendar/events' })).toBeNull();
      // The root itself is the root index's (test/resources/index/root.test.ts), for reads only.
      expect(await t.calendar.handle({ ...req, method: 'POST', path: '/' })).toBeNull();
    });

    it('strips trailing slashes before matching', async () => {
      const plain = await t.request('GET', '/categories', { query: 'hide_empty=0' });
      const slashed = await t.request('GET', '/categories/', { query: 'hide_empty=0' });
      expect(slashed.status).toBe(200);
      expect(slashed.body).toEqual(plain.body);
      expect((await t.request('GET', `/categories/${music}/`)).body.id).toBe(music);
      expect((await t.request('GET', `/categories/${music}//`)).body.id).toBe(music);
      expect((await t.request('GET', `/${t.ns}/`)).body.namespace).toBe(t.ns);
    });

    it('matches the namespace and the route case-insensitively', async () => {
      expect((await t.request('GET', '/CATEGORIES', { query: 'hide_empty=0' })).body.total).toBe(2);
      // No leading slash: the harness then leaves the (upper-case) namespace alone.
      expect((await t.request('GET', `${t.ns.toUpperCase()}/Categories/${music}`)).body.id).toBe(music);
    });

    it('matches percent-encoded paths as decoded', async () => {
      expect((await t.request('GET', `/%63ategories/${music}`)).body.id).toBe(music);
    });

    it('answers HEAD with the GET handler, the same headers and no body', async () => {
      const get = await t.request('GET', '/categories', { query: 'hide_empty=0' });
      const head = await t.request('HEAD', '/categories', { query: 'hide_empty=0' });
      expect(head.status).toBe(200);
      expect(head.text).toBeUndefined();
      expect(head.headers['X-TEC-Total']).toBe('2');
      expect(head.headers['X-TEC-TotalPages']).toBe('1');
      expect(head.headers.Allow).toBe(get.headers.Allow);
      expect(head.headers['Content-Type']).toBe('application/json; charset=UTF-8');
      const missing = await t.request('HEAD', '/categories/999999');
      expect(missing.status).toBe(400);
      expect(missing.text).toBeUndefined();
      const noRoute = await t.request('HEAD', '/nowhere');
      expect(noRoute.status).toBe(404);
      expect(noRoute.text).toBeUndefined();
    });

    it('answers OPTIONS on a route with its route object (and the Allow header)', async () => {
      const r = await t.request('OPTIONS', '/categories', { as: 'admin' });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['namespace', 'methods', 'endpoints', '_links']);
      expect(r.body.namespace).toBe(t.ns);
      expect(r.body.methods).toEqual(['GET', 'POST']);
      expect(r.body._links).toEqual({ self: [{ href: `${t.base}/categories` }] });
      expect(r.headers.Allow).toBe('GET, POST');
      const item = await t.request('OPTIONS', '/categories/424242');
      expect(item.status).toBe(200);
      expect(item.body.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      expect(item.body).not.toHaveProperty('_links');
      expect(item.headers.Allow).toBe('GET');
      const none = await t.request('OPTIONS', '/nowhere');
      expect(none.status).toBe(404);
      expect(none.body).toEqual(NO_ROUTE);
    });
  });

  describe('method override', () => {
    it('applies `_method` on POST only: GET ?_method=DELETE stays a read', async () => {
      const r = await t.request('GET', '/categories', { query: '_method=DELETE' });
      expect(r.status).toBe(200);
      expect(r.body).toHaveProperty('categories');
      const anon = await t.request('GET', `/categories/${music}`, { query: '_method=delete' });
      expect(anon.status).toBe(200);
      expect(anon.body.id).toBe(music);
      const post = await t.request('POST', '/categories', { query: '_method=DELETE', json: { name: 'X' }, as: 'admin' });
      expect(post.status).toBe(404);
      expect(post.body).toEqual(NO_ROUTE);
    });

    it('never deletes with GET or HEAD ?_method=DELETE, even for a signed-in editor', async () => {
      const id = (await t.request('POST', '/categories', { json: { name: 'Short-lived' }, as: 'admin' })).body.id;
      for (const method of ['GET', 'HEAD']) {
        const r = await t.request(method, `/categories/${id}`, { query: '_method=DELETE', as: 'editor' });
        expect(r.status).toBe(200);
      }
      expect((await t.request('GET', `/categories/${id}`)).status).toBe(200);
      const deleted = await t.request('POST', `/categories/${id}`, { query: '_method=DELETE', as: 'editor' });
      expect([deleted.status, deleted.body.id]).toEqual([200, id]);
      expect((await t.request('GET', `/categories/${id}`)).status).toBe(400);
    });

    it('applies X-HTTP-Method-Override on POST only; `_method` wins over the header', async () => {
      const viaHeader = await t.request('GET', `/categories/${music}`, { headers: { 'X-HTTP-Method-Override': 'PATCH' } });
      expect(viaHeader.status).toBe(200);
      const patch = await t.request('POST', `/categories/${music}`, { headers: { 'X-HTTP-Method-Override': 'PATCH' } });
      expect(patch.status).toBe(401);
      const onPost = await t.request('POST', '/categories', { headers: { 'X-HTTP-Method-Override': 'PUT' }, json: { name: 'Y' }, as: 'admin' });
      expect(onPost.status).toBe(404);
      const both = await t.request('POST', '/categories', { query: '_method=GET', headers: { 'X-HTTP-Method-Override': 'DELETE' } });
      expect(both.status).toBe(200);
      expect(both.body).toHaveProperty('categories');
    });

    it('reads no form body when the override makes the request a GET', async () => {
      const r = await t.request('POST', '/categories', { query: '_method=GET&hide_empty=0', form: 'search=jazz' });
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(2);
    });
  });

  describe('parameter sources and precedence', () => {
    const fresh = () => `n${Math.random().toString(36).slice(2, 10)}`;

    it('takes a JSON body over the query string', async () => {
      const q = fresh();
      const r = await t.request('POST', '/categories', { query: { name: `${q}-query` }, json: { name: `${q}-json` }, as: 'admin' });
      expect(r.status).toBe(201);
      expect(r.body.name).toBe(`${q}-json`);
    });

    it('takes a form body over the query string', async () => {
      const q = fresh();
      const r = await t.request('POST', '/categories', { query: { name: `${q}-query` }, form: `name=${q}-form`, as: 'admin' });
      expect(r.body.name).toBe(`${q}-form`);
    });

    it('takes the query string when no body carries the parameter', async () => {
      const q = fresh();
      const r = await t.request('POST', '/categories', { query: { name: q }, form: 'description=d', as: 'admin' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name: q, description: 'd' });
    });

    it('takes the query string over the path capture (WordPress order)', async () => {
      const r = await t.request('GET', `/categories/${music}`, { query: { id: jazz } });
      expect(r.body.id).toBe(jazz);
      const bad = await t.request('GET', `/categories/${music}`, { query: { id: 'nope' } });
      expect(bad.body).toEqual(invalid('id'));
    });

    it('takes a form body over the path capture on DELETE', async () => {
      const a = (await t.request('POST', '/tags', { json: { name: fresh() }, as: 'admin' })).body.id;
      const b = (await t.request('POST', '/tags', { json: { name: fresh() }, as: 'admin' })).body.id;
      const r = await t.request('DELETE', `/tags/${a}`, { form: `id=${b}`, as: 'admin' });
      expect(r.body.id).toBe(b);
      expect((await t.request('GET', `/tags/${a}`)).status).toBe(200);
      expect((await t.request('GET', `/tags/${b}`)).status).toBe(400);
    });

    it('falls back to declared defaults last (hide_empty defaults to true)', async () => {
      expect((await t.request('GET', '/categories')).body.total).toBe(0);
      expect((await t.request('GET', '/categories', { query: 'hide_empty=0' })).body.total).toBeGreaterThan(0);
    });

    it('reads JSON only when the Content-Type says JSON', async () => {
      const asForm = await t.request('POST', '/categories', {
        body: JSON.stringify({ name: fresh() }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        as: 'admin',
      });
      expect(asForm.status).toBe(400);
      expect(asForm.body.code).toBe('rest_missing_callback_param');
      const noType = await t.request('POST', '/categories', { body: JSON.stringify({ name: fresh() }), as: 'admin' });
      expect(noType.body.code).toBe('rest_missing_callback_param');
      const q = fresh();
      const suffix = await t.request('POST', '/categories', {
        body: JSON.stringify({ name: q }),
        headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
        as: 'admin',
      });
      expect(suffix.status).toBe(201);
      expect(suffix.body.name).toBe(q);
    });

    it('ignores a text/plain body (→ missing parameter)', async () => {
      const r = await t.request('POST', '/categories', { body: 'name=Plain', headers: { 'content-type': 'text/plain' }, as: 'admin' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
    });

    it('reads form bodies on POST, PUT, PATCH and DELETE only', async () => {
      const a = await t.request('GET', '/categories', { form: 'search=zzz-nothing', query: 'hide_empty=0' });
      expect(a.body.total).toBeGreaterThan(0);
      const id = (await t.request('POST', '/categories', { form: `name=${fresh()}`, as: 'admin' })).body.id;
      for (const verb of ['PUT', 'PATCH', 'POST']) {
        const r = await t.request(verb, `/categories/${id}`, { form: `description=${verb}-desc`, as: 'admin' });
        expect(r.status).toBe(200);
        expect(r.body.description).toBe(`${verb}-desc`);
      }
    });

    it('reads multipart bodies like form bodies', async () => {
      const q = fresh();
      const { body, type } = multipart([
        ['name', q],
        ['description', 'from multipart'],
      ]);
      const r = await t.request('POST', '/categories', { body, headers: { 'content-type': type }, as: 'admin' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name: q, description: 'from multipart' });
    });

    it('answers a broken multipart body like an empty one', async () => {
      const r = await t.request('POST', '/categories', {
        body: 'garbage',
        headers: { 'content-type': 'multipart/form-data; boundary=nothing' },
        as: 'admin',
      });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_missing_callback_param');
    });

    it('parses bracket notation in the query string into the values JSON would give', async () => {
      const viaJson = await t.request('GET', '/categories', { json: { include: [music, jazz], hide_empty: false } });
      expect(viaJson.body.total).toBe(2);
      for (const query of [
        `include[]=${music}&include[]=${jazz}`,
        `include[0]=${music}&include[1]=${jazz}`,
        `include=${music},${jazz}`,
        `include=${music}%20${jazz}`,
      ]) {
        const r = await t.request('GET', '/categories', { query: `${query}&hide_empty=0` });
        expect(r.status, query).toBe(200);
        expect(r.body.categories, query).toEqual(viaJson.body.categories);
      }
      const sparse = await t.request('GET', '/categories', { query: `include[200]=${music}&include[1]=${jazz}&hide_empty=0` });
      expect(sparse.body.total).toBe(2);
    });

    it('never crashes on deep or odd bracket names', async () => {
      const deep = `search${'[a]'.repeat(40)}=x&${'['.repeat(50)}=1&include[a][b]=1&__proto__[polluted]=1&constructor[prototype][x]=1`;
      // Refused either by the argument's check or, nested past the bracket depth, as too large.
      const r = await t.request('GET', '/categories', { query: deep });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Invalid parameter(s): search, include');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const form = await t.request('POST', '/categories', { form: `name[a][b][c][d][e][f][g]=1`, as: 'admin' });
      expect(form.status).toBe(400);
      expect(form.body.message).toBe('Invalid parameter(s): name');
    });
  });

  describe('JSON null', () => {
    it('counts null on a required typed argument as missing', async () => {
      const r = await t.request('POST', '/categories', { json: { name: null }, as: 'admin' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
    });

    it('rejects null on an optional typed argument with rest_invalid_type', async () => {
      const r = await t.request('POST', '/categories', { json: { name: 'Null description', description: null }, as: 'admin' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(typeError('description', 'string'));
      const archive = await t.request('GET', '/categories', { json: { hide_empty: null } });
      expect(archive.body).toEqual(typeError('hide_empty', 'boolean'));
    });

    it('lets a null fall through to the next source for lookup (untyped arguments accept it)', async () => {
      const r = await t.request('GET', '/categories', { query: `include=${jazz}&hide_empty=0`, json: { include: null } });
      expect(r.status).toBe(200);
      expect(names(r)).toEqual(['Jazz']);
      // per_page has its own sanitiser: no type error, the default applies.
      const perPage = await t.request('GET', '/categories', { query: 'hide_empty=0', json: { per_page: null } });
      expect(perPage.status).toBe(200);
    });

    it('still type-checks a typed null even when a lower source has a value (README caveat)', async () => {
      // The required check finds `name` in the query string, but the JSON null itself fails
      // the type pass, as WordPress type-checks every source's value.
      const r = await t.request('POST', '/categories', { query: 'name=FromQuery', json: { name: null }, as: 'admin' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(typeError('name', 'string'));
    });
  });

  describe('invalid JSON', () => {
    it('answers 400 rest_invalid_json with the exact body', async () => {
      const r = await t.request('POST', '/categories', { body: '{"name": "x",', headers: { 'content-type': 'application/json' }, as: 'admin' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(INVALID_JSON);
      expect(r.headers.Allow).toBe('GET, POST');
    });

    it('checks JSON on any verb, but an empty JSON body is no body', async () => {
      const get = await t.request('GET', '/categories', { body: 'nope', headers: { 'content-type': 'application/json' } });
      expect(get.body).toEqual(INVALID_JSON);
      const empty = await t.request('GET', '/categories', { body: '', headers: { 'content-type': 'application/json' } });
      expect(empty.status).toBe(200);
      const scalar = await t.request('GET', '/categories', { body: '"text"', headers: { 'content-type': 'application/json' } });
      expect(scalar.status).toBe(200);
    });
  });

  describe('error precedence', () => {
    it('404 rest_no_route beats invalid JSON', async () => {
      const r = await t.request('POST', '/nowhere', { body: '{', headers: { 'content-type': 'application/json' } });
      expect(r.body).toEqual(NO_ROUTE);
    });

    it('invalid JSON beats missing parameters', async () => {
      const r = await t.request('POST', '/categories', { body: '{', headers: { 'content-type': 'application/json' } });
      expect(r.body).toEqual(INVALID_JSON);
    });

    it('missing parameters beat validator failures', async () => {
      const r = await t.request('POST', '/categories', { json: { description: '', slug: '' } });
      expect(r.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
    });

    it('validator failures beat type failures, and are all listed in declaration order', async () => {
      const r = await t.request('POST', '/categories', { json: { slug: '', parent: 'music', description: '', name: 'x' } });
      expect(r.body).toEqual(invalid('description', 'slug'));
      const typeOnly = await t.request('POST', '/categories', { json: { name: 'x', parent: 'music' } });
      expect(typeOnly.body).toEqual(typeError('parent', 'integer'));
    });

    it('type failures beat permission failures (401 anonymous, 403 signed in)', async () => {
      const anon = await t.request('POST', '/categories', { json: { name: 'x', parent: 'music' } });
      expect(anon.status).toBe(400);
      const sub = await t.request('POST', '/categories', { json: { name: 'x', parent: 'music' }, as: 'subscriber' });
      expect(sub.status).toBe(400);
    });

    it('validation beats permission: a subscriber deleting a missing category gets 400', async () => {
      const r = await t.request('DELETE', '/categories/987654', { as: 'subscriber' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid('id'));
      expect(r.headers.Allow).toBe('GET');
    });

    it('permission beats handler errors (tag with a parent: 403 before rest_taxonomy_not_hierarchical)', async () => {
      const sub = await t.request('POST', '/tags', { json: { name: 'x', parent: 1 }, as: 'subscriber' });
      expect(sub.status).toBe(403);
      expect(sub.body).toEqual(FORBIDDEN(403));
      const anon = await t.request('POST', '/tags', { json: { name: 'x', parent: 1 } });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(FORBIDDEN(401));
      const admin = await t.request('POST', '/tags', { json: { name: 'x', parent: 1 }, as: 'admin' });
      expect(admin.body).toEqual({
        code: 'rest_taxonomy_not_hierarchical',
        message: 'Cannot set parent term, taxonomy is not hierarchical.',
        data: { status: 400 },
      });
    });
  });

  describe('response headers', () => {
    const common = {
      'Content-Type': 'application/json; charset=UTF-8',
      'X-Robots-Tag': 'noindex',
      'X-Content-Type-Options': 'nosniff',
      Link: '<http://example.org/wp-json/>; rel="https://api.w.org/"',
      'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
      'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    };

    it('sends the common headers on successes, errors and 404s', async () => {
      for (const r of [
        await t.request('GET', '/categories'),
        await t.request('GET', '/categories/0'),
        await t.request('GET', '/nowhere'),
        await t.request('POST', '/categories', { json: { name: 'x' } }),
      ]) {
        expect(r.headers).toMatchObject(common);
        expect(r.headers).not.toHaveProperty('X-WP-Total');
        expect(r.headers).not.toHaveProperty('X-WP-TotalPages');
      }
    });

    it('lists in Allow the verbs this caller may use on the matched route', async () => {
      const allow = async (path: string, as: As) => (await t.request('GET', path, { as })).headers.Allow;
      expect(await allow('/categories', 'admin')).toBe('GET, POST');
      expect(await allow('/categories', 'author')).toBe('GET, POST');
      expect(await allow('/categories', 'contributor')).toBe('GET');
      expect(await allow('/categories', 'subscriber')).toBe('GET');
      expect(await allow('/categories', null)).toBe('GET');
      expect(await allow(`/categories/${music}`, 'admin')).toBe(ALL_VERBS);
      expect(await allow(`/categories/${music}`, 'author')).toBe(ALL_VERBS);
      expect(await allow(`/categories/${music}`, null)).toBe('GET');
      expect(await allow(`/tags/${tag}`, 'editor')).toBe(ALL_VERBS);
      expect(await allow(`/tags/${tag}`, 'author')).toBe('GET');
      expect(await allow('/tags', 'author')).toBe('GET');
      expect(await allow('/', 'admin')).toBe('GET');
    });

    it('sends Allow on every error of a matched route, never on rest_no_route', async () => {
      expect((await t.request('GET', '/categories/0', { as: 'admin' })).headers.Allow).toBe(ALL_VERBS);
      expect((await t.request('POST', '/categories', { as: 'admin' })).headers.Allow).toBe('GET, POST');
      expect((await t.request('POST', '/categories', { json: { name: 'x' } })).headers.Allow).toBe('GET');
      expect((await t.request('POST', '/categories', { json: { name: 'x' }, as: 'contributor' })).headers.Allow).toBe('GET');
      expect((await t.request('PUT', '/categories', { as: 'admin' })).headers).not.toHaveProperty('Allow');
    });

    it('sends Vary: Origin on anonymous GETs only, and whenever Origin is sent', async () => {
      expect((await t.request('GET', '/categories')).headers.Vary).toBe('Origin');
      expect((await t.request('GET', '/categories/0')).headers.Vary).toBe('Origin');
      expect((await t.request('HEAD', '/categories')).headers).not.toHaveProperty('Vary');
      expect((await t.request('POST', '/categories', { json: { name: 'x' } })).headers).not.toHaveProperty('Vary');
      expect((await t.request('DELETE', `/categories/${music}`)).headers).not.toHaveProperty('Vary');
      expect((await t.request('GET', '/categories', { as: 'admin' })).headers).not.toHaveProperty('Vary');
      expect((await t.request('GET', '/categories', { as: 'subscriber' })).headers).not.toHaveProperty('Vary');
      expect((await t.request('GET', '/categories', { as: 'admin', headers: { origin: 'https://app.test' } })).headers.Vary).toBe('Origin');
      expect((await t.request('POST', '/categories', { headers: { origin: 'https://app.test' } })).headers.Vary).toBe('Origin');
      // The request line's verb decides, as in WordPress ($_SERVER['REQUEST_METHOD']).
      expect((await t.request('GET', '/categories', { query: '_method=POST' })).headers.Vary).toBe('Origin');
      expect((await t.request('POST', '/categories', { query: '_method=GET' })).headers).not.toHaveProperty('Vary');
    });

    it('sends no-cache headers to authenticated callers only', async () => {
      for (const r of [await t.request('GET', '/categories', { as: 'subscriber' }), await t.request('GET', '/nowhere', { as: 'admin' })]) {
        expect(r.headers['Cache-Control']).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
        expect(r.headers.Expires).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
      }
      for (const r of [await t.request('POST', '/categories', { json: { name: 'x' } }), await t.request('GET', '/nowhere')]) {
        expect(r.headers).not.toHaveProperty('Cache-Control');
        expect(r.headers).not.toHaveProperty('Expires');
      }
      // A logged-out read's success says how long it may be kept (`httpCache.maxAge`, 0 by
      // default): an addition of this library, so that its dates are not kept by heuristics.
      const read = await t.request('GET', '/categories');
      expect(read.headers['Cache-Control']).toBe('public, max-age=0');
      expect(read.headers).not.toHaveProperty('Expires');
    });

    it('sends CORS headers when the request carries Origin, without credentials for an origin nobody listed', async () => {
      const r = await t.request('GET', '/categories', { headers: { origin: 'https://app.test' } });
      expect(r.headers).toMatchObject({
        'Access-Control-Allow-Origin': 'https://app.test',
        'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      });
      expect(r.headers).not.toHaveProperty('Access-Control-Allow-Credentials');
      const err = await t.request('GET', '/nowhere', { headers: { origin: 'https://app.test' } });
      expect(err.headers['Access-Control-Allow-Origin']).toBe('https://app.test');
      const none = await t.request('GET', '/categories');
      for (const h of ['Access-Control-Allow-Origin', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Credentials'])
        expect(none.headers).not.toHaveProperty(h);
      const crlf = await t.request('GET', '/categories', { headers: { origin: 'https://a.test\r\nSet-Cookie: x=1' } });
      expect(crlf.headers['Access-Control-Allow-Origin']).not.toMatch(/[\r\n]/);
    });

    it('sends X-TEC-Total headers on archives only, Location on term creation only', async () => {
      const archive = await t.request('GET', '/categories', { query: 'hide_empty=0&per_page=1' });
      expect(archive.headers['X-TEC-Total']).toBe(String(archive.body.total));
      expect(archive.headers['X-TEC-TotalPages']).toBe(String(archive.body.total));
      for (const r of [await t.request('GET', `/categories/${music}`), await t.request('GET', '/categories', { query: 'page=0' })]) {
        expect(r.headers).not.toHaveProperty('X-TEC-Total');
        expect(r.headers).not.toHaveProperty('X-TEC-TotalPages');
        expect(r.headers).not.toHaveProperty('Location');
      }
    });

    it('builds Link from the mount root', async () => {
      const r = await t.request('GET', '/categories', { root: '/fr/wp-json' });
      expect(r.headers.Link).toBe('<http://example.org/fr/wp-json/>; rel="https://api.w.org/"');
    });
  });

  describe('error bodies', () => {
    it('uses details: [] for plain validator failures and an object for type failures', async () => {
      const plain = await t.request('GET', '/categories', { query: 'page=0&per_page=foo' });
      expect(plain.text).toBe(
        '{"code":"rest_invalid_param","message":"Invalid parameter(s): page, per_page","data":{"status":400,"params":{"page":"Invalid parameter.","per_page":"Invalid parameter."},"details":[]}}',
      );
      const typed = await t.request('GET', '/categories', { query: 'hide_empty=yes' });
      expect(typed.body).toEqual(typeError('hide_empty', 'boolean'));
    });

    it('answers 401 to anonymous and 403 to signed-in callers without the capability', async () => {
      expect((await t.request('POST', '/categories', { json: { name: 'x' } })).body).toEqual(FORBIDDEN(401));
      for (const as of ['subscriber', 'contributor'] as const) {
        const r = await t.request('POST', '/categories', { json: { name: 'x' }, as });
        expect(r.status).toBe(403);
        expect(r.body).toEqual(FORBIDDEN(403));
      }
    });
  });
});

describe('request limits', () => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(':memory:', { limits: { bodyBytes: 64 } });
  });
  afterAll(() => t.close());

  it('answers 413 for a body over the limit, and accepts one at the limit', async () => {
    const name = 'x'.repeat(64 - '{"name":""}'.length);
    const ok = await t.request('POST', '/categories', { json: { name }, as: 'admin' });
    expect(ok.status).toBe(201);
    const big = await t.request('POST', '/categories', { json: { name: `${name}y` }, as: 'admin' });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ code: 'rest_request_too_large', message: 'The request body is too large.', data: { status: 413 } });
    expect(big.headers['Content-Type']).toBe('application/json; charset=UTF-8');
    const total = (await t.request('GET', '/categories', { query: 'hide_empty=0' })).body.total;
    expect(total).toBe(1);
  });

  it('counts bytes, not characters', async () => {
    const r = await t.request('POST', '/categories', { json: { name: 'é'.repeat(30) }, as: 'admin' });
    expect(r.status).toBe(413);
  });
});

describe('absolute URLs', () => {
  const archive = (t: TestCalendar, headers: Record<string, string>) => t.request('GET', '/categories', { headers });

  it('builds every URL from baseUrl when it is set, whatever the headers', async () => {
    const t = await testCalendar(':memory:', { baseUrl: 'https://cal.example.com/site/', trustProxy: true });
    try {
      const r = await archive(t, { host: 'evil.com', 'x-forwarded-host': 'evil.com', 'x-forwarded-proto': 'http' });
      expect(r.body.rest_url).toBe('https://cal.example.com/site/wp-json/calendar/events/v1/categories/');
      expect(r.headers.Link).toBe('<https://cal.example.com/site/wp-json/>; rel="https://api.w.org/"');
    } finally {
      await t.close();
    }
  });

  describe('without baseUrl', () => {
    let t: TestCalendar;
    let proxied: TestCalendar;
    beforeAll(async () => {
      t = await testCalendar(':memory:', { baseUrl: undefined });
      proxied = await testCalendar(':memory:', { baseUrl: undefined, trustProxy: true });
    });
    afterAll(async () => {
      await t.close();
      await proxied.close();
    });

    it('uses the Host header', async () => {
      expect((await archive(t, { host: 'Api.Example.net:8080' })).body.rest_url).toBe('http://api.example.net:8080/wp-json/calendar/events/v1/categories/');
      expect((await archive(t, { host: '[::1]:3000' })).body.rest_url).toBe('http://[::1]:3000/wp-json/calendar/events/v1/categories/');
    });

    it('never lets a malformed Host reach a URL', async () => {
      for (const host of [
        'evil.com/x?',
        'evil.com\r\nSet-Cookie: a=b',
        'evil.com@good.com',
        'a b',
        '"><script>',
        'evil.com#',
        '',
        'example.com:99999',
        '[:::::]',
        '[::1]:65536',
      ]) {
        const r = await archive(t, { host });
        expect(r.status, host).toBe(200);
        expect(r.body.rest_url, host).toBe('http://localhost/wp-json/calendar/events/v1/categories/');
        expect(r.headers.Link).toBe('<http://localhost/wp-json/>; rel="https://api.w.org/"');
      }
    });

    it('ignores X-Forwarded-* unless trustProxy is set', async () => {
      const headers = { host: 'internal:3000', 'x-forwarded-host': 'public.example', 'x-forwarded-proto': 'https' };
      expect((await archive(t, headers)).body.rest_url).toBe('http://internal:3000/wp-json/calendar/events/v1/categories/');
      expect((await archive(proxied, headers)).body.rest_url).toBe('https://public.example/wp-json/calendar/events/v1/categories/');
      expect((await archive(proxied, { ...headers, 'x-forwarded-host': 'public.example, other.example' })).body.rest_url).toBe(
        'https://public.example/wp-json/calendar/events/v1/categories/',
      );
    });

    it('validates X-Forwarded-* too', async () => {
      const r = await archive(proxied, { host: 'internal', 'x-forwarded-host': 'evil.com/x?', 'x-forwarded-proto': 'javascript' });
      expect(r.body.rest_url).toBe('http://localhost/wp-json/calendar/events/v1/categories/');
      const port = await archive(proxied, { host: 'internal', 'x-forwarded-host': 'public.example:70000' });
      expect(port.status).toBe(200);
      expect(port.body.rest_url).toBe('http://localhost/wp-json/calendar/events/v1/categories/');
    });

    it('puts the mount root in every URL', async () => {
      const created = await t.request('POST', '/categories', { json: { name: 'Fr' }, as: 'admin', root: '/fr/wp-json', headers: { host: 'site.test' } });
      expect(created.headers.Location).toBe(`http://site.test/fr/wp-json/calendar/events/v1/categories/${created.body.id}`);
      expect(created.body.urls.self).toBe(`http://site.test/fr/wp-json/calendar/events/v1/categories/${created.body.id}`);
      expect(created.headers.Link).toBe('<http://site.test/fr/wp-json/>; rel="https://api.w.org/"');
      const root = await t.request('GET', '/categories', { root: '/', headers: { host: 'site.test' } });
      expect(root.body.rest_url).toBe('http://site.test/calendar/events/v1/categories/');
    });
  });
});
