import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchImage, ImageFetchError, type FetchImageOptions } from '../../src/images/fetch-image.js';
import { codeOf, gif, jpeg, png, serve, type TestServer } from './fixtures.js';

// Every server here listens on 127.0.0.1; no test sends a packet anywhere else. Refusals
// of other addresses must happen before a socket connects, which the Socket spy asserts.

/** Allows the loopback test server, on its port only. */
const local = (s: TestServer): FetchImageOptions => ({ allowHosts: [`127.0.0.1:${s.port}`] });
const servers: TestServer[] = [];

async function server(...args: Parameters<typeof serve>): Promise<TestServer> {
  const s = await serve(...args);
  servers.push(s);
  return s;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function sendImage(body: Buffer, type = 'image/png') {
  return (_req: unknown, res: ServerResponse): void => {
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length });
    res.end(body);
  };
}

describe('fetchImage: images', () => {
  it('fetches a PNG and reports type, size and final URL', async () => {
    const bytes = png(3, 2);
    const s = await server(sendImage(bytes));
    const out = await fetchImage(s.url('/pics/red.png?v=1'), local(s));
    expect(out).toEqual({
      url: s.url('/pics/red.png?v=1'),
      mimeType: 'image/png',
      width: 3,
      height: 2,
      filesize: bytes.length,
      extension: 'png',
    });
  });

  it('fetches a GIF', async () => {
    const bytes = gif(5, 4);
    const s = await server(sendImage(bytes, 'image/gif'));
    expect(await fetchImage(s.url('/a.gif'), local(s))).toMatchObject({
      mimeType: 'image/gif',
      extension: 'gif',
      width: 5,
      height: 4,
      filesize: bytes.length,
    });
  });

  it('fetches a JPEG, streamed without Content-Length', async () => {
    const bytes = jpeg(7, 3);
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      res.write(bytes.subarray(0, 10));
      setTimeout(() => res.end(bytes.subarray(10)), 20);
    });
    expect(await fetchImage(s.url('/a.jpg'), local(s))).toMatchObject({
      mimeType: 'image/jpeg',
      extension: 'jpg',
      width: 7,
      height: 3,
      filesize: bytes.length,
    });
  });

  it('takes the type from the bytes when the header names another image type', async () => {
    const s = await server(sendImage(png(3, 2), 'IMAGE/JPEG; charset=binary'));
    expect(await fetchImage(s.url(), local(s))).toMatchObject({ mimeType: 'image/png', extension: 'png' });
  });

  it('sends a plain GET with a User-Agent and nothing secret', async () => {
    const s = await server(sendImage(png(1, 1)));
    await fetchImage(s.url(), local(s));
    const headers = s.lastHeaders();
    expect(headers?.['user-agent']).toMatch(/image fetcher/);
    expect(headers?.cookie).toBeUndefined();
    expect(headers?.authorization).toBeUndefined();
    expect(headers?.['accept-encoding']).toBe('identity');
  });

  it('matches allowHosts case-insensitively and resolves allowed names through the guarded lookup', async () => {
    const s = await server(sendImage(png(3, 2)));
    const out = await fetchImage(`http://LOCALHOST:${s.port}/x.png`, { allowHosts: [`LocalHost:${s.port}`] });
    expect(out).toMatchObject({ url: `http://localhost:${s.port}/x.png`, width: 3, height: 2 });
  });
});

describe('fetchImage: content checks', () => {
  it('refuses HTML labelled image/png', async () => {
    const s = await server(sendImage(Buffer.from('<html><body>not an image</body></html>'), 'image/png'));
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-an-image');
  });

  it('refuses a real image served as text/plain', async () => {
    const s = await server(sendImage(png(3, 2), 'text/plain'));
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-an-image');
  });

  it('refuses a real image served without Content-Type', async () => {
    const bytes = png(3, 2);
    const s = await server((_req, res) => {
      res.removeHeader('Content-Type');
      res.end(bytes);
    });
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-an-image');
  });

  it('refuses SVG even when labelled as an image', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="3" height="2"/>');
    const s = await server(sendImage(svg, 'image/svg+xml'));
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-an-image');
  });

  it('refuses an empty body', async () => {
    const s = await server(sendImage(Buffer.alloc(0)));
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-an-image');
  });

  it.each([404, 500, 204, 206])('refuses HTTP %i', async (status) => {
    const s = await server((_req, res) => {
      res.writeHead(status, { 'Content-Type': 'image/png' });
      res.end(status === 204 ? undefined : png(1, 1));
    });
    const err = await fetchImage(s.url(), local(s)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageFetchError);
    expect(err).toMatchObject({ code: 'http-status', status });
  });

  it('reports a body cut short as a network error', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 1000 });
      res.write(png(3, 2));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('network');
  });
});

