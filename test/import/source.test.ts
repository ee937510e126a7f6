import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/import/limiter.js';
import { Source, SourceError } from '../../src/import/source.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

// The source client of the importer (issue 18): retries, limits and paging, against real servers.

/** A server answering with `handle`, on 127.0.0.1. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ root: string; close: () => Promise<void> }> {
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json`;
  return {
    root,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('source requests', () => {
  it('retries a failing source with backoff, honours Retry-After, and gives up after the attempts', async () => {
    const hits = new Map<string, number>();
    const server = await serve((req, res) => {
      const n = (hits.get(req.url!) ?? 0) + 1;
      hits.set(req.url!, n);
      if (req.url!.startsWith('/wp-json/tribe/events/v1/flaky'))
        return n < 3 ? json(res, 503, { code: 'down' }, { 'retry-after': '0' }) : json(res, 200, { ok: n });
      if (req.url!.startsWith('/wp-json/tribe/events/v1/html')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(n < 2 ? '<html>proxy error</html>' : '');
      }
      if (req.url!.startsWith('/wp-json/tribe/events/v1/refused')) return json(res, 400, { code: 'rest_invalid_param', message: 'no' });
      if (req.url!.startsWith('/wp-json/tribe/events/v1/busy')) return json(res, n === 1 ? 429 : n === 2 ? 408 : 200, { n });
      return json(res, 500, { code: 'broken' });
    });
    try {
      // Only `Retry-After: 0` can make the retries of /flaky quick: the backoff would wait a minute.
      const patient = new Source({ root: server.root, backoffMs: 60_000, attempts: 4 });
      expect((await patient.get('/flaky')).body).toEqual({ ok: 3 });
      const source = new Source({ root: server.root, backoffMs: 5, attempts: 4 });
      // A refusal is not retried, and names the API's error code.
      const refused = await source.get('/refused').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SourceError);
      expect(refused).toMatchObject({ status: 400, code: 'rest_invalid_param' });
      expect(hits.get('/wp-json/tribe/events/v1/refused')).toBe(1);
      // A page that is not JSON (a proxy's error page) is tried again, then reported.
      await expect(source.get('/html')).rejects.toMatchObject({ status: 200 });
      expect(hits.get('/wp-json/tribe/events/v1/html')).toBe(4);
      // Too many requests and a request timeout are worth another try.
      expect((await source.get('/busy')).body).toEqual({ n: 3 });
      await expect(source.get('/always')).rejects.toMatchObject({ status: 500, code: 'broken' });
      expect(hits.get('/wp-json/tribe/events/v1/always')).toBe(4);
    } finally {
      await server.close();
    }
  });

  it('gives up on a source that never answers, after the time limit of each try', async () => {
    let requests = 0;
    const server = await serve(() => {
      requests++;
    });
    try {
      const started = Date.now();
      const source = new Source({ root: server.root, timeoutMs: 150, attempts: 2, backoffMs: 10 });
      await expect(source.get('/events')).rejects.toBeInstanceOf(SourceError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(requests).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('sends the credentials it was given', async () => {
    let seen: string | undefined;
    const server = await serve((req, res) => {
      seen = req.headers.authorization;
      json(res, 200, {});
    });
    try {
      await new Source({ root: server.root, authorization: 'Basic YWRtaW46cGFzcw==' }).get('/events');
      expect(seen).toBe('Basic YWRtaW46cGFzcw==');
    } finally {
      await server.close();
    }
  });
});

describe('limiter', () => {
  it('keeps at most `concurrency` tasks under way', async () => {
    const limiter = new Limiter(3, 1e6);
    const finish: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const done = Array.from({ length: 10 }, () =>
      limiter.run(
        () =>
          new Promise<void>((resolve) => {
            running++;
            most = Math.max(most, running);
            finish.push(() => {
              running--;
              resolve();
            });
          }),
      ),
    );
    // Tasks end only when the test ends them: three start, then one more for each that ends.
    for (let ended = 0; ended < 10; ended++) {
      await new Promise((r) => setTimeout(r, 5));
      expect(running).toBe(Math.min(3, 10 - ended));
      finish.shift()!();
    }
    await Promise.all(done);
    expect(most).toBe(3);
  });

  it('starts at most `perSecond` tasks a second, however many may run at once', async () => {
    const limiter = new Limiter(50, 50);
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 15 }, () => limiter.run(async () => void starts.push(performance.now()))));
    // 1000 / 50 = 20 ms between starts (timers may fire a little early).
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(18);
  });

  it("passes a failing task's error to its caller and goes on with the others", async () => {
    const limiter = new Limiter(1, 1000);
    const failed = limiter.run(() => Promise.reject(new Error('boom')));
    const thrown = limiter.run(() => {
      throw new Error('at once');
    });
    const next = limiter.run(async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(thrown).rejects.toThrow('at once');
    await expect(next).resolves.toBe('next');
  });

  it('refuses limits that would stall or flood the source', () => {
    for (const [concurrency, perSecond] of [
      [0, 10],
      [4, 0],
      [4, Number.NaN],
    ]) {
      expect(() => new Limiter(concurrency!, perSecond!)).toThrow(RangeError);
    }
    expect(() => new Source({ root: 'ftp://example.org/wp-json' })).toThrow(RangeError);
    expect(() => new Source({ root: 'https://example.org/wp-json', authorization: 'Bearer a\r\nX-Injected: 1' })).toThrow(RangeError);
    expect(() => new Source({ root: 'https://example.org/wp-json', concurrency: 0 })).toThrow(RangeError);
  });
});

describe('paging', () => {
  it('reads the page count from the headers, ends at a page that no longer exists, yields each item once, and cancels what it read ahead when stopped', async () => {
    const asked: number[] = [];
    const server = await serve((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      asked.push(page);
      // Ten pages announced; page 3 repeats an item of page 2 (the archive shifted); page 5 is gone.
      if (page === 5) return json(res, 404, { code: 'event-archive-page-not-found' });
      const ids = page === 3 ? [20, 30, 31] : [page * 10, page * 10 + 1];
      json(res, 200, { events: ids.map((id) => ({ id })) }, { 'x-tec-totalpages': '10' });
    });
    try {
      const source = new Source({ root: server.root, concurrency: 2, requestsPerSecond: 1000 });
      const ids: number[] = [];
      for await (const page of source.pages('events')) ids.push(...page.items.map((e) => (e as { id: number }).id));
      expect(ids).toEqual([10, 11, 20, 21, 30, 31, 40, 41]);
      // Read ahead by two at most: never past page 6.
      expect(Math.max(...asked)).toBeLessThanOrEqual(6);
      // Stopped after the first page: nothing more is asked for.
      await new Promise((r) => setTimeout(r, 50));
      asked.length = 0;
      for await (const page of source.pages('events')) {
        expect(page.page).toBe(1);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
      expect(asked).toEqual([1]);
    } finally {
      await server.close();
    }
  });
});

describe('stopping early', () => {
  it('cancels the pages read ahead: no retry after the consumer stops', async () => {
    const asked: number[] = [];
    const server = await serve((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      asked.push(page);
      // Page 3 fails slowly, again and again.
      if (page >= 3) return setTimeout(() => json(res, 503, { code: 'down' }), 30);
      json(res, 200, { events: [{ id: page }], total_pages: 5 });
    });
    try {
      const source = new Source({ root: server.root, concurrency: 2, requestsPerSecond: 1000, backoffMs: 20, attempts: 10 });
      for await (const page of source.pages('events')) if (page.page === 2) break;
      await new Promise((r) => setTimeout(r, 400));
      // Without the cancellation, page 3 would be tried up to ten times meanwhile.
      expect(asked.filter((p) => p === 3).length).toBeLessThanOrEqual(1);
    } finally {
      await server.close();
    }
  });
});

describe('reading archives page by page from a calendar under tribe/events/v1', () => {
  let t: HttpCalendar;
  const ids = { publish: [] as number[], other: [] as number[] };
  beforeAll(async () => {
    t = await httpCalendar(':memory:', { namespace: 'tribe/events/v1' });
    const statuses = ['publish', 'draft', 'pending', 'private', 'future'];
    for (let i = 0; i < 120; i++) {
      const status = statuses[i % statuses.length]!;
      // Past, present and far-future events: the default window would miss most.
      const year = 1990 + ((i * 7) % 120);
      const res = await t.request('POST', '/events', {
        as: 'admin',
        json: {
          title: `Event ${i}`,
          status,
          date: status === 'future' ? '2099-01-01 00:00:00' : undefined,
          start_date: `${year}-05-01 10:00:00`,
          end_date: `${year}-05-01 11:00:00`,
        },
      });
      expect(res.status, res.text).toBe(201);
      (res.body.status === 'publish' ? ids.publish : ids.other).push(res.body.id);
    }
  }, 60_000);
  afterAll(() => t.close());

  const window = { start_date: '1900-01-01', end_date: '2999-12-31' };

  it('lists every status the account may read with explicit statuses and pages, 50 a page', async () => {
    const source = new Source({ root: `${t.origin}/wp-json`, authorization: 'Bearer user-admin' });
    const seen: number[] = [];
    const pages: number[] = [];
    for await (const page of source.pages('events', { ...window, status: 'publish,future,draft,pending,private' })) {
      pages.push(page.items.length);
      seen.push(...page.items.map((e) => (e as { id: number }).id));
    }
    expect(pages).toEqual([50, 50, 20]);
    expect(seen.sort((a, b) => a - b)).toEqual([...ids.publish, ...ids.other].sort((a, b) => a - b));
  });

  it('lists what the public sees without credentials', async () => {
    const source = new Source({ root: `${t.origin}/wp-json` });
    const seen: number[] = [];
    for await (const page of source.pages('events', window)) seen.push(...page.items.map((e) => (e as { id: number }).id));
    expect(seen.sort((a, b) => a - b)).toEqual([...ids.publish].sort((a, b) => a - b));
  });
});
