// Answers in pieces joined once per distinct answer (`http/joined-bodies.ts`): an answer computed
// again with the same bytes is the buffer joined before, not a new one; other bytes are joined anew;
// an answer a socket is written in pieces is joined on its second time, not its first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JoinedBodies } from '../../src/http/joined-bodies.js';
import { RawJson, listEnvelope } from '../../src/http/raw-json.js';
import { createCalendar, type Calendar, type CoreResponse, type User } from '../../src/index.js';

const NS = 'calendar/events/v1';
const ADMIN: User = { id: 1, roles: ['administrator'] };

const page = (titles: readonly string[]) =>
  listEnvelope(
    'events',
    titles.map((title, id) => RawJson.of({ id, title })),
    { total: titles.length },
  );

describe('JoinedBodies', () => {
  it('gives the buffer joined for the same bytes, built again, and joins other bytes anew', () => {
    const joined = new JoinedBodies();
    const first = page(['Jazz', 'Folk']);
    const bytes = joined.join(first);
    expect(bytes.toString('utf8')).toBe(
      JSON.stringify({
        events: [
          { id: 0, title: 'Jazz' },
          { id: 1, title: 'Folk' },
        ],
        total: 2,
      }),
    );
    const again = page(['Jazz', 'Folk']);
    expect(again.inPieces).toBe(true);
    expect(joined.again(again)).toBe(bytes);
    expect(joined.join(again)).toBe(bytes);
    const other = page(['Jazz', 'Blues']);
    expect(joined.join(other).equals(other.bytes)).toBe(true);
    expect(joined.join(other)).not.toBe(bytes);
  });

  it('joins an answer of the same bytes on its second time, not its first', () => {
    const joined = new JoinedBodies();
    const first = page(['Jazz', 'Folk']);
    expect(joined.again(first)).toBeUndefined();
    expect(first.inPieces).toBe(true);
    const second = page(['Jazz', 'Folk']);
    const bytes = joined.again(second);
    expect(
      bytes?.equals(
        Buffer.from(
          JSON.stringify({
            events: [
              { id: 0, title: 'Jazz' },
              { id: 1, title: 'Folk' },
            ],
            total: 2,
          }),
        ),
      ),
    ).toBe(true);
    expect(joined.again(page(['Jazz', 'Folk']))).toBe(bytes);
    expect(joined.again(page(['Jazz', 'Blues']))).toBeUndefined();
  });

  it('gives an answer of one piece its own bytes, and keeps nothing for it', () => {
    const joined = new JoinedBodies();
    const single = RawJson.of({ id: 1, title: 'Jazz' });
    expect(single.inPieces).toBe(false);
    expect(joined.join(single)).toBe(single.bytes);
    expect(joined.again(single)).toBeUndefined();
    expect(joined.again(single)).toBeUndefined();
  });

  it('keeps no more bytes than its bound, the least recently used dropped first', () => {
    const one = page(['Jazz', 'Folk']);
    const joined = new JoinedBodies(one.size + 10);
    const folk = joined.join(one);
    const blues = joined.join(page(['Jazz', 'Blues']));
    expect(joined.join(page(['Jazz', 'Blues']))).toBe(blues);
    expect(joined.join(page(['Jazz', 'Folk']))).not.toBe(folk);
  });
});

describe('an archive computed again with the same bytes', () => {
  let calendar: Calendar;
  const query = 'start_date=2031-06-01&end_date=2031-06-02';
  const read = (user: User | null, headers: Record<string, string> = {}) =>
    calendar.handle({
      method: 'GET',
      path: `/${NS}/events`,
      query,
      headers: { host: 'example.org', ...headers },
      root: '/wp-json',
      user,
    }) as Promise<CoreResponse>;
  const titles = (res: CoreResponse) => (JSON.parse(Buffer.from(res.body!).toString('utf8')) as { events: { title: string }[] }).events.map((e) => e.title);
  const add = async (title: string) => {
    const params = { title, status: 'publish', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00' };
    expect((await calendar.call('POST', '/events', { user: ADMIN, params })).status).toBe(201);
  };

  beforeAll(async () => {
    calendar = createCalendar({ db: ':memory:', baseUrl: 'http://example.org' });
    await calendar.migrate();
    for (const title of ['Morning', 'Noon']) await add(title);
  });
  afterAll(() => calendar.close());

  for (const [who, user, headers] of [
    ['signed in', ADMIN, {}],
    ['logged out, no-cache', null, { 'cache-control': 'no-cache' }],
  ] as const) {
    it(`${who}: comes in pieces the first time, then as one buffer joined once, until its bytes change`, async () => {
      // Nobody reads the first answer's body (a Node socket is written its pieces): it comes in pieces.
      const first = await read(user, headers);
      expect(first.status).toBe(200);
      expect(first.chunks?.length).toBeGreaterThan(2);
      // The same bytes again: joined now, once, for this answer and the next.
      const second = await read(user, headers);
      expect(second.chunks).toBeUndefined();
      const joined = second.body!;
      expect(Buffer.concat(first.chunks!).equals(Buffer.from(joined))).toBe(true);
      const third = await read(user, headers);
      expect(third.chunks).toBeUndefined();
      expect(third.body).toBe(joined);
      expect(third.headers.ETag).toBe(first.headers.ETag);
      expect(titles(third)).toEqual(expect.arrayContaining(['Morning', 'Noon']));

      await add(`Evening (${who})`);
      const changed = await read(user, headers);
      expect(changed.chunks?.length).toBeGreaterThan(2);
      expect(changed.headers.ETag).not.toBe(third.headers.ETag);
      expect(titles(changed)).toContain(`Evening (${who})`);
    });
  }
});
