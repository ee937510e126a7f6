/** The `permalinks` option: items' `url` point at the host's own pages. */
import { describe, expect, it } from 'vitest';
import { createCalendar, type User } from '../../src/index.js';

const ADMIN: User = { id: 1, roles: ['administrator'] };

async function calendarWith(permalinks: Parameters<typeof createCalendar>[0]['permalinks']) {
  const calendar = createCalendar({ db: ':memory:', baseUrl: 'https://example.org', permalinks });
  await calendar.migrate();
  return calendar;
}

describe('permalinks', () => {
  it('templates and functions per kind, WordPress’ pages for the kinds left out', async () => {
    const calendar = await calendarWith({
      event: '/events/{slug}',
      venue: 'https://places.example/{id}/{slug}',
      organizer: (item) => `/people/${item.id}?status=${item.status}`,
      category: '/c/{slug}',
    });
    const parent = (await calendar.call('POST', '/categories', { user: ADMIN, params: { name: 'Music' } })).body as { id: number };
    const child = (await calendar.call('POST', '/categories', { user: ADMIN, params: { name: 'Jazz', parent: parent.id } })).body as { url: string };
    expect(child.url).toBe('https://example.org/c/music/jazz');
    const tag = (await calendar.call('POST', '/tags', { user: ADMIN, params: { name: 'Free' } })).body as { url: string };
    expect(tag.url).toBe('https://example.org/tag/free/');
    const created = await calendar.call('POST', '/events', {
      user: ADMIN,
      params: {
        title: 'Night Train',
        start_date: '2030-05-01 20:00',
        end_date: '2030-05-01 23:00',
        venue: { venue: 'Blue Hall' },
        organizer: { organizer: 'Ann' },
      },
    });
    const event = created.body as { url: string; venue: { id: number; url: string }; organizer: { id: number; url: string }[] };
    expect(event.url).toBe('https://example.org/events/night-train');
    expect(event.venue.url).toBe(`https://places.example/${event.venue.id}/blue-hall`);
    expect(event.organizer[0]?.url).toBe(`https://example.org/people/${event.organizer[0]?.id}?status=publish`);
    await calendar.close();
  });

  it('a template serves only items with a public page; a function decides for every item', async () => {
    const calendar = await calendarWith({ event: '/events/{slug}', organizer: (item) => `/people/${item.id}?status=${item.status}` });
    const draft = (
      await calendar.call('POST', '/events', {
        user: ADMIN,
        params: { title: 'Draft', status: 'draft', start_date: '2030-05-01 20:00', end_date: '2030-05-01 21:00' },
      })
    ).body as { id: number; url: string };
    expect(draft.url).toBe(`https://example.org/?post_type=tribe_events&p=${draft.id}`);
    const organizer = (await calendar.call('POST', '/organizers', { user: ADMIN, params: { organizer: 'Bo', status: 'draft' } })).body as {
      id: number;
      url: string;
    };
    expect(organizer.url).toBe(`https://example.org/people/${organizer.id}?status=draft`);
    await calendar.close();
  });

  it.each([
    [{ event: 'events' }, 'option `permalinks.event` is "events"; it takes a path or http(s) URL naming the item with {slug} or {id}'],
    [{ event: '/events/' }, 'option `permalinks.event` is "/events/"'],
    [{ page: '/{slug}' }, 'option `permalinks.page` is "/{slug}"; it takes nothing: the kinds are event, venue, organizer, category, tag.'],
  ])('%j is refused', (permalinks, message) => {
    expect(() => createCalendar({ db: ':memory:', permalinks: permalinks as never })).toThrow(message);
  });
});
