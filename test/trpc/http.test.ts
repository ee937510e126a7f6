import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createCalendar, type Calendar, type CoreRequest, type User } from '../../src/index.js';
import { createCalendarRouter, createFetchContext, createNodeContext, type CalendarRouter } from '../../src/trpc/index.js';
import { freePort, REPO } from '../adapters/servers.js';

// Issue 31, trap 12: nothing showed serving the tRPC router over HTTP, building its context
// from a request, or a typed client. examples/trpc/server.ts serves it with Express beside the
// REST API (createNodeContext); here it is called over HTTP as tRPC's client calls it (GET
// `path?input=…` for queries, POST with a JSON body for mutations; @trpc/client is not a
// dependency of this repository), its answers typed with the router's inferred types, and
// Fastify's and the Fetch adapters are served with createNodeContext and createFetchContext.

type In = inferRouterInputs<CalendarRouter>;
type Out = inferRouterOutputs<CalendarRouter>;

/** One tRPC answer over HTTP: the data, or the error with the API's error in `data.api`. */
type Answer<T> = { status: number; data?: T; error?: { message: string; data: { code: string; httpStatus: number; api: { code: string } | null } } };

/** A tRPC client of the calendar's router at `url`, typed by the procedure's inferred input and output. */
function client(url: string, headers: Record<string, string> = {}) {
  const answer = async <T>(res: Response): Promise<Answer<T>> => {
    const body = (await res.json()) as { result?: { data: T }; error?: Answer<T>['error'] };
    return { status: res.status, data: body.result?.data, error: body.error };
  };
  return {
    query: async <T>(path: string, input: unknown): Promise<Answer<T>> =>
      answer<T>(await fetch(`${url}/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })),
    mutate: async <T>(path: string, input: unknown, more: Record<string, string> = {}): Promise<Answer<T>> =>
      answer<T>(
        await fetch(`${url}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers, ...more }, body: JSON.stringify(input) }),
      ),
  };
}

describe('examples/trpc/server.ts: the router over HTTP with Express, beside the REST API', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-trpc-http-'));
  let child: ChildProcess | undefined;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'examples/trpc/server.ts'], {
      cwd: REPO,
      env: { ...process.env, PORT: String(port), CALENDAR_DB: join(dir, 'calendar.sqlite'), CALENDAR_TOKENS: 'administrator:tok-admin,author:tok-author' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    // Ready when it says so (the line printed once it listens), or it failed.
    await new Promise<void>((ready, fail) => {
      child!.stdout!.on('data', (c: Buffer) => {
        output += c.toString();
        if (output.includes('tRPC router on')) ready();
      });
      child!.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      child!.once('exit', (code) => fail(new Error(`examples/trpc/server.ts exited (${code}):\n${output}`)));
    });
    expect(output).toContain(`tRPC router on ${base}/trpc`);
  }, 90_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates and reads with a bearer token, typed as the router says', async () => {
    const admin = client(`${base}/trpc`, { authorization: 'Bearer tok-admin' });
    const venueInput: In['venues']['create'] = { venue: 'Blue Note', city: 'New York' };
    const venue = await admin.mutate<Out['venues']['create']>('venues.create', venueInput);
    expect(venue.status, JSON.stringify(venue.error)).toBe(200);
    const made = venue.data!;
    expect(made.venue).toBe('Blue Note');
    const eventInput: In['events']['create'] = { title: 'Jam', start_date: '2031-05-01 20:00:00', end_date: '2031-05-01 23:00:00', venue: made.id };
    const event = await admin.mutate<Out['events']['create']>('events.create', eventInput);
    expect(event.status).toBe(200);
    const read = await admin.query<Out['events']['get']>('events.get', { id: event.data!.id });
    expect(read.data?.title).toBe('Jam');
    // URLs in answers under the REST root the same app serves, which answers the same event.
    expect(read.data?.rest_url).toBe(`${base}/wp-json/calendar/events/v1/events/${event.data!.id}`);
    expect(((await (await fetch(read.data!.rest_url)).json()) as { title: string }).title).toBe('Jam');
  });

  it('answers a refused caller with the API error in data.api', async () => {
    const anonymous = await client(`${base}/trpc`).mutate('venues.create', { venue: 'Nope' });
    expect([anonymous.status, anonymous.error?.data.code, anonymous.error?.data.api?.code]).toEqual([401, 'UNAUTHORIZED', 'rest_forbidden']);
    const wrong = await client(`${base}/trpc`, { authorization: 'Bearer nope' }).query('events.list', {});
    expect([wrong.status, wrong.error?.data.code, wrong.error?.data.api?.code]).toEqual([401, 'UNAUTHORIZED', 'incorrect_password']);
    // The admin's venue of the first test, which an author may not delete.
    const author = await client(`${base}/trpc`, { authorization: 'Bearer tok-author' }).mutate('venues.delete', { id: 1 });
    expect([author.status, author.error?.data.code]).toEqual([403, 'FORBIDDEN']);
  });
});

