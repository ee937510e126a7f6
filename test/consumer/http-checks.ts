/**
 * The consumer test's checks of issue 31's traps that are made over HTTP against an app's
 * running server (the packed package serving it): `/doc/complete` (trap 7), `X-Forwarded-Prefix`
 * behind a trusted proxy (trap 8) and the tRPC router served with tRPC's own adapters (trap 12).
 * Each takes the app's base URL, throws an AssertionError naming what differed, and returns a
 * note for the report. The checks that run inside an app (its imports of the package, the CLI)
 * are scripts in the app templates.
 */
import assert from 'node:assert/strict';

const NAMESPACE = 'calendar/events/v1';
const ADMIN = { authorization: 'Bearer consumer-admin-token' };
const TIMEOUT = 20_000;

/** An answer: its status, its headers and its body parsed as JSON (undefined when it is not JSON). */
interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

async function request(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The value at `path` in parsed JSON (undefined where it goes missing). */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}

/** The keys of an object in parsed JSON (none when it is not one). */
const keysOf = (value: unknown): string[] => (typeof value === 'object' && value !== null ? Object.keys(value) : []);

/** A 200 answer's JSON. */
async function json(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await request('GET', url, headers);
  assert.equal(res.status, 200, `GET ${url}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

/**
 * Trap 7: the complete OpenAPI document (writes included) answers at `{namespace}/doc/complete`
 * on each root of the app, whatever the `doc` option says, and the namespace index lists it;
 * `/doc` stays the original's, reads only.
 */
export async function checkDocComplete(base: string, roots: string[]): Promise<string> {
  for (const root of roots) {
    const ns = `${base}${root}/${NAMESPACE}`;
    const complete = await json(`${ns}/doc/complete`);
    assert.deepEqual(keysOf(at(complete, 'paths', '/events')), ['get', 'post'], `${root}: the complete document's /events`);
    assert.ok(at(complete, 'paths', '/venues/{id}', 'delete'), `${root}: the complete document has no DELETE /venues/{id}`);
    assert.deepEqual(at(complete, 'servers'), [{ url: `${ns}/` }], `${root}: the complete document's server`);
    const doc = await json(`${ns}/doc`);
    assert.deepEqual(keysOf(at(doc, 'paths', '/events')), ['get'], `${root}: /doc is no longer the original's read-only document`);
    const index = await json(ns);
    assert.deepEqual(at(index, 'routes', `/${NAMESPACE}/doc/complete`, 'methods'), ['GET'], `${root}: the namespace index does not list /doc/complete`);
  }
  return `/doc/complete (POST /events) on ${roots.join(', ')}, listed in the index`;
}

/**
 * Trap 8: with `trustProxy`, an answer to a request a proxy forwarded under `/blog` carries the
 * public origin and the prefix (`rest_url`, the `Link` header), on each root; the same request
 * straight to the app (the response cache in between) carries the app's own.
 */
export async function checkForwardedPrefix(base: string, roots: string[]): Promise<string> {
  const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example', 'x-forwarded-prefix': '/blog' };
  for (const root of roots) {
    for (const [headers, home] of [
      [proxied, 'https://public.example/blog'],
      [{}, base],
    ] as const) {
      const url = `${base}${root}/${NAMESPACE}/events?per_page=1`;
      const res = await request('GET', url, headers);
      assert.equal(res.status, 200, `GET ${url}: ${res.status} ${res.text.slice(0, 300)}`);
      const id = at(res.body, 'events', 0, 'id');
      assert.equal(typeof id, 'number', `GET ${url} listed no event (the consumer test created one before)`);
      const via = home === base ? 'straight to the app' : 'through the proxy';
      assert.equal(at(res.body, 'events', 0, 'rest_url'), `${home}${root}/${NAMESPACE}/events/${String(id)}`, `rest_url ${via}`);
      assert.ok((res.headers.get('link') ?? '').includes(`<${home}${root}/>; rel="https://api.w.org/"`), `Link ${via}: ${res.headers.get('link')}`);
    }
  }
  return `X-Forwarded-Prefix /blog in rest_url and Link on ${roots.join(', ')} (trustProxy), not without it`;
}

/** A tRPC answer over HTTP: the status, and the procedure's data or tRPC's error. */
function trpcAnswer(res: Answer): { status: number; data: unknown; error: unknown } {
  return { status: res.status, data: at(res.body, 'result', 'data'), error: at(res.body, 'error') };
}

/**
 * Trap 12: the calendar's tRPC router, served at `{base}/trpc` with one of tRPC's adapters and
 * the package's context helper, called as tRPC's client calls it with plain HTTP (GET
 * `<procedure>?input=<JSON>` for a query, POST with a JSON body for a mutation): a write with the
 * administrator's bearer token, reads back (URLs in answers under the app's REST root), and the
 * API's refusal of an anonymous write in tRPC's error.
 */
export async function checkTrpcHttp(base: string, served: string): Promise<string> {
  const trpc = `${base}/trpc`;
  const query = async (path: string, input: unknown) => trpcAnswer(await request('GET', `${trpc}/${path}?input=${encodeURIComponent(JSON.stringify(input))}`));
  const mutate = async (path: string, input: unknown, headers: Record<string, string> = {}) =>
    trpcAnswer(await request('POST', `${trpc}/${path}`, { 'content-type': 'application/json', ...headers }, JSON.stringify(input)));

  const day = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  const title = `tRPC consumer test ${Date.now()}`;
  const created = await mutate('events.create', { title, start_date: `${day} 18:00:00`, end_date: `${day} 20:00:00` }, ADMIN);
  assert.equal(created.status, 200, `events.create: ${JSON.stringify(created.error)}`);
  const id = at(created.data, 'id');
  assert.equal(typeof id, 'number', `events.create answered ${JSON.stringify(created.data)}`);

  const read = await query('events.get', { id });
  assert.equal(read.status, 200, `events.get: ${JSON.stringify(read.error)}`);
  assert.equal(at(read.data, 'title'), title);
  assert.equal(at(read.data, 'rest_url'), `${base}/wp-json/${NAMESPACE}/events/${String(id)}`);

  const list = await query('events.list', { per_page: 50 });
  assert.equal(list.status, 200, `events.list: ${JSON.stringify(list.error)}`);
  const events = at(list.data, 'events');
  assert.ok(Array.isArray(events) && events.some((e) => at(e, 'id') === id), `events.list does not hold event ${String(id)}`);

  const anonymous = await mutate('venues.create', { venue: 'Nobody may' });
  assert.deepEqual(
    [anonymous.status, at(anonymous.error, 'data', 'code'), at(anonymous.error, 'data', 'api', 'code')],
    [401, 'UNAUTHORIZED', 'rest_forbidden'],
    'an anonymous venues.create',
  );
  return `tRPC over HTTP (${served}): events.create, .get, .list; anonymous write 401`;
}
