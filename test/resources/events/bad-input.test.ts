import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../helpers/harness.js';
import { createEvent, eventFields, invalidParamBody, probedCalendar, withoutJsonLd, type ProbedCalendar } from './fixtures.js';

const deep = (levels: number): unknown => (levels === 0 ? 'x' : { venue: deep(levels - 1) });
const deepArray = (levels: number): unknown => (levels === 0 ? 1 : [deepArray(levels - 1)]);

/** Values of the wrong type or shape for each write parameter: every one must be refused with a 4xx. */
const BAD_VALUES: Record<string, unknown[]> = {
  title: [[], {}, ['a'], true, 12, ''],
  description: [[], {}, false, 3, ''],
  excerpt: [['x'], { a: 1 }, 1.5],
  slug: [[], {}, 7, ''],
  status: ['kinda', ['publish'], { a: 'publish' }, 1, 'PUBLISH', 'publish '],
  author: ['', 'foo', -1, 0, 2 ** 31, 1.5, '1e3', [1], { id: 1 }],
  date: ['foo', '', [], {}, true, 'x'.repeat(5000), '2026-02-30'],
  date_utc: ['foo', [], 1700000000, '+99999 years'],
  timezone: ['Mars/Base', 5, [], {}, 'America/Nowhere', 'UTC'.padEnd(200, 'x'), 'Europe/Paris/x'],
  all_day: ['yes', 'on', '', [], {}, 2, null],
  start_date: ['', 'foo', [], {}, true, 1800000000, '1970-01-01', '2026-02-30', '+99999 years', 'x'.repeat(10000), '10000-01-01'],
  end_date: ['', 'nope', ['2027-01-01'], '2026-04-31', '2027-02-29'],
  image: ['', 'foo bar', 0, [], {}, true, 12, '999999', 'javascript:alert(1)', 'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data/'],
  website: ['foo', 'javascript:alert(1)', ['http://x.example'], { url: 'http://x.example' }, 'http://exa mple.com', 5],
  show_map: ['yes', [], {}, 'maybe'],
  show_map_link: ['no', 3],
  hide_from_listings: ['yes', ['1']],
  sticky: ['y', {}],
  featured: ['yes', null, 'true ', [true]],
  categories: [[['a']], [null], [true], [{}], { a: 'b' }, deepArray(50)],
  tags: [[[1]], [false], [{ name: 'x' }], { x: { y: 'z' } }],
  venue: [
    999999,
    -1,
    'abc',
    true,
    [[1]],
    { address: 'no name' },
    { venue: 'x', website: 'foo' },
    { venue: 'x', city: ['Paris'] },
    { venue: 'x', zip: { a: 1 } },
    { venue: ['x'] },
    { id: 'abc' },
    { id: 999999 },
    deep(200),
    [{ venue: 'One' }, { venue: 'Two' }],
  ],
  organizer: [
    999999,
    [1, 999999],
    'x,y',
    [{ phone: '1' }],
    [{ organizer: 'x', email: 5 }],
    [{ organizer: 'x', website: 'nope' }],
    [[1]],
    [{ organizer: { organizer: 'nested' } }],
    deepArray(100),
    { id: 'x' },
  ],
};

/** Strings that are valid but hostile: stored and shown as text, never a 5xx. */
const MALICIOUS = [
  "'; DROP TABLE posts; --",
  'Robert"); DELETE FROM events; --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '%00%27%22',
  'a\u0000b',
  '\ud83d\ude00 emoji and \u202e right-to-left',
  '../../../../etc/passwd',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'x'.repeat(20_000),
  '\\\\ back \\ slashes \\',
  '%_% like wildcards _%',
  '中文名'.repeat(30),
];

