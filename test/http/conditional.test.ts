import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestResponse } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { recheck } from '../../src/posts/write-target.js';
import { ApiError } from '../../src/index.js';

// Conditional requests over real HTTP (issue 16, item 1 and 2): ETag and 304 on reads,
// If-Match / If-Unmodified-Since and 412 on writes.

const WHEN = { start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 12:00:00' };

/** A 304 as RFC 9110 wants it: no body, and the caching headers of the 200 it stands for. */
function expectNotModified(res: TestResponse, full: TestResponse): void {
  expect(res.status).toBe(304);
  expect(res.text).toBe('');
  for (const name of ['etag', 'cache-control', 'vary', 'last-modified', 'expires']) expect(res.headers[name], name).toBe(full.headers[name]);
}

describe.each(DIALECTS)('conditional requests on $name', ({ url }) => {
  let t: HttpCalendar;
  let eventId: number;
  let draftId: number;
  let venueId: number;
  let categoryId: number;

  beforeAll(async () => {
    t = await httpCalendar(url);
    const venue = await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Conditional Hall' } });
    venueId = venue.body.id;
    const category = await t.request('POST', '/categories', { as: 'admin', json: { name: 'Conditional' } });
    categoryId = category.body.id;
    eventId = (await t.request('POST', '/events', { as: 'admin', json: { title: 'Tagged event', status: 'publish', venue: venueId, ...WHEN } })).body.id;
    draftId = (await t.request('POST', '/events', { as: 'admin', json: { title: 'Draft event', status: 'draft', ...WHEN } })).body.id;
  });
  afterAll(() => t.close());

  it('tags every successful read by its bytes and answers 304 to a client holding them', async () => {
    // The namespace index is left out: its `end_date` default is two years from this second, so
    // its bytes (and tag) change every second, as upstream's do; it is checked below.
    for (const path of [`/events/${eventId}`, '/events', '/venues', `/categories/${categoryId}`, '/doc']) {
      const full = await t.request('GET', path);
      expect(full.status, path).toBe(200);
      expect(full.headers.etag, path).toMatch(/^"[\w-]{27}"$/);
      expect(full.headers['cache-control'], path).toBe('public, max-age=0');
      const again = await t.request('GET', path, { headers: { 'if-none-match': full.headers.etag! } });
      expectNotModified(again, full);
      // Weak comparison, lists and `*`.
      expectNotModified(await t.request('GET', path, { headers: { 'if-none-match': `"other", W/${full.headers.etag}` } }), full);
      expectNotModified(await t.request('GET', path, { headers: { 'if-none-match': '*' } }), full);
      const other = await t.request('GET', path, { headers: { 'if-none-match': '"other"' } });
      expect(other.status, path).toBe(200);
      expect(other.text).toBe(full.text);
      const head = await t.request('HEAD', path, { headers: { 'if-none-match': full.headers.etag! } });
      expect(head.status, path).toBe(304);
    }
    const index = await t.request('GET', '');
    expect(index.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect((await t.request('GET', '', { headers: { 'if-none-match': '*' } })).status).toBe(304);
    expect((await t.request('GET', '', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('gives a new tag when the answer changes, and 304s only for the current one', async () => {
    const before = await t.request('GET', `/events/${eventId}`);
    expect((await t.request('POST', `/events/${eventId}`, { as: 'admin', json: { excerpt: 'Changed' } })).status).toBe(200);
    const after = await t.request('GET', `/events/${eventId}`, { headers: { 'if-none-match': before.headers.etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.excerpt).toContain('Changed');
    // The archive that lists it changed too.
    expect((await t.request('GET', '/events', { headers: { 'if-none-match': before.headers.etag! } })).status).toBe(200);
  });

  it('tags what each caller sees: a signed-in caller gets 304s of their own, with private caching', async () => {
    const anonymous = await t.request('GET', `/events/${draftId}`);
    const admin = await t.request('GET', `/events/${draftId}`, { as: 'admin' });
    expect(anonymous.status).toBeGreaterThanOrEqual(400);
    expect(anonymous.headers.etag).toBeUndefined();
    expect(admin.status).toBe(200);
    expect(admin.headers['cache-control']).toContain('private');
    expectNotModified(await t.request('GET', `/events/${draftId}`, { as: 'admin', headers: { 'if-none-match': admin.headers.etag! } }), admin);
    // The archive lists the draft to the administrator only.
    const publicList = await t.request('GET', '/events');
    const adminList = await t.request('GET', '/events', { as: 'admin' });
    expect(adminList.headers.etag).not.toBe(publicList.headers.etag);
    expect((await t.request('GET', '/events', { as: 'admin', headers: { 'if-none-match': publicList.headers.etag! } })).status).toBe(200);
    expect((await t.request('GET', '/events', { headers: { 'if-none-match': adminList.headers.etag! } })).status).toBe(200);
  });

  it('dates venues and organizers (Last-Modified, If-Modified-Since), not items that embed others', async () => {
    const venue = await t.request('GET', `/venues/${venueId}`);
    expect(new Date(venue.headers['last-modified']!).toISOString().slice(0, 19)).toBe(`${venue.body.modified_utc.replace(' ', 'T')}`);
    expectNotModified(await t.request('GET', `/venues/${venueId}`, { headers: { 'if-modified-since': venue.headers['last-modified']! } }), venue);
    const earlier = new Date(Date.parse(venue.headers['last-modified']!) - 1000).toUTCString();
    expect((await t.request('GET', `/venues/${venueId}`, { headers: { 'if-modified-since': earlier } })).status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect(
      (await t.request('GET', `/venues/${venueId}`, { headers: { 'if-modified-since': venue.headers['last-modified']!, 'if-none-match': '"x"' } })).status,
    ).toBe(200);
    expect((await t.request('GET', `/events/${eventId}`)).headers['last-modified']).toBeUndefined();
  });

  it('refuses a write based on a stale tag with 412 and changes nothing', async () => {
    const read = await t.request('GET', `/events/${eventId}`, { as: 'admin' });
    const stale = read.headers.etag!;
    expect((await t.request('POST', `/events/${eventId}`, { as: 'admin', json: { title: 'Edited by A' }, headers: { 'if-match': stale } })).status).toBe(200);
    for (const [method, json] of [
      ['PUT', { title: 'Edited by B' }],
      ['PATCH', { title: 'Edited by B' }],
      ['POST', { title: 'Edited by B' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await t.request(method, `/events/${eventId}`, { as: 'admin', json, headers: { 'if-match': stale } });
      expect(refused.status, method).toBe(412);
      expect(refused.body).toMatchObject({ code: 'rest_precondition_failed', data: { status: 412 } });
    }
    const now = await t.request('GET', `/events/${eventId}`, { as: 'admin' });
    expect(now.body.title).toBe('Edited by A');
    // The current tag, or `*` for "as long as it exists", lets the write through.
    expect(
      (await t.request('PATCH', `/events/${eventId}`, { as: 'admin', json: { title: 'Edited by B' }, headers: { 'if-match': now.headers.etag! } })).status,
    ).toBe(200);
    expect((await t.request('PATCH', `/events/${eventId}`, { as: 'admin', json: { title: 'Edited by C' }, headers: { 'if-match': '*' } })).status).toBe(200);
    // A weak tag never matches (strong comparison).
    const current = (await t.request('GET', `/events/${eventId}`, { as: 'admin' })).headers.etag!;
    expect((await t.request('PATCH', `/events/${eventId}`, { as: 'admin', json: { title: 'Weak' }, headers: { 'if-match': `W/${current}` } })).status).toBe(
      412,
    );
    // An item that does not exist answers as without a precondition (RFC 9110 §13.2.1).
    expect((await t.request('DELETE', '/events/999999', { as: 'admin', headers: { 'if-match': '*' } })).status).toBe(404);
    // If-None-Match on a write: `*` or the current tag refuses it; If-Unmodified-Since is
    // ignored where there is no date (events).
    const tag = (await t.request('GET', `/events/${eventId}`, { as: 'admin' })).headers.etag!;
    expect((await t.request('PATCH', `/events/${eventId}`, { as: 'admin', json: { title: 'None' }, headers: { 'if-none-match': '*' } })).status).toBe(412);
    expect((await t.request('PATCH', `/events/${eventId}`, { as: 'admin', json: { title: 'None' }, headers: { 'if-none-match': tag } })).status).toBe(412);
    expect(
      (await t.request('PATCH', `/events/${eventId}`, { as: 'admin', json: { title: 'Dated' }, headers: { 'if-unmodified-since': new Date(0).toUTCString() } }))
        .status,
    ).toBe(200);
  });

  it('applies preconditions to venues (with dates) and terms', async () => {
    const venue = await t.request('GET', `/venues/${venueId}`, { as: 'admin' });
    const past = new Date(Date.parse(venue.headers['last-modified']!) - 60_000).toUTCString();
    const future = new Date(Date.now() + 60_000).toUTCString();
    expect((await t.request('POST', `/venues/${venueId}`, { as: 'admin', json: { city: 'Nowhere' }, headers: { 'if-unmodified-since': past } })).status).toBe(
      412,
    );
    expect((await t.request('GET', `/venues/${venueId}`)).body.city).not.toBe('Nowhere');
    expect(
      (await t.request('POST', `/venues/${venueId}`, { as: 'admin', json: { city: 'Somewhere' }, headers: { 'if-unmodified-since': future } })).status,
    ).toBe(200);
    expect(
      (await t.request('POST', `/venues/${venueId}`, { as: 'admin', json: { city: 'Elsewhere' }, headers: { 'if-match': venue.headers.etag! } })).status,
    ).toBe(412);

    const term = await t.request('GET', `/categories/${categoryId}`, { as: 'admin' });
    expect(
      (await t.request('POST', `/categories/${categoryId}`, { as: 'admin', json: { description: 'One' }, headers: { 'if-match': term.headers.etag! } })).status,
    ).toBe(200);
    const refused = await t.request('POST', `/categories/${categoryId}`, {
      as: 'admin',
      json: { description: 'Two' },
      headers: { 'if-match': term.headers.etag! },
    });
    expect(refused.status).toBe(412);
    expect(
      (await t.request('DELETE', `/categories/${categoryId}`, { as: 'admin', json: { force: true }, headers: { 'if-match': term.headers.etag! } })).status,
    ).toBe(412);
    expect((await t.request('GET', `/categories/${categoryId}`)).body.description).toBe('One');
  });
});

describe('shared caching of logged-out answers (httpCache.maxAge)', () => {
  let t: HttpCalendar;
  beforeAll(async () => {
    t = await httpCalendar(':memory:', { httpCache: { maxAge: 60 } });
  });
  afterAll(() => t.close());

  it('sends public max-age and keeps signed-in callers apart with Vary', async () => {
    const anonymous = await t.request('GET', '/events');
    expect(anonymous.headers['cache-control']).toBe('public, max-age=60');
    expect(anonymous.headers.vary).toBe('Origin, Authorization, Cookie');
    const admin = await t.request('GET', '/events', { as: 'admin' });
    expect(admin.headers['cache-control']).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    // Errors are not cacheable answers.
    expect((await t.request('GET', '/events/424242')).headers['cache-control']).toBeUndefined();
  });
});

describe('a conditional write in its transaction', () => {
  it('requires the item exactly as it was read before its precondition was checked', () => {
    const row = { id: 1, title: 'A', modified: '2031-01-01 00:00:00', image_id: null };
    const gone = () => new ApiError('gone', 'gone', { status: 404 });
    expect(recheck({ ...row }, { row, gone, conditional: true }, null, () => true)).toEqual(row);
    expect(() => recheck({ ...row, title: 'B' }, { row, gone, conditional: true }, null, () => true)).toThrow(/changed since/);
    // Unconditional writes take the item as it is now.
    expect(recheck({ ...row, title: 'B' }, { row, gone }, null, () => true).title).toBe('B');
  });
});
