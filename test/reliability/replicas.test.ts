/**
 * Read replicas (issue 20): two instances of the example server on a PostgreSQL primary with two
 * streaming replicas (`CALENDAR_DB_URL`, `CALENDAR_DB_REPLICA_URLS`), over HTTP. What a client
 * wrote is in its next read through either instance; kept answers never outlive a write; a
 * replica that stops costs no read; a promotion drill ends with writes working and nothing lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from './fixtures/postgres.js';
import { TOKENS, TOKENS_ENV, http, startExampleServer, type ExampleServer } from './fixtures/processes.js';
import { CAN_REPLICATE, addressSwitch, onDatabase, privateCluster, sharedCluster, type Cluster } from './fixtures/replication.js';
import { parsePosition } from '../../src/replication/position.js';

const POSITION = 'x-calendar-position';

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
  body: any;
}

/** A request with the given headers; the body parsed when it is JSON. */
async function call(method: string, url: string, { headers = {}, json, token }: { headers?: Record<string, string>; json?: unknown; token?: string } = {}): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (json !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers: h, body: json === undefined ? undefined : JSON.stringify(json), signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

/** A published event one year ahead, created through `base` by the administrator. */
async function createEvent(base: string, title: string): Promise<Answer> {
  return call('POST', `${base}/events`, { token: TOKENS.admin, json: { title, status: 'publish', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00' } });
}

const WINDOW = 'start_date=2027-01-01&end_date=2027-12-31&per_page=50';

/** Two example servers on a fresh database of `c`; the primary's address may be another (a switch). */
async function twoInstances(c: Cluster, label: string, primaryUrl = c.primaryUrl): Promise<{ scratch: ScratchDatabase; servers: [ExampleServer, ExampleServer]; replicas: string[]; database: string }> {
  const scratch = await createScratchDatabase(c.primaryUrl, label);
  const database = new URL(scratch.url).pathname.slice(1);
  const replicas = c.replicaUrls.map((u) => onDatabase(u, database));
  await c.reachable(replicas);
  const env = { CALENDAR_DB_REPLICA_URLS: replicas.join(',') };
  const primary = onDatabase(primaryUrl, database);
  const servers = await Promise.all([startExampleServer(primary, TOKENS_ENV, env), startExampleServer(primary, TOKENS_ENV, env)]);
  return { scratch, servers: servers as [ExampleServer, ExampleServer], replicas, database };
}

describe.skipIf(!CAN_REPLICATE)('read replicas: two instances of the example server, a primary and two replicas', () => {
  let c: Cluster;
  let scratch: ScratchDatabase;
  let a: ExampleServer;
  let b: ExampleServer;
  let replicas: string[];

  beforeAll(async () => {
    c = await sharedCluster();
    ({ scratch, servers: [a, b], replicas } = await twoInstances(c, 'replicas'));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop()));
    await scratch?.drop();
    await c?.close();
  });

  it('answers every read with what its client wrote, through either instance, with replay paused on one replica and 200 ms behind on the other', { timeout: 120_000 }, async () => {
    await c.sql(c.replicaUrls[1], "alter system set recovery_min_apply_delay = '200ms'");
    await c.sql(c.replicaUrls[1], 'select pg_reload_conf()');
    await c.sql(c.replicaUrls[0], 'select pg_wal_replay_pause()');
    try {
      // The delay applies to what is written from now on: one write shows that it does.
      await new Promise((r) => setTimeout(r, 100));
      let staleWithoutPosition = 0;
      for (let i = 0; i < 10; i++) {
        const [writer, reader] = i % 2 ? [b, a] : [a, b];
        const created = await createEvent(writer.base, `Written ${i}`);
        expect(created.status).toBe(201);
        const position = created.headers.get(POSITION);
        expect(parsePosition(position)).toBeTypeOf('bigint');
        // The other instance, given the position: the event, alone and in the list.
        const one = await call('GET', `${reader.base}/events/${created.body.id}`, { headers: { [POSITION]: position! } });
        expect(one.status, JSON.stringify(one.body)).toBe(200);
        expect(one.body.title).toBe(`Written ${i}`);
        const list = await call('GET', `${reader.base}/events?${WINDOW}`, { headers: { [POSITION]: position! } });
        expect(list.body.events.map((e: { id: number }) => e.id)).toContain(created.body.id);
        // The instance that wrote, without it: it remembers its own writes.
        const own = await call('GET', `${writer.base}/events/${created.body.id}`);
        expect(own.status).toBe(200);
        // The other instance without it is answered by a replica that is behind: the position is what it takes.
        const blind = await call('GET', `${reader.base}/events/${created.body.id}`);
        if (blind.status === 404) staleWithoutPosition++;
      }
      expect(staleWithoutPosition).toBeGreaterThan(0);
    } finally {
      await c.sql(c.replicaUrls[0], 'select pg_wal_replay_resume()');
      await c.sql(c.replicaUrls[1], 'alter system reset recovery_min_apply_delay');
      await c.sql(c.replicaUrls[1], 'select pg_reload_conf()');
    }
  });

  it('never serves a kept answer older than a write through the other instance, even when commits end out of order', { timeout: 60_000 }, async () => {
    const created = await createEvent(a.base, 'Before');
    const id = created.body.id as number;
    const read = (headers: Record<string, string> = {}) => call('GET', `${b.base}/events/${id}`, { headers });
    await read({ [POSITION]: created.headers.get(POSITION)! });
    await read();

    // Transactions A < B < C on the primary; C commits, then B (which renames the event) while A
    // still runs. A replica's snapshot shows the same `xmin:xmax:` before and after B's commit,
    // so a cache keyed by it would keep the old title; the replay position moves.
    const database = new URL(scratch.url).pathname.slice(1);
    const { Client } = (await import('pg')).default;
    const clients = await Promise.all([0, 1, 2].map(async () => {
      const client = new Client({ connectionString: onDatabase(c.primaryUrl, database) });
      await client.connect();
      return client;
    }));
    const [ta, tb, tc] = clients as [InstanceType<typeof Client>, InstanceType<typeof Client>, InstanceType<typeof Client>];
    try {
      await ta.query('create table if not exists held (x int)');
      for (const t of [ta, tb, tc]) {
        await t.query('begin');
        await t.query('select pg_current_xact_id()');
      }
      // A and C write (the replicas learn of their ids), C commits.
      await ta.query('insert into held values (1)');
      await tc.query('insert into held values (3)');
      await tc.query('commit');
      await new Promise((r) => setTimeout(r, 100));
      // Kept at the version after C, by each replica (reads take them in turn).
      for (let i = 0; i < 4; i++) expect((await read()).body.title).toBe('Before');
      const snapshots = () => Promise.all(replicas.map(async (url) => (await c.sql<{ s: string }>(url, 'select pg_current_snapshot()::text as s'))[0]!.s));
      const kept = await snapshots();
      await tb.query("update tec_posts set title = 'After' where id = $1", [id]);
      await tb.query('commit');
      const [{ l } = { l: '' }] = await c.sql<{ l: string }>(onDatabase(c.primaryUrl, database), 'select pg_current_wal_insert_lsn()::text as l');
      // Without a position: once the replicas have replayed B's commit, their answers show it.
      const written = parsePosition(l)!;
      let after: Answer[] = [];
      for (let i = 0; i < 200; i++) {
        after = [await read(), await read(), await read(), await read()];
        if (after.every((r) => parsePosition(r.headers.get(POSITION))! >= written)) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(after.map((r) => parsePosition(r.headers.get(POSITION))! >= written)).toEqual([true, true, true, true]);
      // The case this is about: the replicas' snapshots did not move.
      expect(await snapshots()).toEqual(kept);
      expect(after.map((r) => r.body.title)).toEqual(['After', 'After', 'After', 'After']);
    } finally {
      await ta.query('rollback').catch(() => undefined);
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  it('a replica stopped under traffic fails no read, and comes back', { timeout: 60_000 }, async () => {
    for (let i = 0; i < 3; i++) expect((await createEvent(a.base, `Traffic ${i}`)).status).toBe(201);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let stop = false;
    const reader = async (server: ExampleServer, fresh: boolean) => {
      while (!stop) {
        const r = await call('GET', `${server.base}/events?${WINDOW}`, { headers: fresh ? { 'cache-control': 'no-cache' } : {} }).catch((e: Error) => ({ status: 0, body: e.message, headers: new Headers() }));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status !== 200) failures.push(`${r.status} ${JSON.stringify(r.body)}`);
      }
    };
    const readers = [reader(a, true), reader(b, true), reader(a, false), reader(b, false)];
    await new Promise((r) => setTimeout(r, 500));
    await c.pgCtl('r2', 'stop', '-m', 'fast', '-w');
    await new Promise((r) => setTimeout(r, 1500));
    await c.pgCtl('r2', 'start', '-w');
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await Promise.all(readers);
    expect(failures).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(50);
    // Both instances are alive, and read from the replica that came back once it is no longer skipped.
    await c.reachable([replicas[1]!]);
    await new Promise((r) => setTimeout(r, 1100));
    for (let i = 0; i < 20; i++) for (const server of [a, b]) expect((await http('GET', `${server.base}/events?${WINDOW}`, { timeoutMs: 5000 })).status).toBe(200);
    const database = new URL(scratch.url).pathname.slice(1);
    const clients = await c.sql<{ n: string }>(replicas[1]!, 'select count(*) as n from pg_stat_activity where datname = $1 and backend_type = $2', [database, 'client backend']);
    // The test's own query is one of them.
    expect(Number(clients[0]?.n)).toBeGreaterThan(1);
  });
});

describe.skipIf(!CAN_REPLICATE)('read replicas: the primary stops and the operator promotes a replica', () => {
  let c: Cluster;
  let a: ExampleServer;
  let b: ExampleServer;
  let address: Awaited<ReturnType<typeof addressSwitch>>;

  beforeAll(async () => {
    c = await privateCluster();
    address = await addressSwitch(Number(new URL(c.primaryUrl).port));
    const switched = new URL(c.primaryUrl);
    switched.port = String(address.port);
    ({ servers: [a, b] } = await twoInstances(c, 'failover', switched.href));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop()));
    await address?.close();
    await c?.close();
  });

  it('answers writes and signed-in reads 503 while anonymous reads go on, then works again on the promoted replica with every acknowledged write', { timeout: 120_000 }, async () => {
    const acknowledged = new Set<number>();
    const writeStatuses = new Map<number, number>();
    const readFailures: string[] = [];
    let phase: 'before' | 'down' | 'after' = 'before';
    let stop = false;
    let n = 0;
    const writer = async (server: ExampleServer) => {
      while (!stop) {
        const r = await createEvent(server.base, `Drill ${n++}`).catch((e: Error) => ({ status: 0, body: e.message, headers: new Headers() }));
        writeStatuses.set(r.status, (writeStatuses.get(r.status) ?? 0) + 1);
        if (r.status === 201) acknowledged.add(r.body.id);
        else if (r.status !== 503 || r.body?.code !== 'rest_service_unavailable') readFailures.push(`write ${r.status} ${JSON.stringify(r.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const reader = async (server: ExampleServer) => {
      while (!stop) {
        const r = await call('GET', `${server.base}/events?${WINDOW}`).catch((e: Error) => ({ status: 0, body: e.message, headers: new Headers() }));
        if (r.status !== 200) readFailures.push(`anonymous read in phase ${phase}: ${r.status} ${JSON.stringify(r.body)}`);
      }
    };
    const loops = [writer(a), writer(b), reader(a), reader(b)];
    await new Promise((r) => setTimeout(r, 700));

    await c.pgCtl('primary', 'stop', '-m', 'fast', '-w');
    phase = 'down';
    await new Promise((r) => setTimeout(r, 500));
    const signedIn = await call('GET', `${a.base}/events?${WINDOW}`, { token: TOKENS.editor });
    expect(signedIn.status).toBe(503);
    expect(signedIn.body.code).toBe('rest_service_unavailable');
    const write = await createEvent(b.base, 'While down');
    expect(write.status).toBe(503);

    // The operator promotes r1 and moves the primary's address to it.
    await c.pgCtl('r1', 'promote', '-w');
    address.switchTo(Number(new URL(c.replicaUrls[0]).port));
    phase = 'after';
    const before = writeStatuses.get(201) ?? 0;
    for (let i = 0; i < 200 && (writeStatuses.get(201) ?? 0) < before + 10; i++) await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await Promise.all(loops);

    expect(readFailures).toEqual([]);
    expect(writeStatuses.get(201) ?? 0).toBeGreaterThanOrEqual(before + 10);
    expect(writeStatuses.get(503) ?? 0).toBeGreaterThan(0);
    // Every write answered 201 is there, read by an editor (on the new primary).
    const missing: number[] = [];
    for (const id of acknowledged) if ((await call('GET', `${b.base}/events/${id}`, { token: TOKENS.editor })).status !== 200) missing.push(id);
    expect(missing).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(10);
  });
});
