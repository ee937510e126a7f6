/**
 * Nothing a caller may not see leaks (issue 7): password-protected events (responses.md §7),
 * embedded venues and organizers (auth.md §3.3), `include`, search, totals, term counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS, type As } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const OPTIONS = { userExists: (id: number) => Object.values(USERS).some((u) => u.id === id) };
const WINDOW = { start_date: '2000-01-01', end_date: '2100-01-01' };

/** The keys a redacted event shows instead of its values (responses.md §7, live archive item). */
const REDACTED_EVENT = {
  description: '',
  excerpt: '',
  image: false,
  all_day: null,
  cost: '',
  cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
  website: '',
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
};

describe('visibility and password protection (SQLite)', () => {
  let t: StoreCalendar;
  const id = {} as Record<
    'publicCat' | 'pubVenue' | 'draftVenue' | 'pwVenue' | 'pubOrg' | 'draftOrg' | 'pwOrg' | 'linkedToDrafts' | 'protected' | 'draft' | 'linkedToLocked',
    number
  >;
  const slug: Record<string, string> = {};

  beforeAll(async () => {
    t = await storeCalendar(':memory:', OPTIONS);
    const post = async (name: keyof typeof id, path: string, json: Record<string, unknown>, as: As = 'admin') => {
      const r = await t.request('POST', path, { as, json });
      expect(r.status, r.text).toBe(201);
      id[name] = r.body.id;
      slug[name] = r.body.slug;
    };
    await post('publicCat', '/categories', { name: 'Public cat' });
    await post('pubVenue', '/venues', { venue: 'Open hall', city: 'Springfield', address: '1 Open St' });
    await post('draftVenue', '/venues', { venue: 'Draft hall', city: 'Shelbyville' }, 'contributor');
    await post('pwVenue', '/venues', { venue: 'Locked hall', city: 'Capital City', address: '9 Locked St', state: 'X' });
    await post('pubOrg', '/organizers', { organizer: 'Open org', email: 'open@example.org' });
    await post('draftOrg', '/organizers', { organizer: 'Draft org' }, 'contributor');
    await post('pwOrg', '/organizers', { organizer: 'Locked org', phone: '555-0100' });
    const times = { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` };
    await post('linkedToDrafts', '/events', { title: 'Linked to drafts', ...times, venue: id.draftVenue, organizer: [id.draftOrg] });
    await post('protected', '/events', {
      title: 'Protected party',
      ...times,
      description: 'The zanzibar secret',
      excerpt: 'zanzibar excerpt',
      cost: '10',
      website: 'https://protected.example',
      featured: true,
      show_map: true,
      venue: id.pubVenue,
      organizer: [id.pubOrg],
      categories: [id.publicCat],
      tags: ['protected-tag'],
    });
    await post('draft', '/events', { title: 'Quokka draft', ...times, categories: ['Secret cat'], venue: id.pubVenue }, 'contributor');
    await post('linkedToLocked', '/events', { title: 'Linked to locked', ...times, venue: id.pwVenue, organizer: [id.pwOrg] });
    // There is no API to set a password: straight into the column.
    await t.db.updateTable('posts').set({ password: 'sesame' }).where('id', '=', id.protected).execute();
    await t.db.updateTable('posts').set({ password: 'venuepw' }).where('id', 'in', [id.pwVenue, id.pwOrg]).execute();
  });
  afterAll(() => t.close());

  const archiveItem = async (query: Record<string, string>, as: As = null) => {
    const r = await t.request('GET', '/events', { as, query: { ...WINDOW, ...query } });
    expect(r.status, r.text).toBe(200);
    return (r.body.events as Record<string, unknown>[]).find((e) => e.id === id.protected);
  };

  describe('password-protected events', () => {
    it('are redacted in archives, keeping title, dates, slug and url', async () => {
      const open = await archiveItem({ password: 'sesame' });
      for (const as of [null, 'subscriber', 'author', 'admin'] as As[]) {
        const e = await archiveItem({}, as);
        expect(e, `as ${as}`).toMatchObject(REDACTED_EVENT);
        for (const key of ['title', 'slug', 'url', 'start_date', 'end_date', 'date', 'rest_url']) expect(e![key]).toEqual(open![key]);
        expect(Object.keys(e!)).toEqual(Object.keys(open!));
      }
    });

    it('are unlocked in archives by their password, or context=edit for a caller who may edit them', async () => {
      expect((await archiveItem({ password: 'sesame' }))!.description).toContain('zanzibar');
      expect((await archiveItem({ context: 'edit' }, 'editor'))!.description).toContain('zanzibar');
      expect(await archiveItem({ password: 'wrong' })).toMatchObject(REDACTED_EVENT);
      expect(await archiveItem({ context: 'edit' }, 'author')).toMatchObject(REDACTED_EVENT);
      expect(await archiveItem({ context: 'edit' })).toMatchObject(REDACTED_EVENT);
    });

    it('answer 403 event-password-protected on single GET (by id and by slug) until unlocked', async () => {
      const locked = { code: 'event-password-protected', message: 'The requested event is not accessible without a password', data: { status: 403 } };
      for (const path of [`/events/${id.protected}`, `/events/by-slug/${slug.protected}`]) {
        for (const as of [null, 'subscriber', 'admin'] as As[]) {
          const r = await t.request('GET', path, { as });
          expect([r.status, r.body], `${path} as ${as}`).toEqual([403, locked]);
        }
        expect((await t.request('GET', path, { query: { password: 'wrong' } })).body).toEqual(locked);
        expect((await t.request('GET', path, { as: 'author', query: { context: 'edit' } })).body).toEqual(locked);
        for (const [as, query] of [
          [null, { password: 'sesame' }],
          ['editor', { context: 'edit' }],
        ] as [As, Record<string, string>][]) {
          const r = await t.request('GET', path, { as, query });
          expect(r.status, `${path} as ${as} ${JSON.stringify(query)}`).toBe(200);
          expect(r.body.description).toContain('zanzibar');
          // Never json_ld, even unlocked (responses.md §6).
          expect(r.body).not.toHaveProperty('json_ld');
        }
      }
      const empty = await t.request('GET', `/events/${id.protected}`, { query: { password: '' } });
      expect([empty.status, empty.body.code, Object.keys(empty.body.data.params)]).toEqual([400, 'rest_invalid_param', ['password']]);
    });
  });

  describe('embedded venues and organizers', () => {
    it('are embedded whatever their status, without their json_ld, while their own routes refuse', async () => {
      const r = await t.request('GET', `/events/${id.linkedToDrafts}`);
      expect(r.status).toBe(200);
      expect(r.body.venue).toMatchObject({ id: id.draftVenue, status: 'draft', venue: 'Draft hall' });
      expect(r.body.venue).not.toHaveProperty('json_ld');
      expect(r.body.organizer).toMatchObject([{ id: id.draftOrg, status: 'draft' }]);
      expect(r.body.organizer[0]).not.toHaveProperty('json_ld');
      expect(r.body.json_ld.location).toBe(false);
      expect(r.body.json_ld.organizer).toBe(false);
      for (const path of [`/venues/${id.draftVenue}`, `/venues/by-slug/${slug.draftVenue}`]) {
        expect((await t.request('GET', path)).body.code).toBe('venue-not-accessible');
      }
      expect((await t.request('GET', `/organizers/${id.draftOrg}`)).body.code).toBe('organizer-not-accessible');
      const venues = await t.request('GET', '/venues', { query: { per_page: 50 } });
      expect(venues.body.venues.map((v: { id: number }) => v.id)).not.toContain(id.draftVenue);
      expect(venues.body.total).toBe(venues.body.venues.length);
    });

    it('are redacted when password-protected, even when the event request carries their password', async () => {
      for (const query of [{}, { password: 'venuepw' }] as Record<string, string>[]) {
        const r = await t.request('GET', `/events/${id.linkedToLocked}`, { query });
        expect(r.status).toBe(200);
        expect(r.body.venue).toMatchObject({ id: id.pwVenue, venue: [], address: '', city: '', state: 'X' });
        expect(r.body.venue).not.toHaveProperty('json_ld');
        expect(r.body.organizer).toMatchObject([{ id: id.pwOrg, organizer: [], phone: '' }]);
        expect(r.body.json_ld.location).toBe(false);
        expect(r.body.json_ld.organizer).toBe(false);
        expect(JSON.stringify(r.body)).not.toMatch(/Locked St|Capital City|555-0100/);
      }
    });
  });

  describe('lists', () => {
    it('include, search and totals show nothing of a draft to anonymous callers', async () => {
      for (const query of [{ include: String(id.draft) }, { search: 'Quokka' }, { search: 'Quokka', include: String(id.draft) }] as Record<string, string>[]) {
        const r = await t.request('GET', '/events', { query: { ...WINDOW, ...query } });
        expect([r.status, r.body.events, r.body.total, r.body.total_pages, r.body.next_rest_url], JSON.stringify(query)).toEqual([200, [], 0, 0, undefined]);
        if (!query.search) expect(r.text).not.toMatch(/Quokka/);
      }
      const editor = await t.request('GET', '/events', { as: 'editor', query: { ...WINDOW, search: 'Quokka' } });
      expect(editor.body.events.map((e: { id: number }) => e.id)).toEqual([id.draft]);
    });

    it('term counts only count published events (responses.md §5.1), so a draft’s terms look unused', async () => {
      const shown = await t.request('GET', '/categories');
      expect(shown.body.categories.map((c: { name: string }) => c.name)).not.toContain('Secret cat');
      const all = await t.request('GET', '/categories', { query: { hide_empty: 'false' } });
      const secret = all.body.categories.find((c: { name: string }) => c.name === 'Secret cat');
      expect(secret.count).toBe(0);
    });

    it('the venues archive of an event lists published venues only', async () => {
      const r = await t.request('GET', '/venues', { query: { event: String(id.linkedToDrafts) } });
      expect([r.status, r.body.venues, r.body.total]).toEqual([200, [], 0]);
    });
  });
});
