import { hash } from 'node:crypto';

/** What a joined answer's digest reads of each part: a kept item's digest, or text with its length. */
const DIGEST_PART = 0x64; // 'd'
const TEXT_PART = 0x74; // 't'
/** Length of a SHA-1 digest in base64url, without padding. */
const DIGEST_CHARS = 27;

/** The SHA-1 digest of bytes in base64url, in one call (no hash object per answer). */
export const sha1 = (bytes: Uint8Array): string => hash('sha1', bytes, 'base64url');

/**
 * JSON already serialised and encoded as UTF-8 (an item a cache keeps rendered), written into
 * an answer as it is: serialising a page of kept items again, or encoding its text for the
 * socket on every request, would cost more than the rest of the request.
 */
export class RawJson {
  #digest: string | undefined;
  #bytes: Buffer | undefined;
  /** Length of its bytes, joined or not. */
  readonly size: number;

  /**
   * Its bytes, or, for JSON joined from kept items (a list envelope), `undefined` and those
   * items with the text between them: the bytes are then joined when first read.
   */
  constructor(bytes: Buffer, parts?: undefined);
  constructor(bytes: undefined, parts: readonly (Buffer | RawJson)[]);
  constructor(
    bytes: Buffer | undefined,
    private readonly parts?: readonly (Buffer | RawJson)[],
  ) {
    this.#bytes = bytes;
    this.size = bytes ? bytes.length : (parts ?? []).reduce((sum, part) => sum + (part instanceof RawJson ? part.size : part.length), 0);
  }

  /** Its UTF-8 bytes in one buffer (joined from its parts, once, when it has them). */
  get bytes(): Buffer {
    return (this.#bytes ??= Buffer.concat(this.chunks()));
  }

  /** Whether it is still in parts: an adapter writing to a socket can send {@link chunks} as they are. */
  get inPieces(): boolean {
    return this.#bytes === undefined;
  }

  /**
   * Its bytes as the buffers they are kept in: a page of kept events is written to a socket
   * from them (one `writev`) rather than copied into one new buffer first. A 283 KB page of 50
   * events joined per request cost more than the rest of the request (the bench's signed-in
   * 50-event page on Express: 1.7 ms of CPU joined, 0.8 ms written in pieces).
   */
  chunks(): Buffer[] {
    if (this.#bytes || !this.parts) return [this.bytes];
    return this.parts.flatMap((part) => (part instanceof RawJson ? part.chunks() : [part]));
  }

  /**
   * A SHA-1 digest of its bytes in base64url, computed once: of the bytes themselves, or, for
   * JSON joined from kept items, of the sequence of its parts (each item's own digest, each text
   * with its length), so that a page of kept items is not hashed again byte by byte on every
   * answer (a 57 KB page: 30 µs). Either changes whenever the bytes do, which is what an entity
   * tag needs. The parts are laid out in one buffer and hashed in one call: a hash object fed
   * part by part cost more than the hashing itself.
   */
  digest(): string {
    if (this.#digest !== undefined) return this.#digest;
    if (!this.parts) return (this.#digest = sha1(this.bytes));
    let size = 0;
    for (const part of this.parts) size += part instanceof RawJson ? 1 + DIGEST_CHARS : 5 + part.length;
    const sequence = Buffer.allocUnsafe(size);
    let at = 0;
    for (const part of this.parts) {
      if (part instanceof RawJson) {
        sequence[at] = DIGEST_PART;
        at += 1 + sequence.write(part.digest(), at + 1, 'latin1');
      } else {
        sequence[at] = TEXT_PART;
        sequence.writeUInt32BE(part.length, at + 1);
        at += 5 + part.copy(sequence, at + 5);
      }
    }
    return (this.#digest = sha1(sequence.subarray(0, at)));
  }

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
  const parts: (Buffer | RawJson)[] = [Buffer.from(`{${JSON.stringify(key)}:[`)];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(item instanceof RawJson ? item : bodyBytes(item));
  });
  parts.push(Buffer.from(`]${tail ? `,${tail}` : ''}}`));
  // Not joined: the kept items are written as they are (`chunks`).
  return new RawJson(undefined, parts);
}
