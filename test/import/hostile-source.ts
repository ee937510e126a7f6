import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { createCalendar, type Calendar } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { Store } from '../../src/resources/store.js';
import { migrateStore } from '../../src/store/index.js';
import { requester, type TestCalendar } from '../helpers/harness.js';

// A source that does what a hostile or broken site can do, for the importer's tests (issue 28):
// a plain node:http server on 127.0.0.1 speaking just enough of the original's v1 API. Each
// archive answers as the test says; the others are empty, and WordPress' own collections are
// missing (404), as on a site without the block editor.

/** The archives of the v1 API the importer reads. */
export type Archive = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

/** Answers one request of an archive (`page` from its query), or a path of the test's own. */
export type Answer = (res: ServerResponse, page: number, req: IncomingMessage) => void;

/** A server on 127.0.0.1, and what it was asked. */
export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request's path and query, in order. */
  asked: URL[];
  /** The `Authorization` header of every request, in order. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** A server answering with `handle`, on 127.0.0.1. */
export async function site(handle: (url: URL, req: IncomingMessage, res: ServerResponse) => void): Promise<TestSite> {
  const asked: URL[] = [];
  const authorizations: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://source.test');
    asked.push(url);
    authorizations.push(req.headers.authorization);
    handle(url, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    asked,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** One page of an archive: its items under the archive's key, with totals. */
export function archivePage(archive: Archive, items: unknown[], totalPages = 1, total = items.length): Record<string, unknown> {
  return { [archive]: items, total, total_pages: totalPages };
}

/**
 * A source site: `/wp-json/tribe/events/v1/<archive>` answered by `answers` (an empty archive
 * otherwise), other paths under the site by `others` (WordPress' root index at `/wp-json/`,
 * 404 otherwise).
 */
export async function hostileSource(answers: Partial<Record<Archive, Answer>>, others: Record<string, Answer> = {}): Promise<TestSite & { root: string }> {
  const s = await site((url, req, res) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    const archive = /^\/wp-json\/tribe\/events\/v1\/(events|venues|organizers|categories|tags)$/.exec(url.pathname)?.[1] as Archive | undefined;
    if (archive) return (answers[archive] ?? ((r) => json(r, 200, archivePage(archive, [], 0))))(res, page, req);
    const other = others[url.pathname];
    if (other) return other(res, page, req);
    // WordPress' root index: the original's namespace beside WordPress' own.
    if (url.pathname === '/wp-json/')
      return json(res, 200, { namespaces: ['oembed/1.0', 'tribe/events/v1', 'wp/v2'], routes: { '/tribe/events/v1/events': {}, '/wp/v2/posts': {} } });
    json(res, 404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
  });
  return { ...s, root: `${s.origin}/wp-json` };
}

/** The post fields every item of the original shows, published in 2026. */
function postFields(id: number) {
  return {
    id,
    author: '1',
    status: 'publish',
    date: '2026-01-10 10:00:00',
    date_utc: '2026-01-10 10:00:00',
    modified: '2026-01-11 10:00:00',
    modified_utc: '2026-01-11 10:00:00',
    description: '<p>About it</p>\n',
    excerpt: '',
    slug: `item-${id}`,
    url: `http://old.example/item-${id}/`,
    image: false,
  };
}

/** An event as the original's v1 API shows it, with `fields` over it. */
export function sourceEvent(id: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...postFields(id),
    title: `Event ${id}`,
    all_day: false,
    start_date: '2027-05-01 20:00:00',
    end_date: '2027-05-01 22:00:00',
    utc_start_date: '2027-05-01 20:00:00',
    utc_end_date: '2027-05-01 22:00:00',
    timezone: 'UTC',
    timezone_abbr: 'UTC',
    cost: '',
    cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    website: '',
    show_map: false,
    show_map_link: false,
    hide_from_listings: false,
    sticky: false,
    featured: false,
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    ...fields,
  };
}

/** A venue as the original shows it, with `fields` over it. */
export function sourceVenue(id: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...postFields(id),
    venue: `Venue ${id}`,
    address: '',
    city: 'Paris',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    stateprovince: '',
    website: '',
    show_map: true,
    show_map_link: true,
    ...fields,
  };
}

/** An organizer as the original shows it, with `fields` over it. */
export function sourceOrganizer(id: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...postFields(id), organizer: `Organizer ${id}`, phone: '', website: '', email: '', ...fields };
}

/** A term as the original shows it, with `fields` over it. */
export function sourceTerm(id: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: `Term ${id}`, slug: `term-${id}`, description: '', parent: 0, count: 0, ...fields };
}

/** A fresh SQLite store to import into, and a calendar over it. */
export interface Target {
  raw: Kysely<unknown>;
  store: Store;
  calendar: Calendar;
  request: TestCalendar['request'];
  close(): Promise<void>;
}

/** A migrated SQLite store in memory and a calendar reading it. */
export async function sqliteTarget(): Promise<Target> {
  const raw = await connectDatabase(':memory:');
  await migrateStore(raw, 'tec_');
  const calendar = createCalendar({ db: raw, baseUrl: 'http://example.org' });
  return {
    raw,
    store: Store.open(raw, 'tec_'),
    calendar,
    request: requester(calendar),
    async close() {
      await calendar.close().catch(() => undefined);
      await raw.destroy();
    },
  };
}
