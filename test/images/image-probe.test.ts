import { describe, expect, it } from 'vitest';
import { ImageFetchError } from '../../src/images/errors.js';
import { ImageProbe } from '../../src/images/image-probe.js';
import { gif, jpeg, png } from './fixtures.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ImageFetchError);
    return (err as ImageFetchError).code;
  }
  throw new Error('expected an ImageFetchError');
}

/** `bytes` followed by `extra` bytes of padding, in chunks of `size`. */
function chunks(bytes: Buffer, extra: number, size = 1000): Buffer[] {
  const all = Buffer.concat([bytes, Buffer.alloc(extra, 7)]);
  const out: Buffer[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.subarray(i, i + size));
  return out;
}

describe('ImageProbe', () => {
  it('finds the type and size of small and large bodies, and counts every byte', () => {
    for (const [image, type] of [
      [png(3, 2), 'image/png'],
      [gif(4, 5), 'image/gif'],
      [jpeg(6, 7), 'image/jpeg'],
    ] as const) {
      for (const extra of [0, 100_000]) {
        const parts = chunks(image, extra);
        const probe = new ImageProbe(image.length + extra, 1_000_000);
        for (const part of parts) probe.append(part);
        const info = probe.finish('image/x');
        expect(info.mimeType).toBe(type);
        expect([info.width, info.height]).toEqual(type === 'image/png' ? [3, 2] : type === 'image/gif' ? [4, 5] : [6, 7]);
        expect(probe.size).toBe(image.length + extra);
      }
    }
  });

  it('knows the image from its first bytes and keeps nothing of the rest', () => {
    const probe = new ImageProbe(undefined, 10_000_000);
    for (const part of chunks(png(1, 1), 5_000_000, 64 * 1024)) probe.append(part);
    // Found in the first chunk: the later ones were counted, not kept.
    expect(probe.info).toMatchObject({ mimeType: 'image/png', width: 1, height: 1 });
    expect(probe.size).toBe(png(1, 1).length + 5_000_000);
  });

  it('refuses a body longer than its Content-Length, even below the limit', () => {
    const probe = new ImageProbe(4, 100);
    probe.append(Buffer.from('abc'));
    expect(codeOf(() => probe.append(Buffer.from('de')))).toBe('too-large');
    expect(probe.size).toBe(3);
  });

  it('refuses a body past the limit', () => {
    const probe = new ImageProbe(undefined, 4);
    probe.append(Buffer.from('abcd'));
    expect(codeOf(() => probe.append(Buffer.from('e')))).toBe('too-large');
  });

  it('reports a body shorter than declared as a network error', () => {
    const probe = new ImageProbe(10_000, 100_000);
    probe.append(png(1, 1));
    expect(codeOf(() => probe.finish('image/png'))).toBe('network');
  });

  it('reports what is not an image, empty bodies included', () => {
    const text = new ImageProbe(undefined, 100_000);
    text.append(Buffer.from('<html>not an image</html>'.repeat(1000)));
    expect(codeOf(() => text.finish('image/png'))).toBe('not-an-image');
    expect(codeOf(() => new ImageProbe(0, 100).finish('image/png'))).toBe('not-an-image');
    expect(codeOf(() => new ImageProbe(undefined, 100).finish('image/png'))).toBe('not-an-image');
  });
});
