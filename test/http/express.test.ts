import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { ApiError, type CalendarOptions, type CoreRequest, type User } from '../../src/index.js';
import { testCalendar, USERS, type TestCalendar } from '../helpers/harness.js';

// The Express adapter over real HTTP: mounts, body parsing with and without a host body
// parser, fall-through to the host's routes.

const NS = 'calendar/events/v1';
const TOKENS = new Map<string, User>(Object.entries({ 'admin-token': USERS.admin, 'subscriber-token': USERS.subscriber }));

/** A host's `getUser`: no header → anonymous; an unknown bearer token → 401. */
function bearerAuth(req: CoreRequest): User | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const user = TOKENS.get(String(header).replace(/^Bearer\s+/i, ''));
  if (!user) throw new ApiError('incorrect_password', 'The provided token is invalid.', { status: 401 });
  return user;
}

interface Running {
  url: string;
  close(): Promise<void>;
}

async function listen(app: Express): Promise<Running> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A host app: optional body parsers, the calendar under two roots, and routes of its own. */
function hostApp(t: TestCalendar, parsers: boolean): Express {
  const app = express();
  if (parsers) {
    app.use(express.json());
    app.use(express.urlencoded({ extended: false }));
  }
  app.use('/wp-json', calendarRouter(t.calendar));
  app.use('/fr/wp-json', calendarRouter(t.calendar, { locale: 'fr' }));
  app.get('/wp-json/wp/v2/posts', (_req, res) => {
    res.json({ host: 'wp/v2 posts' });
  });
  app.get('/hello', (_req, res) => {
    res.type('text/plain').send('hello from the host');
  });
  return app;
}

async function calendar(options: Partial<CalendarOptions> = {}): Promise<TestCalendar> {
  return testCalendar(':memory:', { getUser: bearerAuth, ...options });
}

const admin = { authorization: 'Bearer admin-token' };

