// Venue-specific behaviour (issue 3): fields and key order, the empty-value filter, map
// flags, the state/province rule, search fields, json_ld, and URLs from the mount.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../helpers/harness.js';
import { OPTIONS, VENUES, createEvent, createItem, expectInvalid, expectTypeError, listIds, sibling, unique, wipe } from '../../helpers/linked.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

const FULL_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'venue',
  'description',
  'slug',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
];
const NAME_ONLY_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'venue',
  'slug',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
];

describe.each(DIALECTS)('venues on $name', ({ url }) => {
  let t: StoreCalendar;
  // Creating the tables waits for MariaDB's server-wide migration lock, which concurrent
  // test runs may hold for a while.
  beforeAll(async () => {
    t = await storeCalendar(url, OPTIONS);
  }, 600_000);
  afterAll(() => t?.close());

  const post = (json: Record<string, unknown>) => t.request('POST', '/venues', { json, as: 'admin' });

  describe('representation', () => {
    it('has every field in upstream order, strings where the spec says strings', async () => {
      const name = unique('City Hall ');
      const fields = {
        venue: name,
        description: 'The hall',
        address: '1 Main St',
        city: 'Springfield',
        country: 'United States',
        province: 'Some province',
        state: 'IL',
        zip: '62701',
        phone: '555-0199',
        website: 'https://cityhall.example',
      };
      const created = await createItem(t, VENUES, fields);
      expect(Object.keys(created)).toEqual(FULL_KEYS);
      expect(created).toMatchObject({
        author: '1',
        status: 'publish',
        url: `http://example.org/venue/${created.slug}/`,
        venue: name,
        description: '<p>The hall</p>',
        address: '1 Main St',
        city: 'Springfield',
        country: 'United States',
        province: 'Some province',
        state: 'IL',
        zip: '62701',
        phone: '555-0199',
        website: 'https://cityhall.example',
        stateprovince: 'IL',
        show_map: true,
        show_map_link: true,
        global_id: `example.org?id=${created.id}`,
        global_id_lineage: [`example.org?id=${created.id}`],
      });
      const single = await t.request('GET', `/venues/${created.id}`);
      expect(Object.keys(single.body)).toEqual([...FULL_KEYS.slice(0, 20), 'json_ld', ...FULL_KEYS.slice(20)]);
      expect(single.body.json_ld).toEqual({
        '@type': 'Place',
        name,
        description: '&lt;p&gt;The hall&lt;/p&gt;\\n',
        url: '',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 Main St',
          addressLocality: 'Springfield',
          addressRegion: 'IL',
          postalCode: '62701',
          addressCountry: 'United States',
        },
        telephone: '555-0199',
        sameAs: 'https://cityhall.example',
      });
      const { json_ld: _ld, ...rest } = single.body;
      expect(rest).toEqual(created);
      const bySlug = await t.request('GET', `/venues/by-slug/${created.slug}`);
      expect(bySlug.body).toEqual(single.body);
      const listed = await t.request('GET', '/venues', { query: { search: name } });
      expect(listed.body.venues).toEqual([created]);
    });

    it('drops empty values but always appends the map flags and global ids', async () => {
      const created = await createItem(t, VENUES, { venue: unique('Bare ') });
      expect(Object.keys(created)).toEqual(NAME_ONLY_KEYS);
      const single = await t.request('GET', `/venues/${created.id}`);
      expect(Object.keys(single.body)).toEqual([...NAME_ONLY_KEYS.slice(0, 10), 'json_ld', ...NAME_ONLY_KEYS.slice(10)]);
      expect(single.body.json_ld).toEqual({
        '@type': 'Place',
        name: created.venue,
        description: '',
        url: '',
        address: { '@type': 'PostalAddress' },
        telephone: '',
        sameAs: '',
      });
      // Fields sent empty are not stored as values.
      const blanks = await createItem(t, VENUES, { venue: unique('Blank '), address: '', city: '', website: '', description: '', show_map: 'false' });
      expect(Object.keys(blanks)).toEqual(NAME_ONLY_KEYS);
      expect(blanks.show_map).toBe(false);
      expect(blanks.show_map_link).toBe(true);
      // The empty-value filter also drops "0".
      const zero = await createItem(t, VENUES, { venue: unique('Zero '), zip: '0', city: '00' });
      expect(zero).not.toHaveProperty('zip');
      expect(zero.city).toBe('00');
    });

    it('builds urls and global ids from the mount base url and root', async () => {
      const own = await sibling(t, url, { baseUrl: 'https://Example.org:8443/cal/' });
      try {
        const v = await createItem(own, VENUES, { venue: 'Mounted hall' });
        expect(v.url).toBe('https://Example.org:8443/cal/venue/mounted-hall/');
        expect(v.global_id).toBe(`example.org/cal?id=${v.id}`);
        const list = await own.request('GET', '/venues', { root: '/api/' });
        expect(list.body.rest_url).toBe(`https://Example.org:8443/cal/api/${own.ns}/venues/?page=1&per_page=10&status=publish`);
        const draft = await createItem(own, VENUES, { venue: 'Mounted draft', status: 'draft' });
        expect(draft.url).toBe(`https://Example.org:8443/cal/?post_type=tribe_venue&p=${draft.id}`);
      } finally {
        await own.close();
      }
    });

    it('is embedded in events: with json_ld in a single event GET, without elsewhere', async () => {
      const v = await createItem(t, VENUES, { venue: unique('Embedded '), city: 'Paris' });
      const event = await createEvent(t, { venue: v.id });
      const single = await t.request('GET', `/events/${event}`);
      expect(single.body.venue.id).toBe(v.id);
      expect(single.body.venue.json_ld['@type']).toBe('Place');
      expect(single.body.json_ld.location).toEqual(single.body.venue.json_ld);
      const archive = await t.request('GET', '/events', { query: { venue: v.id, start_date: '2031-01-01', end_date: '2032-01-01' } });
      expect(archive.body.events[0].venue).toEqual(v);
    });
  });

  describe('writes', () => {
    it('fills stateprovince from state (US or no country) or else province (writes.md §3.2)', async () => {
      const cases: [Record<string, string>, string | undefined][] = [
        [{ state: 'CA', country: 'US' }, 'CA'],
        [{ state: 'CA', country: 'United States' }, 'CA'],
        [{ state: 'CA' }, 'CA'],
        [{ country: 'Canada', province: 'ON', state: 'NY' }, 'ON'],
        [{ province: 'ON' }, 'ON'],
        [{ country: 'France', state: 'X' }, undefined],
        [{ state: 'CA', country: 'US', stateprovince: 'Explicit' }, 'Explicit'],
        [{ state: 'CA', country: 'US', stateprovince: '' }, 'CA'],
        [{}, undefined],
      ];
      for (const [fields, expected] of cases) {
        const v = await createItem(t, VENUES, { venue: unique('SP '), ...fields });
        expect(v.stateprovince, JSON.stringify(fields)).toBe(expected);
      }
    });

    it('recomputes stateprovince from the merged values when state, province or country change', async () => {
      const v = await createItem(t, VENUES, { venue: unique('SPU '), state: 'CA', country: 'US', city: 'LA' });
      const patch = async (json: Record<string, unknown>) => (await t.request('PATCH', `/venues/${v.id}`, { json, as: 'admin' })).body;
      expect((await patch({ city: 'San Diego' })).stateprovince).toBe('CA');
      const canada = await patch({ country: 'Canada', province: 'ON' });
      expect(canada.stateprovince).toBe('ON');
      expect(canada.state).toBe('CA');
      expect((await patch({ zip: '123' })).stateprovince).toBe('ON');
      expect((await patch({ stateprovince: 'Custom' })).stateprovince).toBe('Custom');
      expect((await patch({ phone: '1' })).stateprovince).toBe('Custom');
      expect((await patch({ state: 'TX', country: 'US' })).stateprovince).toBe('TX');
      const cleared = await patch({ state: '', province: '' });
      expect(cleared).not.toHaveProperty('stateprovince');
      expect(cleared.country).toBe('US');
    });

    it('reads show_map and show_map_link as strings', async () => {
      const flags = async (json: Record<string, unknown>) => {
        const v = await createItem(t, VENUES, { venue: unique('Map '), ...json });
        return [v.show_map, v.show_map_link];
      };
      expect(await flags({})).toEqual([true, true]);
      expect(await flags({ show_map: 'false', show_map_link: '0' })).toEqual([false, false]);
      expect(await flags({ show_map: 'yes', show_map_link: 'no' })).toEqual([true, false]);
      for (const on of ['1', 'true', 'TRUE', 'on', 'y', 'enable', 'enabled']) expect(await flags({ show_map: on }), on).toEqual([true, true]);
      const form = await t.request('POST', '/venues', { form: `venue=${unique('Form map ')}&show_map=0&show_map_link=1`, as: 'admin' });
      expect([form.body.show_map, form.body.show_map_link]).toEqual([false, true]);
      const before = (await t.request('GET', '/venues', { query: { status: 'any' }, as: 'admin' })).body.total;
      expectTypeError(await post({ venue: unique(), show_map: false }), 'show_map', 'string');
      expectTypeError(await post({ venue: unique(), show_map_link: 0 }), 'show_map_link', 'string');
      expectInvalid(await post({ venue: unique(), show_map: true }), 'show_map');
      expectInvalid(await post({ venue: unique(), show_map_link: 1 }), 'show_map_link');
      expect((await t.request('GET', '/venues', { query: { status: 'any' }, as: 'admin' })).body.total).toBe(before);
    });

    it('keeps map flags that an update does not send', async () => {
      const v = await createItem(t, VENUES, { venue: unique('MapUpd '), show_map: 'false', show_map_link: 'false' });
      const upd = await t.request('POST', `/venues/${v.id}`, { json: { city: 'Rome' }, as: 'admin' });
      expect([upd.body.show_map, upd.body.show_map_link]).toEqual([false, false]);
      const on = await t.request('POST', `/venues/${v.id}`, { json: { show_map: 'true' }, as: 'admin' });
      expect([on.body.show_map, on.body.show_map_link]).toEqual([true, false]);
    });

    it('validates the website', async () => {
      expectInvalid(await post({ venue: unique(), website: 'foo' }), 'website');
      expectInvalid(await post({ venue: unique(), website: 'www.example.org' }), 'website');
      expect((await createItem(t, VENUES, { venue: unique(), website: 'http://venue.com' })).website).toBe('http://venue.com');
      expect(await createItem(t, VENUES, { venue: unique(), website: '' })).not.toHaveProperty('website');
      const v = await createItem(t, VENUES, { venue: unique(), website: 'http://venue.com' });
      expectInvalid(await t.request('PATCH', `/venues/${v.id}`, { json: { website: 'nope' }, as: 'admin' }), 'website');
      expect((await t.request('GET', `/venues/${v.id}`)).body.website).toBe('http://venue.com');
    });

    it('stores the website and text fields as given (no entity escaping)', async () => {
      const v = await createItem(t, VENUES, { venue: unique('Amp '), website: 'http://example.com/a?b=1&c=2', address: 'Rue A & B', city: "L'Haÿ" });
      expect(v.website).toBe('http://example.com/a?b=1&c=2');
      expect(v.address).toBe('Rue A & B');
      expect(v.city).toBe("L'Haÿ");
    });

    it('reuses a venue of the same name, overwriting only the address fields sent', async () => {
      const name = unique('Reuse ');
      const first = await createItem(t, VENUES, { venue: name, city: 'Paris', address: 'Rue A', show_map: 'false' });
      const again = await createItem(t, VENUES, { venue: name.toUpperCase(), city: 'Lyon' });
      expect(again.id).toBe(first.id);
      expect(again.city).toBe('Lyon');
      expect(again.address).toBe('Rue A');
      expect(again.venue).toBe(name);
    });
  });

  describe('search', () => {
    it('matches fragments in the name, description and address fields (lists.md §6)', async () => {
      await wipe(t);
      const own = t;
      {
        const mk = async (fields: Record<string, string>) => (await createItem(own, VENUES, { venue: unique('Place '), ...fields })).id;
        const temple = await mk({ address: '100, Avenue du Temple' });
        const city = await mk({ city: 'Marseille' });
        const province = await mk({ province: 'Quebecprov', country: 'Canada' });
        const state = await mk({ state: 'Statesville', country: 'France' });
        const stateprovince = await mk({ stateprovince: 'Spvalue', country: 'France' });
        const zip = await mk({ zip: '75003' });
        const phone = await mk({ phone: '+33 1 23 45' });
        const description = await mk({ description: 'A hidden gem' });
        await mk({ country: 'Countryonly' });
        await mk({ website: 'http://websiteonly.example' });
        const named = (await createItem(own, VENUES, { venue: 'The Blue Note' })).id;
        const s = async (search: string) => (await listIds(own, VENUES, { search })).sort((a, b) => a - b);
        expect(await s('temple avenue')).toEqual([temple]);
        expect(await s('AVENUE')).toEqual([temple]);
        expect(await s('du temple, 100')).toEqual([temple]);
        expect(await s('marseille')).toEqual([city]);
        expect(await s('quebecprov')).toEqual([province]);
        expect(await s('statesville')).toEqual([state]);
        expect(await s('spvalue')).toEqual([stateprovince]);
        expect(await s('7500')).toEqual([zip]);
        expect(await s('23 45')).toEqual([phone]);
        expect(await s('hidden gem')).toEqual([description]);
        expect(await s('blue note')).toEqual([named]);
        expect(await s('countryonly')).toEqual([]);
        expect(await s('websiteonly')).toEqual([]);
        expect(await s('temple marseille')).toEqual([]);
      }
    });
  });

  it('trashing a venue unlinks it from every event (any status), which keep their other data', async () => {
    const v = await createItem(t, VENUES, { venue: unique('Unlink ') });
    const other = await createItem(t, VENUES, { venue: unique('Other ') });
    const events = [
      await createEvent(t, { venue: v.id }),
      await createEvent(t, { venue: v.id, status: 'draft' }),
      await createEvent(t, { venue: v.id, status: 'private' }),
      await createEvent(t, { venue: other.id }),
    ] as const;
    await t.request('DELETE', `/venues/${v.id}`, { as: 'admin' });
    const read = async (id: number) => (await t.request('GET', `/events/${id}`, { as: 'admin' })).body;
    for (const id of events.slice(0, 3)) {
      const e = await read(id);
      expect(e.venue).toEqual([]);
      expect(e.status).not.toBe('trash');
    }
    expect((await read(events[3])).venue.id).toBe(other.id);
    expect(await listIds(t, VENUES, { has_events: '1', search: v.venue }, 'admin')).toEqual([]);
  });
});
