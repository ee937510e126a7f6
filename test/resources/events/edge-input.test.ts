/**
 * Inputs at the edges of the shared post rules, pinned so that moving those rules keeps them:
 * a title the filters empty gives no slug, and an object where an id belongs is a bad id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

const TIMES = { start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' };

describe.each(DIALECTS)('event writes at the edges ($name)', ({ url }) => {
  let t: StoreCalendar;
  beforeAll(async () => {
    t = await storeCalendar(url);
  });
  afterAll(() => t.close());

  it('gives a published event whose title the filters empty no slug', async () => {
    // Authors lack `unfiltered_html`: the script goes, and nothing is left to make a slug of.
    const r = await t.request('POST', '/events', { as: 'author', json: { title: '<script>x</script>', ...TIMES } });
    expect([r.status, r.body.status, r.body.title, r.body.slug]).toEqual([201, 'publish', 'x', 'x']);
    const empty = await t.request('POST', '/events', { as: 'author', json: { title: '<script></script>', ...TIMES } });
    expect([empty.status, empty.body.status, empty.body.title, empty.body.slug]).toEqual([201, 'publish', '', '']);
  });

  it('refuses an object where a venue or organizer id belongs, and keeps the links', async () => {
    const venue = await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Edge hall' } });
    const event = await t.request('POST', '/events', { as: 'admin', json: { title: 'Edge party', ...TIMES, venue: venue.body.id } });
    for (const json of [{ venue: { id: {} } }, { organizer: [{ id: {} }] }]) {
      const r = await t.request('PATCH', `/events/${event.body.id}`, { as: 'admin', json });
      expect([r.status, r.body.code]).toEqual([400, 'rest_invalid_param']);
    }
    const read = await t.request('GET', `/events/${event.body.id}`, { as: 'admin' });
    expect(read.body.venue.id).toBe(venue.body.id);
  });
});
