/**
 * Read replicas (issue 20): two instances of the example server on a PostgreSQL primary with two
 * streaming replicas (`CALENDAR_DB_URL`, `CALENDAR_DB_REPLICA_URLS`), over HTTP. What a client
 * wrote is in its next read through either instance; kept answers never outlive a write; a
 * replica that stops costs no read; a promotion drill ends with writes working and nothing lost.
 * Then the example server on a primary and one replica (issue 28): before the replica has the
 * tables, with its replay paused, with it stopped, and with the primary stopped: never a 500.
 *
 * Every step waits for what it needs to see (a replica's replay position, its paused state, a
 * number of answers), never for a time: the tests hold on a loaded machine.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from './fixtures/postgres.js';
import { TOKENS, TOKENS_ENV, http, startExampleServer, type ExampleServer } from './fixtures/processes.js';
import { CAN_REPLICATE, addressSwitch, onDatabase, privateCluster, sharedCluster, waitUntil, type Cluster } from './fixtures/replication.js';
import { parsePosition } from '../../src/store/lsn.js';

const POSITION = 'x-calendar-position';

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
  body: any;
}

/** A request with the given headers; the body parsed when it is JSON. */
async function call(
  method: string,
  url: string,
  { headers = {}, json, token }: { headers?: Record<string, string>; json?: unknown; token?: string } = {},
): Promise<Answer> {
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
  return call('POST', `${base}/events`, {
    token: TOKENS.admin,
    json: { title, status: 'publish', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00' },
  });
}

const WINDOW = 'start_date=2027-01-01&end_date=2027-12-31&per_page=50';

/** What `servers` report through onError (the example's default: console.error) from now on. */
function errorLog(servers: ExampleServer[]): () => string[] {
  const from = servers.map((s) => s.output().length);
  return () =>
    servers.flatMap((s, i) =>
      s
        .output()
        .slice(from[i])
        .split('\n')
        .filter((line) => line.includes('[calendar] unexpected error')),
    );
}

/** A cluster of this file's own, to stop and promote (started on first use, removed after the file). */
let own: Promise<Cluster> | undefined;
const ownCluster = () => (own ??= privateCluster());
afterAll(async () => {
  await (await own?.catch(() => undefined))?.close();
});

/** Two example servers on a fresh database of `c`; the primary's address may be another (a switch). */
async function twoInstances(
  c: Cluster,
  label: string,
  primaryUrl = c.primaryUrl,
): Promise<{ scratch: ScratchDatabase; servers: [ExampleServer, ExampleServer]; replicas: string[]; database: string }> {
  const scratch = await createScratchDatabase(c.primaryUrl, label);
  const database = new URL(scratch.url).pathname.slice(1);
  const replicas = c.replicaUrls.map((u) => onDatabase(u, database));
  await c.reachable(replicas);
  const env = { CALENDAR_DB_REPLICA_URLS: replicas.join(',') };
  const primary = onDatabase(primaryUrl, database);
  const servers = await Promise.all([startExampleServer(primary, TOKENS_ENV, env), startExampleServer(primary, TOKENS_ENV, env)]);
  return { scratch, servers: servers, replicas, database };
}

describe.skipIf(!CAN_REPLICATE)('read replicas: two instances of the example server, a primary and two replicas', () => {
  let c: Cluster;
  let scratch: ScratchDatabase;
  let a: ExampleServer;
  let b: ExampleServer;
  let replicas: string[];

  beforeAll(async () => {
    c = await sharedCluster();
    // A run that was killed may have left replay paused or held.
    for (const url of c.replicaUrls) await c.resumeReplay(url);
    await c.delayReplay(c.replicaUrls[1], undefined);
    ({
      scratch,
      servers: [a, b],
      replicas,
    } = await twoInstances(c, 'replicas'));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop()));
    await scratch?.drop();
    await c?.close();
  });

  it(
    'answers every read with what its client wrote, through either instance, with replay paused on one replica and held on the other',
    { timeout: 120_000 },
    async () => {
      const reported = errorLog([a, b]);
      // An instance's replica reads start where the primary was at its first read: both read once,
      // and the replicas replay that far before they stop.
      for (const server of [a, b]) expect((await call('GET', `${server.base}/events`)).status).toBe(200);
      await c.replayed(c.replicaUrls);
      await c.pauseReplay(c.replicaUrls[0]);
      try {
        // r2 holds every commit from now on (for longer than the test lasts).
        await c.delayReplay(c.replicaUrls[1], '10min');
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
          // The other instance without it, before it wrote or was told of anything past the
          // replicas: answered by a replica that is behind (the position is what it takes).
          if (i === 0) {
            const blind = await call('GET', `${reader.base}/events/${created.body.id}`);
            expect(blind.status).toBe(404);
            expect(parsePosition(blind.headers.get(POSITION))! < parsePosition(position)!).toBe(true);
          }
        }
      } finally {
        await c.resumeReplay(c.replicaUrls[0]);
        await c.delayReplay(c.replicaUrls[1], undefined);
      }
      expect(reported()).toEqual([]);
    },
  );

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
    const clients = await Promise.all(
      [0, 1, 2].map(async () => {
        const client = new Client({ connectionString: onDatabase(c.primaryUrl, database) });
        await client.connect();
        return client;
      }),
    );
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
      await c.replayed(c.replicaUrls);
      // Kept at the version after C, by each replica (reads take them in turn).
      for (let i = 0; i < 4; i++) expect((await read()).body.title).toBe('Before');
      const snapshots = () => Promise.all(replicas.map(async (url) => (await c.sql<{ s: string }>(url, 'select pg_current_snapshot()::text as s'))[0]!.s));
      const kept = await snapshots();
      await tb.query("update tec_posts set title = 'After' where id = $1", [id]);
      await tb.query('commit');
      // Without a position: once the replicas have replayed B's commit, their answers show it.
      const written = await c.position();
      await c.replayed(c.replicaUrls, written);
      // Four answers in a row from the replicas (one of them may still be catching up with the
      // position the other answered at, and send a read to the primary meanwhile).
      let after: Answer[] = [];
      await waitUntil('four reads in a row are answered by the replicas', async () => {
        after = [await read(), await read(), await read(), await read()];
        return after.every((r) => parsePosition(r.headers.get(POSITION))! >= written);
      });
      // The case this is about: the replicas' snapshots did not move.
      expect(await snapshots()).toEqual(kept);
      expect(after.map((r) => r.body.title)).toEqual(['After', 'After', 'After', 'After']);
    } finally {
      await ta.query('rollback').catch(() => undefined);
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  it('a replica stopped under traffic fails no read, and comes back', { timeout: 120_000 }, async () => {
    const reported = errorLog([a, b]);
    for (let i = 0; i < 3; i++) expect((await createEvent(a.base, `Traffic ${i}`)).status).toBe(201);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let answered = 0;
    let stop = false;
    const reader = async (server: ExampleServer, fresh: boolean) => {
      while (!stop) {
        const r = await call('GET', `${server.base}/events?${WINDOW}`, { headers: fresh ? { 'cache-control': 'no-cache' } : {} }).catch((e: Error) => ({
          status: 0,
          body: e.message,
          headers: new Headers(),
        }));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status !== 200) failures.push(`${r.status} ${JSON.stringify(r.body)}`);
        answered++;
      }
    };
    /** Waits until the readers have had `n` more answers. */
    const answers = async (n: number) => {
      const from = answered;
      await waitUntil(`${n} more reads are answered`, () => answered >= from + n);
    };
    const readers = [reader(a, true), reader(b, true), reader(a, false), reader(b, false)];
    try {
      await answers(20);
      await c.pgCtl('r2', 'stop', '-m', 'fast', '-w');
      await answers(50);
      await c.pgCtl('r2', 'start', '-w');
      await c.reachable([replicas[1]!]);
      await c.replayed([c.replicaUrls[1]]);
      await answers(50);
    } finally {
      stop = true;
      await Promise.all(readers);
    }
    expect(failures).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(100);
    // Both instances are alive, and read from the replica that came back once it is no longer
    // skipped: their pools hold connections to it again (the test's own query is one more).
    const database = new URL(scratch.url).pathname.slice(1);
    await waitUntil('both instances read from r2 again', async () => {
      for (const server of [a, b]) expect((await http('GET', `${server.base}/events?${WINDOW}`, { timeoutMs: 5000 })).status).toBe(200);
      const clients = await c.sql<{ n: string }>(replicas[1]!, 'select count(*) as n from pg_stat_activity where datname = $1 and backend_type = $2', [
        database,
        'client backend',
      ]);
      return Number(clients[0]?.n) > 1;
    });
    expect(reported()).toEqual([]);
  });
});