describe.each(DIALECTS)('events: bad input on $name', ({ url }) => {
  let t: ProbedCalendar;
  beforeAll(async () => {
    t = await probedCalendar(url);
  }, 180_000);
  afterAll(() => t?.close());

  const counts = async () => ({
    posts: await t.rows('posts'),
    events: await t.rows('events'),
    venues: await t.rows('venues'),
    organizers: await t.rows('organizers'),
    links: await t.rows('event_organizers'),
    terms: await t.rows('terms'),
    relationships: await t.rows('term_relationships'),
    attachments: await t.rows('attachments'),
  });

  it('refuses wrong types and shapes in every field with a 4xx, creating nothing', async () => {
    const before = await counts();
    const unexpected: unknown[] = [];
    for (const [name, values] of Object.entries(BAD_VALUES)) {
      for (const value of values) {
        // Linked data rides along: a leak would show in the counts.
        const json = eventFields({
          venue: { venue: 'Leak check hall' },
          organizer: [{ organizer: 'Leak check org' }],
          categories: ['leak-check'],
          [name]: value,
        });
        const res = await t.request('POST', '/events', { json, as: 'admin' });
        if (res.status < 400 || res.status >= 500)
          unexpected.push({ name, value: JSON.stringify(value)?.slice(0, 80), status: res.status, body: res.text?.slice(0, 200) });
        else expect(res.body.code).toMatch(/^rest_|^could-not-create-/);
      }
    }
    expect(unexpected).toEqual([]);
    expect(await counts()).toEqual(before);
  });

  it('refuses the same values on update, changing nothing', async () => {
    const e = await createEvent(t, { title: 'Untouchable', cost: '5', categories: ['untouched'] });
    const before = await counts();
    const unexpected: unknown[] = [];
    for (const [name, values] of Object.entries(BAD_VALUES)) {
      for (const value of values) {
        const res = await t.request('PATCH', `/events/${e.id}`, {
          json: { title: 'Changed', venue: { venue: 'Update leak hall' }, [name]: value },
          as: 'admin',
        });
        if (res.status < 400 || res.status >= 500)
          unexpected.push({ name, value: JSON.stringify(value)?.slice(0, 80), status: res.status, body: res.text?.slice(0, 200) });
      }
    }
    expect(unexpected).toEqual([]);
    expect(await counts()).toEqual(before);
    const after = await t.request('GET', `/events/${e.id}`, { as: 'admin' });
    expect(withoutJsonLd(after.body)).toEqual(e);
  });

  it('stores hostile strings as text in every text field', async () => {
    const unexpected: unknown[] = [];
    for (const text of MALICIOUS) {
      // Every text field at once (one request per string keeps the test fast on busy servers).
      const fields = {
        title: text,
        description: text,
        excerpt: text,
        slug: text,
        cost: text,
        categories: [text.slice(0, 180)],
        tags: [`${text.slice(0, 170)} tag`],
        venue: { venue: text, address: text, city: text },
        organizer: [{ organizer: text, email: text, phone: text }],
        timezone: `UTC${text.slice(0, 40)}`,
      };
      const res = await t.request('POST', '/events', { json: eventFields(fields), as: 'admin' });
      if (res.status !== 201) unexpected.push({ text: text.slice(0, 40), status: res.status, body: res.text?.slice(0, 200) });
      else {
        const back = await t.request('GET', `/events/${res.body.id}`, { as: 'admin' });
        if (back.status !== 200) unexpected.push({ text: text.slice(0, 40), read: back.status });
      }
    }
    expect(unexpected).toEqual([]);
    // A lone surrogate escape is refused by PHP's decoder (errors.md §3), as here.
    const lone = await t.request('POST', '/events', { json: eventFields({ title: 'lone \ud800 surrogate' }), as: 'admin' });
    expect([lone.status, lone.body.code, lone.body.data.json_error_code]).toEqual([400, 'rest_invalid_json', 10]);
    // The injection attempts were data, not SQL: every table is still there.
    expect((await t.request('GET', '/events', { query: { search: "'; DROP TABLE posts; --", start_date: '2027-01-01' } })).status).toBe(200);
    expect(await t.rows('posts')).toBeGreaterThan(0);
  });

  it('keeps hostile text as text when reading it back', async () => {
    const e = await createEvent(t, { title: '<script>alert(1)</script>', description: "'; DROP TABLE posts; --" }, 'contributor');
    expect(e.title).toBe('alert(1)');
    const admin = await createEvent(t, { title: 'a\u0000b "quoted" %_%qq', description: 'x' });
    expect(admin.title).not.toContain('\u0000');
    expect((await t.request('GET', '/events', { query: { search: '%_%qq', start_date: '2027-01-01' } })).body.events.map((x: { id: number }) => x.id)).toEqual([
      admin.id,
    ]);
    // Values that only fit once the zone resolves: an unknown `UTC…` zone reads dates in the site's.
    const odd = await createEvent(t, { timezone: 'UTCfoo' });
    expect([odd.timezone, odd.timezone_abbr, odd.utc_start_date]).toEqual(['UTCfoo', 'UTC', '2027-03-01 10:00:00']);
    const ny = await t.request('POST', '/events', {
      json: eventFields({ start_date: '9999-12-31 23:00:00', end_date: '9999-12-31 23:30:00', timezone: 'America/New_York' }),
      as: 'admin',
    });
    expect(ny.body).toEqual(invalidParamBody('start_date'));
    // A "currency symbol" too long to be one is dropped (the site default shows).
    const cost = await createEvent(t, { cost: 'Entry for the whole family and friends 5' });
    expect([cost.cost, cost.cost_details.currency_symbol, cost.cost_details.values]).toEqual(['$5', '', ['5']]);
    // Term names longer than a term name can be are refused.
    const long = await t.request('POST', '/events', { json: eventFields({ categories: ['x'.repeat(201)] }), as: 'admin' });
    expect(long.body).toEqual(invalidParamBody('categories'));
    const amp = await t.request('POST', '/events', { json: eventFields({ tags: ['&'.repeat(100)] }), as: 'admin' });
    expect(amp.body).toEqual(invalidParamBody('tags'));
    expect((await createEvent(t, { categories: ['y'.repeat(200)] })).categories[0].name).toHaveLength(200);
    // Long slugs keep 200 characters, and a numbered one is cut to fit its suffix (wp_unique_post_slug).
    const a = await createEvent(t, { title: 'z'.repeat(300) });
    const b = await createEvent(t, { title: 'z'.repeat(300) });
    expect(a.slug).toBe('z'.repeat(200));
    expect(b.slug).toBe(`${'z'.repeat(198)}-2`);
    const c = await createEvent(t, { title: '中'.repeat(100) });
    const d = await createEvent(t, { slug: c.slug });
    expect(d.slug).toBe(`${c.slug}-2`);
    expect((await t.request('GET', `/events/by-slug/${d.slug}`)).body.id).toBe(d.id);
    expect((await t.request('GET', `/events/by-slug/${encodeURIComponent(decodeURIComponent(d.slug))}`)).body.id).toBe(d.id);
  });

  it('answers hostile archive queries with a 4xx or a page, never a 5xx', async () => {
    const queries = [
      'per_page=99999999999999999999999',
      'page=99999999999999',
      'page=2&per_page=50',
      'categories[a][b][c][d][e][f][g]=1',
      'categories=' + Array.from({ length: 300 }, (_, i) => `c${i}`).join(','),
      'venue=' + Array.from({ length: 300 }, (_, i) => i + 1).join(','),
      'include=' + Array.from({ length: 2000 }, (_, i) => i + 1).join(','),
      'include[]=1&include[100000]=2',
      'search=' + encodeURIComponent('x'.repeat(20_000)),
      'search=' + encodeURIComponent(Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ')),
      'search=%00',
      'status[]=publish&status[x]=draft',
      'start_date=' + encodeURIComponent('x'.repeat(10_000)),
      'start_date[]=2027-01-01',
      'start_date=99999999999999999999',
      'start_date=-99999999999999',
      'starts_after=%2B99999%20years',
      'strict_dates[]=1',
      'featured[]=1',
      'post_parent=99999999999999999999',
      'geoloc=1&geoloc_lat=abc',
      'geoloc=1&geoloc_lat=1e400',
      'organizer=0x10',
      'tags=%F0%9F%98%80',
      '_method=DELETE',
      'password=' + 'x'.repeat(10_000),
      'a'.repeat(5000) + '=1',
    ];
    const unexpected: unknown[] = [];
    for (const query of queries) {
      for (const as of [null, 'admin'] as const) {
        const res = await t.request('GET', '/events', { query, as });
        if (res.status >= 500) unexpected.push({ query: query.slice(0, 80), as, status: res.status, body: res.text?.slice(0, 200) });
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('answers hostile single routes with a 4xx', async () => {
    const unexpected: unknown[] = [];
    for (const path of [
      `/events/${'9'.repeat(400)}`,
      '/events/by-slug/' + encodeURIComponent("' OR 1=1 --"),
      '/events/by-slug/' + encodeURIComponent('x'.repeat(5000)),
      '/events/by-slug/%00',
      '/events/by-slug/%E0%A4%A',
    ]) {
      for (const method of ['GET', 'DELETE', 'PATCH']) {
        const res = await t.request(method, path, { json: method === 'PATCH' ? { title: 'x' } : undefined, as: 'admin' });
        if (res.status < 400 || res.status >= 500) unexpected.push({ path: path.slice(0, 60), method, status: res.status });
      }
    }
    expect(unexpected).toEqual([]);
    const broken = await t.request('POST', '/events', { body: '{"title": "x",', headers: { 'content-type': 'application/json' }, as: 'admin' });
    expect(broken.body).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
    const array = await t.request('POST', '/events', { json: [eventFields()], as: 'admin' });
    expect(array.status).toBe(400);
  });
});
