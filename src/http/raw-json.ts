/**
 * JSON already serialised and encoded as UTF-8 (an item a cache keeps rendered), written into
 * an answer as it is: serialising a page of kept items again, or encoding its text for the
 * socket on every request, would cost more than the rest of the request.
 */
export class RawJson {
  constructor(readonly bytes: Buffer) {}

  /** Serialises and encodes a value once. */
  static of(value: unknown): RawJson {
    return new RawJson(Buffer.from(JSON.stringify(value)));
  }

  /** The value back (rarely needed: an item that must be changed for one caller). */
  parse(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

/**
 * The bytes of an answer's body: a JSON value as UTF-8, or bytes as they are (an answer in
 * another format, such as a calendar file, whose `Content-Type` its handler sets).
 */
export function bodyBytes(body: unknown): Buffer {
  if (body instanceof RawJson) return body.bytes;
  if (body instanceof Uint8Array) return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(JSON.stringify(body));
}

const COMMA = Buffer.from(',');

/** A list envelope `{ [key]: items, ...rest }`, keys in that order, its items objects or JSON. */
export function listEnvelope(key: string, items: readonly unknown[], rest: Record<string, unknown>): RawJson {
  const tail = JSON.stringify(rest).slice(1, -1);
  const parts: Buffer[] = [Buffer.from(`{${JSON.stringify(key)}:[`)];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(bodyBytes(item));
  });
  parts.push(Buffer.from(`]${tail ? `,${tail}` : ''}}`));
  // One copy of each kept item into the answer, no text in between.
  return new RawJson(Buffer.concat(parts));
}