describe('fetchImage: limits', () => {
  it('refuses a declared Content-Length above the limit without reading the body', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 5000 });
      res.write(Buffer.alloc(100)); // then stall: only the header may decide
    });
    const started = Date.now();
    expect(await codeOf(fetchImage(s.url(), { ...local(s), maxBytes: 1000, timeoutMs: 5000 }))).toBe('too-large');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('aborts a body without Content-Length as soon as it passes the limit', async () => {
    let written = 0;
    let closed = false;
    const s = await server((req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(png(1, 1));
      const pump = setInterval(() => {
        res.write(Buffer.alloc(256));
        written += 256;
      }, 5);
      req.socket.on('close', () => {
        closed = true;
        clearInterval(pump);
      });
    });
    expect(await codeOf(fetchImage(s.url(), { ...local(s), maxBytes: 1000, timeoutMs: 5000 }))).toBe('too-large');
    await vi.waitFor(() => expect(closed).toBe(true));
    expect(written).toBeLessThan(10_000);
  });

  it('accepts a body exactly at the limit', async () => {
    const bytes = png(3, 2);
    const s = await server(sendImage(bytes));
    expect(await fetchImage(s.url(), { ...local(s), maxBytes: bytes.length })).toMatchObject({ filesize: bytes.length });
    expect(await codeOf(fetchImage(s.url(), { ...local(s), maxBytes: bytes.length - 1 }))).toBe('too-large');
  });

  it('times out on a server that never answers', async () => {
    const s = await server(() => {
      /* stall */
    });
    const started = Date.now();
    expect(await codeOf(fetchImage(s.url(), { ...local(s), timeoutMs: 300 }))).toBe('timeout');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2000);
  });

  it('times out on a body that trickles in too slowly', async () => {
    const bytes = png(3, 2);
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': bytes.length });
      res.write(bytes.subarray(0, 20)); // headers arrive quickly, the rest never
    });
    const started = Date.now();
    expect(await codeOf(fetchImage(s.url(), { ...local(s), timeoutMs: 300 }))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('counts the time limit across redirects, not per hop', async () => {
    const s = await server((req, res) => {
      const n = Number(req.url?.slice(1) ?? 0);
      setTimeout(() => {
        res.writeHead(302, { Location: `/${n + 1}` });
        res.end();
      }, 120);
    });
    expect(await codeOf(fetchImage(s.url('/0'), { ...local(s), timeoutMs: 300, maxRedirects: 10 }))).toBe('timeout');
    expect(s.hits.length).toBeLessThanOrEqual(3);
  });
});