/** The admin of these tests, signed in by a session cookie (`session=admin`). */
const ADMIN: User = { id: 1, roles: ['administrator'] };
const fromCookie = (cookie: string | string[] | undefined): User | null => (/(?:^|;\s*)session=admin\b/.test(String(cookie ?? '')) ? ADMIN : null);

describe.each(['fastify', 'fetch'] as const)('createContext helpers: %s', (framework) => {
  let calendar: Calendar;
  let url: string;
  let origin: string;
  let fastify: FastifyInstance | undefined;
  let hono: ServerType | undefined;
  const reported: string[] = [];

  beforeAll(async () => {
    // The calendar's own getUser (what the REST mounts use) reads the cookie of the core request.
    calendar = createCalendar({
      db: ':memory:',
      autoMigrate: true,
      getUser: (req: CoreRequest) => fromCookie(req.headers.cookie),
      onError: (e) => reported.push(String(e)),
    });
    const router = createCalendarRouter(calendar);
    if (framework === 'fastify') {
      fastify = Fastify();
      // A getUser typed with Fastify's request, as a host's own would be.
      const createContext = createNodeContext<FastifyRequest>(calendar, { getUser: (req) => fromCookie(req.headers.cookie), locale: 'fr' });
      await fastify.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router, createContext } });
      await fastify.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
    } else {
      const createContext = createFetchContext(calendar, { locale: (req) => req.headers.get('accept-language') ?? undefined });
      hono = await new Promise<ServerType>((ready) => {
        const s = serve({ fetch: (req) => fetchRequestHandler({ endpoint: '/trpc', req, router, createContext }), port: 0, hostname: '127.0.0.1' }, () =>
          ready(s),
        );
      });
      origin = `http://127.0.0.1:${(hono.address() as AddressInfo).port}`;
    }
    url = `${origin}/trpc`;
  });
  afterAll(async () => {
    await fastify?.close();
    await new Promise((done) => (hono ? hono.close(done) : done(undefined)));
    await calendar?.close();
  });

  it('reads as the cookie’s user, and writes as it only from a page the calendar trusts (its CSRF rule)', async () => {
    const signedIn = client(url, { cookie: 'session=admin' });
    const draft = await signedIn.mutate<Out['venues']['create']>('venues.create', { venue: 'Draft hall', status: 'draft' }, { origin });
    expect(draft.status, JSON.stringify(draft.error)).toBe(200);
    // A read needs no nonce: the draft is the admin's to see.
    const listed = await signedIn.query<Out['venues']['list']>('venues.list', { status: 'draft' });
    expect(listed.data?.venues.map((v) => v.venue)).toEqual(['Draft hall']);
    // A form post from elsewhere (no Origin the calendar trusts) runs as nobody.
    const forged = await signedIn.mutate('venues.create', { venue: 'Forged' }, { origin: 'https://evil.example' });
    expect([forged.status, forged.error?.data.api?.code]).toEqual([401, 'rest_forbidden']);
    const bare = await signedIn.mutate('venues.create', { venue: 'Forged' });
    expect(bare.status).toBe(401);
    // A nonce lets it through, as over REST.
    const nonce = calendar.createNonce(ADMIN);
    const withNonce = await signedIn.mutate<Out['venues']['create']>('venues.create', { venue: 'With nonce' }, { 'x-wp-nonce': nonce });
    expect(withNonce.status).toBe(200);
    // The guard told the host why, once per reason, as over REST.
    expect(reported).toEqual([expect.stringContaining('(untrusted_origin)'), expect.stringContaining('(missing_nonce)')]);
    expectTypeOf(withNonce.data!.id).toEqualTypeOf<number>();
  });

  it('takes the locale from the helper’s option', async () => {
    const doc = await client(url, { 'accept-language': 'fr' }).query<Out['doc']>('doc', {});
    expect((doc.data?.info as { title: string }).title).not.toBe('The Events Calendar REST API');
    expect(doc.status).toBe(200);
  });
});
