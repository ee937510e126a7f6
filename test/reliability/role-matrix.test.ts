/**
 * The role matrix (issue 7): every route × the five roles and anonymous × own and others'
 * items × each status, against what auth.md allows (§1.1 meta capabilities, §2 operations,
 * §3 visibility), by id and by slug (per-item checks apply to slug routes too: the spec's
 * recommendation), plus term routes and archives (items, totals, paging, search, include).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/index.js';
import { USERS, type As, type TestResponse } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';
import { may, mayManageTerms, type Caller, type Item, type Kind } from './fixtures/auth-oracle.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);

/** The callers of the matrix: the five roles and anonymous. */
const ACTORS: { as: As; caller: Caller }[] = [
  { as: 'admin', caller: { id: 1, role: 'administrator' } },
  { as: 'editor', caller: { id: 2, role: 'editor' } },
  { as: 'author', caller: { id: 3, role: 'author' } },
  { as: 'contributor', caller: { id: 4, role: 'contributor' } },
  { as: 'subscriber', caller: { id: 5, role: 'subscriber' } },
  { as: null, caller: null },
];
/** Item owners: every actor's own items are the others' items of everyone else. */
const OWNERS = [1, 2, 3, 4, 5];
/** Each status, trash twice (the status before trashing decides an author's rights). */
const STATUSES: { status: string; before?: string }[] = [
  { status: 'publish' },
  { status: 'future' },
  { status: 'draft' },
  { status: 'pending' },
  { status: 'private' },
  { status: 'trash', before: 'draft' },
  { status: 'trash', before: 'publish' },
];
const KINDS: Kind[] = ['events', 'venues', 'organizers'];
const NOUN: Record<Kind, string> = { events: 'event', venues: 'venue', organizers: 'organizer' };
const NAME_KEY: Record<Kind, string> = { events: 'title', venues: 'venue', organizers: 'organizer' };
const OPTIONS = { userExists: (id: number) => Object.values(USERS).some((u) => u.id === id) };

interface Fixture extends Item {
  id: number;
  slug: string;
  title: string;
}

/** The status and error code a request should get (`undefined` code: a success). */
interface Outcome {
  status: number;
  code?: string;
}

const forbidden = (caller: Caller): Outcome => ({ status: caller ? 403 : 401, code: 'rest_forbidden' });

/** auth.md §3.1: single reads. */
function expectedRead(caller: Caller, item: Fixture): Outcome {
  if (item.kind === 'events' && item.status === 'trash') return { status: 403, code: 'event-no-longer-available' };
  if (item.status === 'publish' || may(caller, 'read', item)) return { status: 200 };
  return { status: 403, code: `${NOUN[item.kind]}-not-accessible` };
}

/** auth.md §2 with §1.1 per item (slug routes included, per the recommendation). */
function expectedWrite(caller: Caller, action: 'edit' | 'delete', item: Fixture): Outcome {
  if (!may(caller, action, item)) return forbidden(caller);
  if (action === 'delete' && item.status === 'trash') return { status: 410, code: `${NOUN[item.kind]}-is-in-trash` };
  return { status: 200 };
}

function outcome(r: TestResponse): Outcome {
  return r.status < 300 ? { status: r.status } : { status: r.status, code: r.body?.code };
}