describe('fetchImage: redirects', () => {
  it('follows relative and absolute Locations and reports the final URL', async () => {
    const s = await server((req, res) => {
      if (req.url === '/start') res.writeHead(302, { Location: 'next?x=1' }).end();
      else if (req.url === '/next?x=1') res.writeHead(301, { Location: '/img/final.png' }).end();
      else if (req.url === '/img/final.png') res.writeHead(307, { Location: s.url('/img/real.png') }).end();
      else sendImage(png(3, 2))(req, res);
    });
    const out = await fetchImage(s.url('/start'), local(s));
    expect(out.url).toBe(s.url('/img/real.png'));
    expect(out).toMatchObject({ width: 3, height: 2 });
    expect(s.hits).toEqual(['/start', '/next?x=1', '/img/final.png', '/img/real.png']);
  });

  it('stops after maxRedirects', async () => {
    const s = await server((req, res) => {
      const n = Number(req.url?.slice(1));
      if (n < 4) res.writeHead(302, { Location: `/${n + 1}` }).end();
      else sendImage(png(1, 1))(req, res);
    });
    expect(await codeOf(fetchImage(s.url('/0'), local(s)))).toBe('too-many-redirects'); // default 3
    expect(await fetchImage(s.url('/1'), local(s))).toMatchObject({ url: s.url('/4') }); // exactly 3
    expect(await codeOf(fetchImage(s.url('/3'), { ...local(s), maxRedirects: 0 }))).toBe('too-many-redirects');
  });

  it('stops a redirect loop', async () => {
    const s = await server((_req, res) => res.writeHead(302, { Location: '/' }).end());
    expect(await codeOf(fetchImage(s.url('/'), local(s)))).toBe('too-many-redirects');
    expect(s.hits).toHaveLength(4);
  });

  it('refuses a redirect without Location', async () => {
    const s = await server((_req, res) => res.writeHead(302).end());
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('http-status');
  });

  it('re-checks every hop: an allowed host may not redirect to a disallowed one', async () => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const s = await server((_req, res) => res.writeHead(302, { Location: `http://127.0.0.2:${s.port}/x.png` }).end());
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-allowed');
    expect(connect).toHaveBeenCalledTimes(1); // only the first, allowed hop connected
  });

  it.each([
    ['a loopback name', (port: number) => `http://localhost:${port}/x.png`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/x.png`],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://10.0.0.1/x.png'],
    // 2130706434 is 127.0.0.2; the allow-list entry 127.0.0.1 must not cover it.
    ['a decimal loopback', (port: number) => `http://2130706434:${port}/x.png`],
    ['a hex loopback', (port: number) => `http://0x7f.0.0.2:${port}/x.png`],
  ])('refuses a redirect to %s', async (_name, target) => {
    const s = await server((_req, res) => res.writeHead(302, { Location: target(s.port) }).end());
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-allowed');
    expect(s.hits).toHaveLength(1);
  });

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/x.png', 'javascript:alert(1)', 'http://user:pw@127.0.0.1/'])('refuses a redirect to %s', async (target) => {
    const s = await server((_req, res) => res.writeHead(302, { Location: target }).end());
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('bad-url');
  });
});

/** Whether this machine can listen on ::1 (some containers have no IPv6 loopback). */
const IPV6 = await serve(() => undefined, '::1').then(
  (s) => s.close().then(() => true),
  () => false,
);

