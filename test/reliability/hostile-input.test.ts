/**
 * Property-based tests (issue 7): random and hostile requests over every route of ROUTES,
 * through `calendar.handle()`, as each role and anonymously. Whatever is sent: never a 5xx,
 * the spec's error shape for every 4xx, nothing internal in any body, and a rejected request
 * leaves the store exactly as it was.
 *
 * CALENDAR_FUZZ_RUNS scales the number of requests; fast-check prints the seed of a failure
 * (re-run with CALENDAR_FUZZ_SEED=<seed>).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type CoreRequest } from '../../src/index.js';
import { USERS } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';
import { expectSoundResponse, leakPatterns } from './fixtures/invariants.js';
import { storeSnapshot, type StoreSnapshot } from './fixtures/store-state.js';

const RUNS = Number(process.env.CALENDAR_FUZZ_RUNS ?? 1) || 1;
const SEED = process.env.CALENDAR_FUZZ_SEED ? Number(process.env.CALENDAR_FUZZ_SEED) : undefined;
const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);

/** Every argument name any route declares, plus names the pipeline or WordPress treat specially. */
const ARG_NAMES = [
  ...new Set(ROUTES.flatMap((r) => r.endpoints.flatMap((e) => Object.keys(e.args)))),
  '_method',
  'password',
  'context',
  'force',
  '_fields',
  '_envelope',
  '_jsonp',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
];

const HOSTILE_STRINGS = [
  "' OR 1=1 --",
  '"; DROP TABLE posts; --',
  "1' UNION SELECT password FROM wp_users --",
  '\u0000',
  '%00',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1F',
  '   ',
  '',
  '0',
  '-1',
  '1.5',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '\uD800',
  '\uFFFF\uFFFE',
  'é',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ﷺ'.repeat(50),
  'a'.repeat(3000),
  ',,,',
  '1,2,3',
  '1 2 3',
  '99999999999999999999999',
  '2147483648',
  'publish',
  'publish,draft',
  'any',
  'trash',
  'edit',
  'view',
  'PUT',
  'DELETE',
  'yesterday',
  '+1 week',
  'next monday 25:00',
  '2027-02-30 10:00:00',
  '0000-00-00 00:00:00',
  soon,
  'http://127.0.0.1/x.png',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'America/New_York',
  'UTC+14',
  'Mars/Olympus',
];

/** Everything that can go into a parameter value. */
function values(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
  );
}

/** A parameter name in one of PHP's bracket forms, well-formed or not. */
const bracketKey: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ARG_NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }),
    fc.constantFrom(
      '',
      '',
      '',
      '[]',
      '[0]',
      '[1]',
      '[999999]',
      '[-1]',
      '[a]',
      '[venue]',
      '[organizer]',
      '[id]',
      '[__proto__]',
      '[constructor][prototype]',
      '[a][b][c][d][e][f][g][h]',
      '][',
      '[',
      '[[]]',
      '[0][organizer]',
    ),
  )
  .map(([k, s]) => k + s);

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as on the wire). */
function pct(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8'))
    out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** How a key or value is written into a query string or form body. */
const encoding = fc.constantFrom<(s: string) => string>(
  (s) => pct(s),
  (s) => pct(s),
  (s) => s,
  (s) => s.replace(/ /g, '+'),
  // Broken percent-encoding and invalid UTF-8 sequences.
  (s) => `${pct(s)}%`,
  (s) => `%zz${pct(s)}`,
  (s) => `${pct(s)}%ff%fe`,
  (s) => `%e2%82${pct(s)}`,
  (s) => `%ED%A0%80${pct(s)}`,
  (s) => `%C0%AF${pct(s)}`,
);

type Pair = [string, string];

function pairs(known: string[]): fc.Arbitrary<Pair[]> {
  return fc.array(fc.tuple(bracketKey, values(known)), { maxLength: 8 });
}

function encodePairs(list: Pair[], enc: (s: string) => string, separator: string): string {
  return list.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(separator);
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'multipart/form-data; boundary=XyZ',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'text/plain',
  'text/html',
  'application/xml',
  'application/octet-stream',
  '',
  ';;;',
  'json',
];

/** Nested JSON values, as deep as a hostile client likes. */
const deepJson: fc.Arbitrary<unknown> = fc.integer({ min: 1, max: 40 }).map((depth) => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});

