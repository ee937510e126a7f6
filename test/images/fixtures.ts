import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { ImageFetchError } from '../../src/images/errors.js';

// Tiny but genuinely valid images, built byte by byte so the tests need no binary files.

/** A width×height RGB PNG (all red). */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([255, 0, 0]))]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A width×height GIF89a, every pixel colour 0 of a two-colour palette. */
export function gif(width: number, height: number): Buffer {
  // LZW with minimum code size 2: clear = 4, end = 5, codes stay 3 bits wide because a
  // clear code before every pixel keeps the table from growing.
  const codes: number[] = [];
  for (let i = 0; i < width * height; i++) codes.push(4, 0);
  codes.push(5);
  const data: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const code of codes) {
    acc |= code << bits;
    bits += 3;
    while (bits >= 8) {
      data.push(acc & 0xff);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits) data.push(acc & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const part = data.slice(i, i + 255);
    blocks.push(part.length, ...part);
  }
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    u16le(width),
    u16le(height),
    Buffer.from([0x80, 0, 0]), // global colour table of 2 entries
    Buffer.from([0, 0, 0, 255, 255, 255]),
    Buffer.from([0x2c]),
    u16le(0),
    u16le(0),
    u16le(width),
    u16le(height),
    Buffer.from([0, 2]), // no local table; LZW minimum code size 2
    Buffer.from(blocks),
    Buffer.from([0, 0x3b]),
  ]);
}

/** A baseline greyscale JPEG of at most 8×8 pixels (one flat block). */
export function jpeg(width: number, height: number): Buffer {
  // Huffman tables with a single 1-bit code ("0") for DC category 0 and for end-of-block:
  // the one block encodes as the bits 00, padded with ones.
  const huffman = (tableClass: number): Buffer => segment(0xc4, Buffer.from([tableClass << 4, 1, ...new Array<number>(15).fill(0), 0]));
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from([...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    segment(0xdb, Buffer.from([0, ...new Array<number>(64).fill(1)])),
    segment(0xc0, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])])),
    huffman(0),
    huffman(1),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    Buffer.from([0x3f, 0xff, 0xd9]),
  ]);
}

/** The classic 1×1 lossless WebP. */
export const WEBP_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** A width×height 24-bit BMP (all black). */
export function bmp(width: number, height: number): Buffer {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const pixels = Buffer.alloc(stride * height);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}

/** A local test server on a loopback address (127.0.0.1 unless asked) with an ephemeral port. */
export type TestServer = {
  port: number;
  /** `http://127.0.0.1:{port}{path}` (or `http://[::1]:{port}{path}`) */
  url: (path?: string) => string;
  /** Paths requested so far, in order. */
  hits: string[];
  /** Headers of the last request. */
  lastHeaders: () => IncomingMessage['headers'] | undefined;
  close: () => Promise<void>;
};

/** Starts an HTTP server on the loopback interface only. */
export async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host: '127.0.0.1' | '::1' = '127.0.0.1'): Promise<TestServer> {
  const hits: string[] = [];
  let headers: IncomingMessage['headers'] | undefined;
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    headers = req.headers;
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const origin = host === '::1' ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`;
  return {
    port,
    url: (path = '/') => `${origin}${path}`,
    hits,
    lastHeaders: () => headers,
    close: () =>
      new Promise<void>((resolve) => {
        // Stalled responses would otherwise keep close() waiting forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  typed.copy(out, 4);
  out.writeUInt32BE(crc32(typed), 8 + data.length);
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function segment(marker: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0xff, marker]), u16be(body.length + 2), body]);
}

function u16be(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u16le(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

/** The error code `fetchImage` rejected with (fails the test if it resolved). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ImageFetchError);
    return (err as ImageFetchError).code;
  }
  throw new Error('expected fetchImage to fail');
}
