// Organizer-specific behaviour (issue 3): fields and key order, the empty-value filter,
// json_ld, contact fields, search fields, and unlinking from events' organizer lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../helpers/harness.js';
import { ORGANIZERS, OPTIONS, createEvent, createItem, expectInvalid, listIds, unique, wipe } from '../../helpers/linked.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

const KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'organizer',
  'slug',
  'phone',
  'website',
  'email',
  'global_id',
  'global_id_lineage',
];

/** Decodes the decimal entities `antispambot` may put in an e-mail address. */
const decodeEntities = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

describe.each(DIALECTS)('organizers on $name', ({ url }) => {
  let t: StoreCalendar;
  // Creating the tables waits for MariaDB's server-wide migration lock, which concurrent
  // test runs may hold for a while.
  beforeAll(async () => {
    t = await storeCalendar(url, OPTIONS);
  }, 600_000);
  afterAll(() => t?.close());

  const post = (json: Record<string, unknown>) => t.request('POST', '/organizers', { json, as: 'admin' });

  describe('representation', () => {
    it('has the contact fields in upstream order and no map flags', async () => {
      const name = unique('Arts Council ');
      const created = await createItem(
        t,
        ORGANIZERS,
        { organizer: name, phone: '555-0100', website: 'https://arts.example', email: 'info@arts.example' },
        'author',
      );
      expect(Object.keys(created)).toEqual(KEYS);
      expect(created).toMatchObject({
        author: '3',
        status: 'publish',
        url: `http://example.org/organizer/${created.slug}/`,
        organizer: name,
        phone: '555-0100',
        website: 'https://arts.example',
        email: 'info@arts.example',
        global_id: `example.org?id=${created.id}`,
        global_id_lineage: [`example.org?id=${created.id}`],
      });
      const single = await t.request('GET', `/organizers/${created.id}`);
      expect(Object.keys(single.body)).toEqual([...KEYS.slice(0, 13), 'json_ld', ...KEYS.slice(13)]);
      const ld = single.body.json_ld;
      expect(Object.keys(ld)).toEqual(['@type', 'name', 'description', 'url', 'telephone', 'email', 'sameAs']);
      expect(ld).toMatchObject({
        '@type': 'Person',
        name,
        description: '',
        url: 'https://arts.example',
        telephone: '555-0100',
        sameAs: 'https://arts.example',
      });
      expect(decodeEntities(ld.email)).toBe('info@arts.example');
      const { json_ld: _ld, ...rest } = single.body;
      expect(rest).toEqual(created);
      const listed = await t.request('GET', '/organizers', { query: { search: name } });
      expect(listed.body.organizers).toEqual([created]);
    });

    it('puts the description after the name and drops empty values', async () => {
      const withText = await createItem(t, ORGANIZERS, { organizer: unique('Desc '), description: 'Local arts body.', email: 'a@b.c' });
      expect(Object.keys(withText)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'description',
        'slug',
        'email',
        'global_id',
        'global_id_lineage',
      ]);
      expect(withText.description).toBe('<p>Local arts body.</p>');
      const bare = await createItem(t, ORGANIZERS, { organizer: unique('Bare '), phone: '', website: '', email: '' });
      expect(Object.keys(bare)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'slug',
        'global_id',
        'global_id_lineage',
      ]);
      const single = await t.request('GET', `/organizers/${bare.id}`);
      expect(single.body.json_ld).toEqual({ '@type': 'Person', name: bare.organizer, description: '', url: '', telephone: '', email: '', sameAs: '' });
    });

    it('is embedded in events in link order, with json_ld only in a single event GET', async () => {
      const a = await createItem(t, ORGANIZERS, { organizer: unique('Emb ') });
      const b = await createItem(t, ORGANIZERS, { organizer: unique('Emb ') });
      const event = await createEvent(t, { organizer: [b.id, a.id] });
      const single = await t.request('GET', `/events/${event}`);
      expect(single.body.organizer.map((o: { id: number }) => o.id)).toEqual([b.id, a.id]);
      expect(single.body.organizer[0].json_ld['@type']).toBe('Person');
      const archive = await t.request('GET', '/events', { query: { organizer: a.id, start_date: '2031-01-01', end_date: '2032-01-01' } });
      expect(archive.body.events[0].organizer).toEqual([b, a]);
    });
  });

  describe('writes', () => {
    it('does not check the e-mail format but validates the website', async () => {
      const o = await createItem(t, ORGANIZERS, { organizer: unique('Mail '), email: 'not-an-email' });
      expect(o.email).toBe('not-an-email');
      expectInvalid(await post({ organizer: unique(), website: 'foo' }), 'website');
      expectInvalid(await post({ organizer: unique(), email: 5 }), 'email');
    });

    it('clears a contact field sent empty and keeps the others', async () => {
      const o = await createItem(t, ORGANIZERS, { organizer: unique('Clear '), phone: '1', email: 'x@y.z', website: 'http://x.example' });
      const r = await t.request('POST', `/organizers/${o.id}`, { json: { phone: '' }, as: 'admin' });
      expect(r.status).toBe(200);
      expect(r.body).not.toHaveProperty('phone');
      expect(r.body.email).toBe('x@y.z');
      expect(r.body.website).toBe('http://x.example');
      const all = await t.request('POST', `/organizers/${o.id}`, { json: { email: '', website: '' }, as: 'admin' });
      expect(Object.keys(all.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'slug',
        'global_id',
        'global_id_lineage',
      ]);
    });

    it('reuses an organizer of the same name and keeps the contact fields not sent', async () => {
      const name = unique('zz-ow ');
      const first = await createItem(t, ORGANIZERS, { organizer: name, phone: '123', email: 'o@w.example' });
      const again = await createItem(t, ORGANIZERS, { organizer: name.toUpperCase(), website: 'http://ow.example' });
      expect(again.id).toBe(first.id);
      expect(again).toMatchObject({ phone: '123', email: 'o@w.example', website: 'http://ow.example', organizer: name });
    });
  });

  describe('search', () => {
    it('matches fragments in the name, description, phone, e-mail and website (lists.md §6)', async () => {
      await wipe(t);
      const mk = async (fields: Record<string, string>) => (await createItem(t, ORGANIZERS, { organizer: unique('Org '), ...fields })).id;
      const one = await mk({ website: 'http://one.com' });
      await mk({ website: 'http://two.com' });
      await mk({ website: 'https://three.org' });
      const phone = await mk({ phone: '+1 (555) 0100' });
      const email = await mk({ email: 'Booking@Example.NET' });
      const described = await mk({ description: 'Runs the winter festival' });
      const named = (await createItem(t, ORGANIZERS, { organizer: 'Jazz Society' })).id;
      const s = async (search: string) => (await listIds(t, ORGANIZERS, { search })).sort((a, b) => a - b);
      expect(await s('http://one.com')).toEqual([one]);
      expect(await s('one.com')).toEqual([one]);
      expect(await s('555 0100')).toEqual([phone]);
      expect(await s('booking@example.net')).toEqual([email]);
      expect(await s('winter festival')).toEqual([described]);
      expect(await s('jazz')).toEqual([named]);
      expect(await s('jazz winter')).toEqual([]);
    });
  });

  it('trashing an organizer removes only it from the events it was linked to', async () => {
    const gone = await createItem(t, ORGANIZERS, { organizer: unique('Gone ') });
    const stays = await createItem(t, ORGANIZERS, { organizer: unique('Stays ') });
    const both = await createEvent(t, { organizer: [gone.id, stays.id] });
    const only = await createEvent(t, { organizer: [gone.id], status: 'draft' });
    expect((await t.request('DELETE', `/organizers/${gone.id}`, { as: 'admin' })).status).toBe(200);
    const read = async (id: number) => (await t.request('GET', `/events/${id}`, { as: 'admin' })).body;
    expect((await read(both)).organizer.map((o: { id: number }) => o.id)).toEqual([stays.id]);
    expect((await read(only)).organizer).toEqual([]);
    expect(await listIds(t, ORGANIZERS, { event: both })).toEqual([stays.id]);
  });

  it('lists the organizers of an event by publication date, newest first', async () => {
    const older = await createItem(t, ORGANIZERS, { organizer: unique('Old '), date: '2020-01-01 00:00:00' });
    const newer = await createItem(t, ORGANIZERS, { organizer: unique('New '), date: '2021-01-01 00:00:00' });
    const event = await createEvent(t, { organizer: [older.id, newer.id] });
    expect(await listIds(t, ORGANIZERS, { event })).toEqual([newer.id, older.id]);
  });
});
