// Kinds a host declares (issue 30's registry of kinds, opened to hosts with `kinds`): a test-only
// kind, `sponsors`, with a test-only field, reaches the arguments, the JSON, the index, both /doc
// modes, permissions, the change feed and the tRPC router (types: host-kinds/types.test.ts), with
// no file of src/ written for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCalendar, field, kind } from '../../src/index.js';
import { DIALECTS, testCalendar, type TestCalendar } from '../helpers/harness.js';

const KINDS = { sponsors: kind({ noun: 'sponsor' }) };
const FIELDS = { sponsors: { tier: field({ type: z.enum(['gold', 'silver']), filterable: true, description: { en: 'The sponsorship tier.' } }) } };

describe.each(DIALECTS)('a host kind on $name', ({ url }) => {
  let t: TestCalendar;
  const sponsor = (params: Record<string, unknown>, as: 'admin' | 'contributor' | null = 'admin') => t.request('POST', '/sponsors', { json: params, as });

  beforeAll(async () => {
    t = await testCalendar(url, { kinds: KINDS, fields: FIELDS });
  }, 120_000);
  afterAll(() => t?.close());

  it('creates, shows, lists, filters, trashes and deletes its items, with their fields', async () => {
    const acme = await sponsor({ sponsor: 'Acme', description: 'A firm', tier: 'gold', status: 'publish' });
    expect(acme.status).toBe(201);
    expect(acme.body).toMatchObject({ sponsor: 'Acme', description: '<p>A firm</p>', slug: 'acme', status: 'publish', tier: 'gold' });
    expect(Object.keys(acme.body)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'sponsor',
      'description',
      'slug',
      'global_id',
      'global_id_lineage',
      'tier',
    ]);
    expect(acme.body.url).toBe('http://example.org/sponsor/acme/');
    const bolt = await sponsor({ sponsor: 'Bolt', tier: 'silver', status: 'publish' });
    // The field is checked as on any kind; the name is required.
    expect((await sponsor({ sponsor: 'Bad', tier: 'bronze' })).status).toBe(400);
    expect((await sponsor({ tier: 'gold' })).body.code).toBe('rest_missing_callback_param');

    const read = await t.request('GET', `/sponsors/${acme.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(acme.body);
    expect((await t.request('GET', '/sponsors/by-slug/acme')).body.id).toBe(acme.body.id);
    const list = await t.request('GET', '/sponsors');
    expect(list.body.total).toBe(2);
    expect(list.body.sponsors.map((s: { sponsor: string }) => s.sponsor).sort()).toEqual(['Acme', 'Bolt']);
    const silver = await t.request('GET', '/sponsors', { query: { tier: 'silver' } });
    expect(silver.body.sponsors.map((s: { id: number }) => s.id)).toEqual([bolt.body.id]);
    expect(silver.body.rest_url).toContain('tier=silver');
    expect((await t.request('GET', '/sponsors', { query: { search: 'firm' } })).body.sponsors.map((s: { id: number }) => s.id)).toEqual([acme.body.id]);

    const updated = await t.request('POST', `/sponsors/${acme.body.id}`, { json: { tier: 'silver', sponsor: 'Acme Ltd' }, as: 'admin' });
    expect(updated.body).toMatchObject({ sponsor: 'Acme Ltd', tier: 'silver' });
    const trashed = await t.request('DELETE', `/sponsors/${bolt.body.id}`, { as: 'admin' });
    expect(trashed.body.status).toBe('trash');
    expect((await t.request('DELETE', `/sponsors/${bolt.body.id}`, { as: 'admin' })).status).toBe(410);
    const gone = await t.request('DELETE', `/sponsors/${bolt.body.id}`, { query: { force: 'true' }, as: 'admin' });
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: bolt.body.id } });
    expect((await t.request('GET', `/sponsors/${bolt.body.id}`)).status).toBe(400);
  });

  it('keeps the rights of posts: drafts hidden from the public, writes refused to anonymous callers', async () => {
    expect((await sponsor({ sponsor: 'Nobody' }, null)).status).toBe(401);
    const draft = await sponsor({ sponsor: 'Quiet', status: 'draft' }, 'contributor');
    expect(draft.status).toBe(201);
    // A contributor may not publish.
    expect((await sponsor({ sponsor: 'Loud', status: 'publish' }, 'contributor')).body.status).not.toBe('publish');
    expect((await t.request('GET', `/sponsors/${draft.body.id}`)).status).toBe(403);
    expect((await t.request('GET', `/sponsors/${draft.body.id}`, { as: 'admin' })).status).toBe(200);
    const listed = await t.request('GET', '/sponsors');
    expect(listed.body.sponsors.map((s: { id: number }) => s.id)).not.toContain(draft.body.id);
    expect((await t.request('GET', '/sponsors', { query: { status: 'draft' } })).status).toBe(400);
  });

  it('reports its changes in the change feed to who may see them', async () => {
    const start = await t.request('GET', '/changes');
    const token = start.body.next_sync_token;
    const shown = await sponsor({ sponsor: 'Open', status: 'publish' });
    const hidden = await sponsor({ sponsor: 'Closed', status: 'draft' });
    const feed = await t.request('GET', '/changes', { query: { sync_token: token } });
    const ids = feed.body.changes.map((c: { kind: string; id: number }) => `${c.kind}:${c.id}`);
    expect(ids).toContain(`sponsor:${shown.body.id}`);
    expect(ids).not.toContain(`sponsor:${hidden.body.id}`);
    const admin = await t.request('GET', '/changes', { query: { sync_token: token, kinds: 'sponsor' }, as: 'admin' });
    expect(admin.body.changes.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([shown.body.id, hidden.body.id]));
    expect((await t.request('GET', '/changes', { query: { kinds: 'sponsorship' } })).status).toBe(400);
  });

  it('is in the index and both /doc modes, with its field', async () => {
    const index = await t.request('GET', '');
    const archive = index.body.routes[`/${t.ns}/sponsors`];
    expect(archive.endpoints[0].args).toHaveProperty('tier');
    expect(archive.endpoints[0].args.search.description).toContain('sponsors');
    expect(archive.endpoints[1].args.sponsor).toMatchObject({ type: 'string', required: true });
    expect(index.body.routes).toHaveProperty([`/${t.ns}/sponsors/(?P<id>\\d+)`]);
    const doc = await t.request('GET', '/doc');
    expect(doc.body.paths).toHaveProperty(['/sponsors']);
    expect(doc.body.components.schemas.Sponsor.properties).toMatchObject({
      sponsor: { type: 'string' },
      tier: { type: 'string', description: 'The sponsorship tier.' },
    });
    const complete = await t.request('GET', '/doc/complete');
    expect(complete.body.components.schemas).toHaveProperty('SponsorList');
    expect(complete.body.components.schemas.Sponsor.properties.tier).toMatchObject({ enum: ['gold', 'silver'] });
    expect(complete.body.components.schemas.SponsorCreate.properties).toHaveProperty('tier');
    expect(complete.body.paths['/sponsors'].post.responses[201].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Sponsor' });
  });
});

describe.each(DIALECTS)('a host kind with the longest noun on $name', ({ url }) => {
  it('stores its items and changes (the noun fits the post type and change log columns)', async () => {
    const noun = 'patron_of_events';
    expect(noun).toHaveLength(16);
    const t = await testCalendar(url, { kinds: { patrons: kind({ noun }) } });
    try {
      const token = (await t.request('GET', '/changes')).body.next_sync_token;
      const created = await t.request('POST', '/patrons', { json: { [noun]: 'Ada', status: 'publish' }, as: 'admin' });
      expect(created.status).toBe(201);
      const feed = await t.request('GET', '/changes', { query: { sync_token: token } });
      expect(feed.body.changes).toMatchObject([{ kind: noun, id: created.body.id, change: 'created' }]);
    } finally {
      await t.close();
    }
  });
});

describe('hooks of a host kind', () => {
  it('run beforeChange, afterRead and afterChange on its items, as on the built-in kinds', async () => {
    const changes: { kind: string; operation: string; name: unknown }[] = [];
    let done!: () => void;
    const told = new Promise<void>((resolve) => (done = resolve));
    const calendar = createCalendar({
      db: ':memory:',
      autoMigrate: true,
      kinds: KINDS,
      fields: FIELDS,
      hooks: {
        sponsors: {
          beforeChange: ({ input, operation }) => (operation === 'create' ? { ...input, sponsor: String(input.sponsor).toUpperCase() } : undefined),
          afterRead: { vary: 'none', run: ({ item }) => ({ ...item, badge: `${item.tier ?? 'none'}!` }) },
          afterChange: async ({ kind, operation, read }) => {
            changes.push({ kind, operation, name: (await read())?.sponsor });
            done();
          },
        },
      },
    });
    try {
      const created = await calendar.call('POST', '/sponsors', {
        user: { id: 1, roles: ['administrator'] },
        params: { sponsor: 'Acme', tier: 'gold', status: 'publish' },
      });
      expect(created.body).toMatchObject({ sponsor: 'ACME', badge: 'gold!' });
      expect((await calendar.call('GET', '/sponsors')).body).toMatchObject({ sponsors: [{ sponsor: 'ACME', badge: 'gold!' }] });
      await told;
      expect(changes).toEqual([{ kind: 'sponsors', operation: 'create', name: 'ACME' }]);
    } finally {
      await calendar.close();
    }
  });
});

describe('kinds option', () => {
  it('refuses names the API has, twice-used names and fields of no kind', () => {
    expect(() => createCalendar({ db: ':memory:', kinds: { venues: kind({ noun: 'place' }) } })).toThrow(/already has/);
    expect(() => createCalendar({ db: ':memory:', kinds: { doc: kind({ noun: 'paper' }) } })).toThrow(/already has/);
    expect(() => createCalendar({ db: ':memory:', kinds: { sponsors: kind({ noun: 'event' }) } })).toThrow(/already has/);
    expect(() => createCalendar({ db: ':memory:', kinds: { sponsors: kind({ noun: 'sponsor' }), patrons: kind({ noun: 'sponsor' }) } })).toThrow(/twice/);
    expect(() => createCalendar({ db: ':memory:', kinds: { Sponsors: kind({ noun: 'sponsor' }) } })).toThrow(/collection name/);
    // Stored as the post type and the change log's kind: no longer than their columns.
    expect(() => createCalendar({ db: ':memory:', kinds: { sponsors: kind({ noun: 'sponsor_of_events' }) } })).toThrow(/at most 16/);
    expect(() => createCalendar({ db: ':memory:', kinds: { images: kind({ noun: 'image' }) } })).toThrow(/schema Image/);
    expect(() => createCalendar({ db: ':memory:', kinds: { drafts: kind({ noun: 'event_create' }) } })).toThrow(/schema EventCreate/);
    expect(() => createCalendar({ db: ':memory:', fields: { sponsors: { tier: field({ type: z.string() }) } } })).toThrow(
      /no kind has the collection 'sponsors'/,
    );
  });
});
