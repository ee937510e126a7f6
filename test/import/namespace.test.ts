import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSite } from '../../src/index.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { buildCli, lines, type BuiltCli } from '../cli/run-cli.js';
import { archivePage, hostileSource, json, site, sourceEvent } from './hostile-source.js';

// Issue 31, trap 5: `import` assumed the original's namespace. Against this library (namespace
// calendar/events/v1 by default) it failed with a bare "404 from …/tribe/events/v1/categories"
// after it had migrated the target, and printed three "WordPress' own collection … could not be
// read" warnings once given --namespace. The namespace now comes from the source's REST index,
// the source is checked before the target is touched, and wp/v2 is asked of WordPress only.

describe('import: the source namespace and kind, from its REST index', () => {
  let cli: BuiltCli;
  let source: HttpCalendar;
  const dir = mkdtempSync(join(tmpdir(), 'calendar-import-ns-'));

  beforeAll(async () => {
    cli = await buildCli();
    // This library with its default namespace, mounted at /wp-json as the trial's app was.
    source = await httpCalendar(':memory:');
    for (let i = 0; i < 3; i++) {
      const res = await source.request('POST', '/events', {
        as: 'admin',
        json: { title: `Gig ${i}`, start_date: `2031-01-0${i + 1} 20:00:00`, end_date: `2031-01-0${i + 1} 22:00:00`, venue: { venue: 'Hall' } },
      });
      expect(res.status, res.text).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    cli?.remove();
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports from this library without --namespace, asking nothing of wp/v2', async () => {
    expect(source.ns).toBe('calendar/events/v1');
    const db = join(dir, 'library.sqlite');
    const run = await cli.run(['import', `${source.origin}/wp-json`, '--db', db, '--rate', '1000', '--auth', 'Bearer user-admin', '--fallback-author', '1']);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stderr)).toEqual([`reading ${source.origin}/wp-json/calendar/events/v1 (the events API its index lists; --namespace to choose)`]);
    const out = lines(run.stdout);
    expect(out).toContain('events: 3 created, 0 updated, 0 unchanged, 0 skipped');
    expect(out.filter((l) => l.includes('wp/v2') || l.includes("WordPress' own collection"))).toEqual([
      'warning (events): the source is not WordPress (its index lists no wp/v2): events hidden from listings are not imported',
    ]);
  }, 60_000);

  it('refuses a namespace the source does not serve, naming the one it does, before touching the target', async () => {
    const db = join(dir, 'wrong-namespace.sqlite');
    const run = await cli.run(['import', `${source.origin}/wp-json`, '--db', db, '--namespace', 'tribe/events/v1']);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      `calendar-events-rest: ${source.origin}/wp-json serves no tribe/events/v1 (its index lists the namespaces calendar/events/v1): set the namespace to calendar/events/v1 (--namespace calendar/events/v1)`,
    ]);
    expect(existsSync(db)).toBe(false);
  }, 60_000);

  it('refuses a source that is no events API (a web page, another API, an API base) before touching the target', async () => {
    const other = await site((url, _req, res) => {
      if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Blog</title>');
      if (url.pathname === '/wp-json/') return json(res, 200, { namespaces: ['oembed/1.0', 'wp/v2'], routes: { '/wp/v2/posts': {} } });
      json(res, 404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    });
    try {
      const page = join(dir, 'page.sqlite');
      const fromPage = await cli.run(['import', other.origin, '--db', page]);
      expect(fromPage.code).toBe(1);
      expect(lines(fromPage.stderr)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^calendar-events-rest: ${other.origin} does not answer as an events API: 200 from ${other.origin}/ \\(not JSON\\) \\(a web page: a WordPress site's REST root is ${other.origin}/wp-json\\), and 404 from .*/tribe/events/v1 \\(rest_no_route\\); check that the REST root`,
          ),
        ),
      ]);
      expect(existsSync(page)).toBe(false);
      const blog = join(dir, 'blog.sqlite');
      const fromBlog = await cli.run(['import', `${other.origin}/wp-json`, '--db', blog]);
      expect(fromBlog.code).toBe(1);
      expect(lines(fromBlog.stderr)).toEqual([
        `calendar-events-rest: ${other.origin}/wp-json serves no events API (its index lists the namespaces oembed/1.0, wp/v2): check that the REST root is the one of a site serving the events calendar API`,
      ]);
      expect(existsSync(blog)).toBe(false);
    } finally {
      await other.close();
    }
    const base = await cli.run(['import', `${source.origin}/wp-json/calendar/events/v1`, '--db', join(dir, 'base.sqlite')]);
    expect(base.code).toBe(1);
    expect(lines(base.stderr)).toEqual([
      `calendar-events-rest: ${source.origin}/wp-json/calendar/events/v1 is the calendar/events/v1 API, not a REST root: import from ${source.origin}/wp-json`,
    ]);
  }, 60_000);

  it('checks a site that hides its REST index through the namespace’s own index, and reads it as WordPress', async () => {
    const missing = (res: ServerResponse) => json(res, 404, { code: 'rest_no_route', message: 'No route.', data: { status: 404 } });
    const hidden = await hostileSource(
      { events: (res) => json(res, 200, archivePage('events', [sourceEvent(7)])) },
      {
        '/wp-json/': missing,
        '/wp-json/tribe/events/v1': (res) => json(res, 200, { namespace: 'tribe/events/v1', routes: {} }),
      },
    );
    try {
      const report = await importSite({ db: join(dir, 'hidden.sqlite') }, { root: hidden.root, requestsPerSecond: 1000, images: false });
      expect(report.kinds.event).toMatchObject({ created: 1 });
      // Its own collections were asked for (missing here, as on a site without the block editor).
      expect(hidden.asked.some((u) => u.pathname === '/wp-json/wp/v2/tribe_events')).toBe(true);
    } finally {
      await hidden.close();
    }
  }, 60_000);

  it('importSite finds the namespace too, and leaves the target unmigrated when the source has no events API', async () => {
    const db = join(dir, 'api.sqlite');
    const report = await importSite({ db }, { root: `${source.origin}/wp-json`, requestsPerSecond: 1000 });
    expect(report.kinds.event).toMatchObject({ created: 3, skipped: [] });
    expect(report.source).toBe(`${source.origin}/wp-json/calendar/events/v1`);
    const untouched = join(dir, 'api-untouched.sqlite');
    await expect(importSite({ db: untouched }, { root: `${source.origin}/wp-json`, namespace: 'acme/events/v2' })).rejects.toThrow(
      /serves no acme\/events\/v2 .*set the namespace to calendar\/events\/v1/,
    );
    expect(existsSync(untouched)).toBe(false);
  }, 60_000);
});
