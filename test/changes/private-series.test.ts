import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

// Issue 28, finding 7: a change to one occurrence of a series is reported only to readers who
// could see the series after their sync token. A private series created after an anonymous
// reader's token is as unknown to them as a draft created then: its occurrences' edits,
// cancellations and splits are not reported at all, while a series they could read still
// reaches them, as a deletion when it goes private.

interface FeedEntry {
  kind: string;
  id: number;
  change: 'created' | 'updated' | 'deleted';
  scope?: string;
}

describe.each(DIALECTS)('the change feed and private series on $name', ({ url }) => {
  let t: HttpCalendar;

  beforeAll(async () => {
    t = await httpCalendar(url);
  });
  afterAll(() => t.close());

  const token = async (as: As = null) => (await t.request('GET', '/changes', { as })).body.next_sync_token as string;
  /** Every entry from `from` on, as `as` reads the feed. */
  const drain = async (from: string, as: As = null) => {
    const entries: FeedEntry[] = [];
    let next = from;
    for (let page = 0; page < 20; page++) {
      const res = await t.request('GET', '/changes', { as, query: { sync_token: next } });
      expect(res.status, res.text).toBe(200);
      entries.push(...(res.body.changes as FeedEntry[]));
      next = res.body.next_sync_token;
      if (!res.body.more) return entries;
    }
    throw new Error('the feed did not end');
  };
  const series = async (title: string, status: string) => {
    const res = await t.request('POST', '/events', {
      as: 'admin',
      json: { title, status, start_date: '2031-03-03 18:00:00', end_date: '2031-03-03 19:00:00', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'] },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as number;
    const list = await t.request('GET', `/events/${id}/occurrences`, { as: 'admin' });
    expect(list.status, list.text).toBe(200);
    return { id, occurrences: (list.body.events as { id: number }[]).map((o) => o.id) };
  };
  const ok = async (method: string, path: string, init: Parameters<HttpCalendar['request']>[2]) => {
    const res = await t.request(method, path, { as: 'admin', ...init });
    expect(res.status, res.text).toBe(200);
  };
  /** Edits, cancels and splits occurrences of `s` in every way a write can. */
  const touchOccurrences = async (s: { occurrences: number[] }) => {
    const [, second, third, fourth, fifth] = s.occurrences;
    await ok('POST', `/events/${second}`, { json: { title: 'Staff meeting: budget', scope: 'this' } });
    await ok('DELETE', `/events/${third}`, { query: { scope: 'this' } });
    await ok('POST', `/events/${fourth}`, { json: { title: 'Staff meeting, new room', scope: 'following' } });
    await ok('DELETE', `/events/${fifth}`, { query: { scope: 'following' } });
  };

  it('tells an anonymous reader nothing of a private series created after their token', async () => {
    const anonymous = await token();
    const admin = await token('admin');
    const s = await series('Staff meeting', 'private');
    await touchOccurrences(s);
    // A marker: the feed is read to its end, past every change above.
    const venue = await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Marker hall' } });
    expect(venue.status).toBe(201);
    expect((await drain(anonymous)).map((e) => [e.kind, e.id, e.change])).toEqual([['venue', venue.body.id, 'created']]);
    // Those who may read the series are told of each change.
    const seen = await drain(admin, 'admin');
    expect(seen.filter((e) => e.id === s.occurrences[1])).toMatchObject([{ change: 'updated', scope: 'this' }]);
    expect(seen.filter((e) => e.id === s.occurrences[2])).toMatchObject([{ change: 'deleted', scope: 'this' }]);
    expect(seen.find((e) => e.id === s.id)).toMatchObject({ change: 'created' });
  });

  it('tells nothing of a series that stayed private since the token, even one created before it', async () => {
    const s = await series('Board meeting', 'private');
    const from = await token();
    await ok('POST', `/events/${s.occurrences[1]}`, { json: { title: 'Board meeting: accounts', scope: 'this' } });
    await ok('DELETE', `/events/${s.occurrences[2]}`, { query: { scope: 'this' } });
    expect(await drain(from)).toEqual([]);
    // A change of the series itself is a deletion for a reader whose token is older than the
    // series (the feed cannot tell whether they could read it then): its occurrences go with it.
    await ok('DELETE', `/events/${s.occurrences[4]}`, { query: { scope: 'following' } });
    expect((await drain(from)).map((e) => [e.id, e.change, e.scope])).toEqual([
      [s.occurrences[1], 'deleted', 'this'],
      [s.occurrences[2], 'deleted', 'this'],
      [s.id, 'deleted', 'following'],
    ]);
  });

  it('tells of an occurrence that left the index through its series', async () => {
    const s = await series('Open lecture', 'publish');
    const from = await token();
    // Ends the series before its fourth occurrence: the occurrences after it leave the index.
    await ok('DELETE', `/events/${s.occurrences[3]}`, { query: { scope: 'following' } });
    expect((await drain(from)).map((e) => [e.id, e.change, e.scope])).toEqual([[s.id, 'updated', 'following']]);
  });

  it('still tells a former reader of a series gone private, and a reader of a public series', async () => {
    const s = await series('Open rehearsal', 'publish');
    const before = await token();
    await ok('POST', `/events/${s.id}`, { json: { status: 'private' } });
    await ok('POST', `/events/${s.occurrences[1]}`, { json: { title: 'Open rehearsal: closed', scope: 'this' } });
    expect((await drain(before)).map((e) => [e.id, e.change, e.scope])).toEqual([
      [s.id, 'deleted', 'all'],
      [s.occurrences[1], 'deleted', 'this'],
    ]);

    const from = await token();
    const open = await series('Open choir', 'publish');
    await ok('DELETE', `/events/${open.occurrences[2]}`, { query: { scope: 'this' } });
    expect((await drain(from)).map((e) => [e.id, e.change, e.scope])).toEqual([
      [open.id, 'created', undefined],
      [open.occurrences[2], 'deleted', 'this'],
    ]);
  });
});