describe('Express adapter', () => {
  let t: TestCalendar;
  let plain: Running;

  beforeAll(async () => {
    // No baseUrl: URLs come from the Host header of each request.
    t = await calendar({ baseUrl: undefined });
    plain = await listen(hostApp(t, false));
  });
  afterAll(async () => {
    await plain.close();
    await t.close();
  });

  it('serves one calendar under two mounts, with URLs following the mount root', async () => {
    const res = await fetch(`${plain.url}/fr/wp-json/${NS}/categories`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Musique' }),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number; urls: { self: string } };
    expect(res.headers.get('location')).toBe(`${plain.url}/fr/wp-json/${NS}/categories/${created.id}`);
    expect(created.urls.self).toBe(`${plain.url}/fr/wp-json/${NS}/categories/${created.id}`);
    expect(res.headers.get('link')).toBe(`<${plain.url}/fr/wp-json/>; rel="https://api.w.org/"`);

    const en = await fetch(`${plain.url}/wp-json/${NS}/categories/${created.id}`);
    expect(en.status).toBe(200);
    expect(((await en.json()) as { urls: { self: string } }).urls.self).toBe(`${plain.url}/wp-json/${NS}/categories/${created.id}`);
    expect(en.headers.get('link')).toBe(`<${plain.url}/wp-json/>; rel="https://api.w.org/"`);

    const index = (await (await fetch(`${plain.url}/fr/wp-json/${NS}/`)).json()) as { _links: { up: { href: string }[] } };
    expect(index._links.up[0]?.href).toBe(`${plain.url}/fr/wp-json/`);
  });

  it('sends the API headers through Express unchanged', async () => {
    const res = await fetch(`${plain.url}/wp-json/${NS}/categories?hide_empty=0`, { headers: { origin: 'https://app.test' } });
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.headers.get('x-tec-total')).toBe('1');
    expect(res.headers.get('x-tec-totalpages')).toBe('1');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const authed = await fetch(`${plain.url}/wp-json/${NS}/categories`, { headers: admin });
    expect(authed.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    expect(authed.headers.get('allow')).toBe('GET, POST');
  });

  it('answers HEAD without a body', async () => {
    const res = await fetch(`${plain.url}/wp-json/${NS}/categories?hide_empty=0`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-tec-total')).toBe('1');
    expect(await res.text()).toBe('');
  });

  it('leaves paths outside the namespace to the host (next())', async () => {
    const posts = await fetch(`${plain.url}/wp-json/wp/v2/posts`);
    expect(posts.status).toBe(200);
    expect(await posts.json()).toEqual({ host: 'wp/v2 posts' });
    const hello = await fetch(`${plain.url}/hello`);
    expect(await hello.text()).toBe('hello from the host');
    // Inside the namespace, an unknown path is the API's own 404.
    const missing = await fetch(`${plain.url}/wp-json/${NS}/nothing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('rest_no_route');
    // Outside it and unknown to the host: Express' own 404.
    const elsewhere = await fetch(`${plain.url}/wp-json/other/v1/things`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get('content-type')).not.toContain('application/json');
  });

  it('decodes percent-encoded paths and reads bracket notation in the query string', async () => {
    const byEncodedId = await fetch(`${plain.url}/wp-json/${NS}/categor%69es/1`);
    expect(byEncodedId.status).toBe(200);
    const bracket = await fetch(`${plain.url}/wp-json/${NS}/categories?hide_empty=0&include%5B%5D=1&include[]=1`);
    expect(((await bracket.json()) as { total: number }).total).toBe(1);
  });

  it('answers invalid JSON with the API 400 when the host installs no JSON parser', async () => {
    const res = await fetch(`${plain.url}/wp-json/${NS}/categories`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  it('authenticates through getUser on the raw request (401 for a bad token, even on GET)', async () => {
    const bad = await fetch(`${plain.url}/wp-json/${NS}/categories`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { code: string }).code).toBe('incorrect_password');
    const sub = await fetch(`${plain.url}/wp-json/${NS}/categories`, {
      method: 'POST',
      headers: { authorization: 'Bearer subscriber-token', 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(sub.status).toBe(403);
  });
});

describe('Express adapter: request bodies with and without a host body parser', () => {
  let withoutParsers: { t: TestCalendar; app: Running };
  let withParsers: { t: TestCalendar; app: Running };

  beforeAll(async () => {
    // Two calendars fed the same requests, so that ids and bodies line up exactly.
    const a = await calendar({ baseUrl: 'http://example.org' });
    const b = await calendar({ baseUrl: 'http://example.org' });
    withoutParsers = { t: a, app: await listen(hostApp(a, false)) };
    withParsers = { t: b, app: await listen(hostApp(b, true)) };
  });
  afterAll(async () => {
    for (const s of [withoutParsers, withParsers]) {
      await s.app.close();
      await s.t.close();
    }
  });

  type Step = { method: string; path: string; type?: string; body?: string | FormData; auth?: boolean };

  async function run(app: Running, step: Step): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = step.auth === false ? {} : { ...admin };
    if (step.type) headers['content-type'] = step.type;
    const res = await fetch(`${app.url}/wp-json/${NS}${step.path}`, { method: step.method, headers, body: step.body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  const JSON_TYPE = 'application/json';
  const FORM = 'application/x-www-form-urlencoded';

  const steps: Step[] = [
    { method: 'POST', path: '/categories', type: JSON_TYPE, body: JSON.stringify({ name: 'Jazz', description: 'From JSON' }) },
    { method: 'POST', path: '/categories', type: FORM, body: 'name=Blues+%26+Soul&description=From%20a%20form&parent=1' },
    { method: 'POST', path: '/tags', type: FORM, body: 'name=Outdoor&slug=Out+Door' },
    // Bracket notation: a list or an object where a string is expected is the same 400 either way.
    { method: 'POST', path: '/categories', type: FORM, body: 'name[]=a&name[]=b' },
    { method: 'POST', path: '/categories', type: FORM, body: 'name=Ok&description[lang]=en' },
    { method: 'POST', path: '/categories', type: FORM, body: 'name[0][x]=deep' },
    { method: 'PATCH', path: '/categories/2', type: FORM, body: 'description=Patched&slug=blues' },
    { method: 'PUT', path: '/categories/1', type: JSON_TYPE, body: JSON.stringify({ slug: 'blues' }) },
    { method: 'POST', path: '/categories', type: JSON_TYPE, body: JSON.stringify({ name: null }) },
    { method: 'POST', path: '/categories', type: JSON_TYPE, body: JSON.stringify({ name: 'Typed', description: null }) },
    // JSON is read for any verb: the archive through a method override.
    { method: 'POST', path: '/categories?_method=GET', type: JSON_TYPE, body: JSON.stringify({ include: [2, 1], orderby: 'include', hide_empty: false }) },
    { method: 'POST', path: '/categories?_method=GET&hide_empty=0&include[]=2', type: FORM, body: 'search=nothing' },
    { method: 'DELETE', path: '/tags/1', type: FORM, body: 'id=1' },
    { method: 'POST', path: '/tags', type: 'text/plain', body: 'name=Plain' },
    { method: 'POST', path: '/categories', type: FORM, body: 'name=Anonymous', auth: false },
  ];

  it('gives the same answers for JSON, form and bracket-notation bodies', async () => {
    for (const step of steps) {
      const a = await run(withoutParsers.app, step);
      const b = await run(withParsers.app, step);
      expect(b, `${step.method} ${step.path} ${String(step.body)}`).toEqual(a);
    }
    const archive = await run(withoutParsers.app, { method: 'GET', path: '/categories?hide_empty=0' });
    expect((archive.body as { categories: { name: string; description: string; slug: string; parent: number }[] }).categories).toEqual([
      expect.objectContaining({ name: 'Blues &amp; Soul', description: 'Patched', slug: 'blues', parent: 1 }),
      expect.objectContaining({ name: 'Jazz', description: 'From JSON', slug: 'jazz' }),
    ]);
  });

  it('reads multipart bodies itself either way', async () => {
    for (const s of [withoutParsers, withParsers]) {
      const form = new FormData();
      form.append('name', 'Multipart');
      form.append('description', 'from multipart');
      const r = await run(s.app, { method: 'POST', path: '/tags', body: form });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name: 'Multipart', description: 'from multipart' });
    }
  });

  it('answers invalid JSON alike with and without a host parser', async () => {
    const step = { method: 'POST', path: '/categories', type: JSON_TYPE, body: '{"name":' };
    expect(await run(withoutParsers.app, step)).toMatchObject({ status: 400, body: { code: 'rest_invalid_json' } });
    // With express.json() installed before the router, the router's error handler answers
    // the parser's failure from the raw text it read (test/adapters/express-host-parser.test.ts).
    expect(await run(withParsers.app, step)).toMatchObject({ status: 400, body: { code: 'rest_invalid_json', data: { json_error_code: 4 } } });
  });
});

describe('Express adapter: body size limit', () => {
  let t: TestCalendar;
  let app: Running;
  beforeAll(async () => {
    t = await calendar({ limits: { bodyBytes: 1024 } });
    app = await listen(hostApp(t, false));
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('answers 413 as JSON for a body over the limit, and keeps serving', async () => {
    for (const size of [1025, 64 * 1024, 4 * 1024 * 1024]) {
      const res = await fetch(`${app.url}/wp-json/${NS}/categories`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(size) }),
      });
      expect(res.status, String(size)).toBe(413);
      expect(await res.json()).toEqual({ code: 'rest_request_too_large', message: 'The request body is too large.', data: { status: 413 } });
    }
    const ok = await fetch(`${app.url}/wp-json/${NS}/categories`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{"name":"Fits"}',
    });
    expect(ok.status).toBe(201);
  });
});
