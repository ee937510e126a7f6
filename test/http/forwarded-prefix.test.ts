/**
 * Issue 31, trap 8: behind a reverse proxy that serves the app under a path
 * (`https://public.example/blog/wp-json` → `http://127.0.0.1:3950/wp-json`), every URL in
 * answers lacked `/blog` unless the mount's `root` said it: `X-Forwarded-Prefix` was ignored
 * even with `trustProxy`. It now counts, as proto and host do, only with `trustProxy`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

const PROXY = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example', 'x-forwarded-prefix': '/blog' };
const BASE = 'https://public.example/blog/wp-json/calendar/events/v1';

describe('X-Forwarded-Prefix behind a trusted proxy', () => {
  let t: HttpCalendar;
  let untrusted: HttpCalendar;
  beforeAll(async () => {
    t = await httpCalendar(':memory:', { trustProxy: true });
    untrusted = await httpCalendar(':memory:', {});
    for (let i = 1; i <= 3; i++) {
      await t.request('POST', '/events', {
        as: 'admin',
        json: { title: `Show ${i}`, status: 'publish', start_date: '2027-05-0' + i + ' 20:00:00', end_date: '2027-05-0' + i + ' 22:00:00' },
      });
    }
  });
  afterAll(() => Promise.all([t.close(), untrusted.close()]));

  it('puts the prefix in every URL an answer carries: items, paging, Link headers, indexes', async () => {
    const list = await t.request('GET', '/events', { headers: PROXY, query: 'per_page=1&start_date=2027-01-01' });
    expect(list.status).toBe(200);
    expect(list.body.rest_url).toMatch(new RegExp(`^${BASE}/events/\\?`));
    expect(list.body.next_rest_url).toMatch(new RegExp(`^${BASE}/events/\\?`));
    expect(list.body.events[0].url).toMatch(/^https:\/\/public\.example\/blog\/event\/show-1\/$/);
    expect(list.headers.link).toContain('<https://public.example/blog/wp-json/>; rel="https://api.w.org/"');

    const index = await t.request('GET', '', { headers: PROXY });
    expect(JSON.stringify(index.body)).toContain(`"${BASE}/events"`);
    expect(JSON.stringify(index.body)).not.toContain('127.0.0.1');
  });

  it('answers the REST root index with the public home', async () => {
    const res = await fetch(`${t.origin}/wp-json/`, { headers: PROXY });
    const body = (await res.json()) as { url: string; home: string; routes: Record<string, { _links?: { self: { href: string }[] } }> };
    expect([body.url, body.home]).toEqual(['https://public.example/blog', 'https://public.example/blog']);
    expect(JSON.stringify(body.routes)).toContain('https://public.example/blog/wp-json/calendar/events/v1/events');
  });

  it('keeps answers per prefix (the response cache) and ignores a prefix that is not a plain path', async () => {
    const other = await t.request('GET', '/events', { headers: { ...PROXY, 'x-forwarded-prefix': '/shop/' }, query: 'start_date=2027-01-01' });
    expect(other.body.rest_url).toMatch(/^https:\/\/public\.example\/shop\/wp-json\//);
    for (const prefix of ['//evil.example', '/../admin', 'https://evil.example', '/a b']) {
      const r = await t.request('GET', '/events', { headers: { ...PROXY, 'x-forwarded-prefix': prefix }, query: 'start_date=2027-01-01' });
      expect(r.body.rest_url, prefix).toMatch(/^https:\/\/public\.example\/wp-json\//);
    }
  });

  it('is ignored without trustProxy', async () => {
    const r = await untrusted.request('GET', '/events', { headers: PROXY });
    expect(r.body.rest_url).toMatch(new RegExp(`^${untrusted.origin}/wp-json/calendar/events/v1/events/\\?`));
  });
});
