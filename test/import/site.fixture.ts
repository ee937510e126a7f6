import { expect } from 'vitest';
import { ALL_EVENTS } from '../../src/import/events.js';
import type { As, TestCalendar } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { png, serve, type TestServer } from '../images/fixtures.js';
import { mountWordpressCollections, type CollectionQuirks } from './wordpress-source.js';

// A realistic calendar under tribe/events/v1 for the importer's tests (issue 18): every status,
// zones, all-day, multi-day, past and far-future events, nested terms, images, events hidden
// from listings, password-protected items and a trashed event; with WordPress' own collections
// beside it, as a site running the original serves them.

/** The source site, the server of its images, and what the tests check against. */
export interface SourceSite {
  source: HttpCalendar;
  images: TestServer;
  /** `127.0.0.1:<port>`, the image host to allow. */
  imageHost: string;
  /** Ids of the source's events, venues and organizers that are not trashed. */
  ids: { event: number[]; venue: number[]; organizer: number[] };
  /** Ids of password-protected items. */
  protectedIds: number[];
  /** How WordPress' collections beside the API misbehave (ids they leave out). */
  quirks: CollectionQuirks;
  close(): Promise<void>;
}

const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC+2', 'Australia/Lord_Howe'];

/** Starts the source site and fills it with `events` events (at least 20). */
export async function sourceSite(events = 64): Promise<SourceSite> {
  const images = await serve((req, res) => {
    const size = /\/(\d+)x(\d+)\.png$/.exec(req.url ?? '');
    if (!size) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png' }).end(png(Number(size[1]), Number(size[2])));
  });
  const imageHost = `127.0.0.1:${images.port}`;
  const quirks: CollectionQuirks = { unlisted: new Set() };
  const source = await httpCalendar(
    ':memory:',
    { namespace: 'tribe/events/v1', timezone: 'Europe/Paris', imageHosts: [imageHost] },
    { mount: (app, calendar) => mountWordpressCollections(app, calendar, quirks) },
  );
  const post = async (path: string, json: Record<string, unknown>, as: As = 'admin') => {
    const res = await source.request('POST', path, { as, json });
    expect(res.status, `${path} ${res.text}`).toBe(201);
    return res.body as { id: number };
  };
  const music = await post('/categories', { name: 'Music', description: 'All music' });
  const jazz = await post('/categories', { name: 'Jazz', parent: music.id });
  await post('/categories', { name: 'Bebop', parent: jazz.id });
  await post('/categories', { name: 'Théâtre' });
  await post('/categories', { name: 'Unused' });
  await post('/tags', { name: 'open-air' });
  await post('/tags', { name: 'Été & famille' });
  const venues = [
    await post('/venues', {
      venue: 'Salle Pleyel',
      address: '252 rue du Faubourg Saint-Honoré',
      city: 'Paris',
      zip: '75008',
      country: 'France',
      phone: '+33 1 42',
      website: 'https://pleyel.example',
      show_map: 'true',
      image: images.url('/venue/40x30.png'),
    }),
    await post('/venues', { venue: 'Blue Note', city: 'New York', state: 'NY', show_map: 'false' }, 'author'),
    await post('/venues', { venue: 'Secret Garden', city: 'Tokyo', status: 'draft' }),
    await post('/venues', { venue: 'Locked Hall', city: 'Lyon', description: '<p>Behind a password</p>' }),
  ];
  const organizers = [
    await post('/organizers', {
      organizer: 'Jazz & Co',
      email: 'jazz@example.org',
      phone: '555',
      website: 'https://jazz.example',
      image: images.url('/org/20x20.png'),
    }),
    await post('/organizers', { organizer: 'Private Org', status: 'private' }),
    await post('/organizers', { organizer: 'Locked Org', email: 'locked@example.org', description: '<p>Only with the password</p>' }),
  ];
  const statuses = ['publish', 'draft', 'pending', 'private', 'publish'];
  const created: number[] = [];
  for (let i = 0; i < events; i++) {
    const year = 1990 + Math.floor((i * 100) / events);
    const day = String(1 + (i % 27)).padStart(2, '0');
    const allDay = i % 3 === 0;
    const multiDay = i % 5 === 0;
    const event = await post(
      '/events',
      {
        title: `Concert n°${i} “en plein air”`,
        description: `<p>Programme ${i} &amp; suite</p>\n\n<p>Deuxième paragraphe</p>`,
        excerpt: i % 2 ? 'Court' : undefined,
        status: statuses[i % statuses.length],
        // Scheduled: a publication date ahead.
        ...(i % 10 === 4 ? { date: '2099-01-01 10:00:00' } : {}),
        start_date: `${year}-03-${day} ${allDay ? '00:00:00' : '20:30:00'}`,
        end_date: `${year}-${multiDay ? '04' : '03'}-${day} ${allDay ? '23:59:59' : '22:00:00'}`,
        all_day: allDay,
        timezone: ZONES[i % ZONES.length],
        categories: i % 4 === 0 ? [] : i % 2 ? ['Bebop'] : ['Music', 'Jazz'],
        tags: i % 3 ? ['open-air'] : ['open-air', 'Été & famille'],
        // Now and then a draft or protected venue, a private or protected organizer.
        venue: i % 6 === 1 ? undefined : venues[i % 8 === 2 ? 2 : i % 8 === 3 ? 3 : i % 2]!.id,
        organizer: i % 7 === 1 ? [organizers[2]!.id, organizers[0]!.id] : i % 7 === 2 ? [organizers[1]!.id] : [organizers[0]!.id],
        cost: i % 5 === 0 ? '' : `${10 + i} – ${20 + i}`,
        featured: i % 6 === 0,
        sticky: i % 7 === 0,
        hide_from_listings: i % 9 === 2,
        show_map: i % 2 === 0,
        website: i % 8 === 0 ? 'https://tickets.example' : undefined,
        image: i % 4 === 0 ? images.url(`/event/${i % 8 === 0 ? '64x48' : '32x32'}.png`) : undefined,
      },
      i % 11 === 3 ? 'author' : 'admin',
    );
    created.push(event.id);
  }
  // A trashed event is not imported.
  expect((await source.request('DELETE', `/events/${created[created.length - 1]}`, { as: 'admin' })).status).toBe(200);
  // The API sets no passwords: a site's editors do.
  const protectedIds = [created[5]!, created[11]!, venues[3]!.id, organizers[2]!.id];
  await source.db.updateTable('posts').set({ password: 'sésame' }).where('id', 'in', protectedIds).execute();
  const live = async (type: 'event' | 'venue' | 'organizer') =>
    (await source.db.selectFrom('posts').select('id').where('type', '=', type).where('status', '!=', 'trash').orderBy('id').execute()).map((r) => r.id);
  return {
    source,
    images,
    imageHost,
    ids: { event: await live('event'), venue: await live('venue'), organizer: await live('organizer') },
    protectedIds,
    quirks,
    async close() {
      await source.close();
      await images.close();
    },
  };
}

