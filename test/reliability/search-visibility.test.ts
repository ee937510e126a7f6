/**
 * Issue 11, findings 5 and 6: a search found password-protected venues and organizers by their
 * hidden fields (redacted in the answer, but found, so they could be rebuilt character by
 * character), and the terms of an event anyone could list with `/tags?post=<id>` whatever the
 * event's status. Neither a search nor a filter may reveal what the answer itself would hide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const times = { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` };

describe.each(DIALECTS)('what searches and filters reveal ($name, over HTTP)', ({ url }) => {
  let t: HttpCalendar;
  const id = {} as Record<'pwOrg' | 'pwVenue' | 'ownPwOrg' | 'published' | 'private' | 'draft' | 'future' | 'pending' | 'trashed' | 'protected', number>;

  beforeAll(async () => {
    t = await httpCalendar(url);
    const post = async (name: keyof typeof id, path: string, json: Record<string, unknown>, as: As = 'admin') => {
      const r = await t.request('POST', path, { as, json });
      expect(r.status, r.text).toBe(201);
      id[name] = r.body.id;
    };
    await post('pwOrg', '/organizers', { organizer: 'Locked org', phone: '555-pw-0100' });
    await post('pwVenue', '/venues', { venue: 'Locked hall', zip: 'zip-pw-77' });
    await post('ownPwOrg', '/organizers', { organizer: 'Author org', phone: '555-pw-0200' }, 'author');
    await t.db.updateTable('posts').set({ password: 'secret' }).where('id', 'in', [id.pwOrg, id.pwVenue, id.ownPwOrg]).execute();
    const tagged = { ...times, tags: ['hidden-tag'], categories: ['Hidden cat'] };
    await post('published', '/events', { title: 'Public party', ...times, tags: ['public-tag'] });
    await post('private', '/events', { title: 'Private party', ...tagged, status: 'private' });
    await post('draft', '/events', { title: 'Draft party', ...tagged, status: 'draft' });
    await post('future', '/events', { title: 'Future party', ...tagged, date: '2099-01-01 10:00:00' });
    await post('pending', '/events', { title: 'Pending party', ...tagged, status: 'pending' }, 'contributor');
    await post('trashed', '/events', { title: 'Trashed party', ...tagged });
    expect((await t.request('DELETE', `/events/${id.trashed}`, { as: 'admin' })).status).toBe(200);
    await post('protected', '/events', { title: 'Protected party', ...tagged, venue: { venue: 'Open hall' } });
    await t.db.updateTable('posts').set({ password: 'sesame' }).where('id', '=', id.protected).execute();
  });
  afterAll(() => t.close());

  const found = async (path: string, search: string, as: As) => {
    const r = await t.request('GET', path, { as, query: { search } });
    expect(r.status, r.text).toBe(200);
    return r.body[path.slice(1)].map((i: { id: number }) => i.id);
  };

  it('a search does not look into password-protected venues and organizers the caller cannot unlock', async () => {
    for (const as of [null, 'subscriber', 'contributor'] as As[]) {
      expect(await found('/organizers', '555-pw', as), `as ${as}`).toEqual([]);
      expect(await found('/venues', 'zip-pw', as), `as ${as}`).toEqual([]);
      expect(await found('/organizers', 'Locked', as), `as ${as}`).toEqual([]);
    }
    // Their author finds their own; who may edit others' finds all of them.
    expect(await found('/organizers', '555-pw', 'author')).toEqual([id.ownPwOrg]);
    expect((await found('/organizers', '555-pw', 'editor')).sort()).toEqual([id.pwOrg, id.ownPwOrg].sort());
    expect(await found('/venues', 'zip-pw', 'admin')).toEqual([id.pwVenue]);
  });

  it('lists the terms of an event only to callers who may read it and see its terms', async () => {
    const names = async (collection: 'tags' | 'categories', key: 'post' | 'event', event: number, as: As) => {
      const r = await t.request('GET', `/${collection}`, { as, query: { [key]: event, hide_empty: 'false' } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.total).toBe(r.body[collection].length);
      return r.body[collection].map((term: { name: string }) => term.name);
    };
    for (const event of ['private', 'draft', 'future', 'pending', 'trashed', 'protected'] as const) {
      for (const as of [null, 'subscriber'] as As[]) {
        for (const key of ['post', 'event'] as const) {
          expect(await names('tags', key, id[event], as), `${event} ${key} as ${as}`).toEqual([]);
          expect(await names('categories', key, id[event], as), `${event} ${key} as ${as}`).toEqual([]);
        }
      }
    }
    expect(await names('tags', 'post', id.published, null)).toEqual(['public-tag']);
    expect(await names('tags', 'event', id.private, 'editor')).toEqual(['hidden-tag']);
    expect(await names('tags', 'post', id.pending, 'contributor')).toEqual(['hidden-tag']);
    expect(await names('categories', 'post', id.protected, 'admin')).toEqual(['Hidden cat']);
    // The venue and organizer archives' `event` filter follows the same rule.
    const venues = async (as: As) => (await t.request('GET', '/venues', { as, query: { event: id.protected } })).body.total;
    expect([await venues(null), await venues('subscriber'), await venues('admin')]).toEqual([0, 0, 1]);
  });
});
