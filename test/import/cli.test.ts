import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { ALL_EVENTS } from '../../src/import/events.js';
import { requester } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { buildCli, lines, type BuiltCli } from '../cli/run-cli.js';
import { archivePage, hostileSource, json, site, sourceEvent } from './hostile-source.js';

// `calendar-events-rest import` (issue 18) against a real server speaking the original's API,
// into SQLite files: a whole run, a second run, and a run killed halfway then run again.

describe('calendar-events-rest import', () => {
  let cli: BuiltCli;
  let source: HttpCalendar;
  const dir = mkdtempSync(join(tmpdir(), 'calendar-import-'));
  const EVENTS = 240;

  beforeAll(async () => {
    cli = await buildCli();
    source = await httpCalendar(':memory:', { namespace: 'tribe/events/v1' });
    const post = async (path: string, json: Record<string, unknown>, as: 'admin' | 'author' = 'admin') => {
      const res = await source.request('POST', path, { as, json });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const jazz = await post('/categories', { name: 'Jazz' });
    const venue = await post('/venues', { venue: 'Blue Note', city: 'New York' });
    const organizer = await post('/organizers', { organizer: 'Jazz Org' });
    for (let i = 0; i < EVENTS; i++) {
      await post(
        '/events',
        {
          title: `Set ${i}`,
          status: i % 3 ? 'publish' : 'draft',
          start_date: `2031-01-01 20:00:00`,
          end_date: `2031-01-01 22:00:00`,
          categories: [jazz.id],
          venue: venue.id,
          organizer: [organizer.id],
        },
        i % 4 ? 'admin' : 'author',
      );
    }
  }, 120_000);
  afterAll(async () => {
    cli?.remove();
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The events of a store file as its admin sees them: titles by status. */
  const eventsIn = async (file: string) => {
    const calendar = createCalendar({ db: file });
    try {
      const request = requester(calendar);
      const titles: string[] = [];
      for (let page = 1; page <= 10; page++) {
        const res = await request('GET', '/events', { as: 'admin', query: { ...ALL_EVENTS, per_page: 50, page } });
        if (res.status !== 200) break;
        titles.push(...(res.body.events as { title: string; status: string }[]).map((e) => `${e.status} ${e.title}`));
      }
      return titles.sort();
    } finally {
      await calendar.close();
    }
  };
  const expected = async () => {
    const titles: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await source.request('GET', '/events', { as: 'admin', query: { ...ALL_EVENTS, per_page: 50, page } });
      if (res.status !== 200) break;
      titles.push(...(res.body.events as { title: string; status: string }[]).map((e) => `${e.status} ${e.title}`));
    }
    return titles.sort();
  };

  it('imports everything the account may read, reports per kind, and changes nothing on a second run', async () => {
    const db = join(dir, 'whole.sqlite');
    const authors = join(dir, 'authors.json');
    writeFileSync(authors, JSON.stringify({ 1: 1 }));
    const args = ['import', `${source.origin}/wp-json`, '--db', db, '--auth', 'Bearer user-admin', '--authors', authors, '--rate', '1000'];
    const first = await cli.run(args);
    expect(first.code, first.stderr).toBe(0);
    const out = lines(first.stdout);
    expect(out).toContain('categories: 1 created, 0 updated, 0 unchanged, 0 skipped');
    expect(out).toContain(`events: ${EVENTS} created, 0 updated, 0 unchanged, 0 skipped`);
    // The source's author 3 has no user here: reported once.
    expect(out).toContain('warning (events): author 3 of the source has no user here');
    expect(await eventsIn(db)).toEqual(await expected());
    const second = await cli.run(args);
    expect(second.code, second.stderr).toBe(0);
    expect(lines(second.stdout)).toContain(`events: 0 created, 0 updated, ${EVENTS} unchanged, 0 skipped`);
  }, 120_000);

  it('ends with the same calendar when a run killed halfway is run again', async () => {
    const db = join(dir, 'killed.sqlite');
    const args = ['import', `${source.origin}/wp-json`, '--db', db, '--auth', 'Bearer user-admin', '--rate', '40', '--concurrency', '1'];
    // Killed once it has read the second page of events (not a terminal: one line a page).
    const killed = await cli.run(args, {}, (stdout, kill) => {
      if (/events: 100\//.test(stdout)) kill();
    });
    expect(killed.code).toBeNull();
    const partial = await eventsIn(db);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(EVENTS);
    const again = await cli.run(args.map((a) => (a === '40' ? '1000' : a)));
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout)).toContain(`events: ${EVENTS - partial.length} created, 0 updated, ${partial.length} unchanged, 0 skipped`);
    expect(await eventsIn(db)).toEqual(await expected());
  }, 120_000);

  it('a dry run writes nothing, needs a migrated store, and reports what a run would do; --since leaves older items', async () => {
    const db = join(dir, 'dry.sqlite');
    const args = ['import', `${source.origin}/wp-json`, '--db', db, '--auth', 'Bearer user-admin', '--rate', '1000'];
    const missing = await cli.run([...args, '--dry-run']);
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr)).toEqual([
      expect.stringMatching(/dry.sqlite: no such store; a dry run reads a migrated store \(run `calendar-events-rest migrate` first\)$/),
    ]);
    expect((await cli.run(['migrate', '--db', db])).code).toBe(0);
    const dry = await cli.run([...args, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const out = lines(dry.stdout);
    expect(out).toContain('dry run: nothing was written; a run would give');
    expect(out).toContain(`events: ${EVENTS} created, 0 updated, 0 unchanged, 0 skipped`);
    expect(await eventsIn(db)).toEqual([]);
    // Nothing the source holds was modified in 2999.
    const later = await cli.run([...args, '--since', '2999-01-01']);
    expect(later.code, later.stderr).toBe(0);
    expect(lines(later.stdout)).toContain(`events: 0 created, 0 updated, 0 unchanged, ${EVENTS} older than --since, 0 skipped`);
    expect(await eventsIn(db)).toEqual([]);
    const bad = await cli.run([...args, '--since', 'last tuesday']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--since.*ISO 8601/);
  }, 120_000);

  it('--max-page-bytes reports larger pages as unread; a redirect off the source is followed only to an --allow-host', async () => {
    const internal = await site((_url, _req, res) => json(res, 200, archivePage('events', [sourceEvent(7)])));
    const hostile = await hostileSource({
      venues: (res) => json(res, 200, archivePage('venues', [{ id: 1, venue: 'x'.repeat(5000) }])),
      events: (res) => void res.writeHead(302, { location: `${internal.origin}/events` }).end(),
    });
    try {
      const args = ['import', hostile.root, '--rate', '1000', '--max-page-bytes', '4096'];
      const refused = await cli.run([...args, '--db', join(dir, 'refused.sqlite')]);
      expect(refused.code).toBe(1);
      expect(lines(refused.stderr)).toEqual([expect.stringMatching(/redirect from .* refused: .*--allow-host/)]);
      expect(internal.asked).toEqual([]);
      const allowed = await cli.run([...args, '--db', join(dir, 'allowed.sqlite'), '--allow-host', `127.0.0.1:${internal.port}`]);
      expect(allowed.code, allowed.stderr).toBe(0);
      const out = lines(allowed.stdout);
      expect(out).toContain('events: 1 created, 0 updated, 0 unchanged, 0 skipped');
      expect(out).toContain('venues: 0 created, 0 updated, 0 unchanged, 0 skipped, 1 page unread');
      expect(out).toContainEqual(expect.stringMatching(/^unread venues page 1 of 1 \(.*larger than 4096 bytes.*\): left for the next run$/));
      const bad = await cli.run([...args, '--db', join(dir, 'bad.sqlite'), '--allow-host', 'http://intranet/']);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/--allow-host.*host or host:port/);
    } finally {
      await hostile.close();
      await internal.close();
    }
  }, 120_000);

  it('lists what the write rules changed, skips what they refuse, and keeps the HTML with --keep-html', async () => {
    const hostile = await hostileSource({
      events: (res) =>
        json(res, 200, archivePage('events', [sourceEvent(1, { title: '<script>alert(1)</script>Gig' }), sourceEvent(2, { website: 'javascript:alert(7)' })])),
    });
    try {
      const args = ['import', hostile.root, '--rate', '1000'];
      const filtered = await cli.run([...args, '--db', join(dir, 'filtered.sqlite')]);
      expect(filtered.code, filtered.stderr).toBe(0);
      const out = lines(filtered.stdout);
      expect(out).toContain('events: 1 created, 0 updated, 0 unchanged, 1 skipped');
      expect(out).toContain('altered event 1 title: "<script>alert(1)</script>Gig" → "alert(1)Gig"');
      expect(out).toContainEqual(expect.stringMatching(/^skipped event 2: website: "javascript:alert\(7\)" is not a URL an API write accepts$/));
      const kept = await cli.run([...args, '--db', join(dir, 'kept.sqlite'), '--keep-html']);
      expect(kept.code, kept.stderr).toBe(0);
      expect(lines(kept.stdout).filter((l) => l.startsWith('altered'))).toEqual([]);
    } finally {
      await hostile.close();
    }
  }, 120_000);

  it('fails in one line on a source that is not there', async () => {
    const run = await cli.run(['import', 'http://127.0.0.1:9/wp-json', '--db', join(dir, 'none.sqlite'), '--rate', '1000']);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/ECONNREFUSED|fetch failed/);
  }, 120_000);
});
