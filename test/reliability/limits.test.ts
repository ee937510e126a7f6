/**
 * Limits (issue 7): each bound of `createCalendar({ limits, maxPerPage })` with its
 * spec-shaped JSON error, through the core and once through the Express adapter over HTTP;
 * image side-loading bounds through `POST /events`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { DEFAULT_PARSE_LIMITS } from '../../src/http/params.js';
import { USERS, type TestResponse } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';
import { png, serve, type TestServer } from '../images/fixtures.js';
import { storeSnapshot } from './fixtures/store-state.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const event = (extra: Record<string, unknown> = {}) => ({ title: 'Limit', start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00`, ...extra });
const OPTIONS = { userExists: (id: number) => Object.values(USERS).some((u) => u.id === id) };

/** Asserts the 400 a value over a limit gets: `rest_invalid_param` whose detail is `rest_param_too_large`. */
function expectTooLarge(r: TestResponse, param: string, message = `${param} is too large.`): void {
  expect(r.status, r.text).toBe(400);
  expect(r.body).toEqual({
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${param}`,
    data: { status: 400, params: { [param]: message }, details: { [param]: { code: 'rest_param_too_large', message, data: { param } } } },
  });
}

const TOO_LARGE_BODY = { code: 'rest_request_too_large', message: 'The request body is too large.', data: { status: 413 } };

describe('default limits', () => {
  let t: StoreCalendar;
  beforeAll(async () => {
    t = await storeCalendar(':memory:', OPTIONS);
  });
  afterAll(() => t.close());

  it('are the documented ones', () => {
    expect(t.calendar.options.limits).toEqual({
      depth: 5,
      parameters: 1000,
      arrayIndex: 100,
      bodyBytes: 1024 * 1024,
      stringLength: 100_000,
      listItems: 200,
      searchTerms: 32,
      searchTests: 5_000,
      countMs: 30_000,
      imageBytes: 10 * 1024 * 1024,
      imageBytesInFlight: 32 * 1024 * 1024,
      imagesPerRequest: 10,
    });
    expect(t.calendar.options.maxPerPage).toBe(50);
    expect(DEFAULT_PARSE_LIMITS.bodyBytes).toBe(1024 * 1024);
  });

  it('answers 413 to a body over 1 MiB (any content type) and writes nothing', async () => {
    const before = await storeSnapshot(t.db);
    for (const type of ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain']) {
      const r = await t.request('POST', '/events', { as: 'admin', body: `{"title":"${'a'.repeat(1024 * 1024)}"}`, headers: { 'content-type': type } });
      expect(r.status).toBe(413);
      expect(r.body).toEqual(TOO_LARGE_BODY);
    }
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('refuses a string over 100 000 characters, and takes one at the limit', async () => {
    expectTooLarge(await t.request('POST', '/events', { as: 'admin', json: event({ description: 'd'.repeat(100_001) }) }), 'description');
    expect((await t.request('POST', '/events', { as: 'admin', json: event({ description: 'd'.repeat(100_000) }) })).status).toBe(201);
  });

  it('refuses more than 200 ids in a filter, however the list is written', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expectTooLarge(await t.request('GET', '/events', { query: { include: ids(201).join(',') } }), 'include');
    expectTooLarge(await t.request('GET', '/events', { query: { include: ids(201).join(' ') } }), 'include');
    expectTooLarge(
      await t.request('GET', '/events', {
        query: ids(201)
          .map((i) => `include[]=${i}`)
          .join('&'),
      }),
      'include',
    );
    expect((await t.request('GET', '/events', { query: { include: ids(200).join(',') } })).status).toBe(200);
    expectTooLarge(await t.request('GET', '/categories', { query: { exclude: ids(201).join(',') } }), 'exclude');
  });

  it('refuses bracket notation and JSON nested deeper than 5 levels', async () => {
    expectTooLarge(await t.request('GET', '/events', { query: 'categories[a][b][c][d][e][f][g]=1' }), 'categories');
    let deep: unknown = 'Hall';
    for (let i = 0; i < 6; i++) deep = [deep];
    expectTooLarge(await t.request('POST', '/events', { as: 'admin', json: event({ organizer: deep }) }), 'organizer');
    // Nesting the API uses is well within it.
    expect(
      (await t.request('POST', '/events', { as: 'admin', form: `title=F&start_date=${soon}&end_date=${soon}&organizer[0][organizer]=Deep+org` })).status,
    ).toBe(201);
  });

  it('does not build a huge array for a huge bracket index', async () => {
    const created = await t.request('POST', '/events', { as: 'admin', json: event({ title: 'Indexed' }) });
    const r = await t.request('GET', '/events', { query: `include[99999999]=${created.body.id}` });
    expect(r.status, r.text).toBe(200);
    expect(r.body.events.map((e: { id: number }) => e.id)).toEqual([created.body.id]);
  });

  it('clamps per_page to 50', async () => {
    const r = await t.request('GET', '/venues', { query: { per_page: 1000 } });
    expect(r.status).toBe(200);
    expect(r.body.rest_url).toContain('per_page=50');
  });
});

describe('configured limits', () => {
  let t: StoreCalendar;
  beforeAll(async () => {
    t = await storeCalendar(':memory:', { ...OPTIONS, maxPerPage: 3, limits: { bodyBytes: 2000, stringLength: 50, listItems: 3, depth: 1, parameters: 5 } });
    for (let i = 0; i < 5; i++) {
      expect((await t.request('POST', '/events', { as: 'admin', json: event({ title: `Clamp ${i}` }) })).status).toBe(201);
      expect((await t.request('POST', '/venues', { as: 'admin', json: { venue: `Clamp hall ${i}` } })).status).toBe(201);
      expect((await t.request('POST', '/categories', { as: 'admin', json: { name: `Clamp cat ${i}` } })).status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('bodyBytes: 413 one byte over, accepted at the limit', async () => {
    const body = (size: number) => {
      const base = JSON.stringify(event({ excerpt: '' }));
      return base.replace('"excerpt":""', `"excerpt":"${'e'.repeat(Math.max(0, size - base.length))}"`);
    };
    // The excerpt itself is over stringLength: the body limit must answer first.
    const over = await t.request('POST', '/events', { as: 'admin', body: body(2001), headers: { 'content-type': 'application/json' } });
    expect(over.status).toBe(413);
    expect(over.body).toEqual(TOO_LARGE_BODY);
    const at = await t.request('POST', '/events', { as: 'admin', body: body(2000), headers: { 'content-type': 'application/json' } });
    expect(at.status).toBe(400);
    expect(at.body.data.details.excerpt.code).toBe('rest_param_too_large');
  });

  it('stringLength: in bodies and in query strings', async () => {
    expectTooLarge(await t.request('POST', '/venues', { as: 'admin', json: { venue: 'v'.repeat(51) } }), 'venue');
    expect((await t.request('POST', '/venues', { as: 'admin', json: { venue: 'v'.repeat(50) } })).status).toBe(201);
    expectTooLarge(await t.request('GET', '/events', { query: { search: 's'.repeat(51) } }), 'search');
    expectTooLarge(await t.request('GET', '/venues', { query: { search: 's'.repeat(51) } }), 'search');
  });

  it('listItems: ids in filters and linked items in writes', async () => {
    expectTooLarge(await t.request('GET', '/events', { query: { include: '1,2,3,4' } }), 'include');
    expectTooLarge(await t.request('GET', '/events', { query: { include: '1 2\t3\n4' } }), 'include');
    expectTooLarge(await t.request('GET', '/events', { query: 'venue[]=1&venue[]=2&venue[]=3&venue[]=4' }), 'venue');
    expectTooLarge(await t.request('GET', '/events', { query: { categories: 'a,b,c,d' } }), 'categories');
    expectTooLarge(await t.request('GET', '/categories', { query: { include: '1,2,3,4' } }), 'include');
    expectTooLarge(
      await t.request('POST', '/events', {
        as: 'admin',
        json: event({ organizer: [{ organizer: 'A' }, { organizer: 'B' }, { organizer: 'C' }, { organizer: 'D' }] }),
      }),
      'organizer',
    );
    expect((await t.request('GET', '/events', { query: { include: '1,2,3' } })).status).toBe(200);
  });

  it('depth: bracket notation one level deeper than allowed is refused', async () => {
    const r = await t.request('POST', '/events', { as: 'admin', form: `title=F&start_date=${soon}&end_date=${soon}&organizer[0][organizer]=X` });
    expectTooLarge(r, 'organizer');
    expect((await t.request('POST', '/events', { as: 'admin', form: `title=F&start_date=${soon}&end_date=${soon}&tags[]=x` })).status).toBe(201);
  });

  it('parameters: pairs past the limit are not read', async () => {
    const r = await t.request('POST', '/events', { as: 'admin', form: `a=1&b=2&c=3&start_date=${soon}&end_date=${soon}&title=Late` });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): title', data: { status: 400, params: ['title'] } });
  });

  it('maxPerPage: per_page is clamped in items, totals, headers and paging URLs', async () => {
    for (const [path, key, query] of [
      ['/events', 'events', {}],
      ['/venues', 'venues', {}],
      ['/categories', 'categories', { hide_empty: 'false' }],
    ] as const) {
      const r = await t.request('GET', path, { query: { per_page: 100, ...query }, as: 'admin' });
      expect(r.status, r.text).toBe(200);
      expect(r.body[key]).toHaveLength(3);
      expect(r.body.total).toBeGreaterThanOrEqual(5);
      expect(r.body.total_pages).toBe(Math.ceil(r.body.total / 3));
      expect(r.headers['X-TEC-TotalPages']).toBe(String(r.body.total_pages));
      expect(r.body.next_rest_url).toContain('page=2');
      expect(r.body.next_rest_url).not.toContain('per_page=100');
    }
  });
});

describe('limits through the Express adapter over HTTP', () => {
  let t: StoreCalendar;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await storeCalendar(':memory:', { ...OPTIONS, limits: { bodyBytes: 4096 } });
    const app = express();
    app.use('/wp-json', calendarRouter(t.calendar));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/${t.ns}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.close();
  });

  it('answers a JSON 413 to a large body without reading it all', async () => {
    const r = await fetch(`${base}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(5 * 1024 * 1024) });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual(TOO_LARGE_BODY);
  });
});

