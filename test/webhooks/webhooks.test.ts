import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCalendar, signWebhook, verifyWebhook, type Calendar, type WebhookEndpoint, type WebhookOptions } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { DIALECTS, USERS } from '../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';
import { receiver, until } from './fixtures/receiver.js';

// Webhooks (issue 16, item 4) on every database: signed deliveries, retries, SSRF policy,
// two instances on one database, and a server killed between commit and delivery.

const SECRET = 'whsec_' + Buffer.from('a test secret of enough bytes').toString('base64');
const ADMIN = USERS.admin;

const dir = mkdtempSync(join(tmpdir(), 'calendar-hooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
// SQLite on a file: other instances and processes open the same tables.
const STORES = DIALECTS.map((d) => (d.name === 'sqlite' ? { ...d, url: () => join(dir, `hooks-${++files}.sqlite`) } : { ...d, url: () => d.url }));

/** Webhook options for a receiver on 127.0.0.1, with quick polls and retries. */
const hooks = (url: string, host: string, more: Partial<WebhookEndpoint> = {}): WebhookOptions => ({
  endpoints: [{ url, secret: SECRET, ...more }],
  allowHosts: [host],
  pollMs: 25,
  retryMs: 40,
  timeoutMs: 500,
  leaseMs: 1600,
});

const venue = async (calendar: Calendar, name: string) => {
  const made = await calendar.call('POST', '/venues', { params: { venue: name }, user: ADMIN });
  expect(made.status).toBe(201);
  return (made.body as { id: number }).id;
};

/** Opens calendars on `url()` (or a given database) for one describe block, closed after it. */
function opener(url: () => string) {
  const opened: StoreCalendar[] = [];
  afterAll(async () => {
    for (const t of opened) await t.close();
  });
  return async (webhooks: WebhookOptions, db = url()) => {
    const t = await storeCalendar(db, { webhooks });
    opened.push(t);
    return Object.assign(t, { url: db });
  };
}

/** Waits until the endpoint's cursor exists (a new endpoint starts from the log's head). */
const settled = (t: StoreCalendar) => until(async () => (await t.rows('webhook_cursors')) > 0);

describe.each(STORES)('webhooks on $name', ({ url }) => {
  const open = opener(url);

  it('delivers each change once, signed, with the item as the public sees it', async () => {
    const r = await receiver();
    try {
      const t = await open(hooks(r.url, r.host));
      await settled(t);
      const id = await venue(t.calendar, 'Hooked hall');
      await until(() => r.accepted().length === 1);
      const [delivery] = r.received;
      const payload = r.accepted()[0]!;
      expect(payload).toMatchObject({ kind: 'venue', change: 'created', item_id: id, item: { id, venue: 'Hooked hall' } });
      expect(delivery!.headers['webhook-id']).toBe(payload.id);
      expect(delivery!.headers['content-type']).toBe('application/json');
      expect(verifyWebhook(SECRET, delivery!.body, delivery!.headers)).toBe(true);
      expect(verifyWebhook(SECRET, delivery!.body.replace('Hooked', 'Hacked'), delivery!.headers)).toBe(false);
      expect(verifyWebhook('whsec_' + Buffer.from('another secret entirely').toString('base64'), delivery!.body, delivery!.headers)).toBe(false);
      expect(verifyWebhook(SECRET, delivery!.body, delivery!.headers, { now: new Date(Date.now() + 3_600_000) })).toBe(false);
      // An update and a deletion follow, in order. (A delivery shows the item as it is when
      // delivered: an update of an item deleted before it went out is delivered as a deletion.)
      expect((await t.calendar.call('POST', `/venues/${id}`, { params: { city: 'Lyon' }, user: ADMIN })).status).toBe(200);
      await until(() => r.accepted().length === 2);
      expect((await t.calendar.call('DELETE', `/venues/${id}`, { params: { force: true }, user: ADMIN })).status).toBe(200);
      await until(() => r.accepted().length === 3);
      expect(r.accepted().map((p) => [p.change, p.item_id])).toEqual([
        ['created', id],
        ['updated', id],
        ['deleted', id],
      ]);
      expect(r.accepted()[2]!.item).toBeNull();
    } finally {
      await r.close();
    }
  });

  it('tells a public endpoint of occurrences only while it can see their series (issue 28)', async () => {
    const r = await receiver();
    try {
      const t = await open(hooks(r.url, r.host));
      await settled(t);
      const call = async (method: string, path: string, params: Record<string, unknown>, status = 200) => {
        const res = await t.calendar.call(method, path, { params, user: ADMIN });
        expect(res.status, JSON.stringify(res.body)).toBe(status);
        return res.body as { id: number; events: { id: number }[] };
      };
      const series = async (title: string, status: string) => {
        const { id } = await call(
          'POST',
          '/events',
          { title, status, start_date: '2031-03-03 18:00:00', end_date: '2031-03-03 19:00:00', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'] },
          201,
        );
        return { id, occurrences: (await call('GET', `/events/${id}/occurrences`, {})).events.map((o) => o.id) };
      };
      /** Deliveries are in log order: once a marker made last is delivered, everything before it was looked at. */
      const deliveredUpTo = async (name: string) => {
        const marker = await venue(t.calendar, name);
        await until(() => r.accepted().some((p) => p.item_id === marker));
        const all = r.accepted().map((p) => [p.kind, p.item_id, p.change, (p as { scope?: string }).scope]);
        r.received.length = 0;
        return all.slice(0, -1);
      };
      // A private series made after the endpoint: an edited and a cancelled occurrence tell nothing.
      const closed = await series('Staff meeting', 'private');
      await call('POST', `/events/${closed.occurrences[1]}`, { title: 'Staff meeting: budget', scope: 'this' });
      await call('DELETE', `/events/${closed.occurrences[2]}`, { scope: 'this' });
      expect(await deliveredUpTo('Marker hall 1')).toEqual([]);
      // A public series: its cancelled occurrence is delivered; once it goes private, the series'
      // own deletion tells the endpoint, and its occurrences' later changes do not. (Deliveries
      // show items as they are when delivered: each step waits for the one before.)
      const shown = await series('Open rehearsal', 'publish');
      await call('DELETE', `/events/${shown.occurrences[1]}`, { scope: 'this' });
      expect(await deliveredUpTo('Marker hall 2')).toEqual([
        ['event', shown.id, 'created', undefined],
        ['event', shown.occurrences[1], 'deleted', 'this'],
      ]);
      await call('POST', `/events/${shown.id}`, { status: 'private' });
      await call('POST', `/events/${shown.occurrences[2]}`, { title: 'Open rehearsal: closed', scope: 'this' });
      expect(await deliveredUpTo('Marker hall 3')).toEqual([['event', shown.id, 'deleted', 'all']]);
    } finally {
      await r.close();
    }
  });

  it('retries a receiver that fails, in order, and remembers where it stands', async () => {
    // The first two attempts fail (500, then 503).
    const r = await receiver((n) => (n === 0 ? 500 : n === 1 ? 503 : 200));
    try {
      const t = await open(hooks(r.url, r.host));
      await settled(t);
      const first = await venue(t.calendar, 'Retried hall');
      const second = await venue(t.calendar, 'Next hall');
      await until(() => r.accepted().length === 2);
      expect(r.received.map((x) => [x.status, JSON.parse(x.body).item_id])).toEqual([
        [500, first],
        [503, first],
        [200, first],
        [200, second],
      ]);
      // Every attempt at one change carries the same id.
      expect(new Set(r.received.slice(0, 3).map((x) => x.headers['webhook-id'])).size).toBe(1);
      const cursor = await t.db.selectFrom('webhook_cursors').selectAll().executeTakeFirstOrThrow();
      expect(cursor).toMatchObject({ attempts: 0, last_error: '' });
    } finally {
      await r.close();
    }
  });

  it('never calls a receiver the SSRF policy refuses, and keeps the change for later', async () => {
    const r = await receiver();
    try {
      const t = await open({ ...hooks(r.url, r.host), allowHosts: [] });
      await settled(t);
      await venue(t.calendar, 'Private network hall');
      await until(async () => ((await t.db.selectFrom('webhook_cursors').select('last_error').executeTakeFirst())?.last_error ?? '') !== '');
      const cursor = await t.db.selectFrom('webhook_cursors').selectAll().executeTakeFirstOrThrow();
      // Refused before any connection: a port other than a web server's, on a loopback address.
      expect(cursor.last_error).toMatch(/^port \d+$|loopback/);
      expect(Number(cursor.attempts)).toBeGreaterThan(0);
      expect(r.received).toEqual([]);
    } finally {
      await r.close();
    }
  });

  it('closes without waiting for a receiver that does not answer, and counts no failure', async () => {
    const requests: IncomingMessage[] = [];
    const hanging = createServer((req) => void requests.push(req));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    try {
      const t = await open({ ...hooks(`http://${host}/hooks`, host), timeoutMs: 60_000, leaseMs: 62_000 });
      await settled(t);
      const before = await t.db.selectFrom('webhook_cursors').selectAll().executeTakeFirstOrThrow();
      await venue(t.calendar, 'Never acknowledged');
      await until(() => requests.length === 1);
      const started = Date.now();
      await t.calendar.close();
      expect(Date.now() - started).toBeLessThan(5_000);
      const after = await t.db.selectFrom('webhook_cursors').selectAll().executeTakeFirstOrThrow();
      // Not delivered: the cursor stays, and shutting down is not the receiver's failure.
      expect([Number(after.seq), Number(after.attempts), after.last_error]).toEqual([Number(before.seq), 0, '']);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('loses nothing when the server is killed between commit and delivery', async () => {
    const r = await receiver();
    try {
      // The endpoint is set up (its cursor starts at the head), then the process that writes
      // runs with its receiver down and is killed right after the commit.
      const db = url();
      const down = 'http://127.0.0.1:9/hooks';
      const setup = await open({ ...hooks(down, '127.0.0.1:9', { name: 'main' }) }, db);
      await settled(setup);
      // Its deliverer stops here: left running, it would keep failing on the same change and
      // grow the backoff the next instance must wait out.
      await setup.calendar.close();
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/webhooks/fixtures/writer.ts'], {
        env: { ...process.env, WRITER_DB: setup.url, WRITER_PREFIX: setup.calendar.options.tablePrefix, WRITER_HOOK: down },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const written = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const m = /written (\d+)/.exec(chunk.toString());
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`writer exited (${code})`)));
      });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      // Another server with the same endpoint, now reachable, delivers what the killed one committed.
      const after = createCalendar({
        db: await connectDatabase(setup.url),
        tablePrefix: setup.calendar.options.tablePrefix,
        webhooks: hooks(r.url, r.host, { name: 'main' }),
      });
      try {
        await after.services(); // Starts its deliverer.
        await until(() => r.accepted().length === 1, 15_000).catch(async (e: unknown) => {
          const cursor = await setup.db.selectFrom('webhook_cursors').selectAll().execute();
          const log = await setup.db.selectFrom('changes').selectAll().execute();
          throw new Error(`${String(e)}: cursor ${JSON.stringify(cursor)}, log ${JSON.stringify(log)}, now ${new Date().toISOString()}`);
        });
        expect(r.accepted()[0]).toMatchObject({ kind: 'venue', change: 'created', item_id: written });
      } finally {
        await after.close();
      }
    } finally {
      await r.close();
    }
  }, 30_000);
});

// Two instances in one process share SQLite only with trouble (better-sqlite3 waits for a lock
// synchronously, so one connection would wait on the other in the same thread): SQLite's
// instances are processes, as in the crash test above. Several instances are the servers' case.
describe.each(STORES.filter((s) => s.name !== 'sqlite'))('webhooks from two instances on $name', ({ url }) => {
  const open = opener(url);

  it('filters by kind, and delivers each change once with two instances on one database', async () => {
    const r = await receiver();
    try {
      const t = await open(hooks(r.url, r.host, { kinds: ['venue'] }));
      await settled(t);
      const other = createCalendar({
        db: await connectDatabase(t.url),
        tablePrefix: t.calendar.options.tablePrefix,
        webhooks: hooks(r.url, r.host, { kinds: ['venue'] }),
      });
      try {
        const ids: number[] = [];
        for (let i = 0; i < 6; i++) ids.push(await venue(i % 2 ? other : t.calendar, `Shared hall ${i}`));
        await t.calendar.call('POST', '/tags', { params: { name: 'Not a venue' }, user: ADMIN });
        await until(() => r.accepted().length >= 6);
        // Both instances poll; give them time to deliver twice if they would.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(r.accepted().map((p) => p.item_id)).toEqual(ids);
      } finally {
        await other.close();
      }
    } finally {
      await r.close();
    }
  });
});

describe('webhook signatures', () => {
  it('follow the Standard Webhooks scheme', () => {
    // HMAC-SHA256 of "<id>.<timestamp>.<body>" with the secret's base64 bytes, base64 (the
    // specification's example).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': `v1,bogus ${signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)}`,
    };
    expect(verifyWebhook(secret, body, headers, { now: new Date(1614265330_000) })).toBe(true);
    expect(verifyWebhook(secret, body, { ...headers, 'webhook-id': 'msg_other' }, { now: new Date(1614265330_000) })).toBe(false);
  });
});
