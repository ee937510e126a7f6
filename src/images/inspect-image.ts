import { imageSize } from 'image-size';

/** What the bytes of an accepted image are: its real type and natural size. */
export type ImageInfo = { mimeType: string; extension: string; width: number; height: number };

type Kind = {
  mimeType: string;
  extension: string;
  /** Does the file start like this type? Checked before any parser sees the bytes. */
  magic: (b: Uint8Array) => boolean;
  /** The `type` names image-size reports for this format, to catch disagreeing parsers. */
  sizeTypes: readonly string[];
};

// Raster formats WordPress accepts as images and browsers can show. SVG is deliberately
// absent: it is a script-capable document, not an image, when served from our URLs.
const KINDS: readonly Kind[] = [
  { mimeType: 'image/jpeg', extension: 'jpg', magic: (b) => startsWith(b, [0xff, 0xd8, 0xff]), sizeTypes: ['jpg'] },
  {
    mimeType: 'image/png',
    extension: 'png',
    magic: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    sizeTypes: ['png'],
  },
  {
    mimeType: 'image/gif',
    extension: 'gif',
    magic: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a',
    sizeTypes: ['gif'],
  },
  {
    mimeType: 'image/webp',
    extension: 'webp',
    magic: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' && /^VP8[ LX]$/.test(ascii(b, 12, 16)),
    sizeTypes: ['webp'],
  },
  {
    mimeType: 'image/bmp',
    extension: 'bmp',
    // "BM" alone is too weak (plenty of text starts with it); also require a known DIB header size.
    magic: (b) => ascii(b, 0, 2) === 'BM' && b.length >= 18 && [12, 40, 52, 56, 64, 108, 124].includes(u32le(b, 14)),
    sizeTypes: ['bmp'],
  },
  { mimeType: 'image/avif', extension: 'avif', magic: (b) => ftypBrand(b) === 'avif', sizeTypes: ['avif'] },
  {
    mimeType: 'image/heic',
    extension: 'heic',
    magic: (b) => ['heic', 'heix', 'hevc', 'hevx'].includes(ftypBrand(b) ?? ''),
    sizeTypes: ['heic', 'heix', 'hevc', 'hevx'],
  },
];

/** The type and size of an image, or `undefined` when the bytes are not a supported, readable image. */
export function inspectImage(bytes: Uint8Array): ImageInfo | undefined {
  const kind = KINDS.find((k) => k.magic(bytes));
  if (!kind) return undefined;
  let size: { width?: number; height?: number; type?: string };
  try {
    // A copy of its own: image-size reads through a DataView of the whole underlying buffer, so
    // a truncated header in a slice of a larger one (Node's pooled small Buffers) was read from
    // the neighbouring bytes (a 6-byte GIF got a height on Node 26) instead of failing.
    size = imageSize(new Uint8Array(bytes));
  } catch {
    // Right magic but unreadable (truncated or forged header): not really an image.
    return undefined;
  }
  const { width, height, type } = size;
  if (!type || !kind.sizeTypes.includes(type)) return undefined;
  if (!isDimension(width) || !isDimension(height)) return undefined;
  return { mimeType: kind.mimeType, extension: kind.extension, width, height };
}

function isDimension(n: number | undefined): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n > 0;
}

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return b.length >= prefix.length && prefix.every((byte, i) => b[i] === byte);
}

function ascii(b: Uint8Array, from: number, to: number): string {
  if (b.length < to) return '';
  return String.fromCharCode(...b.subarray(from, to));
}

function u32le(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}

// ISO-BMFF files (AVIF, HEIC) start with an `ftyp` box whose major brand names the format.
function ftypBrand(b: Uint8Array): string | undefined {
  return ascii(b, 4, 8) === 'ftyp' ? ascii(b, 8, 12) : undefined;
}
