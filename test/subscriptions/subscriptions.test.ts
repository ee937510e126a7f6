import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar, type Calendar } from '../../src/index.js';
import type { SubscriptionStatus } from '../../src/subscriptions/settings.js';
import { requester } from '../helpers/harness.js';

// A subscription run by two calendar instances sharing PostgreSQL, against a local server
// serving a feed that changes: the feed is read conditionally (304s counted), and each change
// is applied once, by one instance.

/** A feed of events `YYYY-MM-DD` → title, as a calendar app serves it. */
function feed(events: Record<string, string>): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Club//EN', 'X-WR-CALNAME:Club'];
  for (const [day, title] of Object.entries(events)) {
    const d = day.replace(/-/g, '');
    lines.push('BEGIN:VEVENT', `UID:${d}@club.example`, `DTSTART:${d}T180000Z`, `DTEND:${d}T200000Z`, `SUMMARY:${title}`, 'END:VEVENT');
  }
  return [...lines, 'END:VCALENDAR', ''].join('\r\n');
}

/** A server of one feed that changes, counting full answers and 304s. */
function feedServer() {
  const state = { text: '', etag: '', full: 0, notModified: 0 };
  const server: Server = createServer((req, res) => {
    if (req.headers['if-none-match'] === state.etag) {
      state.notModified++;
      res.writeHead(304, { etag: state.etag }).end();
      return;
    }
    state.full++;
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8', etag: state.etag }).end(state.text);
  });
  return {
    state,
    serve(events: Record<string, string>) {
      state.text = feed(events);
      state.etag = `"${randomBytes(6).toString('hex')}"`;
    },
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const PG = process.env.CALENDAR_TEST_POSTGRES_URL;

describe.skipIf(!PG)('subscriptions on two instances sharing PostgreSQL', () => {
  const source = feedServer();
  const prefix = `t${randomBytes(4).toString('hex')}_`;
  let a: Calendar;
  let b: Calendar;
  const runs: SubscriptionStatus[] = [];
  let firstRun: Promise<void>;

  beforeAll(async () => {
    source.serve({ '2031-05-01': 'Training', '2031-05-08': 'Match' });
    const port = await source.listen();
    let ran: () => void = () => undefined;
    firstRun = new Promise((resolve) => (ran = resolve));
    const instance = () =>
      createCalendar({
        db: PG ?? '',
        tablePrefix: prefix,
        autoMigrate: true,
        onError: (e) => runs.push({ name: 'error', lastError: String(e) } as SubscriptionStatus),
        subscriptions: {
          feeds: [{ name: 'club', url: `http://127.0.0.1:${port}/club.ics`, every: '60m', categories: ['Club'] }],
          allowHosts: [`127.0.0.1:${port}`],
          onRun: (status) => {
            runs.push(status);
            ran();
          },
        },
      });
    a = instance();
    b = instance();
  }, 60_000);
  afterAll(async () => {
    await a?.uninstall().catch(() => undefined);
    await Promise.all([a?.close(), b?.close()]);
    await source.close();
  });

  /** The published events' titles by start, as the API lists them. */
  const titles = async () => {
    const res = await requester(a)('GET', '/events', { query: { start_date: '2031-01-01', end_date: '2031-12-31' } });
    return (res.body.events as { title: string; start_date: string }[]).map((e) => `${e.start_date.slice(0, 10)} ${e.title}`);
  };

  it('runs on a timer in one instance, reads the feed conditionally, and applies each change once', async () => {
    await firstRun;
    expect(runs.map((r) => r.lastError)).toEqual(['']);
    expect(source.state.full).toBe(1);
    expect(await titles()).toEqual(['2031-05-01 Training', '2031-05-08 Match']);

    // Both instances asked at once: one runs (304), the other finds it taken or runs after it (304).
    await Promise.all([a.subscriptions.run('club'), b.subscriptions.run('club')]);
    expect(source.state.full).toBe(1);
    expect(source.state.notModified).toBeGreaterThanOrEqual(1);

    source.serve({ '2031-05-01': 'Training (moved to the hall)', '2031-05-15': 'Cup final' });
    const [fromA, fromB] = await Promise.all([a.subscriptions.run('club'), b.subscriptions.run('club')]);
    expect(source.state.full).toBe(2);
    expect(await titles()).toEqual(['2031-05-01 Training (moved to the hall)', '2031-05-15 Cup final']);
    // Whichever instance read the new feed applied it; the other read a 304 or nothing.
    const reports = runs.filter((r) => r.lastOutcome === 'imported').map((r) => r.lastReport);
    expect(reports.map((r) => [r?.created, r?.updated, r?.trashed])).toEqual([
      [2, 0, 0],
      [1, 1, 1],
    ]);
    const [status] = await a.subscriptions.status();
    expect(status).toMatchObject({ name: 'club', lastOutcome: expect.stringMatching(/imported|not-modified/), failures: 0, running: false });
    expect(status?.runs).toBe(source.state.full + source.state.notModified);
    expect(status?.notModified).toBe(source.state.notModified);
    expect([...(fromA ?? []), ...(fromB ?? [])].every((s) => s.name === 'club')).toBe(true);
    expect(runs.filter((r) => r.name === 'error')).toEqual([]);
  });
});

describe('the subscriptions timer', () => {
  const source = feedServer();
  let port = 0;
  beforeAll(async () => {
    source.serve({ '2031-06-01': 'Picnic' });
    port = await source.listen();
  });
  afterAll(() => source.close());

  it('does not keep the process alive: a host that never closes its calendar still exits after a run', async () => {
    // The host's own timer keeps the process up until the first run is reported; then only the
    // calendar's timers are left, and they must not hold it.
    const script = `
      import { createCalendar } from './src/index.ts';
      const keep = setTimeout(() => { console.log('still alive'); process.exit(3); }, 120000);
      createCalendar({
        db: ':memory:',
        autoMigrate: true,
        subscriptions: {
          feeds: [{ url: 'http://127.0.0.1:${port}/club.ics' }],
          allowHosts: ['127.0.0.1:${port}'],
          pollMs: 10,
          onRun: (status) => { console.log('ran', status.lastOutcome, status.lastReport?.created); clearTimeout(keep); },
        },
      });
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    // A process still up a minute after it started is held by a timer: killed, it fails below.
    const guard = setTimeout(() => child.kill(), 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(guard);
    expect(out).toContain('ran imported 1');
    expect(code).toBe(0);
  }, 90_000);
});

describe('closing a calendar during a run', () => {
  it('stops the run under way: close() does not wait for a feed that never ends', async () => {
    let arrived: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    // Answers the head and a first line, then nothing more.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.write('BEGIN:VCALENDAR\r\n');
      arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const errors: unknown[] = [];
    const calendar = createCalendar({
      db: ':memory:',
      autoMigrate: true,
      onError: (e) => errors.push(e),
      subscriptions: { feeds: [{ url: `http://127.0.0.1:${port}/slow.ics` }], allowHosts: [`127.0.0.1:${port}`] },
    });
    try {
      await asked;
      // The fetch's own limit is 30 s, past this test's: only the abort ends it in time.
      await calendar.close();
      expect(errors).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
