/**
 * Issue 11, a bounded soak: the example server (`npm start`) under 300 hostile search and image
 * requests. Thousands of search words once took its RSS from 146 MB to 1 GB in 30 requests (and
 * JSON bodies killed it), and concurrent side-loads of 10 MiB images added 270 MB. Now every
 * answer stays under 500 and the server's RSS within 100 MB of where it started.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type TestServer } from '../images/fixtures.js';
import { TOKENS, TOKENS_ENV, http, startExampleServer, type ExampleServer } from './fixtures/processes.js';

const REQUESTS = 300;
const CONCURRENCY = 40;
/**
 * Growth of RSS allowed under the hostile load: the failures it guards against grew it by 270 MB
 * to 1 GB. Node 24+ lets the heap grow further before collecting, so it gets more room. Measured
 * 2026-12-06 on an idle machine: +49–57 MB on Node 20, +149–160 on 24.21, +174–189 on 26.12 (the
 * same at the commit before, so the code did not grow it), and +209 on 26.12 under `.ci/run`'s
 * load, which the earlier 200 MB failed. A blow-up of the old kind (+270 on top of these) still
 * fails on every version.
 */
const HEADROOM_MB = Number(process.versions.node.split('.')[0]) >= 24 ? 260 : 100;

/** A valid PNG header followed by `size` bytes in all: a big image whose header says 1×1. */
function bigPng(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    return out; // image-size reads the header only; the CRC is not checked
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
  ]);
  return Buffer.concat([head, chunk('zTXt', Buffer.alloc(size - head.length - 24)), chunk('IEND', Buffer.alloc(0))]);
}

/** The resident memory of a process in MB; infinite once it is gone (killed for memory, say). */
function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Infinity;
  } catch {
    return Infinity;
  }
}

describe.skipIf(process.platform !== 'linux')('soak: hostile searches and image side-loads against the example server', () => {
  let dir: string;
  let images: TestServer;
  let server: ExampleServer;
  const image = bigPng(9 * 1024 * 1024 + 512 * 1024);
  const tooLarge = bigPng(12 * 1024 * 1024);

  beforeAll(async () => {
    images = await serve((req, res) => {
      const body = req.url?.startsWith('/huge') ? tooLarge : image;
      // Half of them lie about their size: the fetch must stop at the limit, not trust the header.
      const headers: Record<string, string> = { 'content-type': 'image/png' };
      if (!req.url?.includes('chunked')) headers['content-length'] = String(body.length);
      res.writeHead(200, headers);
      res.end(body);
    });
    dir = mkdtempSync(join(tmpdir(), 'calendar-soak-'));
    server = await startExampleServer(join(dir, 'calendar.sqlite'), TOKENS_ENV, { CALENDAR_IMAGE_HOSTS: `127.0.0.1:${images.port}` });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await images?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every answer under 500 and RSS within ${HEADROOM_MB} MB of its start over ${REQUESTS} requests`, { timeout: 300_000 }, async () => {
    const pid = server.child.pid!;
    const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    // Warm up every path once, so that the baseline includes what any server loads on first use.
    for (const path of ['/events', '/venues', '/organizers']) expect((await http('GET', `${server.base}${path}?search=ab`)).status).toBe(200);
    const warm = await http('POST', `${server.base}/events`, {
      token: TOKENS.admin,
      json: { title: 'Warm', start_date: `${soon} 10:00`, end_date: `${soon} 11:00`, image: images.url('/warm.png') },
    });
    expect(warm.status, warm.text).toBe(201);
    const start = rssMb(pid);
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);

    const statuses = new Map<number, number>();
    const requests: (() => Promise<number>)[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const path = ['/events', '/venues', '/organizers'][i % 3];
      if (i % 4 === 0) requests.push(async () => (await http('GET', `${server.base}${path}?search=${'ab+'.repeat(5000)}`)).status);
      else if (i % 4 === 1)
        requests.push(async () => (await http('POST', `${server.base}${path}?_method=GET`, { json: { search: 'ab '.repeat(33_000) } })).status);
      else {
        const url = images.url(`/${i % 8 === 2 ? 'huge' : 'img'}-${i}${i % 3 ? '' : '-chunked'}.png`);
        requests.push(
          async () =>
            (
              await http('POST', `${server.base}/events`, {
                token: TOKENS.admin,
                json: { title: `Image ${i}`, start_date: `${soon} 10:00`, end_date: `${soon} 11:00`, image: url },
                timeoutMs: 60_000,
              })
            ).status,
        );
      }
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const status = await requests[next++]!();
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));

    const summary = `statuses ${JSON.stringify(Object.fromEntries(statuses))}, RSS ${start.toFixed(0)} → peak ${peak.toFixed(0)} MB`;
    expect(
      [...statuses.keys()].every((s) => s < 500),
      summary,
    ).toBe(true);
    // Venue and organizer searches of thousands of words are refused (event ones are one phrase), good images stored, oversized ones refused.
    expect(statuses.get(400), summary).toBeGreaterThan(REQUESTS / 4);
    expect(statuses.get(201), summary).toBeGreaterThan(REQUESTS / 4);
    expect(peak - start, summary).toBeLessThan(HEADROOM_MB);
    // eslint-disable-next-line no-console -- the soak's measurements are its report
    console.log(`soak: ${summary}`);
  });
});
