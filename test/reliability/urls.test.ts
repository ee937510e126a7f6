/**
 * Headers and URLs (issue 7): with a configured `baseUrl`, no request header (Host,
 * X-Forwarded-*, Forwarded, Origin…) changes any URL of any response, even with
 * `trustProxy` on. Without `baseUrl`, only a valid Host (and forwarded headers behind a
 * trusted proxy) reach URLs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS, type As, type TestResponse } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const BASE_URL = 'https://calendar.example.com/site';

const HOSTILE: Record<string, Record<string, string>> = {
  host: { host: 'evil.example' },
  'host with port and path': { host: 'evil.example:8443/x' },
  'x-forwarded-host': { 'x-forwarded-host': 'evil.example' },
  'x-forwarded-proto': { 'x-forwarded-proto': 'http' },
  'x-forwarded-port': { 'x-forwarded-port': '8443' },
  forwarded: { forwarded: 'for=1.2.3.4;host=evil.example;proto=http' },
  origin: { origin: 'https://evil.example' },
  'x-original-url': { 'x-original-url': '/evil', 'x-rewrite-url': '/evil' },
  everything: {
    host: 'evil.example',
    'x-forwarded-host': 'evil2.example, evil3.example',
    'x-forwarded-proto': 'http',
    forwarded: 'host=evil4.example',
    origin: 'https://evil5.example',
  },
};

/** URLs that name specifications, not places on the site (link relations, JSON-LD, OpenAPI). */
const FIXED = /^https?:\/\/(?:api\.w\.org|schema\.org|json-schema\.org|www\.w3\.org|swagger\.io|spec\.openapis\.org)(?:\/|$)/;

/**
 * A body with its wall clocks masked: the index and OPTIONS show the events archive's
 * `end_date` default, "now + 24 months" to the second, so two requests may differ there.
 */
const sameSecond = (text: string | undefined) => text?.replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g, '<wall clock>');