describe('fetchImage: allowed hosts and ports', () => {
  it('does not let a bare entry reach a port other than 80 and 443, before connecting', async () => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const s = await server(sendImage(png(3, 2)));
    expect(await codeOf(fetchImage(s.url(), { allowHosts: ['127.0.0.1'] }))).toBe('not-allowed');
    expect(connect).not.toHaveBeenCalled();
    expect(s.hits).toEqual([]);
  });

  it('reaches hosts nobody listed on the web ports 80, 443 and 8080 only, as WordPress, before connecting', async () => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    for (const url of ['http://93.184.215.14:22/x.png', 'https://93.184.215.14:25/x.png', 'http://images.example.com:6379/x.png']) {
      expect(await codeOf(fetchImage(url)), url).toBe('not-allowed');
    }
    expect(connect).not.toHaveBeenCalled();
    // And no allowed host may send a fetch there either.
    const s = await server((_req, res) => res.writeHead(302, { Location: 'http://93.184.215.14:22/x.png' }).end());
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-allowed');
  });

  it('does not let an entry for one port reach another port of the same host', async () => {
    const s = await server(sendImage(png(3, 2)));
    const other = await server(sendImage(png(3, 2)));
    expect(await codeOf(fetchImage(s.url(), { allowHosts: [`127.0.0.1:${other.port}`] }))).toBe('not-allowed');
    expect(s.hits).toEqual([]);
  });

  it('applies the port to allowed names too: the lookup guard stays on for another port', async () => {
    const s = await server(sendImage(png(3, 2)));
    expect(await codeOf(fetchImage(`http://localhost:${s.port}/x.png`, { allowHosts: ['localhost'] }))).toBe('not-allowed');
    expect(await codeOf(fetchImage(`http://localhost:${s.port}/x.png`, { allowHosts: [`localhost:${s.port + 1}`] }))).toBe('not-allowed');
    expect(s.hits).toEqual([]);
    expect(await fetchImage(`http://localhost:${s.port}/x.png`, { allowHosts: [`LOCALHOST:${s.port}`] })).toMatchObject({ width: 3 });
  });

  it('re-checks the port of every hop: an allowed host:port may not redirect to another port', async () => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const target = await server(sendImage(png(3, 2)));
    const s = await server((_req, res) => res.writeHead(302, { Location: target.url('/x.png') }).end());
    expect(await codeOf(fetchImage(s.url(), local(s)))).toBe('not-allowed');
    expect(connect).toHaveBeenCalledTimes(1);
    expect(target.hits).toEqual([]);
    // Listed as well, the second port is followed.
    const both = { allowHosts: [`127.0.0.1:${s.port}`, `127.0.0.1:${target.port}`] };
    expect(await fetchImage(s.url(), both)).toMatchObject({ url: target.url('/x.png'), width: 3 });
  });

  it.skipIf(!IPV6)('allows an IPv6 loopback server by [::1]:port only', async () => {
    const s = await server(sendImage(png(3, 2)), '::1');
    expect(await codeOf(fetchImage(s.url('/x.png'), { allowHosts: ['[::1]', '::1'] }))).toBe('not-allowed');
    expect(s.hits).toEqual([]);
    expect(await fetchImage(s.url('/x.png'), { allowHosts: [`[0:0:0:0:0:0:0:1]:${s.port}`] })).toMatchObject({ url: s.url('/x.png'), width: 3 });
  });
});

describe('fetchImage: address policy', () => {
  it('refuses the loopback server when it is not allow-listed, before connecting', async () => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const s = await server(sendImage(png(3, 2)));
    expect(await codeOf(fetchImage(s.url()))).toBe('not-allowed');
    expect(await codeOf(fetchImage(s.url(), { allowHosts: ['images.internal', '127.0.0.2', `127.0.0.2:${s.port}`] }))).toBe('not-allowed');
    expect(connect).not.toHaveBeenCalled();
    expect(s.hits).toEqual([]);
  });

  it('refuses a loopback host name at lookup time, before a request is sent', async () => {
    const s = await server(sendImage(png(3, 2)));
    expect(await codeOf(fetchImage(`http://localhost:${s.port}/`))).toBe('not-allowed');
    expect(s.hits).toEqual([]);
  });

  it.each([
    'http://[::1]/',
    'http://[::1]:8080/x.png',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[ff02::1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://127.0.0.1/',
    'http://127.1/',
    'http://127.0.0.2/',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://0x7F.0.0.1/',
    'https://10.0.0.1/x.png',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://192.0.2.1/',
    'http://3232235777/', // 192.168.1.1
    'http://2852039166/', // 169.254.169.254
  ])('refuses %s without connecting', async (url) => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    expect(await codeOf(fetchImage(url))).toBe('not-allowed');
    expect(connect).not.toHaveBeenCalled();
  });

  it.each([
    'ftp://127.0.0.1/x.png',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
    'gopher://127.0.0.1:6379/_INFO',
    'ws://127.0.0.1/',
    '',
    'not a url',
    '/relative/x.png',
    '//127.0.0.1/x.png',
    'http://',
    'http://exa mple.com/',
    'http://[::1/',
    'http://127.0.0.1:99999/',
    'http://127.0.0.1:0/',
    'http://user:secret@127.0.0.1/x.png',
    'http://127.0.0.1@127.0.0.1/x.png',
  ])('refuses %j as a bad URL, even for allow-listed hosts', async (url) => {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    expect(await codeOf(fetchImage(url, { allowHosts: ['127.0.0.1', '127.0.0.1:6379', '127.0.0.1:99999'] }))).toBe('bad-url');
    expect(connect).not.toHaveBeenCalled();
  });
});