describe('image side-loading bounds through POST /events', () => {
  let t: StoreCalendar;
  let images: TestServer;
  beforeAll(async () => {
    images = await serve((req, res) => {
      if (req.url?.startsWith('/ok.png')) {
        res.writeHead(200, { 'content-type': 'image/png' }).end(png(2, 2));
      } else if (req.url === '/huge.png') {
        // Announces 11 MiB: refused on the header, before any body is read.
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(11 * 1024 * 1024) });
        res.write(png(1, 1));
      } else if (req.url === '/endless.png') {
        // No length, bytes forever: refused once 10 MiB have streamed in.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(256 * 1024, 1);
        const pump = () => {
          while (res.write(chunk));
        };
        res.on('drain', pump);
        pump();
      } else if (req.url?.startsWith('/loop')) {
        res.writeHead(302, { location: `/loop${Math.random()}` }).end();
      } else if (req.url === '/slow.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png(1, 1).subarray(0, 8)); // and nothing more
      } else res.writeHead(404).end();
    });
    t = await storeCalendar(':memory:', { ...OPTIONS, imageHosts: [`127.0.0.1:${images.port}`] });
  });
  afterAll(async () => {
    await images.close();
    await t.close();
  });

  const post = (path: string) => t.request('POST', '/events', { as: 'admin', json: event({ image: images.url(path) }) });

  it('side-loads an image from an allowed host (the setup works)', async () => {
    const r = await post('/ok.png');
    expect(r.status, r.text).toBe(201);
    expect(r.body.image).toMatchObject({ url: images.url('/ok.png'), width: 2, height: 2 });
  });

  it('refuses a write that would side-load more than 10 images, before downloading any', async () => {
    const before = await storeSnapshot(t.db);
    const hits = images.hits.length;
    const organizers = Array.from({ length: 10 }, (_, i) => ({ organizer: `Pictured ${i}`, image: images.url(`/ok.png?o=${i}`) }));
    const r = await t.request('POST', '/events', { as: 'admin', json: event({ image: images.url('/ok.png?e'), organizer: organizers }) });
    expectTooLarge(r, 'organizer', 'organizer has more than 10 images to download.');
    expect(images.hits.length).toBe(hits);
    expect(await storeSnapshot(t.db)).toEqual(before);
    // Ten are fine.
    const ok = await t.request('POST', '/events', { as: 'admin', json: event({ organizer: organizers }) });
    expect(ok.status, ok.text).toBe(201);
  });

  it.each([
    ['oversized by Content-Length', '/huge.png', 5_000],
    ['oversized while streaming', '/endless.png', 15_000],
    ['redirected more than 3 times', '/loop', 5_000],
    ['too slow (8 s for the whole fetch)', '/slow.png', 12_000],
  ])('refuses an image %s with a 400 on image and writes nothing', { timeout: 30_000 }, async (_, path, bound) => {
    const before = await storeSnapshot(t.db);
    const started = Date.now();
    const r = await post(path);
    expect(Date.now() - started).toBeLessThan(bound);
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): image',
      data: { status: 400, params: { image: 'Invalid parameter.' }, details: [] },
    });
    expect(await storeSnapshot(t.db)).toEqual(before);
  });
});
