import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNextExample, send, startExample, TOKENS, type Exchange, type NextBuild, type RunningServer } from './servers.js';

/*
 * One behaviour everywhere: the Express, Fastify, Hono, plain Node and Next.js examples run as real servers
 * (Next.js built with `next build`, then `next start`), each on a fresh SQLite file, and get
 * the same requests in the same order. Status, headers and JSON bodies must be identical
 * once the port, creation dates and these transport or framework extras are set aside:
 * - Date, Connection, Keep-Alive, Content-Length, Transfer-Encoding, ETag, X-Powered-By;
 * - Next.js adds `rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch`
 *   and (for its compression) `Accept-Encoding` to every `Vary`;
 * - a path outside the namespace gets each framework's own 404 page (only the status is compared;
 *   the plain Node handler answers the API's JSON `rest_no_route`).
 * Known differences, not in the matrix: Fastify answers a malformed `Content-Type` (no `/`) with
 * its own 415 before any route runs; a Fetch `Request` (Next.js) never carries a GET body.
 */

const NS = '/wp-json/calendar/events/v1';
const FR = '/fr/wp-json/calendar/events/v1';
// `last-modified` comes from creation times, which differ by a second now and then between servers (as NOW_FIELDS below).
const IGNORED = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'etag', 'x-powered-by', 'last-modified']);
const NEXT_VARY = new Set(['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'accept-encoding']);
// Creation times, and defaults computed from the clock (the index's `end_date`).
const NOW_FIELDS = new Set(['date', 'date_utc', 'modified', 'modified_utc', 'default']);
const LIMIT = 1024 * 1024;

type As = keyof typeof TOKENS | 'nobody';
/** Ids learnt from earlier answers (the same on every server, which get the same requests). */
type State = Record<string, number | string>;

interface Case {
  name: string;
  method: string;
  path: string | ((s: State) => string);
  as?: As;
  headers?: Record<string, string>;
  json?: unknown;
  form?: string;
  multipart?: [string, string][];
  raw?: { type?: string; body: string | Buffer; chunked?: boolean };
  /** Status every server must answer. */
  status: number;
  /** Compare only the status (a framework's own page). */
  statusOnly?: boolean;
  /** Extra expectations on the (normalised) answer, and ids to remember. */
  check?: (r: Normalised, s: State) => void;
}

interface Normalised {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
  body: any;
}

const BOUNDARY = '----calendar-matrix-boundary';
function multipart(fields: [string, string][]): string {
  return fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + `--${BOUNDARY}--\r\n`;
}

function request(c: Case, state: State): { path: string; headers: Record<string, string>; body?: string | Buffer } {
  const headers: Record<string, string> = { ...c.headers };
  if (c.as && c.as !== 'nobody') headers.authorization = `Bearer ${TOKENS[c.as]}`;
  if (c.as === 'nobody') headers.authorization = 'Bearer not-a-token';
  let body: string | Buffer | undefined;
  if (c.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(c.json);
  } else if (c.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = c.form;
  } else if (c.multipart) {
    headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`;
    body = multipart(c.multipart);
  } else if (c.raw) {
    if (c.raw.type) headers['content-type'] = c.raw.type;
    if (c.raw.chunked) headers['transfer-encoding'] = 'chunked';
    body = c.raw.body;
  }
  return { path: typeof c.path === 'function' ? c.path(state) : c.path, headers, body };
}

function normaliseField(key: string, value: unknown): unknown {
  if (typeof value === 'string' && NOW_FIELDS.has(key) && /^\d{4}-\d\d-\d\d/.test(value)) return '<now>';
  // E-mail addresses are obfuscated with random entities (WordPress' antispambot).
  if (typeof value === 'string' && key === 'email') return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  return normaliseJson(value);
}

function normaliseJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseJson);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseField(k, v)]));
  return value;
}

function normalise(server: RunningServer, r: Exchange): Normalised {
  const port = (s: string) => s.split(`127.0.0.1:${server.port}`).join('127.0.0.1:PORT');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers)) {
    if (IGNORED.has(name)) continue;
    if (name === 'vary') {
      const kept = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v && !NEXT_VARY.has(v.toLowerCase()));
      if (kept.length) headers.vary = kept.join(', ');
      continue;
    }
    headers[name] = port(value);
  }
  const text = port(r.text);
  let body: unknown = text;
  if (/json/.test(r.headers['content-type'] ?? '') && text) body = normaliseJson(JSON.parse(text));
  return { status: r.status, headers, body };
}

const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2030-05-01 20:00:00',
  end_date: '2030-05-01 23:00:00',
  ...extra,
});

const CASES: Case[] = [
  // Reads
  { name: 'namespace index', method: 'GET', path: NS, status: 200, check: (r) => expect(r.body.namespace).toBe('calendar/events/v1') },
  {
    name: 'namespace index under the French root',
    method: 'GET',
    path: FR,
    status: 200,
    check: (r) => expect(r.headers.link).toBe('<http://127.0.0.1:PORT/fr/wp-json/>; rel="https://api.w.org/"'),
  },
  { name: 'empty category archive', method: 'GET', path: `${NS}/categories`, status: 200, check: (r) => expect(r.headers.vary).toBe('Origin') },
  { name: 'trailing slash', method: 'GET', path: `${NS}/categories/`, status: 200 },
  { name: 'upper-case namespace', method: 'GET', path: '/wp-json/Calendar/Events/V1/tags', status: 200 },
  {
    name: 'a client’s X-Forwarded-Proto is not trusted',
    method: 'GET',
    path: `${NS}/tags`,
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
    status: 200,
    check: (r) => expect(r.body.rest_url).toBe(`http://127.0.0.1:PORT${NS}/tags/`),
  },
  {
    name: 'REST root index',
    method: 'GET',
    path: '/wp-json/',
    status: 200,
    check: (r) => {
      expect(r.body.namespaces).toEqual(['calendar/events/v1']);
      expect(Object.keys(r.body.routes)).toContain('/calendar/events/v1/events');
    },
  },
  { name: 'unknown route in the namespace', method: 'GET', path: `${NS}/nothing-here`, status: 404, check: (r) => expect(r.body.code).toBe('rest_no_route') },
  { name: 'path outside the namespace', method: 'GET', path: '/wp-json/other/v2/things', status: 404, statusOnly: true },
  { name: 'path outside every root', method: 'GET', path: '/elsewhere', status: 404, statusOnly: true },

  // Writes, with every body encoding
  {
    name: 'create a category with JSON (administrator)',
    method: 'POST',
    path: `${NS}/categories`,
    as: 'admin',
    json: { name: 'Jazz', description: 'Live music' },
    status: 201,
    check: (r, s) => {
      s.jazz = r.body.id;
      expect(r.headers.location).toBe(`http://127.0.0.1:PORT${NS}/categories/${r.body.id}`);
    },
  },
  {
    name: 'create a tag with a form body (editor)',
    method: 'POST',
    path: `${NS}/tags`,
    as: 'editor',
    form: 'name=Rock&description=Loud',
    status: 201,
    check: (r, s) => void (s.rock = r.body.id),
  },
  {
    name: 'create a tag with a multipart body',
    method: 'POST',
    path: `${NS}/tags`,
    as: 'admin',
    multipart: [
      ['name', 'Pop'],
      ['description', 'Catchy'],
    ],
    status: 201,
    check: (r, s) => void (s.pop = r.body.id),
  },
  {
    name: 'create a venue with JSON',
    method: 'POST',
    path: `${NS}/venues`,
    as: 'admin',
    json: { venue: 'Hall', city: 'Paris', country: 'France' },
    status: 201,
    check: (r, s) => void (s.hall = r.body.id),
  },
  {
    name: 'create an organizer with a form body',
    method: 'POST',
    path: `${NS}/organizers`,
    as: 'admin',
    form: 'organizer=Ann&email=ann%40example.org',
    status: 201,
    check: (r, s) => void (s.ann = r.body.id),
  },
  {
    name: 'create an event with bracket notation in a form body',
    method: 'POST',
    path: `${NS}/events`,
    as: 'admin',
    form: 'title=Concert&start_date=2030-05-01+20%3A00%3A00&end_date=2030-05-01+23%3A00%3A00&categories[]=Jazz&tags[]=Rock&tags[]=Pop&venue[venue]=Cellar&venue[city]=Lyon&organizer[organizer]=Bob&cost=10',
    status: 201,
    check: (r, s) => {
      s.concert = r.body.id;
      expect(r.body.tags.map((t: { name: string }) => t.name).sort()).toEqual(['Pop', 'Rock']);
      expect(r.body.venue.venue).toBe('Cellar');
    },
  },
  {
    name: 'create an event with bracket notation in a multipart body',
    method: 'POST',
    path: `${NS}/events`,
    as: 'admin',
    multipart: [
      ['title', 'Matinee'],
      ['start_date', '2030-06-01 14:00:00'],
      ['end_date', '2030-06-01 16:00:00'],
      ['tags[]', 'Pop'],
      ['venue[venue]', 'Annex'],
      ['venue[city]', 'Lyon'],
    ],
    status: 201,
    check: (r, s) => void (s.matinee = r.body.id),
  },
  {
    name: 'create an event under the French root',
    method: 'POST',
    path: `${FR}/events`,
    as: 'editor',
    json: event('Café Concert', { categories: ['Jazz'] }),
    status: 201,
    check: (r, s) => {
      s.cafe = r.body.id;
      expect(r.body.rest_url).toContain('/fr/wp-json/calendar/events/v1/events/');
    },
  },
  { name: 'read an event', method: 'GET', path: (s) => `${NS}/events/${s.concert}`, status: 200, check: (r) => expect(r.body.title).toBe('Concert') },
  {
    name: 'read an event as administrator (Allow, Cache-Control)',
    method: 'GET',
    path: (s) => `${NS}/events/${s.concert}`,
    as: 'admin',
    status: 200,
    check: (r) => expect(r.headers.allow).toBe('GET, DELETE, POST, PUT, PATCH'),
  },
  {
    name: 'read an event under the French root',
    method: 'GET',
    path: (s) => `${FR}/events/${s.cafe}`,
    status: 200,
    check: (r) => expect(r.body.rest_url).toContain('/fr/wp-json/'),
  },
  {
    name: 'event by percent-encoded slug',
    method: 'GET',
    path: `${NS}/events/by-slug/cafe%2Dconcert`,
    status: 200,
    check: (r) => expect(r.body.title).toBe('Café Concert'),
  },
  {
    name: 'event archive with bracket filters and paging',
    method: 'GET',
    path: (s) => `${NS}/events?per_page=1&start_date=2030-01-01&end_date=2031-01-01&categories[]=${s.jazz}`,
    status: 200,
    check: (r) => expect(r.body.next_rest_url).toContain('page=2'),
  },
  { name: 'venue archive', method: 'GET', path: `${NS}/venues?per_page=2`, status: 200 },
  { name: 'organizer read as author', method: 'GET', path: (s) => `${NS}/organizers/${s.ann}`, as: 'author', status: 200 },
  {
    name: 'update a category with PUT',
    method: 'PUT',
    path: (s) => `${NS}/categories/${s.jazz}`,
    as: 'admin',
    json: { description: 'Updated' },
    status: 200,
    check: (r) => expect(r.body.description).toBe('Updated'),
  },
  {
    name: 'update a tag with PATCH and a form body',
    method: 'PATCH',
    path: (s) => `${NS}/tags/${s.rock}`,
    as: 'admin',
    form: 'description=Louder',
    status: 200,
  },
  {
    name: '_method override in the query',
    method: 'POST',
    path: (s) => `${NS}/categories/${s.jazz}?_method=PUT`,
    as: 'admin',
    json: { name: 'Jazz & Blues' },
    status: 200,
    check: (r) => expect(r.body.name).toBe('Jazz &amp; Blues'),
  },
  {
    name: 'X-HTTP-Method-Override header',
    method: 'POST',
    path: (s) => `${NS}/tags/${s.pop}?force=true`,
    as: 'admin',
    headers: { 'x-http-method-override': 'DELETE' },
    status: 200,
  },
  {
    name: 'update an event with JSON',
    method: 'POST',
    path: (s) => `${NS}/events/${s.matinee}`,
    as: 'admin',
    json: { title: 'Matinée', featured: true },
    status: 200,
  },
  { name: 'delete an event', method: 'DELETE', path: (s) => `${NS}/events/${s.matinee}`, as: 'admin', status: 200 },

  // Errors
  {
    name: 'invalid JSON',
    method: 'POST',
    path: `${NS}/categories`,
    as: 'admin',
    raw: { type: 'application/json', body: '{"name":' },
    status: 400,
    check: (r) => expect(r.body.code).toBe('rest_invalid_json'),
  },
  {
    name: 'body over the limit',
    method: 'POST',
    path: `${NS}/categories`,
    as: 'admin',
    raw: { type: 'application/json', body: Buffer.alloc(LIMIT + 10, 0x20) },
    status: 413,
    check: (r) => expect(r.body.code).toBe('rest_request_too_large'),
  },
  {
    name: 'chunked body over the limit',
    method: 'POST',
    path: `${NS}/tags`,
    as: 'admin',
    raw: { type: 'application/x-www-form-urlencoded', body: Buffer.alloc(LIMIT + 10, 0x61), chunked: true },
    status: 413,
  },
  {
    name: 'body just under the limit',
    method: 'POST',
    path: `${NS}/tags`,
    as: 'admin',
    raw: { type: 'application/json', body: `{"name":"Big"}${' '.repeat(LIMIT - 20)}` },
    status: 201,
  },
  {
    name: 'missing parameters',
    method: 'POST',
    path: `${NS}/events`,
    as: 'admin',
    json: {},
    status: 400,
    check: (r) => expect(r.body.code).toBe('rest_missing_callback_param'),
  },
  { name: 'invalid parameter', method: 'GET', path: `${NS}/events?start_date=not-a-date`, status: 400 },
  { name: 'anonymous write', method: 'POST', path: `${NS}/categories`, json: { name: 'Nope' }, status: 401 },
  { name: 'unknown token', method: 'GET', path: `${NS}/categories`, as: 'nobody', status: 401, check: (r) => expect(r.body.code).toBe('incorrect_password') },
  { name: 'subscriber write', method: 'POST', path: `${NS}/categories`, as: 'subscriber', json: { name: 'Nope' }, status: 403 },
  { name: 'contributor deletes a category', method: 'DELETE', path: (s) => `${NS}/categories/${s.jazz}`, as: 'contributor', status: 403 },
  {
    name: 'verb the route does not have',
    method: 'PATCH',
    path: `${NS}/categories`,
    as: 'admin',
    status: 404,
    check: (r) => expect(r.body.code).toBe('rest_no_route'),
  },

  // Headers
  {
    name: 'CORS preflight',
    method: 'OPTIONS',
    path: `${NS}/events`,
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    status: 200,
    check: (r) => expect(r.headers['access-control-allow-origin']).toBe('https://app.example'),
  },
  { name: 'OPTIONS of a single item', method: 'OPTIONS', path: (s) => `${NS}/categories/${s.jazz}`, status: 200 },
  { name: 'HEAD of an archive', method: 'HEAD', path: `${NS}/events`, status: 200, check: (r) => expect(r.body).toBe('') },
  {
    name: 'HEAD as administrator',
    method: 'HEAD',
    path: (s) => `${NS}/categories/${s.jazz}`,
    as: 'admin',
    status: 200,
    check: (r) => expect(r.headers['cache-control']).toContain('no-store'),
  },
  {
    name: 'cross-origin read as editor (readable, never with credentials from an origin nobody listed)',
    method: 'GET',
    path: `${FR}/categories`,
    as: 'editor',
    headers: { origin: 'https://app.example' },
    status: 200,
    check: (r) => {
      expect(r.headers.vary).toBe('Origin');
      expect(r.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(r.headers).not.toHaveProperty('access-control-allow-credentials');
    },
  },
];

const SERVERS = ['express', 'fastify', 'hono', 'node', 'next'] as const;

describe('the same answers from Express, Fastify, Hono, plain Node and Next.js', () => {
  const servers: RunningServer[] = [];
  const state: State = {};
  let build: NextBuild | undefined;

  beforeAll(async () => {
    const started = await Promise.allSettled([
      startExample('express'),
      startExample('fastify'),
      startExample('hono'),
      startExample('node'),
      buildNextExample().then((b) => {
        build = b;
        return startExample('next', { nextDir: b.dir });
      }),
    ]);
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }, 600_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    build?.remove();
  });

  it('starts all five examples', () => {
    expect(servers.map((s) => s.name)).toEqual([...SERVERS]);
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const { path, headers, body } = request(c, state);
      const answers: Normalised[] = [];
      for (const server of servers) answers.push(normalise(server, await send(server.base, c.method, path, headers, body)));
      const [express, ...others] = answers;
      if (!express) throw new Error('no example server answered');
      expect(express.status, JSON.stringify(express.body)).toBe(c.status);
      others.forEach((other, i) => {
        const label = `${SERVERS[i + 1]} vs express: ${c.method} ${path}`;
        if (c.statusOnly) expect(other.status, label).toBe(express.status);
        else expect(other, label).toEqual(express);
      });
      c.check?.(express, state);
    });
  }
});