/** Every absolute URL in a text. */
const urlsIn = (text: string) => [...text.replace(/\\\//g, '/').matchAll(/https?:\/\/[^\s"'<>,;]*/g)].map((m) => m[0]);

describe('with baseUrl, request headers never reach URLs', () => {
  let t: StoreCalendar;
  const requests: { method: string; path: string; as: As; query?: Record<string, string>; json?: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    t = await storeCalendar(':memory:', { baseUrl: BASE_URL, trustProxy: true, userExists: (id) => Object.values(USERS).some((u) => u.id === id) });
    const ok = async (path: string, json: Record<string, unknown>) => {
      const r = await t.request('POST', path, { as: 'admin', json, headers: { host: 'calendar.example.com' } });
      expect(r.status, r.text).toBe(201);
      return r.body as { id: number; slug: string };
    };
    const cat = await ok('/categories', { name: 'Url cat' });
    const venue = await ok('/venues', { venue: 'Url hall' });
    const org = await ok('/organizers', { organizer: 'Url org' });
    const events = [];
    for (let i = 0; i < 3; i++) {
      events.push(
        await ok('/events', {
          title: `Url event ${i}`,
          start_date: `${soon} 10:00:00`,
          end_date: `${soon} 11:00:00`,
          venue: venue.id,
          organizer: [org.id],
          categories: [cat.id],
          tags: ['url-tag'],
        }),
      );
    }
    const e = events[0];
    if (!e) throw new Error('no event created');
    requests.push(
      { method: 'GET', path: `/${t.ns}`, as: null },
      { method: 'GET', path: '/doc', as: null },
      { method: 'GET', path: '/events', as: null, query: { per_page: '1', page: '2' } },
      { method: 'GET', path: '/events', as: 'admin', query: { per_page: '1', venue: String(venue.id) } },
      { method: 'GET', path: `/events/${e.id}`, as: null },
      { method: 'GET', path: `/events/by-slug/${e.slug}`, as: 'editor' },
      { method: 'GET', path: '/venues', as: null },
      { method: 'GET', path: `/venues/${venue.id}`, as: null },
      { method: 'GET', path: '/organizers', as: null },
      { method: 'GET', path: `/organizers/by-slug/${org.slug}`, as: null },
      { method: 'GET', path: '/categories', as: null, query: { per_page: '1', hide_empty: 'false' } },
      { method: 'GET', path: `/categories/${cat.id}`, as: 'admin' },
      { method: 'GET', path: '/tags', as: null },
      { method: 'OPTIONS', path: '/events', as: null },
      { method: 'HEAD', path: '/events', as: null },
      { method: 'GET', path: '/nowhere', as: null },
      { method: 'GET', path: '/events/999999', as: null },
      { method: 'GET', path: '/events', as: null, query: { status: 'draft' } },
      { method: 'POST', path: '/events', as: 'subscriber', json: { title: 'x', start_date: soon, end_date: soon } },
    );
  });
  afterAll(() => t.close());

  /** Asserts that every URL of a response is under the base URL. */
  function expectOwnUrls(r: TestResponse, what: string): void {
    const headerText = Object.entries(r.headers)
      .filter(([name]) => name !== 'Access-Control-Allow-Origin') // echoes Origin by design (CORS), it builds no URL
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
    for (const url of [...urlsIn(r.text ?? ''), ...urlsIn(headerText)]) {
      if (!FIXED.test(url)) expect(url.startsWith(`${BASE_URL}/`), `${what}: ${url}`).toBe(true);
    }
    expect(`${r.text ?? ''}\n${headerText}`, what).not.toMatch(/evil/);
  }

  it('answers the same bodies and URL headers whatever Host, X-Forwarded-*, Forwarded or Origin say', async () => {
    for (const req of requests) {
      const send = (headers: Record<string, string>) => t.request(req.method, req.path, { as: req.as, query: req.query, json: req.json, headers });
      const baseline = await send({ host: 'calendar.example.com' });
      expectOwnUrls(baseline, `${req.method} ${req.path}`);
      expect(baseline.headers.Link).toBe(`<${BASE_URL}/wp-json/>; rel="https://api.w.org/"`);
      for (const [name, headers] of Object.entries(HOSTILE)) {
        const what = `${req.method} ${req.path} with ${name}`;
        const r = await send(headers);
        expect(r.status, what).toBe(baseline.status);
        expect(sameSecond(r.text), what).toBe(sameSecond(baseline.text));
        for (const h of ['Link', 'Location', 'Allow', 'X-TEC-Total', 'X-TEC-TotalPages']) expect(r.headers[h], `${what}: ${h}`).toBe(baseline.headers[h]);
        expectOwnUrls(r, what);
      }
    }
  });

  it('builds the URLs of writes (201 Location included) from baseUrl too', async () => {
    let n = 0;
    for (const [name, headers] of Object.entries(HOSTILE)) {
      for (const [path, json] of [
        ['/categories', { name: `Url cat ${++n}` }],
        ['/venues', { venue: `Url hall ${n}` }],
        ['/events', { title: `Url write ${n}`, start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00`, venue: { venue: `Embedded hall ${n}` } }],
      ] as const) {
        const r = await t.request('POST', path, { as: 'admin', json, headers });
        expect(r.status, r.text).toBe(201);
        expectOwnUrls(r, `POST ${path} with ${name}`);
        if (path === '/categories') expect(r.headers.Location).toBe(`${BASE_URL}/wp-json/${t.ns}/categories/${r.body.id}`);
      }
    }
  });
});

describe('without baseUrl', () => {
  it('uses a valid Host only, and forwarded headers only behind a trusted proxy', async () => {
    const plain = await storeCalendar(':memory:', { baseUrl: undefined });
    const proxied = await storeCalendar(':memory:', { baseUrl: undefined, trustProxy: true });
    try {
      const link = async (t: StoreCalendar, headers: Record<string, string>) => (await t.request('GET', '/venues', { headers })).headers.Link;
      expect(await link(plain, { host: 'site.example' })).toBe('<http://site.example/wp-json/>; rel="https://api.w.org/"');
      expect(await link(plain, { host: 'site.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })).toBe(
        '<http://site.example/wp-json/>; rel="https://api.w.org/"',
      );
      for (const host of ['evil.example/path', 'a b', 'evil.example"><script>', 'evil.example\\@x', '']) {
        expect(await link(plain, { host })).toBe('<http://localhost/wp-json/>; rel="https://api.w.org/"');
      }
      expect(await link(proxied, { host: 'internal:8080', 'x-forwarded-host': 'public.example', 'x-forwarded-proto': 'https' })).toBe(
        '<https://public.example/wp-json/>; rel="https://api.w.org/"',
      );
      expect(await link(proxied, { host: 'internal', 'x-forwarded-host': 'bad host/x', 'x-forwarded-proto': 'gopher' })).toBe(
        '<http://localhost/wp-json/>; rel="https://api.w.org/"',
      );
    } finally {
      await plain.close();
      await proxied.close();
    }
  });
});
