import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_EVENTS } from '../../src/import/events.js';
import { importCalendar, type ImportCalendarOptions } from '../../src/import/import-calendar.js';
import { Source } from '../../src/import/source.js';
import { archivePage, hostileSource, json, site, sourceEvent, sourceOrganizer, sourceVenue, sqliteTarget, type Target } from './hostile-source.js';

// The importer treats its source as untrusted input (issue 28): where a hostile source may send
// it, and how much it may make it read, each case reproduced against a small HTTP server.

/** Servers and stores a test opened, closed after it. */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});
const open = <T extends { close(): Promise<void> }>(thing: T): T => {
  opened.push(thing);
  return thing;
};

/** Quick to give up: one try per request, no waiting between them. */
const QUICK: Partial<ImportCalendarOptions> = { images: false, requestsPerSecond: 1000, attempts: 1, backoffMs: 0 };

/** Every event of a store as its admin reads it, by title. */
async function eventsOf(target: Target): Promise<Record<string, Record<string, unknown>>> {
  const res = await target.request('GET', '/events', { as: 'admin', query: { ...ALL_EVENTS, per_page: 50 } });
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries((res.body.events as Record<string, unknown>[]).map((e) => [String(e.id), e]));
}

describe('redirects', () => {
  it('does not follow a redirect off the source to an address the policy refuses; follows it to a host allowed, without the credentials', async () => {
    const internal = open(await site((_url, _req, res) => json(res, 200, archivePage('events', [sourceEvent(7, { title: 'Internal secret' })]))));
    const source = open(await hostileSource({ events: (res) => void res.writeHead(302, { location: `${internal.origin}/admin/events.json` }).end() }));
    const target = open(await sqliteTarget());
    const refused = await importCalendar(target.store, { root: source.root, ...QUICK }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/redirect .* refused/);
    expect(internal.asked).toEqual([]);
    expect(await eventsOf(target)).toEqual({});

    // Allowed by the operator (`--allow-host`): followed, and the source's credentials stay with the source.
    const before = source.authorizations.length;
    const report = await importCalendar(target.store, {
      root: source.root,
      ...QUICK,
      authorization: 'Bearer secret',
      allowHosts: [`127.0.0.1:${internal.port}`],
    });
    expect(report.kinds.event).toMatchObject({ created: 1, skipped: [] });
    expect(internal.asked.map((u) => u.pathname)).toEqual(['/admin/events.json']);
    expect(internal.authorizations).toEqual([undefined]);
    expect(source.authorizations.slice(before).every((a) => a === 'Bearer secret')).toBe(true);
  });

  it('follows redirects within the source, up to a limit', async () => {
    const source = open(
      await hostileSource(
        { venues: (res) => void res.writeHead(301, { location: '/wp-json/moved/venues' }).end() },
        {
          '/wp-json/moved/venues': (res) => json(res, 200, archivePage('venues', [sourceVenue(3)])),
          // Each hop to the next: never an answer.
          '/wp-json/tribe/events/v1/loop': (res, page) => void res.writeHead(307, { location: `/wp-json/tribe/events/v1/loop?page=${page + 1}` }).end(),
        },
      ),
    );
    const target = open(await sqliteTarget());
    const report = await importCalendar(target.store, { root: source.root, ...QUICK });
    expect(report.kinds.venue).toMatchObject({ created: 1, skipped: [] });
    const loop = new Source({ root: source.root, requestsPerSecond: 1000, attempts: 1 });
    await expect(loop.get('/loop')).rejects.toThrow(/more than 5 redirects/);
    expect(source.asked.filter((u) => u.pathname.endsWith('/loop'))).toHaveLength(6);
  });

  it('refuses --allow-host entries that name no host', () => {
    expect(() => new Source({ root: 'http://127.0.0.1:1/wp-json', allowHosts: ['http://internal/'] })).toThrow(RangeError);
  });
});

describe('memory and paging', () => {
  /** Writes `bytes` of a JSON page without ending it (an endless answer, as far as the reader can tell). */
  const endless = (res: ServerResponse, bytes: number) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"venues":[');
    const chunk = `${JSON.stringify(sourceVenue(1))},`.repeat(100);
    for (let sent = 0; sent < bytes; sent += chunk.length) res.write(chunk);
  };

  it('reports a page over the byte limit as unread, whether it says its length or streams it, and goes on', async () => {
    const source = open(
      await hostileSource({
        // Refused from its header alone: its body never comes.
        events: (res) => void res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(450 * 1024 * 1024) }).write('{'),
        venues: (res) => endless(res, 2 * 1024 * 1024),
        organizers: (res) => json(res, 200, archivePage('organizers', [sourceOrganizer(5)])),
      }),
    );
    const target = open(await sqliteTarget());
    // A try that waits for those bodies would wait until the test's own time limit.
    const report = await importCalendar(target.store, { root: source.root, ...QUICK, timeoutMs: 600_000, maxPageBytes: 256 * 1024 });
    expect(report.kinds.event.unreadPages).toEqual([expect.stringMatching(/^page 1 of 1 \(.*larger than 262144 bytes/)]);
    expect(report.kinds.venue.unreadPages).toEqual([expect.stringMatching(/^page 1 of 1 \(.*larger than 262144 bytes/)]);
    expect(report.kinds.organizer).toMatchObject({ created: 1, unreadPages: [] });
  }, 30_000);

  it('counts the bytes of a compressed page once decoded: a page is read, a bomb is not', async () => {
    const gzipped = (res: ServerResponse, body: string) => {
      const bytes = gzipSync(body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bytes.length) }).end(bytes);
    };
    const source = open(
      await hostileSource({
        venues: (res) => gzipped(res, JSON.stringify(archivePage('venues', [sourceVenue(1)]))),
        // About 3 KiB on the wire, 4 MiB once decoded.
        organizers: (res) => gzipped(res, JSON.stringify(archivePage('organizers', [sourceOrganizer(1, { description: ' '.repeat(4 * 1024 * 1024) })]))),
      }),
    );
    const target = open(await sqliteTarget());
    const report = await importCalendar(target.store, { root: source.root, ...QUICK, maxPageBytes: 1024 * 1024 });
    expect(report.kinds.venue).toMatchObject({ created: 1, unreadPages: [] });
    expect(report.kinds.organizer.unreadPages).toEqual([expect.stringMatching(/larger than 1048576 bytes \(it goes on past that\)/)]);
  });

  it('stops at the first page that adds nothing, whatever total the source announces', async () => {
    const source = open(
      await hostileSource({
        events: (res) => json(res, 200, archivePage('events', [], 100_000, 5_000_000)),
        // The same two venues on every page.
        venues: (res) => json(res, 200, archivePage('venues', [sourceVenue(1), sourceVenue(2)], 100_000, 5_000_000)),
      }),
    );
    const target = open(await sqliteTarget());
    const report = await importCalendar(target.store, { root: source.root, ...QUICK, concurrency: 4 });
    expect(report.kinds.venue).toMatchObject({ created: 2, unreadPages: [] });
    const pages = (archive: string) => source.asked.filter((u) => u.pathname.endsWith(`/${archive}`)).map((u) => Number(u.searchParams.get('page')));
    expect(pages('events')).toEqual([1]);
    // Page 2 adds nothing; the pages read ahead meanwhile are all it cost.
    expect(Math.max(...pages('venues'))).toBeLessThanOrEqual(2 + 4);
  }, 30_000);
});