describe('role matrix over posts, terms and archives (SQLite)', () => {
  let t: StoreCalendar;
  const items: Fixture[] = [];
  const covered = new Set<string>();

  beforeAll(async () => {
    t = await storeCalendar(':memory:', OPTIONS);
    for (const kind of KINDS) {
      for (const owner of OWNERS) {
        for (const { status, before } of STATUSES) {
          const title = `Matrix ${NOUN[kind]} ${status}${before ? `-${before}` : ''} u${owner}`;
          const json: Record<string, unknown> = { [NAME_KEY[kind]]: title, author: owner };
          if (kind === 'events') Object.assign(json, { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` });
          const r = await t.request('POST', `/${kind}`, { as: 'admin', json });
          expect(r.status, r.text).toBe(201);
          const slug = `matrix-${NOUN[kind]}-${status}-${before ?? 'x'}-u${owner}`;
          // Statuses, slugs and dates set directly: no API call reaches every combination.
          await t.db
            .updateTable('posts')
            .set({
              status,
              status_before_trash: before ?? null,
              slug,
              ...(status === 'future' ? { date: '2099-01-01 00:00:00', date_utc: '2099-01-01 00:00:00' } : {}),
            })
            .where('id', '=', r.body.id)
            .execute();
          items.push({ kind, author: owner, status, before, id: r.body.id, slug, title });
        }
      }
    }
  });
  afterAll(() => t.close());

  /** Runs a write and puts the item's post row back as it was, whatever the write did. */
  async function writeAndRestore(item: Fixture, run: () => Promise<TestResponse>): Promise<TestResponse> {
    const saved = await t.db.selectFrom('posts').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
    const r = await run();
    if (r.status < 300) {
      const { id: _id, ...columns } = saved;
      await t.db.updateTable('posts').set(columns).where('id', '=', item.id).execute();
    }
    return r;
  }

  it('single reads, updates and deletes, by id and by slug, follow auth.md for every role, owner and status', { timeout: 120_000 }, async () => {
    const mismatches: string[] = [];
    for (const item of items) {
      for (const { as, caller } of ACTORS) {
        const paths = [`/${item.kind}/${item.id}`, `/${item.kind}/by-slug/${item.slug}`];
        for (const path of paths) {
          covered.add(path.includes('by-slug') ? `/${item.kind}/by-slug` : `/${item.kind}/id`);
          const checks: [string, Outcome, () => Promise<TestResponse>][] = [
            ['GET', expectedRead(caller, item), () => t.request('GET', path, { as })],
            [
              'POST',
              expectedWrite(caller, 'edit', item),
              () => writeAndRestore(item, () => t.request('POST', path, { as, json: { [NAME_KEY[item.kind]]: item.title } })),
            ],
            ['DELETE', expectedWrite(caller, 'delete', item), () => writeAndRestore(item, () => t.request('DELETE', path, { as }))],
          ];
          for (const [verb, expected, run] of checks) {
            const r = await run();
            const got = outcome(r);
            if (got.status !== expected.status || got.code !== expected.code) {
              mismatches.push(
                `${verb} ${path} (${item.status}${item.before ? ` from ${item.before}` : ''}, owner ${item.author}) as ${as ?? 'anonymous'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`,
              );
            } else if (verb === 'GET' && r.status === 200) {
              expect(r.body.id).toBe(item.id);
            } else if (verb === 'DELETE' && r.status === 200) {
              expect(r.body.status).toBe('trash');
            } else if (r.status >= 400) {
              expect(r.body.data).toEqual({ status: r.status });
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('term routes: reads are public, writes follow the taxonomy capabilities (auth.md §2)', async () => {
    const mismatches: string[] = [];
    let n = 0;
    for (const taxonomy of ['categories', 'tags'] as const) {
      const fresh = async () => {
        const r = await t.request('POST', `/${taxonomy}`, { as: 'admin', json: { name: `Matrix term ${++n}` } });
        expect(r.status, r.text).toBe(201);
        return r.body.id as number;
      };
      const existing = await fresh();
      for (const { as, caller } of ACTORS) {
        const allowed = mayManageTerms(caller, taxonomy);
        const expected = (ok: number): Outcome => (allowed ? { status: ok } : forbidden(caller));
        const checks: [string, Outcome, TestResponse][] = [
          [`GET /${taxonomy}`, { status: 200 }, await t.request('GET', `/${taxonomy}`, { as, query: { hide_empty: 'false' } })],
          [`GET /${taxonomy}/{id}`, { status: 200 }, await t.request('GET', `/${taxonomy}/${existing}`, { as })],
          [`POST /${taxonomy}`, expected(201), await t.request('POST', `/${taxonomy}`, { as, json: { name: `By ${as} ${++n}` } })],
          [`POST /${taxonomy}/{id}`, expected(200), await t.request('POST', `/${taxonomy}/${existing}`, { as, json: { description: `set by ${as}` } })],
          [`PUT /${taxonomy}/{id}`, expected(200), await t.request('PUT', `/${taxonomy}/${existing}`, { as, json: { description: `put by ${as}` } })],
          [`DELETE /${taxonomy}/{id}`, expected(200), await t.request('DELETE', `/${taxonomy}/${await fresh()}`, { as })],
        ];
        for (const [what, want, r] of checks) {
          const got = outcome(r);
          if (got.status !== want.status || got.code !== want.code)
            mismatches.push(`${what} as ${as ?? 'anonymous'}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        }
      }
      covered.add(`/${taxonomy}`).add(`/${taxonomy}/id`);
    }
    expect(mismatches).toEqual([]);
  });

  it('creation follows auth.md §2 (and the status scale-back of writes.md §2.3)', async () => {
    const mismatches: string[] = [];
    for (const kind of KINDS) {
      for (const { as, caller } of ACTORS) {
        const json: Record<string, unknown> = { [NAME_KEY[kind]]: `Created by ${as} ${kind}` };
        if (kind === 'events') Object.assign(json, { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` });
        const r = await t.request('POST', `/${kind}`, { as, json });
        const canCreate = caller !== null && ['administrator', 'editor', 'author', 'contributor'].includes(caller.role);
        const want: Outcome = canCreate ? { status: 201 } : forbidden(caller);
        const got = outcome(r);
        if (got.status !== want.status || got.code !== want.code)
          mismatches.push(`POST /${kind} as ${as ?? 'anonymous'}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        if (r.status === 201) {
          expect(r.body.status).toBe(caller!.role === 'contributor' ? 'draft' : 'publish');
          // Not part of the fixture set the archive checks count.
          await t.db.deleteFrom(kind).where('post_id', '=', r.body.id).execute();
          await t.db.deleteFrom('posts').where('id', '=', r.body.id).execute();
        }
      }
      covered.add(`/${kind}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('the namespace index, /doc and the change feed are public and read-only', async () => {
    for (const { as } of ACTORS) {
      for (const path of ['', '/doc', '/doc/complete', '/changes']) {
        expect((await t.request('GET', `/${t.ns}${path}`, { as })).status).toBe(200);
        const w = await t.request('POST', `/${t.ns}${path}`, { as, json: {} });
        expect([w.status, w.body.code]).toEqual([404, 'rest_no_route']);
      }
    }
    covered.add('').add('/doc').add('/doc/complete').add('/changes');
  });

  it('the iCalendar feed lists what the archive lists, and event files answer as event reads do', { timeout: 60_000 }, async () => {
    const range = { start_date: '2000-01-01', end_date: '2100-01-01' };
    const idOf = (vevent: string) => Number(/^UID:event-(\d+)@/m.exec(vevent)?.[1]);
    const mismatches: string[] = [];
    for (const { as } of ACTORS) {
      const listed = (await walk('events', as, range)).ids.sort((a, b) => a - b);
      const feed = await t.request('GET', `/${t.ns}/ics/events`, { as, query: range });
      expect(feed.status, feed.text).toBe(200);
      const vevents = (feed.text ?? '').split('BEGIN:VEVENT').slice(1);
      const live = vevents.filter((v) => !v.includes('STATUS:CANCELLED')).map(idOf);
      expect(
        live.sort((a, b) => a - b),
        `feed as ${as ?? 'anonymous'}`,
      ).toEqual(listed);
      // Trashed events are written as cancelled to those who could list them before.
      const before = grantsEdit(as) ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
      const trashed = items.filter((i) => i.kind === 'events' && i.status === 'trash' && before.includes(i.before ?? '')).map((i) => i.id);
      expect(
        vevents
          .filter((v) => v.includes('STATUS:CANCELLED'))
          .map(idOf)
          .sort((a, b) => a - b),
        `cancelled as ${as ?? 'anonymous'}`,
      ).toEqual(trashed.sort((a, b) => a - b));
      for (const item of items.filter((i) => i.kind === 'events')) {
        for (const [read, file] of [
          [`/events/${item.id}`, `/ics/events/${item.id}`],
          [`/events/by-slug/${item.slug}`, `/ics/events/by-slug/${item.slug}`],
        ] as const) {
          const [a, b] = [await t.request('GET', read, { as }), await t.request('GET', file, { as })];
          if (a.status !== b.status || (a.status >= 400 && a.body.code !== b.body?.code))
            mismatches.push(`${file} as ${as ?? 'anonymous'}: ${a.status} ${a.body.code} / ${b.status} ${b.body?.code}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    covered.add('/ics/events').add('/ics/events/id').add('/ics/events/by-slug');
  });

  it("the occurrences of a recurring event answer as the series' own read does, and list what the archive lists of it", { timeout: 60_000 }, async () => {
    const mismatches: string[] = [];
    const made: number[] = [];
    for (const status of ['publish', 'draft', 'pending', 'private', 'future']) {
      const r = await t.request('POST', `/${t.ns}/events`, {
        as: 'admin',
        json: {
          title: `Matrix series ${status}`,
          author: 3,
          start_date: `${soon} 10:00:00`,
          end_date: `${soon} 11:00:00`,
          recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
        },
      });
      expect(r.status, r.text).toBe(201);
      made.push(r.body.id);
      await t.db
        .updateTable('posts')
        .set({ status, ...(status === 'future' ? { date: '2099-01-01 00:00:00', date_utc: '2099-01-01 00:00:00' } : {}) })
        .where('id', '=', r.body.id)
        .execute();
      for (const { as } of ACTORS) {
        const read = await t.request('GET', `/${t.ns}/events/${r.body.id}`, { as });
        const list = await t.request('GET', `/${t.ns}/events/${r.body.id}/occurrences`, { as });
        const who = `${status} as ${as ?? 'anonymous'}`;
        if ((read.status === 200 ? 200 : 403) !== list.status) mismatches.push(`occurrences of ${who}: ${list.status} where the read is ${read.status}`);
        if (list.status !== 200) continue;
        const archived = (await walk('events', as, { start_date: '2000-01-01', end_date: '2100-01-01', include: String(r.body.id) })).ids;
        const ids = (list.body.events as { id: number }[]).map((e) => e.id);
        if (JSON.stringify(ids) !== JSON.stringify(archived))
          mismatches.push(`occurrences of ${who}: ${ids.join(',')} where the archive lists ${archived.join(',')}`);
      }
    }
    // The other tests count the matrix's own events only.
    for (const id of made) expect((await t.request('DELETE', `/${t.ns}/events/${id}`, { as: 'admin', query: { force: 'true' } })).status).toBe(200);
    expect(mismatches).toEqual([]);
    covered.add('/events/id/occurrences');
  });

  /** Every id of an archive, following `next_rest_url` page by page (what a client would do). */
  async function walk(kind: Kind, as: As, query: Record<string, string>): Promise<{ ids: number[]; totals: number[]; pages: number[] }> {
    const ids: number[] = [];
    const totals: number[] = [];
    const pages: number[] = [];
    let url: string | undefined = `/${kind}?${new URLSearchParams({ per_page: '7', ...query })}`;
    for (let guard = 0; url && guard < 50; guard++) {
      const [path, q] = url.split('?');
      const r = await t.request('GET', path!, { as, query: q ?? '' });
      expect(r.status, `${url} as ${as}: ${r.text}`).toBe(200);
      ids.push(...(r.body[kind] as { id: number }[]).map((x) => x.id));
      totals.push(r.body.total, Number(r.headers['X-TEC-Total']));
      pages.push(r.body.total_pages, Number(r.headers['X-TEC-TotalPages']));
      // Paging URLs stay on the caller's view: they never widen `status`.
      for (const key of ['rest_url', 'next_rest_url', 'previous_rest_url']) {
        if (r.body[key] && !(caller(as) && grantsEdit(as))) expect(r.body[key]).toContain('status=publish');
      }
      url = r.body.next_rest_url ? (r.body.next_rest_url as string).replace(t.base, '') : undefined;
    }
    return { ids, totals, pages };
  }
  const caller = (as: As) => ACTORS.find((a) => a.as === as)!.caller;
  const grantsEdit = (as: As) => ['admin', 'editor', 'author', 'contributor'].includes(as ?? '');

  it('archives list exactly what the caller may list, with totals and paging to match (auth.md §3.2, §3.3)', { timeout: 60_000 }, async () => {
    for (const kind of KINDS) {
      for (const { as } of ACTORS) {
        // Contributors and up list every status but trash, of all authors (upstream quirk kept); others publish only.
        const visible = items.filter((i) => i.kind === kind && (grantsEdit(as) ? i.status !== 'trash' : i.status === 'publish')).map((i) => i.id);
        const range: Record<string, string> = kind === 'events' ? { start_date: '2000-01-01', end_date: '2100-01-01' } : {};
        const queries: Record<string, string>[] = [
          range,
          { ...range, search: 'Matrix' },
          kind === 'events' ? { include: items.map((i) => i.id).join(',') } : { ...range },
        ];
        for (const query of queries) {
          const { ids, totals, pages } = await walk(kind, as, query);
          const what = `${kind} ${JSON.stringify(query).slice(0, 80)} as ${as ?? 'anonymous'}`;
          expect(
            ids.sort((a, b) => a - b),
            what,
          ).toEqual([...visible].sort((a, b) => a - b));
          expect(new Set(totals), what).toEqual(new Set([visible.length]));
          expect(new Set(pages), what).toEqual(new Set([Math.ceil(visible.length / 7)]));
        }
        // A search for what only hidden items contain finds nothing, and says so in its total.
        const hiddenWord = grantsEdit(as) ? 'trash' : 'draft';
        const r = await t.request('GET', `/${kind}`, {
          as,
          query: { search: hiddenWord, ...(kind === 'events' ? { start_date: '2000-01-01', end_date: '2100-01-01' } : {}) },
        });
        expect(r.status).toBe(200);
        expect([r.body[kind].length, r.body.total], `${kind} search=${hiddenWord} as ${as}`).toEqual([0, 0]);
        // Asking for other statuses: 400 without the kind's edit capability (auth.md §3.2).
        const drafts = await t.request('GET', `/${kind}`, { as, query: { status: 'draft' } });
        if (grantsEdit(as)) expect(drafts.status).toBe(200);
        else expect([drafts.status, drafts.body.code, Object.keys(drafts.body.data.params)]).toEqual([400, 'rest_invalid_param', ['status']]);
      }
    }
  });

  it('method override (`_method`, X-HTTP-Method-Override) goes through the same checks, and never turns a GET or HEAD into a write', async () => {
    const item = items.find((i) => i.kind === 'events' && i.status === 'publish' && i.author === 1)!;
    const path = `/events/${item.id}`;
    const cases: [As, string, Record<string, string>, Record<string, string>, Outcome][] = [
      [null, 'POST', { _method: 'DELETE' }, {}, { status: 401, code: 'rest_forbidden' }],
      ['subscriber', 'POST', {}, { 'x-http-method-override': 'DELETE' }, { status: 403, code: 'rest_forbidden' }],
      ['contributor', 'POST', { _method: 'put' }, {}, { status: 403, code: 'rest_forbidden' }],
      ['admin', 'POST', { _method: 'DELETE' }, {}, { status: 200 }],
      // A read stays a read, whoever asks: no link or image on another page can write.
      [null, 'GET', { _method: 'DELETE' }, {}, { status: 200 }],
      ['admin', 'GET', { _method: 'DELETE' }, {}, { status: 200 }],
      ['admin', 'GET', {}, { 'x-http-method-override': 'PUT' }, { status: 200 }],
      ['admin', 'HEAD', { _method: 'DELETE' }, {}, { status: 200 }],
    ];
    for (const [as, method, query, headers, want] of cases) {
      const before = await t.db.selectFrom('posts').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
      // A read is not restored afterwards: whatever it changed would show below.
      const send = () => t.request(method, path, { as, query, headers });
      const r = method === 'POST' ? await writeAndRestore(item, send) : await send();
      expect({ status: r.status, code: r.body?.code }, `${method} ${JSON.stringify(query)} ${JSON.stringify(headers)} as ${as}`).toEqual(want);
      if (r.status >= 400 || method !== 'POST')
        expect(await t.db.selectFrom('posts').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow()).toEqual(before);
    }
  });

  it('covers every route of ROUTES', () => {
    const patterns = ROUTES.map((r) => r.pattern.replace(/\(\?P<id>[^)]*\)/, 'id').replace(/\/by-slug\/\(\?P<slug>[^)]*\)/, '/by-slug'));
    expect([...covered].sort()).toEqual([...new Set(patterns)].sort());
  });
});
