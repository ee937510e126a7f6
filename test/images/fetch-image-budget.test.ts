import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ByteBudget } from '../../src/images/byte-budget.js';
import { fetchImage, type FetchImageOptions } from '../../src/images/fetch-image.js';
import { bmp, codeOf, png, serve, type TestServer } from './fixtures.js';

// The shared byte budget of concurrent fetches, against loopback servers only. Nothing
// here asserts on timing: order and amounts are read off the budget itself.

const servers: TestServer[] = [];

async function server(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const s = await serve(handler);
  servers.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const options = (s: TestServer, budget: ByteBudget, more: FetchImageOptions = {}): FetchImageOptions => ({
  allowHosts: [`127.0.0.1:${s.port}`],
  budget,
  ...more,
});

// 600 KB: two never fit in 1 MiB together.
const BIG = bmp(400, 500);
const MIB = 1024 * 1024;

describe('fetchImage: byte budget', () => {
  it('lets concurrent fetches through one by one when only one body fits', async () => {
    const s = await server((req, res) => {
      // Half with a declared length, half streamed without one.
      if (req.url?.startsWith('/sized')) res.writeHead(200, { 'Content-Type': 'image/bmp', 'Content-Length': BIG.length });
      else res.writeHead(200, { 'Content-Type': 'image/bmp' });
      res.end(BIG);
    });
    const budget = new ByteBudget(MIB);
    const paths = ['/sized/1', '/sized/2', '/sized/3', '/streamed/1', '/streamed/2', '/streamed/3'];
    const all = await Promise.all(paths.map((p) => fetchImage(s.url(p), options(s, budget, { maxBytes: BIG.length + 100 }))));
    for (const out of all) expect(out).toMatchObject({ mimeType: 'image/bmp', width: 400, height: 500, filesize: BIG.length });
    expect(budget.peak).toBeGreaterThanOrEqual(BIG.length);
    expect(budget.peak).toBeLessThanOrEqual(MIB);
    expect([budget.used, budget.waiting]).toEqual([0, 0]);
  });

  it('reserves the declared length, else the per-image maximum', async () => {
    const bytes = png(3, 2);
    const s = await server((req, res) => {
      res.writeHead(200, req.url === '/sized' ? { 'Content-Type': 'image/png', 'Content-Length': bytes.length } : { 'Content-Type': 'image/png' });
      res.end(bytes);
    });
    const sized = new ByteBudget(MIB);
    await fetchImage(s.url('/sized'), options(s, sized, { maxBytes: 5000 }));
    expect(sized.peak).toBe(bytes.length);
    const streamed = new ByteBudget(MIB);
    await fetchImage(s.url('/streamed'), options(s, streamed, { maxBytes: 5000 }));
    expect(streamed.peak).toBe(5000);
    // A per-image maximum above the whole budget is cut to the budget.
    const small = new ByteBudget(1000);
    await fetchImage(s.url('/streamed'), options(s, small));
    expect(small.peak).toBe(1000);
    expect([sized.used, streamed.used, small.used]).toEqual([0, 0, 0]);
  });

  it('keeps a fetch waiting for the budget only until its deadline, then lets the next one in', async () => {
    const small = bmp(10, 10); // 374 bytes: does not fit beside the 800 held
    let holder: ServerResponse | undefined;
    const s = await server((req, res) => {
      if (req.url === '/hold') {
        holder = res;
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 800 });
        res.write(png(1, 1)); // and the rest never comes
      } else {
        res.writeHead(200, { 'Content-Type': 'image/bmp', 'Content-Length': small.length }).end(small);
      }
    });
    const budget = new ByteBudget(1000);
    const held = codeOf(fetchImage(s.url('/hold'), options(s, budget, { timeoutMs: 30_000 })));
    await vi.waitFor(() => expect(budget.used).toBe(800));

    expect(await codeOf(fetchImage(s.url('/waits'), options(s, budget, { timeoutMs: 200 })))).toBe('timeout');
    expect([budget.used, budget.waiting]).toEqual([800, 0]);

    const next = fetchImage(s.url('/next'), options(s, budget, { timeoutMs: 30_000 }));
    await vi.waitFor(() => expect(budget.waiting).toBe(1));
    holder?.socket?.destroy(); // the holder fails, and its bytes go to the one waiting
    expect(await held).toBe('network');
    expect(await next).toMatchObject({ mimeType: 'image/bmp', width: 10, height: 10 });
    expect([budget.used, budget.waiting]).toEqual([0, 0]);
    expect(budget.peak).toBeLessThanOrEqual(1000);
  });

  it('refuses at once a declared body larger than the whole budget, without waiting', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 2000 });
      res.write(png(1, 1)); // then stall: only the header may decide
    });
    const budget = new ByteBudget(1000);
    // With a deadline longer than the test's own, waiting would fail the test.
    expect(await codeOf(fetchImage(s.url(), options(s, budget, { timeoutMs: 60_000 })))).toBe('too-large');
    expect([budget.used, budget.waiting, budget.peak]).toEqual([0, 0, 0]);
  });

  it('refuses a body without length once it outgrows the whole budget', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(png(1, 1));
      res.write(Buffer.alloc(2000)); // then stall
    });
    const budget = new ByteBudget(1000);
    expect(await codeOf(fetchImage(s.url(), options(s, budget, { timeoutMs: 60_000 })))).toBe('too-large');
    expect([budget.used, budget.waiting]).toEqual([0, 0]);
  });

  it.each([
    ['a redirect and success', '/redirect', 'ok', 5000],
    ['HTTP 404', '/missing', 'http-status', 0],
    ['a page', '/page', 'not-an-image', 0],
    ['a page labelled image', '/liar', 'not-an-image', 22],
    ['a declared length above the limit', '/huge', 'too-large', 0],
    ['a streamed body above the limit', '/endless', 'too-large', 5000],
    ['a body that stalls', '/stall', 'timeout', 1000],
    ['a connection reset mid-body', '/reset', 'network', 1000],
  ])('gives its bytes back after %s', async (_name, path, expected, reserved) => {
    const s = await server((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { Location: '/ok' }).end();
      else if (req.url === '/ok') res.writeHead(200, { 'Content-Type': 'image/png' }).end(png(3, 2));
      else if (req.url === '/page') res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hi</p>');
      else if (req.url === '/liar') res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 22 }).end('<html>not a png</html>');
      else if (req.url === '/huge') res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 6000 }).end();
      else if (req.url === '/endless') res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.alloc(6000));
      else if (req.url === '/stall' || req.url === '/reset') {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 1000 });
        // The reset comes once the client holds its reservation and reads.
        res.write(png(1, 1), () => {
          if (req.url === '/reset') setImmediate(() => res.socket?.destroy());
        });
      } else res.writeHead(404, { 'Content-Type': 'image/png' }).end();
    });
    const budget = new ByteBudget(MIB);
    const fetching = fetchImage(s.url(path), options(s, budget, { maxBytes: 5000, timeoutMs: path === '/stall' ? 200 : 30_000 }));
    if (expected === 'ok') expect(await fetching).toMatchObject({ width: 3, height: 2 });
    else expect(await codeOf(fetching)).toBe(expected);
    expect([budget.used, budget.waiting, budget.peak]).toEqual([0, 0, reserved]);
  });
});
