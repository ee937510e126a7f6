/**
 * `author` on edits of an occurrence (issue 29, item 3): `scope=this`, `following` and `all`
 * follow the rule of an update of the series, by default (any author, as the original) and
 * with `strictAuthor` (another user only with `edit_others_tribe_events`). The event overriding
 * an occurrence and the series split from it keep the series' author unless `author` is sent;
 * an author an occurrence was given stays its own when the series' status or author changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, USERS, testCalendar, type As, type TestCalendar } from '../helpers/harness.js';

const ROLES = ['contributor', 'author', 'editor'] as const;
const SCOPES = ['this', 'following', 'all'] as const;
type Role = (typeof ROLES)[number];

const userExists = (id: number) => Object.values(USERS).some((u) => u.id === id);
const statusOf = (role: Role) => (role === 'contributor' ? 'draft' : 'publish');

interface Shown {
  id: number;
  author: string;
  status: string;
  title: string;
  series?: { id: number };
}

describe.each(DIALECTS)('author on occurrence edits on $name', ({ url }) => {
  let loose: TestCalendar;
  let strict: TestCalendar;

  beforeAll(async () => {
    loose = await testCalendar(url, { userExists });
    strict = await testCalendar(url, { userExists, strictAuthor: true });
  });
  afterAll(async () => {
    await loose?.close();
    await strict?.close();
  });

  /** A weekly series of four made by `as`; its occurrence ids. */
  const series = async (t: TestCalendar, as: As, title: string) => {
    const res = await t.request('POST', '/events', {
      as,
      json: { title, start_date: '2027-05-04 18:00:00', end_date: '2027-05-04 19:00:00', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'] },
    });
    expect(res.status, res.text).toBe(201);
    return { id: res.body.id as number, occurrences: await ids(t, res.body.id as number) };
  };
  const ids = async (t: TestCalendar, seriesId: number) =>
    ((await t.request('GET', `/events/${seriesId}/occurrences`, { as: 'admin' })).body.events as Shown[]).map((o) => o.id);
  /** Each occurrence's author, title and series, as an administrator reads it by its id. */
  const shown = async (t: TestCalendar, occurrences: number[]) =>
    Promise.all(
      occurrences.map(async (id) => {
        const o = (await t.request('GET', `/events/${id}`, { as: 'admin' })).body as Shown;
        return [o.author, o.title, o.series?.id];
      }),
    );

  describe.each(ROLES)('as %s', (role) => {
    const me = String(USERS[role].id);

    it.each(SCOPES)('scope=%s names another author by default, as an update of the series does', async (scope) => {
      const s = await series(loose, role, `Loose ${role} ${scope}`);
      const res = await loose.request('POST', `/events/${s.occurrences[1]}`, { as: role, json: { scope, author: 1, title: 'Renamed' } });
      expect([res.status, res.body.author, res.body.status], res.text).toEqual([200, '1', statusOf(role)]);
      const after = await shown(loose, s.occurrences);
      const split = after[1]![2];
      const title = `Loose ${role} ${scope}`;
      expect(after).toEqual(
        {
          this: [
            [me, title, s.id],
            ['1', 'Renamed', s.id],
            [me, title, s.id],
            [me, title, s.id],
          ],
          following: [
            [me, title, s.id],
            ['1', 'Renamed', split],
            ['1', 'Renamed', split],
            ['1', 'Renamed', split],
          ],
          all: [
            ['1', 'Renamed', s.id],
            ['1', 'Renamed', s.id],
            ['1', 'Renamed', s.id],
            ['1', 'Renamed', s.id],
          ],
        }[scope],
      );
      if (scope === 'following') expect(split).not.toBe(s.id);
      // The series itself: its author changes with `all` only.
      expect((await loose.request('GET', `/events/${s.id}`, { as: 'admin' })).body.author).toBe(scope === 'all' ? '1' : me);
    });

    it.each(SCOPES)('scope=%s with strictAuthor: another author only with edit_others, else 403 and nothing changes', async (scope) => {
      const s = await series(strict, role, `Strict ${role} ${scope}`);
      const before = await shown(strict, s.occurrences);
      const res = await strict.request('POST', `/events/${s.occurrences[1]}`, { as: role, json: { scope, author: 1, title: 'Renamed' } });
      if (role === 'editor') {
        expect([res.status, res.body.author], res.text).toEqual([200, '1']);
        return;
      }
      expect([res.status, res.body.code, res.body.message]).toEqual([
        403,
        'rest_cannot_edit_others',
        'Sorry, you are not allowed to update posts as this user.',
      ]);
      expect(await shown(strict, s.occurrences)).toEqual(before);
      expect(await ids(strict, s.id)).toEqual(s.occurrences);
      // Naming oneself is allowed.
      const self = await strict.request('POST', `/events/${s.occurrences[1]}`, { as: role, json: { scope, author: USERS[role].id, title: 'Self' } });
      expect([self.status, self.body.author, self.body.title], self.text).toEqual([200, me, 'Self']);
    });
  });

  it.each(SCOPES)("scope=%s without author keeps the series' author on the override or the split series", async (scope) => {
    const s = await series(loose, 'editor', `Kept ${scope}`);
    // An administrator edits the editor's series: the author stays the editor.
    const res = await loose.request('POST', `/events/${s.occurrences[2]}`, { as: 'admin', json: { scope, title: 'Edited' } });
    expect([res.status, res.body.author], res.text).toEqual([200, '2']);
    expect((await shown(loose, s.occurrences)).map(([author]) => author)).toEqual(['2', '2', '2', '2']);
  });

  it('keeps the author an occurrence was given when the series is made a draft, trashed or given another author', async () => {
    const s = await series(loose, 'admin', 'Own authors');
    expect((await loose.request('POST', `/events/${s.occurrences[1]}`, { as: 'admin', json: { author: 3 } })).body.author).toBe('3');
    // An override with the series' author (an edited title only).
    expect((await loose.request('POST', `/events/${s.occurrences[2]}`, { as: 'admin', json: { title: 'Only the title' } })).body.author).toBe('1');
    expect((await loose.request('POST', `/events/${s.id}`, { as: 'admin', json: { status: 'draft' } })).status).toBe(200);
    expect((await shown(loose, s.occurrences)).map(([author]) => author)).toEqual(['1', '3', '1', '1']);
    // A new author of the series moves the occurrences that had its author, not one given its own.
    expect((await loose.request('POST', `/events/${s.id}`, { as: 'admin', json: { author: 2 } })).status).toBe(200);
    expect((await shown(loose, s.occurrences)).map(([author]) => author)).toEqual(['2', '3', '2', '2']);
    expect((await loose.request('POST', `/events/${s.occurrences[3]}`, { as: 'admin', json: { scope: 'all', author: 6 } })).status).toBe(200);
    expect((await shown(loose, s.occurrences)).map(([author]) => author)).toEqual(['6', '3', '6', '6']);
    expect((await loose.request('DELETE', `/events/${s.id}`, { as: 'admin' })).status).toBe(200);
    const trashed = await Promise.all(s.occurrences.map(async (id) => (await loose.request('GET', `/events/${id}`, { as: 'admin' })).body));
    expect(trashed.map((o) => o.code)).toEqual(Array(4).fill('event-no-longer-available'));
    expect((await loose.request('POST', `/events/${s.id}`, { as: 'admin', json: { status: 'publish' } })).status).toBe(200);
    expect((await shown(loose, s.occurrences)).map(([author]) => author)).toEqual(['6', '3', '6', '6']);
  });
});
