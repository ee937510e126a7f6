import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFetchBody } from '../../adapters/fetch-body.js';
import { fetchHandler } from '../../adapters/fetch.js';
import { calendarHandlers } from '../../adapters/next.js';
import { createCalendar, type Calendar } from '../../src/index.js';

const NS = 'calendar/events/v1';

describe('the Fetch handler (Next.js and any Fetch runtime)', () => {
  let calendar: Calendar;
  beforeAll(async () => {
    calendar = createCalendar({
      db: ':memory:',
      baseUrl: 'http://example.org',
      getUser: (req) => (req.headers.authorization ? { id: 1, roles: ['administrator'] } : null),
    });
    await calendar.migrate();
  });
  afterAll(() => calendar.close());

  it('serves the namespace below its root, and 404s outside it', async () => {
    const handle = fetchHandler(calendar, { root: '/fr/wp-json/', locale: 'fr' });
    const res = await handle(new Request(`http://example.org/fr/wp-json/${NS}/tags?per_page=2`));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { rest_url: string }).rest_url).toBe(`http://example.org/fr/wp-json/${NS}/tags/?per_page=2`);
    expect((await handle(new Request(`http://example.org/wp-json/${NS}/tags`))).status).toBe(404);
    expect((await handle(new Request('http://example.org/fr/wp-json/other/v2'))).status).toBe(404);
  });

  it('creates the calendar lazily from a function', async () => {
    let calls = 0;
    const { GET, POST } = calendarHandlers(() => {
      calls++;
      return calendar;
    });
    expect(calls).toBe(0);
    const created = await POST(
      new Request(`http://example.org/wp-json/${NS}/tags`, {
        method: 'POST',
        headers: { authorization: 'x', 'content-type': 'application/json' },
        body: '{"name":"Rock"}',
      }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(new RegExp(`^http://example.org/wp-json/${NS}/tags/\\d+$`));
    expect((await GET(new Request(`http://example.org/wp-json/${NS}/tags/${((await created.json()) as { id: number }).id}`))).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('takes the scheme from the URL, except under Next.js, whose URL trusts X-Forwarded-Proto', async () => {
    const bare = createCalendar({ db: ':memory:' });
    await bare.migrate();
    const url = `https://example.org/wp-json/${NS}/tags`;
    const fetchRes = await fetchHandler(bare)(new Request(url, { headers: { host: 'example.org' } }));
    expect(((await fetchRes.json()) as { rest_url: string }).rest_url).toBe(`https://example.org/wp-json/${NS}/tags/`);
    const nextRes = await calendarHandlers(bare).GET(new Request(url, { headers: { host: 'example.org', 'x-forwarded-proto': 'https' } }));
    expect(((await nextRes.json()) as { rest_url: string }).rest_url).toBe(`http://example.org/wp-json/${NS}/tags/`);
    await bare.close();
  });

  it('answers HEAD without a body', async () => {
    const res = await fetchHandler(calendar)(new Request(`http://example.org/wp-json/${NS}/tags`, { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.text()).toBe('');
  });

  it('lets the core answer 413, whether the length is declared or streamed', async () => {
    const limit = calendar.options.limits.bodyBytes;
    const handle = fetchHandler(calendar);
    // A server-side Request (as Next.js makes them) carries the client's Content-Length, which
    // `new Request()` would drop: a stand-in with the same fields, whose body must stay unread.
    let read = false;
    const unread = new ReadableStream<Uint8Array>({ pull: () => void (read = true) }, { highWaterMark: 0 });
    const incoming = {
      url: `http://example.org/wp-json/${NS}/tags`,
      method: 'POST',
      body: unread,
      headers: new Headers({ authorization: 'x', 'content-type': 'application/json', 'content-length': String(limit + 1) }),
    };
    const declared = await handle(incoming as unknown as Request);
    expect(declared.status).toBe(413);
    expect(read).toBe(false);
    const chunks = [new Uint8Array(limit), new Uint8Array(10)];
    const stream = new ReadableStream<Uint8Array>({ pull: (c) => (chunks.length ? c.enqueue(chunks.shift()!) : c.close()) });
    const streamed = await handle(
      new Request(`http://example.org/wp-json/${NS}/tags`, {
        method: 'POST',
        headers: { authorization: 'x', 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      }),
    );
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { code: string }).code).toBe('rest_request_too_large');
  });

  it('stops reading a body once it is longer than the limit', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull: (c) => {
        pulled++;
        c.enqueue(new Uint8Array(4));
      },
    });
    const body = await readFetchBody(new Request('http://x/', { method: 'POST', body: stream, duplex: 'half' }), 10);
    expect(body?.byteLength).toBe(12);
    expect(pulled).toBeLessThan(6);
    expect(await readFetchBody(new Request('http://x/'), 10)).toBeUndefined();
  });
});