describe.skipIf(!CAN_REPLICATE)('read replicas: the example server on a primary and one replica, the replica behind, stopped, and the primary stopped', () => {
  let c: Cluster;
  let scratch: ScratchDatabase;
  let a: ExampleServer;
  let b: ExampleServer;
  /** r1 on the scratch database (the servers' replica), and on `calendar_test` (its state). */
  let replica: string;
  let r1: string;
  const stopped = new Set<'primary' | 'r1'>();
  const stopServer = async (server: 'primary' | 'r1') => {
    stopped.add(server);
    await c.pgCtl(server, 'stop', '-m', 'fast', '-w');
  };
  const startServer = async (server: 'primary' | 'r1') => {
    await c.pgCtl(server, 'start', '-w');
    stopped.delete(server);
  };

  beforeAll(async () => {
    c = await ownCluster();
    r1 = c.replicaUrls[0];
    scratch = await createScratchDatabase(c.primaryUrl, 'onereplica');
    replica = onDatabase(r1, new URL(scratch.url).pathname.slice(1));
    await c.reachable([replica]);
    // The servers create the tables as they start (`calendar.migrate()`), while the replica stands before them.
    await c.pauseReplay(r1);
    const servers = await Promise.all([0, 1].map(() => startExampleServer(scratch.url, TOKENS_ENV, { CALENDAR_DB_REPLICA_URLS: replica })));
    [a, b] = servers as [ExampleServer, ExampleServer];
  }, 120_000);
  afterEach(async () => {
    // What a failed test left stopped or paused (the next describe promotes r1).
    for (const server of stopped) await startServer(server).catch(() => undefined);
    await c.resumeReplay(r1).catch(() => undefined);
  });
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop()));
    await scratch?.drop();
  });

  it('answers reads from the primary, never 500, until the replica has the tables; then from the replica', { timeout: 120_000 }, async () => {
    const reported = errorLog([a, b]);
    const reads = await Promise.all([a, b, a, b, a, b].map((s) => call('GET', `${s.base}/events?${WINDOW}`)));
    expect(
      reads.map((r) => r.status),
      JSON.stringify(reads.map((r) => r.body)),
    ).toEqual([200, 200, 200, 200, 200, 200]);
    for (const r of reads) expect(r.headers.get(POSITION)).toBeNull();
    await c.resumeReplay(r1);
    await c.replayed([r1]);
    for (const server of [a, b]) {
      const r = await call('GET', `${server.base}/events?${WINDOW}`);
      expect(r.status).toBe(200);
      expect(parsePosition(r.headers.get(POSITION))).toBeTypeOf('bigint');
    }
    expect(reported()).toEqual([]);
  });

  it('shows a client what it wrote while replay is paused, through either instance', { timeout: 120_000 }, async () => {
    const reported = errorLog([a, b]);
    await c.replayed([r1]);
    await c.pauseReplay(r1);
    let last: string | null = null;
    for (let i = 0; i < 4; i++) {
      const [writer, reader] = i % 2 ? [b, a] : [a, b];
      const created = await createEvent(writer.base, `Paused ${i}`);
      expect(created.status).toBe(201);
      last = created.headers.get(POSITION);
      expect(parsePosition(last)).toBeTypeOf('bigint');
      // With its position, through the other instance: the primary answers (no position header).
      const told = await call('GET', `${reader.base}/events/${created.body.id}`, { headers: { [POSITION]: last! } });
      expect(told.status, JSON.stringify(told.body)).toBe(200);
      expect(told.body.title).toBe(`Paused ${i}`);
      expect(told.headers.get(POSITION)).toBeNull();
      const list = await call('GET', `${reader.base}/events?${WINDOW}`, { headers: { [POSITION]: last! } });
      expect(list.body.events.map((e: { id: number }) => e.id)).toContain(created.body.id);
      // The writer remembers it; a signed-in reader reads the primary.
      expect((await call('GET', `${writer.base}/events/${created.body.id}`)).status).toBe(200);
      expect((await call('GET', `${reader.base}/events/${created.body.id}`, { token: TOKENS.editor })).status).toBe(200);
      // The other instance, not told and before it wrote: the replica, which has not replayed it.
      if (i === 0) {
        const blind = await call('GET', `${reader.base}/events/${created.body.id}`);
        expect(blind.status, JSON.stringify(blind.body)).toBe(404);
        expect(parsePosition(blind.headers.get(POSITION))! < parsePosition(last)!).toBe(true);
      }
    }
    await c.resumeReplay(r1);
    await c.replayed([r1], parsePosition(last));
    // Replayed: the replica answers with the writes.
    for (const server of [a, b]) {
      const r = await call('GET', `${server.base}/events?${WINDOW}`);
      expect(parsePosition(r.headers.get(POSITION))! >= parsePosition(last)!).toBe(true);
      expect(r.body.events.map((e: { title: string }) => e.title)).toContain('Paused 3');
    }
    expect(reported()).toEqual([]);
  });

  it('answers reads from the primary while the replica is stopped, and from the replica once it is back', { timeout: 120_000 }, async () => {
    const reported = errorLog([a, b]);
    await stopServer('r1');
    const created = await createEvent(a.base, 'Replica down');
    expect(created.status).toBe(201);
    const position = created.headers.get(POSITION)!;
    for (const server of [a, b, a, b]) {
      const r = await call('GET', `${server.base}/events?${WINDOW}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.headers.get(POSITION)).toBeNull();
      const told = await call('GET', `${server.base}/events/${created.body.id}`, { headers: { [POSITION]: position } });
      expect(told.status, JSON.stringify(told.body)).toBe(200);
      expect((await call('GET', `${server.base}/events?${WINDOW}`, { token: TOKENS.editor })).status).toBe(200);
    }
    await startServer('r1');
    await c.reachable([replica]);
    await c.replayed([r1], parsePosition(position));
    // Asked again once its skip is over: then a replica's answer, with the write.
    let back: Answer | undefined;
    await waitUntil('the replica answers again', async () => {
      back = await call('GET', `${b.base}/events?${WINDOW}`, { headers: { [POSITION]: position } });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      return back.headers.get(POSITION) !== null;
    });
    expect(back!.body.events.map((e: { title: string }) => e.title)).toContain('Replica down');
    expect(reported()).toEqual([]);
  });

  it(
    'answers logged-out reads from the replica while the primary is stopped (what a client wrote, or 503), writes 503, and writes again once it is back',
    { timeout: 120_000 },
    async () => {
      const reported = errorLog([a, b]);
      const kept = await createEvent(a.base, 'Before the primary stops');
      expect(kept.status).toBe(201);
      await c.replayed([r1], parsePosition(kept.headers.get(POSITION)));
      // A write the replica has received but not replayed when the primary stops.
      await c.pauseReplay(r1);
      const unreplayed = await createEvent(a.base, 'Not replayed');
      expect(unreplayed.status).toBe(201);
      const waiting = unreplayed.headers.get(POSITION)!;
      await stopServer('primary');

      for (const server of [a, b, a, b]) {
        const r = await call('GET', `${server.base}/events?${WINDOW}`, { headers: { [POSITION]: kept.headers.get(POSITION)! } });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.headers.get(POSITION)).not.toBeNull();
        expect(r.body.events.map((e: { title: string }) => e.title)).toContain('Before the primary stops');
        // What the client wrote last is on no node that answers: 503, not an answer without it.
        const told = await call('GET', `${server.base}/events/${unreplayed.body.id}`, { headers: { [POSITION]: waiting } });
        expect(told.status, JSON.stringify(told.body)).toBe(503);
        expect(told.body.code).toBe('rest_service_unavailable');
        // Writes and signed-in reads wait for the primary.
        const write = await createEvent(server.base, 'While the primary is down');
        expect(write.status, JSON.stringify(write.body)).toBe(503);
        expect(write.body.code).toBe('rest_service_unavailable');
        const signedIn = await call('GET', `${server.base}/events?${WINDOW}`, { token: TOKENS.editor });
        expect(signedIn.status).toBe(503);
        expect(signedIn.body.code).toBe('rest_service_unavailable');
      }
      // Replayed on the replica: the client's read answers, the primary still away.
      await c.resumeReplay(r1);
      await c.replayed([r1], parsePosition(waiting));
      for (const server of [a, b]) {
        const told = await call('GET', `${server.base}/events/${unreplayed.body.id}`, { headers: { [POSITION]: waiting } });
        expect(told.status, JSON.stringify(told.body)).toBe(200);
        expect(told.body.title).toBe('Not replayed');
      }

      await startServer('primary');
      for (const server of [a, b]) {
        let write: Answer | undefined;
        await waitUntil('writes are taken again', async () => {
          write = await createEvent(server.base, 'After the primary is back');
          if (write.status !== 503) expect(write.status, JSON.stringify(write.body)).toBe(201);
          return write.status === 201;
        });
      }
      expect(reported()).toEqual([]);
    },
  );
});

describe.skipIf(!CAN_REPLICATE)('read replicas: the primary stops and the operator promotes a replica', () => {
  let c: Cluster;
  let a: ExampleServer;
  let b: ExampleServer;
  let address: Awaited<ReturnType<typeof addressSwitch>>;

  beforeAll(async () => {
    // The last user of this file's own cluster: it promotes r1.
    c = await ownCluster();
    address = await addressSwitch(Number(new URL(c.primaryUrl).port));
    const switched = new URL(c.primaryUrl);
    switched.port = String(address.port);
    ({
      servers: [a, b],
    } = await twoInstances(c, 'failover', switched.href));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop()));
    await address?.close();
  });

  it(
    'answers writes and signed-in reads 503 while anonymous reads go on, then works again on the promoted replica with every acknowledged write',
    { timeout: 120_000 },
    async () => {
      const reported = errorLog([a, b]);
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
          // Pacing (a 503 comes back at once), not a wait for anything.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      const reads = { before: 0, down: 0, after: 0 };
      const reader = async (server: ExampleServer) => {
        while (!stop) {
          const r = await call('GET', `${server.base}/events?${WINDOW}`).catch((e: Error) => ({ status: 0, body: e.message, headers: new Headers() }));
          if (r.status !== 200) readFailures.push(`anonymous read in phase ${phase}: ${r.status} ${JSON.stringify(r.body)}`);
          reads[phase]++;
        }
      };
      const loops = [writer(a), writer(b), reader(a), reader(b)];
      await waitUntil('writes and reads flow', () => acknowledged.size >= 10 && reads.before >= 20);

      await c.pgCtl('primary', 'stop', '-m', 'fast', '-w');
      phase = 'down';
      await waitUntil('reads and refused writes go on with the primary down', () => reads.down >= 20 && (writeStatuses.get(503) ?? 0) > 0);
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
      try {
        await waitUntil('ten writes succeed on the promoted replica', () => (writeStatuses.get(201) ?? 0) >= before + 10);
      } finally {
        stop = true;
        await Promise.all(loops);
      }

      expect(readFailures).toEqual([]);
      expect(writeStatuses.get(201) ?? 0).toBeGreaterThanOrEqual(before + 10);
      expect(writeStatuses.get(503) ?? 0).toBeGreaterThan(0);
      // Every write answered 201 is there, read by an editor (on the new primary).
      const missing: number[] = [];
      for (const id of acknowledged) if ((await call('GET', `${b.base}/events/${id}`, { token: TOKENS.editor })).status !== 200) missing.push(id);
      expect(missing).toEqual([]);
      expect(acknowledged.size).toBeGreaterThan(10);
      expect(reported()).toEqual([]);
    },
  );
});
