import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { parseCalendar } from './helpers.js';

// Issue 28, finding 8: the feed's cancelled entries (events trashed within the change log's
// retention) never depend on a trashed event's current text, which nobody may read: a feed with
// a `search` lists none, so text written into a trashed event cannot be probed through it.

const WINDOW = { start_date: '2027-01-01', end_date: '2027-12-31' };

describe.each(DIALECTS)('a searched feed and trashed events on $name', ({ url }) => {
  let t: HttpCalendar;
  let trashed: number;
  let uid: (id: number) => string;

  beforeAll(async () => {
    t = await httpCalendar(url);
    uid = (id) => `event-${id}@${new URL(t.origin).hostname}`;
    const made = await t.request('POST', '/events', {
      as: 'admin',
      json: { title: 'Harbour concert', status: 'publish', start_date: '2027-06-05 18:00:00', end_date: '2027-06-05 19:00:00' },
    });
    expect(made.status, made.text).toBe(201);
    trashed = made.body.id;
    expect((await t.request('DELETE', `/events/${trashed}`, { as: 'admin' })).status).toBe(200);
    // Written after the trash: what a probe would look for.
    const edit = await t.request('POST', `/events/${trashed}`, { as: 'admin', json: { description: 'Board minutes: zanzibar merger' } });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.status).toBe('trash');
  });
  afterAll(() => t.close());

  const feed = async (query: Record<string, string>) => {
    const res = await t.request('GET', '/ics/events', { query: { ...WINDOW, ...query } });
    expect(res.status, res.text).toBe(200);
    return parseCalendar(res.text ?? '').events;
  };

  it('finds nothing by text written into a trashed event, as the archive does', async () => {
    const archive = await t.request('GET', '/events', { query: { ...WINDOW, search: 'zanzibar' } });
    expect(archive.status, archive.text).toBe(200);
    expect(archive.body.events).toEqual([]);
    expect(await feed({ search: 'zanzibar' })).toEqual([]);
    // Nor by the text it had: a searched feed lists no cancelled entries at all.
    expect(await feed({ search: 'Harbour' })).toEqual([]);
  });

  it('still lists it as cancelled in a feed without a search', async () => {
    const events = await feed({});
    expect(events.find((e) => e.uid === uid(trashed))).toMatchObject({ status: 'CANCELLED', summary: '' });
  });
});
