/**
 * Read replicas in the core (README "Read replicas"): which node answers whom, the position
 * header, a replica that cannot be reached, and replicas the host hands over as Kysely instances.
 * The HTTP drills with two instances are in test/reliability/replicas.test.ts.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar, type Calendar, type CoreRequest, type User } from '../../src/index.js';
import { formatPosition, parsePosition } from '../../src/store/lsn.js';
import { createScratchDatabase, type ScratchDatabase } from '../reliability/fixtures/postgres.js';
import { freePort } from '../reliability/fixtures/processes.js';
import { CAN_REPLICATE, REPLICA_DEADLINE_MS, onDatabase, sharedCluster, type Cluster } from '../reliability/fixtures/replication.js';
import { receiver, until } from '../webhooks/fixtures/receiver.js';

const NS = '/calendar/events/v1';
const EDITOR: User = { id: 2, roles: ['editor'] };

describe('log positions', () => {
  it('read and write PostgreSQL LSNs', () => {
    expect(parsePosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatPosition(parsePosition('16/B374D848')!)).toBe('16/B374D848');
    expect(formatPosition(parsePosition('0/0')!)).toBe('0/0');
    for (const bad of ['', '16', '16/', '/1', '1/2/3', 'G/1', '123456789/1', ' 1/1x', '-1/1']) expect(parsePosition(bad)).toBeUndefined();
  });
});

describe.skipIf(!CAN_REPLICATE)('read replicas in the core', () => {
  let c: Cluster;
  let scratch: ScratchDatabase;
  let primary: string;
  let replicas: string[];
  const opened: Calendar[] = [];
  const errors: unknown[] = [];

  /** A calendar on the scratch database and its replicas; `user` signs every request in. */
  const calendar = (options: Partial<Parameters<typeof createCalendar>[0]> = {}) => {
    const made = createCalendar({
      db: primary,
      replicas,
      getUser: (r) => (r.headers.authorization ? EDITOR : null),
      onError: (e) => errors.push(e),
      ...options,
    });
    opened.push(made);
    return made;
  };
  const request = async (cal: Calendar, method: string, path: string, init: Partial<CoreRequest> = {}) => {
    const r = await cal.handle({ method, path: `${NS}${path}`, root: '/wp-json', headers: {}, ...init });
    return { status: r!.status, headers: r!.headers, body: r!.body ? JSON.parse(Buffer.from(r!.body).toString('utf8')) : undefined };
  };
  const create = (cal: Calendar, title: string) =>
    request(cal, 'POST', '/events', {
      headers: { authorization: 'editor', 'content-type': 'application/json' },
      body: { title, status: 'publish', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00' },
    });
  const pause = () => Promise.all(replicas.map((url) => c.pauseReplay(url)));
  const resume = () => Promise.all(replicas.map((url) => c.resumeReplay(url)));
  /** What the calendars reported, for an assertion's message. */
  const reported = () => errors.map((e) => (e instanceof Error ? (e.stack ?? e.message) : String(e))).join('\n');
  /**
   * `cal` once its first read has set where its replica reads start (the primary's position then:
   * README "Read replicas") and the replicas have replayed that far, so that the next reads are
   * answered by a replica without waiting.
   */
  const settled = async (cal: Calendar, onReplicas = replicas) => {
    expect((await request(cal, 'GET', '/events')).status).toBe(200);
    await c.replayed(onReplicas);
    return cal;
  };
  /** A scratch database of its own whose creation the replicas have replayed (`replicas`: their URLs on it). */
  const freshDatabase = async (label: string) => {
    const db = await createScratchDatabase(c.primaryUrl, label);
    const on = c.replicaUrls.map((u) => onDatabase(u, new URL(db.url).pathname.slice(1)));
    await c.reachable(on);
    return { ...db, replicas: on };
  };

  beforeAll(async () => {
    c = await sharedCluster();
    scratch = await createScratchDatabase(c.primaryUrl, 'replicacore');
    const database = new URL(scratch.url).pathname.slice(1);
    primary = scratch.url;
    replicas = c.replicaUrls.map((u) => onDatabase(u, database));
    await c.reachable(replicas);
    await calendar().migrate();
  }, 120_000);
  afterAll(async () => {
    await resume().catch(() => undefined);
    await Promise.all(opened.map((cal) => cal.close()));
    await scratch?.drop();
    await c?.close();
  });

  it('sends logged-out reads to the replicas and signed-in reads and writes to the primary', async () => {
    const writer = await settled(calendar());
    const reader = await settled(calendar());
    await pause();
    let position: string | undefined;
    try {
      const created = await create(writer, 'Paused');
      expect(created.status).toBe(201);
      position = created.headers['X-Calendar-Position'];
      expect(parsePosition(position)).toBeTypeOf('bigint');
      // Another instance that never saw the write: a logged-out read comes from a replica, which has not replayed it.
      errors.length = 0;
      const anonymous = await request(reader, 'GET', `/events/${created.body.id}`);
      expect(anonymous.status, reported()).toBe(404);
      expect(parsePosition(anonymous.headers['X-Calendar-Position'])! < parsePosition(position)!).toBe(true);
      // Signed in: the primary.
      expect((await request(reader, 'GET', `/events/${created.body.id}`, { headers: { authorization: 'editor' } })).status).toBe(200);
      // With the write's position: the primary (no position header), as the replicas cannot get there in time.
      const told = await request(reader, 'GET', `/events/${created.body.id}`, { headers: { 'x-calendar-position': position! } });
      expect(told.status).toBe(200);
      expect(told.headers['X-Calendar-Position']).toBeUndefined();
      // The instance that wrote remembers its write.
      expect((await request(writer, 'GET', `/events/${created.body.id}`)).status).toBe(200);
      // A header that is no position is no reason to fail a read.
      expect((await request(reader, 'GET', '/events', { headers: { 'x-calendar-position': 'soon' } })).status).toBe(200);
      expect(errors).toEqual([]);
    } finally {
      await resume();
    }
    // Replayed: the replicas answer with it.
    await c.replayed(replicas, parsePosition(position));
    const r = await request(reader, 'GET', '/events', { query: 'start_date=2027-01-01&end_date=2027-12-31' });
    expect(parsePosition(r.headers['X-Calendar-Position'])! >= parsePosition(position)!).toBe(true);
    expect(r.body.events.map((e: { title: string }) => e.title)).toContain('Paused');
  });

  it('answers from the primary, not 500, while the replicas have not replayed the tables', async () => {
    const fresh = await freshDatabase('replicatables');
    try {
      // The tables are created on the primary while the replicas stand before them.
      await pause();
      try {
        const cal = calendar({ db: fresh.url, replicas: fresh.replicas });
        await cal.migrate();
        errors.length = 0;
        for (let i = 0; i < 4; i++) {
          const r = await request(cal, 'GET', '/events');
          expect(r.status, reported()).toBe(200);
          expect(r.headers['X-Calendar-Position']).toBeUndefined();
        }
        expect(errors).toEqual([]);
        await cal.close();
      } finally {
        await resume();
      }
      // Once they have the tables, the replicas answer.
      await c.replayed(fresh.replicas);
      const cal = calendar({ db: fresh.url, replicas: fresh.replicas });
      const r = await request(await settled(cal, fresh.replicas), 'GET', '/events');
      expect(r.status).toBe(200);
      expect(r.headers['X-Calendar-Position']).toBeDefined();
      await cal.close();
    } finally {
      await fresh.drop();
    }
  });

  it('with the primary away, answers only from a replica that has the tables', async () => {
    const fresh = await freshDatabase('replicaaway');
    const [r1, r2] = fresh.replicas as [string, string];
    try {
      await c.pauseReplay(r2);
      try {
        const migrating = calendar({ db: fresh.url, replicas: fresh.replicas });
        await migrating.migrate();
        await migrating.close();
        await c.replayed([r1]);
        // An instance that starts now: r1 has the tables (its schema is checked there), r2 stands before them.
        const away = `postgres://calendar:calendar@127.0.0.1:${await freePort()}/nothing`;
        const cal = calendar({ db: away, replicas: fresh.replicas });
        errors.length = 0;
        // Its first reads at once, before any has moved its mark past r2.
        const reads = await Promise.all([0, 1, 2, 3, 4, 5].map(() => request(cal, 'GET', '/events')));
        expect(
          reads.map((r) => r.status),
          reported(),
        ).toEqual([200, 200, 200, 200, 200, 200]);
        for (const r of reads) expect(r.headers['X-Calendar-Position']).toBeDefined();
        expect(errors).toEqual([]);
        await cal.close();
      } finally {
        await c.resumeReplay(r2);
      }
    } finally {
      await fresh.drop();
    }
  });

  it("ignores a position past the end of the primary's log, and moves none for a logged-out POST", async () => {
    const cal = await settled(calendar());
    const r = await request(cal, 'GET', '/events', { headers: { 'x-calendar-position': 'FFFFFFFF/FFFFFFFF' } });
    expect(r.status).toBe(200);
    // Answered by a replica: none could ever reach that position, and after waiting for one the primary would answer.
    expect(r.headers['X-Calendar-Position']).toBeDefined();
    // A logged-out POST read (`_method=GET`) writes nothing and gets no position.
    const post = await request(cal, 'POST', '/events', { query: '_method=GET' });
    expect(post.status).toBe(200);
    expect(post.headers['X-Calendar-Position']).toBeUndefined();
  });

  it('answers the change feed and webhooks from the primary, while the replicas are behind', async () => {
    const hooks = await receiver();
    // Deliveries that fail once the receiver is closed are this test's own business.
    const writer = calendar({
      onError: () => undefined,
      webhooks: {
        endpoints: [{ url: hooks.url, secret: 'whsec_' + Buffer.from('a test secret of enough bytes').toString('base64') }],
        allowHosts: [hooks.host],
        pollMs: 25,
        retryMs: 40,
      },
    });
    const reader = calendar();
    // The webhooks' cursor starts at the log's head, once: a first event delivered shows that it has.
    const first = await create(writer, 'Before the feed');
    await until(() => hooks.accepted().some((d) => d.item_id === first.body.id), REPLICA_DEADLINE_MS);
    await pause();
    try {
      const created = await create(writer, 'Fed');
      // A token of the primary's head (after the write), read through the instance that wrote.
      const { body: head } = await request(writer, 'GET', '/changes');
      expect(head.next_sync_token).toBeTypeOf('string');
      // Through another instance, it is not "from the future" (410) for the next read of the feed.
      const next = await request(reader, 'GET', '/changes', { query: `sync_token=${encodeURIComponent(head.next_sync_token)}` });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      // The webhook tells of the event as created, with its JSON (a replica would not have it yet).
      await until(() => hooks.accepted().some((d) => d.item_id === created.body.id), REPLICA_DEADLINE_MS);
      const delivered = hooks.accepted().find((d) => d.item_id === created.body.id)!;
      expect(delivered.change).toBe('created');
      expect((delivered.item as { title: string }).title).toBe('Fed');
    } finally {
      await resume();
      await writer.close();
      await hooks.close();
    }
  });

  it('lets pages of other origins send and read the position header', async () => {
    const r = await request(await settled(calendar()), 'GET', '/events', { headers: { origin: 'https://app.example' } });
    expect(r.headers['Access-Control-Expose-Headers']).toBe('X-WP-Total, X-WP-TotalPages, Link, X-Calendar-Position');
    expect(r.headers['Access-Control-Allow-Headers']).toContain('X-Calendar-Position');
    expect(r.headers['X-Calendar-Position']).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
  });

  it('reads from the reachable nodes when a replica cannot be reached, and reports nothing', async () => {
    const nowhere = `postgres://calendar:calendar@127.0.0.1:${await freePort()}/nothing`;
    errors.length = 0;
    const cal = await settled(calendar({ replicas: [nowhere, replicas[0]!] }), [replicas[0]!]);
    for (let i = 0; i < 6; i++) {
      const r = await request(cal, 'GET', '/events');
      expect(r.status).toBe(200);
      // Served by the replica that answers.
      expect(r.headers['X-Calendar-Position']).toBeDefined();
    }
    // Every replica away: the primary answers.
    const alone = calendar({ replicas: [nowhere] });
    const r = await request(alone, 'GET', '/events');
    expect(r.status).toBe(200);
    expect(r.headers['X-Calendar-Position']).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('starts while the primary is away: logged-out reads from the replicas, the rest 503', async () => {
    const away = `postgres://calendar:calendar@127.0.0.1:${await freePort()}/nothing`;
    const cal = calendar({ db: away });
    errors.length = 0;
    const read = await request(cal, 'GET', '/events');
    expect(read.status).toBe(200);
    expect(read.headers['X-Calendar-Position']).toBeDefined();
    const signedIn = await request(cal, 'GET', '/events', { headers: { authorization: 'editor' } });
    expect(signedIn.status).toBe(503);
    expect(signedIn.body.code).toBe('rest_service_unavailable');
    expect((await create(cal, 'Nowhere')).status).toBe(503);
    expect(errors).toEqual([]);
  });

  it('takes replicas as Kysely instances of the host', async () => {
    const pools = replicas.map((url) => new pg.Pool({ connectionString: url, max: 2 }));
    for (const pool of pools) pool.on('error', () => undefined);
    try {
      const cal = await settled(calendar({ replicas: pools.map((pool) => new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })) }));
      const r = await request(cal, 'GET', '/events');
      expect(r.status).toBe(200);
      expect(r.headers['X-Calendar-Position']).toBeDefined();
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('refuses replicas of a database other than PostgreSQL when it opens', async () => {
    const { connectDatabase } = await import('../../src/store/connect.js');
    const sqlite = await connectDatabase(':memory:');
    const cal = calendar({ db: sqlite, replicas: [replicas[0]!], autoMigrate: true });
    errors.length = 0;
    const r = await request(cal, 'GET', '/events');
    expect(r.status).toBe(500);
    expect(String(errors[0])).toContain('read replicas need PostgreSQL');
    await sqlite.destroy();
  });
});
