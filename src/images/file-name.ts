const ESCAPE = /%([0-9a-f]{2})/iy;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
// What "Latin-1" pages really send is windows-1252: ISO-8859-1 plus printable characters
// (€, curly quotes, dashes) where ISO-8859-1 has C1 controls. Tabled here because Node's
// TextDecoder decodes that label as plain ISO-8859-1; its five undefined bytes stay as is.
const CP1252_80_9F = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Decodes the percent-escapes of a URL path segment without ever throwing: each run of
 * escapes is read as UTF-8 when it is valid UTF-8, else as windows-1252 (Latin-1 as the
 * web sends it); a malformed escape (`%ZZ`, a lone `%`) is kept as written.
 */
export function decodePathSegment(segment: string): string {
  let out = '';
  let i = 0;
  while (i < segment.length) {
    const bytes = segment[i] === '%' ? escapedBytes(segment, i) : undefined;
    if (bytes?.length) {
      out += decodeBytes(bytes);
      i += bytes.length * 3;
    } else {
      out += segment[i];
      i++;
    }
  }
  return out;
}

/** The title WordPress gives a side-loaded file: its decoded file name without extension, else `image`. */
export function titleFromUrl(url: URL): string {
  const name = decodePathSegment(url.pathname.split('/').pop() ?? '');
  return name.replace(/\.[a-z0-9]+$/i, '') || 'image';
}

/** The bytes of the escapes starting at `from`, up to the first character that is not one. */
function escapedBytes(text: string, from: number): Uint8Array {
  const bytes: number[] = [];
  ESCAPE.lastIndex = from;
  for (let m = ESCAPE.exec(text); m; m = ESCAPE.exec(text)) {
    const [, hex = ''] = m;
    const byte = parseInt(hex, 16);
    // Controls stay escaped: a title cannot show them, and some databases refuse them
    // outright (PostgreSQL text cannot hold NUL).
    if (byte < 0x20 || byte === 0x7f) break;
    bytes.push(byte);
  }
  return Uint8Array.from(bytes);
}

function decodeBytes(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    // Mapped one by one, not spread into fromCharCode: a long URL would overflow the stack.
    return Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_80_9F[b - 0x80] : String.fromCharCode(b))).join('');
  }
}
