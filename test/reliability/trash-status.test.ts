/**
 * Issue 11, finding 7: an update to `status: "trash"` once skipped the trash rule: the item kept
 * its slug and its links (a public event then embedded a trashed venue that no DELETE could
 * unlink any more, since the DELETE answered 410), and, with no status kept from before, a
 * contributor regained edit rights on an event an editor had trashed. Such an update now goes
 * through the one trash rule, and leaving the trash restores the slug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const times = { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` };

describe.each(DIALECTS)('updates to and from status trash ($name, over HTTP)', ({ url }) => {
  let t: HttpCalendar;
  const create = async (path: string, json: Record<string, unknown>, as: As = 'admin') => {
    const r = await t.request('POST', path, { as, json });
    expect(r.status, r.text).toBe(201);
    return r.body as { id: number; slug: string };
  };

  beforeAll(async () => {
    t = await httpCalendar(url);
  });
  afterAll(() => t.close());

  it('trashes a venue and an organizer as DELETE does: slug, links, and a 410 afterwards', async () => {
    const venue = await create('/venues', { venue: 'Trash hall' });
    const organizer = await create('/organizers', { organizer: 'Trash org' });
    const other = await create('/organizers', { organizer: 'Staying org' });
    const event = await create('/events', { title: 'Linked party', ...times, venue: venue.id, organizer: [organizer.id, other.id] });
    for (const [path, item] of [
      ['/venues', venue],
      ['/organizers', organizer],
    ] as const) {
      const r = await t.request('PATCH', `${path}/${item.id}`, { as: 'editor', json: { status: 'trash' } });
      expect(r.status, r.text).toBe(200);
      expect([r.body.status, r.body.slug]).toEqual(['trash', `${item.slug}__trashed`]);
      expect((await t.request('DELETE', `${path}/${item.id}`, { as: 'editor' })).status).toBe(410);
    }
    const read = await t.request('GET', `/events/${event.id}`);
    expect(read.body.venue).toEqual([]);
    expect(read.body.organizer.map((o: { id: number }) => o.id)).toEqual([other.id]);
  });

  it('keeps the status from before, so that a contributor does not regain rights on a published event', async () => {
    const event = await create('/events', { title: 'Contributed party', ...times, author: 4 });
    const trashed = await t.request('PATCH', `/events/${event.id}`, { as: 'editor', json: { status: 'trash' } });
    expect([trashed.status, trashed.body.status, trashed.body.slug]).toEqual([200, 'trash', `${event.slug}__trashed`]);
    const row = await t.db.selectFrom('posts').select(['status', 'status_before_trash']).where('id', '=', event.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'trash', status_before_trash: 'publish' });
    const contributor = await t.request('PATCH', `/events/${event.id}`, { as: 'contributor', json: { title: 'Mine again' } });
    expect([contributor.status, contributor.body.code]).toEqual([403, 'rest_forbidden']);
    expect((await t.request('DELETE', `/events/${event.id}`, { as: 'editor' })).status).toBe(410);
  });

  it('needs the right to delete the item: who may only edit it cannot trash it by an update', async () => {
    const event = await create('/events', { title: 'Kept party', ...times });
    const editorOnly = {
      id: 9,
      capabilities: ['read', 'edit_tribe_events', 'edit_others_tribe_events', 'edit_published_tribe_events', 'publish_tribe_events'],
    };
    const r = await t.calendar.call('PATCH', `/events/${event.id}`, { params: { status: 'trash', title: 'Renamed' }, user: editorOnly });
    expect([r.status, (r.body as { code: string }).code]).toEqual([403, 'rest_forbidden']);
    const row = await t.db.selectFrom('posts').select(['status', 'title']).where('id', '=', event.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'publish', title: 'Kept party' });
    expect((await t.calendar.call('PATCH', `/events/${event.id}`, { params: { title: 'Renamed' }, user: editorOnly })).status).toBe(200);
  });

  it('restores the slug when an update takes an item out of the trash', async () => {
    const event = await create('/events', { title: 'Back party', ...times });
    const venue = await create('/venues', { venue: 'Back hall' });
    expect((await t.request('DELETE', `/events/${event.id}`, { as: 'admin' })).body.slug).toBe(`${event.slug}__trashed`);
    expect((await t.request('PATCH', `/venues/${venue.id}`, { as: 'admin', json: { status: 'trash' } })).body.slug).toBe(`${venue.slug}__trashed`);
    const back = await t.request('PATCH', `/events/${event.id}`, { as: 'admin', json: { status: 'publish' } });
    expect([back.status, back.body.status, back.body.slug]).toEqual([200, 'publish', event.slug]);
    const venueBack = await t.request('PATCH', `/venues/${venue.id}`, { as: 'admin', json: { status: 'draft' } });
    expect([venueBack.status, venueBack.body.status, venueBack.body.slug]).toEqual([200, 'draft', venue.slug]);
    const row = await t.db.selectFrom('posts').select('status_before_trash').where('id', '=', event.id).executeTakeFirstOrThrow();
    expect(row.status_before_trash).toBeNull();
  });

  it('numbers the restored slug when another item took it meanwhile', async () => {
    const first = await create('/venues', { venue: 'Twin hall' });
    expect((await t.request('DELETE', `/venues/${first.id}`, { as: 'admin' })).status).toBe(200);
    const second = await create('/venues', { venue: 'Twin hall' });
    expect(second.slug).toBe(first.slug);
    const back = await t.request('PATCH', `/venues/${first.id}`, { as: 'admin', json: { status: 'publish' } });
    expect(back.body.slug).toBe(`${first.slug}-2`);
  });
});