function jsonBodies(known: string[]): fc.Arbitrary<unknown> {
  const value = fc.oneof(
    { weight: 4, arbitrary: values(known) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.array(values(known), { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('id', 'venue', 'organizer', 'city', 'email', 'x'), values(known), { maxKeys: 3 }) },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, 2147483648) },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...ARG_NAMES), value, { maxKeys: 8 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
}

interface Body {
  type: string;
  bytes: Uint8Array | string | undefined;
}

const HUGE = Buffer.alloc(1024 * 1024 + 10, 0x61);

function bodies(known: string[]): fc.Arbitrary<Body> {
  const json = fc.tuple(jsonBodies(known), fc.constantFrom(...CONTENT_TYPES.slice(0, 5))).map(([v, type]) => ({ type, bytes: JSON.stringify(v) }));
  const brokenJson = fc
    .tuple(
      fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('{', '{"title":', '[1,2', '{"a":1}}', 'nul', '\uFEFF{}', '{"title":"x",}')),
      fc.constantFrom(...CONTENT_TYPES.slice(0, 5)),
    )
    .map(([text, type]) => ({ type, bytes: text }));
  const form = fc.tuple(pairs(known), encoding, fc.constantFrom(...CONTENT_TYPES)).map(([p, enc, type]) => ({ type, bytes: encodePairs(p, enc, '&') }));
  const multipart = fc.tuple(pairs(known), fc.boolean(), fc.constantFrom('XyZ', 'other')).map(([p, closed, boundary]) => {
    const parts = p.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
    return { type: 'multipart/form-data; boundary=XyZ', bytes: parts + (closed ? `--${boundary}--\r\n` : '') };
  });
  const raw = fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...CONTENT_TYPES)).map(([bytes, type]) => ({ type, bytes }));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<Body>({ type: '', bytes: undefined }) },
    { weight: 5, arbitrary: json },
    { weight: 1, arbitrary: brokenJson },
    { weight: 3, arbitrary: form },
    { weight: 1, arbitrary: multipart },
    { weight: 1, arbitrary: raw },
    { weight: 1, arbitrary: fc.constantFrom<Body>({ type: 'application/json', bytes: HUGE }, { type: 'application/x-www-form-urlencoded', bytes: HUGE }) },
  );
}

const METHODS = [
  'GET',
  'GET',
  'HEAD',
  'POST',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'PROPFIND',
  'get',
  'post',
  'Delete',
  '',
  'G E T',
  'X'.repeat(100),
];
const ROLES = [...(Object.keys(USERS) as (keyof typeof USERS)[]), null] as const;

