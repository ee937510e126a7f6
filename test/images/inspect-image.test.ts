import { describe, expect, it } from 'vitest';
import { inspectImage } from '../../src/images/inspect-image.js';
import { WEBP_1X1, bmp, gif, jpeg, png } from './fixtures.js';

describe('inspectImage', () => {
  it.each([
    ['PNG', png(3, 2), 'image/png', 'png', 3, 2],
    ['GIF', gif(5, 4), 'image/gif', 'gif', 5, 4],
    ['JPEG', jpeg(7, 3), 'image/jpeg', 'jpg', 7, 3],
    ['WebP', WEBP_1X1, 'image/webp', 'webp', 1, 1],
    ['BMP', bmp(3, 2), 'image/bmp', 'bmp', 3, 2],
  ] as const)('reads a %s', (_name, bytes, mimeType, extension, width, height) => {
    expect(inspectImage(bytes)).toEqual({ mimeType, extension, width, height });
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['HTML', Buffer.from('<!doctype html><html><body>hi</body></html>')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')],
    ['SVG with XML prolog', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')],
    ['text starting with BM', Buffer.from('BMW is a car maker, not a bitmap header at all.')],
    ['PNG signature then garbage', Buffer.concat([png(1, 1).subarray(0, 8), Buffer.from('garbage garbage garbage')])],
    ['JPEG SOI then nothing usable', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02, 0x00])],
    ['GIF signature only', Buffer.from('GIF89a')],
    // Its size was read past the end of the slice, from the bytes that follow it in memory.
    ['GIF signature only, sliced from a longer buffer', Buffer.from('GIF89a\x10\x00\x20\x00\x00\x00').subarray(0, 6)],
    ['PNG with zero width', zeroWidthPng()],
    ['PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n')],
    ['gzip', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0])],
    ['ICO (not a web image type here)', Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0, 22, 0, 0, 0])],
  ])('rejects %s', (_name, bytes) => {
    expect(inspectImage(bytes)).toBeUndefined();
  });
});

function zeroWidthPng(): Buffer {
  const bytes = Buffer.from(png(1, 1));
  bytes.writeUInt32BE(0, 16); // IHDR width
  return bytes;
}