/** `value` with the source's origin and host written as the target's (`http://example.org`). */
export function asTarget(value: unknown, origin: string): unknown {
  if (typeof value === 'string')
    return value
      .split(origin)
      .join('http://example.org')
      .split(new URL(origin).hostname + '?id=')
      .join('example.org?id=');
  if (Array.isArray(value)) return value.map((v) => asTarget(v, origin));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asTarget(v, origin)]));
  return value;
}

/** `value` with e-mail addresses decoded: the API obfuscates them at random (`&#106;a&#122;z@…`) on each read. */
export function plainEmails(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return key === 'email' ? value.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))) : value;
  if (Array.isArray(value)) return value.map((v) => plainEmails(v));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainEmails(v, k)]));
  return value;
}

/** `value` without term counts (which differ while an import is partial). */
export const uncounted = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'count' ? undefined : v)));

/** The archives a client walks, with their queries. */
const ARCHIVES: [string, Record<string, string>][] = [
  ['/events', ALL_EVENTS],
  ['/venues', {}],
  ['/organizers', {}],
  ['/categories', { hide_empty: 'false' }],
  ['/tags', { hide_empty: 'false' }],
];

/**
 * Everything a caller reads of a calendar: every page of every archive, and every item of
 * `ids` by itself (status and body); `edit` adds `context=edit` (an editor then sees protected
 * items whole).
 */
export async function calendarView(ask: TestCalendar['request'], as: As, ids: SourceSite['ids'], edit = false): Promise<Record<string, unknown>> {
  const context: Record<string, string> = edit ? { context: 'edit' } : {};
  const view: Record<string, unknown> = {};
  for (const [path, query] of ARCHIVES) {
    for (let page = 1; ; page++) {
      const res = await ask('GET', path, { as, query: { ...query, ...context, per_page: 50, page } });
      view[`${path}?page=${page}`] = { status: res.status, body: plainEmails(res.body) };
      if (res.status !== 200 || page >= (res.body.total_pages ?? Number(res.headers['x-wp-totalpages'] ?? 1))) break;
    }
  }
  for (const [kind, list] of Object.entries(ids)) {
    for (const id of list) {
      const res = await ask('GET', `/${kind === 'event' ? 'events' : `${kind}s`}/${id}`, { as, query: context });
      view[`${kind}/${id}`] = { status: res.status, body: plainEmails(res.body) };
    }
  }
  return view;
}