describe('hostile requests over every route (SQLite)', () => {
  let t: StoreCalendar;
  let ids: string[];
  let slugs: string[];
  let known: string[];
  let patterns: ReturnType<typeof leakPatterns>;
  let good: Record<string, unknown[]>;

  beforeAll(async () => {
    t = await storeCalendar(':memory:', { userExists: (id) => Object.values(USERS).some((u) => u.id === id) });
    patterns = leakPatterns(t.calendar.options.tablePrefix);
    const ok = async (as: keyof typeof USERS, path: string, json: Record<string, unknown>) => {
      const r = await t.request('POST', path, { as, json });
      expect(r.status, r.text).toBeLessThan(300);
      return r.body as { id: number; slug: string };
    };
    const cat = await ok('admin', '/categories', { name: 'Fuzz category' });
    const tag = await ok('admin', '/tags', { name: 'Fuzz tag' });
    const venue = await ok('admin', '/venues', { venue: 'Fuzz hall', city: 'Springfield' });
    const draftVenue = await ok('contributor', '/venues', { venue: 'Fuzz draft hall' });
    const organizer = await ok('author', '/organizers', { organizer: 'Fuzz org', email: 'fuzz@example.org' });
    const event = (status: string, as: keyof typeof USERS = 'admin') =>
      ok(as, '/events', {
        title: `Fuzz ${status}`,
        status,
        start_date: `${soon} 10:00:00`,
        end_date: `${soon} 11:00:00`,
        venue: venue.id,
        organizer: [organizer.id],
        categories: [cat.id],
        tags: [tag.id],
      });
    const events = [
      await event('publish'),
      await event('draft', 'contributor'),
      await event('private'),
      await event('pending', 'author'),
      await event('publish', 'author'),
    ] as const;
    await t.db.updateTable('posts').set({ password: 'sesame' }).where('id', '=', events[4].id).execute();
    // A recurring event: its id and its occurrences' take hostile values too.
    const series = await ok('admin', '/events', {
      title: 'Fuzz series',
      start_date: `${soon} 18:00:00`,
      end_date: `${soon} 19:00:00`,
      recurrence: ['RRULE:FREQ=DAILY;COUNT=6'],
    });
    const occurrences = ((await t.request('GET', `/events/${series.id}/occurrences`)).body.events as { id: number }[]).map((o) => ({ id: o.id, slug: '' }));
    ids = [cat, tag, venue, draftVenue, organizer, ...events, series, ...occurrences].map((x) => String(x.id));
    slugs = [venue, draftVenue, organizer, ...events].map((x) => x.slug).filter(Boolean);
    known = [...ids, ...slugs, 'Fuzz hall', 'Fuzz category', 'fuzz-category', 'sesame', 'edit'];
    good = {
      title: ['Fuzzed title', 'Fuzz <b>bold</b> & more'],
      name: ['Fuzz term', 'Fuzz category'],
      venue: [venue.id, String(draftVenue.id), { venue: 'Fuzz new hall', city: 'X' }, 'Fuzz venue name', ''],
      organizer: [organizer.id, [organizer.id], [{ organizer: 'Fuzz new org' }], `${organizer.id}`, ''],
      start_date: [`${soon} 10:00:00`, 'tomorrow 10:00', '2027-01-01'],
      end_date: [`${soon} 12:00:00`, '+2 days', '2026-01-01'],
      date: [`${soon} 09:00:00`, '2099-01-01 00:00:00'],
      categories: [[cat.id], ['Fuzz category', 'brand new cat'], String(cat.id)],
      tags: [[tag.id], 'Fuzz tag,another', []],
      status: ['publish', 'draft', 'pending', 'private', 'future', 'trash', 'any', 'publish,draft'],
      per_page: ['1', '50', '1000'],
      page: ['1', '2', '3'],
      search: ['Fuzz', 'hall', 'sesame'],
      include: [ids.join(','), ids],
      password: ['sesame', 'wrong'],
      context: ['edit', 'view'],
      force: ['true', true, '1'],
      cost: ['10', '$5 - $10', 'free', ['1', '2']],
      website: ['https://example.org', 'not a url'],
      image: ['http://127.0.0.1:1/x.png', '12'],
      timezone: ['Europe/Paris', 'UTC+2', ''],
      all_day: [true, 'yes'],
      slug: ['fuzz-slug', slugs[0]],
      parent: [cat.id, 0],
      event: [events[0].id],
      post: [events[0].id],
      author: [3, 99],
      recurrence: [['RRULE:FREQ=WEEKLY;COUNT=3'], ['RRULE:FREQ=DAILY;COUNT=2', `EXDATE:${soon.replace(/-/g, '')}T100000`], [], 'RRULE:FREQ=MONTHLY;COUNT=2'],
      scope: ['this', 'following', 'all'],
      reset_overrides: [true, false],
    };
  });
  afterAll(() => t?.close());

  /** A request to some route, with path ids and slugs from the store or made up. */
  const requests = () => {
    const id = fc.oneof(
      fc.constantFrom(...ids),
      fc.constantFrom('0', '00', '007', '2147483647', '2147483648', '99999999999999999999999'),
      fc.nat().map(String),
    );
    const slug = fc.oneof(
      fc.constantFrom(...slugs),
      fc.tuple(values(known), encoding).map(([v, enc]) => enc(v).replace(/\//g, '%2F') || 'x'),
      fc.constantFrom('..', '.', '%2e%2e', 'a%2Fb', '%00', '%', '%ff', 'a b', '%20', 'x'.repeat(500)),
    );
    const path = fc.tuple(fc.constantFrom(...ROUTES), id, slug, fc.constantFrom('', '', '', '/', '//', '/extra', '?', '%2F')).map(([route, i, s, tail]) => {
      const rest = route.pattern.replace(/\(\?P<id>[^)]*\)/, i).replace(/\(\?P<slug>[^)]*\)/, s);
      return `/${t.ns}${rest}${tail}`;
    });
    return fc.record({
      method: fc.constantFrom(...METHODS),
      path: fc.oneof({ weight: 10, arbitrary: path }, { weight: 1, arbitrary: path.map((p) => p.toUpperCase()) }),
      query: fc.tuple(pairs(known), encoding, fc.constantFrom('&', '&', ';', '&&')).map(([p, enc, sep]) => encodePairs(p, enc, sep)),
      body: bodies(known),
      as: fc.constantFrom(...ROLES),
      override: fc.option(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'BREW', '', 'delete'), { freq: 4 }),
      host: fc.option(fc.constantFrom('evil.example', 'example.org:99999', 'a b', '[::1]', '\u00e9.example', 'x'.repeat(300)), { freq: 5 }),
    });
  };

  it('never answers 5xx, always answers the error shape, leaks nothing and changes nothing when it refuses', { timeout: 120_000 * RUNS }, async () => {
    let before: StoreSnapshot = await storeSnapshot(t.db);
    const seen = { statuses: new Map<number, number>(), writes: 0 };
    await fc.assert(
      fc.asyncProperty(requests(), async (r) => {
        const headers: CoreRequest['headers'] = { host: r.host ?? 'example.org' };
        if (r.body.bytes !== undefined) headers['content-type'] = r.body.type;
        if (r.override !== null) headers['x-http-method-override'] = r.override;
        const request: CoreRequest = {
          method: r.method,
          path: r.path,
          query: r.query,
          headers,
          body: r.body.bytes,
          root: '/wp-json',
          user: r.as ? USERS[r.as] : null,
        };
        const what = `${r.method} ${r.path}?${r.query.slice(0, 300)} as ${r.as} override=${r.override} body(${r.body.type})=${String(r.body.bytes instanceof Uint8Array ? `<${r.body.bytes.length} bytes>` : r.body.bytes).slice(0, 300)}`;
        const res = await t.calendar.handle(request);
        if (res === null) return; // outside the namespace once decoded: the host's business
        seen.statuses.set(res.status, (seen.statuses.get(res.status) ?? 0) + 1);
        const mayBeHead = /head/i.test(`${r.method} ${r.query} ${r.override}`);
        expectSoundResponse(res, what, patterns, mayBeHead ? 'HEAD' : r.method);
        const after = await storeSnapshot(t.db);
        if (res.status >= 400) expect(after, `${what}\n→ ${res.status} ${res.body}: a refused request changed the store`).toEqual(before);
        else if (JSON.stringify(after) !== JSON.stringify(before)) seen.writes++;
        before = after;
      }),
      { numRuns: 1500 * RUNS, seed: SEED, endOnFailure: true },
    );
    // The generators reach both sides of the pipeline.
    const statuses = [...seen.statuses.keys()];
    for (const s of [200, 400, 404]) expect(statuses).toContain(s);
    expect(statuses.some((s) => s === 401 || s === 403)).toBe(true);
    expect(statuses).toContain(413);
  });

  /** Requests each endpoint would accept in shape, with good and hostile values mixed. */
  const wellFormed = () => {
    const endpoints = ROUTES.flatMap((route) => route.endpoints.flatMap((e) => e.methods.map((method) => ({ route, method, args: Object.keys(e.args) }))));
    return fc.tuple(fc.constantFrom(...endpoints), fc.constantFrom(...ids), fc.constantFrom(...slugs)).chain(([e, id, slug]) => {
      const names = [...new Set([...e.args.filter((n) => n !== 'id' && n !== 'slug'), 'password', 'context', 'force'])];
      const value = (name: string) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...(good[name] ?? ['x'])) },
          { weight: 2, arbitrary: values(known) },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, 0, -1, [], {}, [[1]], { id: 'x' }, 1e21) },
        );
      const params = fc
        .subarray(names, { minLength: 0 })
        .chain((chosen) => fc.tuple(...chosen.map((n) => value(n).map((v): [string, unknown] => [n, v]))))
        .map((entries) => Object.fromEntries(entries));
      return fc.record({
        method: fc.constant(e.method),
        path: fc.constant(`/${t.ns}${e.route.pattern.replace(/\(\?P<id>[^)]*\)/, id).replace(/\(\?P<slug>[^)]*\)/, encodeURIComponent(slug))}`),
        params,
        inQuery: fc.boolean(),
        as: fc.constantFrom<(typeof ROLES)[number]>('admin', 'admin', 'editor', 'author', 'contributor', 'subscriber', 'author2', null),
      });
    });
  };

  it('keeps the invariants for well-formed requests with hostile values (deep into the handlers)', { timeout: 120_000 * RUNS }, async () => {
    let before: StoreSnapshot = await storeSnapshot(t.db);
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(wellFormed(), async (r) => {
        const readOnly = r.method === 'GET' || r.inQuery;
        const query = readOnly
          ? Object.entries(r.params)
              .map(([k, v]) =>
                Array.isArray(v)
                  ? v.map((x) => `${k}[]=${pct(String(x))}`).join('&')
                  : `${k}=${pct(typeof v === 'object' && v ? JSON.stringify(v) : String(v))}`,
              )
              .join('&')
          : '';
        const request: CoreRequest = {
          method: r.method,
          path: r.path,
          query,
          headers: readOnly ? { host: 'example.org' } : { host: 'example.org', 'content-type': 'application/json' },
          body: readOnly ? undefined : JSON.stringify(r.params),
          root: '/wp-json',
          user: r.as ? USERS[r.as] : null,
        };
        const what = `${r.method} ${r.path}?${query.slice(0, 300)} as ${r.as} json=${readOnly ? '' : JSON.stringify(r.params).slice(0, 400)}`;
        const res = await t.calendar.handle(request);
        expect(res, what).not.toBeNull();
        seen.set(res!.status, (seen.get(res!.status) ?? 0) + 1);
        expectSoundResponse(res!, what, patterns, r.method);
        const after = await storeSnapshot(t.db);
        if (res!.status >= 400) expect(after, `${what}\n→ ${res!.status} ${res!.body}: a refused request changed the store`).toEqual(before);
        before = after;
      }),
      {
        numRuns: 800 * RUNS,
        seed: SEED,
        endOnFailure: true,
        // The random requests create something about 4 times in 800 (measured), so some seeds
        // created nothing (about 1 run in 100): one well-formed create always runs first.
        examples: [
          [
            {
              method: 'POST',
              path: `/${t.ns}/events`,
              params: { title: 'Fuzz example', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
              inQuery: false,
              as: 'admin' as const,
            },
          ],
        ],
      },
    );
    for (const s of [200, 201, 400]) expect([...seen.keys()]).toContain(s);
  });
});
