import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type BuiltCli } from '../cli/run-cli.js';

// The command line of issue 34 on SQLite files: import-ics from a file (a dry run first),
// subscribe / subscriptions list|run|remove against a local server (a 304 the second time),
// import-csv with a mapped header and day-first dates.

const FIXTURES = join(import.meta.dirname, 'fixtures');

describe('calendar-events-rest import-ics, subscriptions and import-csv', () => {
  let cli: BuiltCli;
  const dir = mkdtempSync(join(tmpdir(), 'calendar-feeds-'));
  const served = { full: 0, notModified: 0 };
  const server = createServer((req, res) => {
    if (req.headers['if-none-match'] === '"v1"') {
      served.notModified++;
      res.writeHead(304).end();
      return;
    }
    served.full++;
    res
      .writeHead(200, { 'content-type': 'text/calendar', etag: '"v1"' })
      .end(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VEVENT',
          'UID:a@x',
          'DTSTART:20310301T100000Z',
          'DTEND:20310301T110000Z',
          'SUMMARY:Served',
          'END:VEVENT',
          'END:VCALENDAR',
          '',
        ].join('\r\n'),
      );
  });
  let port = 0;
  beforeAll(async () => {
    cli = await buildCli();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }, 120_000);
  afterAll(async () => {
    cli?.remove();
    rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  });

  it('import-ics: a dry run needs a store; a run reports, a second changes nothing', async () => {
    const db = join(dir, 'ics.sqlite');
    const dry = await cli.run(['import-ics', join(FIXTURES, 'google.ics'), '--db', db, '--dry-run']);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain('no such store');
    const first = await cli.run(['import-ics', join(FIXTURES, 'google.ics'), '--db', db, '--category', 'Imported']);
    expect(first.code, first.stderr).toBe(0);
    // The series' edited occurrence counts as an update, its cancelled one apart.
    expect(first.stdout).toContain('events: 4 created, 1 updated, 0 unchanged, 0 trashed, 1 occurrences cancelled');
    const again = await cli.run(['import-ics', join(FIXTURES, 'google.ics'), '--db', db, '--category', 'Imported', '--dry-run']);
    expect(again.stdout).toContain('dry run: nothing was written');
    expect(again.stdout).toMatch(/events: 0 created, 0 updated, \d+ unchanged, 0 trashed, 0 occurrences cancelled/);
    const refused = await cli.run(['import-ics', `http://127.0.0.1:${port}/feed.ics`, '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('allowHosts');
  });

  it('subscribe, subscriptions list, run (a 304 the second time) and remove', async () => {
    const db = join(dir, 'subs.sqlite');
    const url = `http://127.0.0.1:${port}/feed.ics`;
    const added = await cli.run(['subscribe', url, '--name', 'club', '--every', '2h', '--category', 'Club', '--allow-host', `127.0.0.1:${port}`, '--db', db]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('subscribed to club, read every 120 min');
    const run = await cli.run(['subscriptions', 'run', 'club', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('events: 1 created');
    const again = await cli.run(['subscriptions', 'run', '--db', db]);
    expect(again.stdout).toMatch(/2 runs \(1 not modified, 0 failed\); last \S+ not-modified/);
    expect(served).toEqual({ full: 1, notModified: 1 });
    const list = await cli.run(['subscriptions', 'list', '--db', db]);
    expect(list.stdout).toContain(`club (${url}): every 120 min, publish, categories Club [cli]`);
    expect((await cli.run(['subscriptions', 'remove', 'club', '--db', db])).stdout).toContain('removed club');
    expect((await cli.run(['subscriptions', 'list', '--db', db])).stdout).toContain('0 subscriptions');
    const unknown = await cli.run(['subscriptions', 'run', 'club', '--db', db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no subscription named "club"');
  });

  it('import-csv: mapped headers, day-first dates, semicolons', async () => {
    const db = join(dir, 'csv.sqlite');
    const file = join(dir, 'events.csv');
    writeFileSync(file, '\uFEFFTitle;Date;event_start_time\r\nQuiz night;03/04/2031;7:30 pm\r\n');
    const run = await cli.run(['import-csv', file, '--map', 'Title=event_name', '--map', 'Date=event_start_date', '--date-format', 'd/m/Y', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('events: 1 created');
    const bad = await cli.run(['import-csv', file, '--map', 'Title=name', '--db', db]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"name" is not a column key');
  });
});
