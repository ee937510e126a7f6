import { ImageFetchError } from './errors.js';
import { inspectImage, type ImageInfo } from './inspect-image.js';

/** The first body length at which the type and size are looked for; each later try waits for four times more. */
const FIRST_TRY = 8 * 1024;

/**
 * Reads an image's type and size from the start of a response body as it arrives, and counts
 * the rest without keeping it. Image headers sit at the start (a JPEG's frame header after its
 * metadata segments), so a body is held only until they are found, however large it is.
 */
export class ImageProbe {
  #size = 0;
  #chunks: Buffer[] = [];
  #held = 0;
  #nextTry = FIRST_TRY;
  #info: ImageInfo | undefined;

  /** `declared`: the response's Content-Length, already checked against `maxBytes`. */
  constructor(
    private readonly declared: number | undefined,
    private readonly maxBytes: number,
  ) {}

  /** Bytes received so far. */
  get size(): number {
    return this.#size;
  }

  /** The type and size, once found. */
  get info(): ImageInfo | undefined {
    return this.#info;
  }

  /** Takes a chunk; throws `too-large` past the declared length or the limit. */
  append(chunk: Buffer): void {
    const size = this.#size + chunk.length;
    // Checked per chunk so a lying or absent Content-Length cannot make us read more.
    if (this.declared !== undefined && size > this.declared) {
      throw new ImageFetchError('too-large', `body exceeds its Content-Length ${this.declared}`);
    }
    if (size > this.maxBytes) throw new ImageFetchError('too-large', `body exceeds ${this.maxBytes} bytes`);
    this.#size = size;
    if (this.#info) return;
    this.#chunks.push(chunk);
    this.#held += chunk.length;
    if (this.#held >= this.#nextTry) {
      this.#nextTry = this.#held * 4;
      this.#look();
    }
  }

  /** The type and size of the whole body; `network` when it is shorter than declared, `not-an-image` when it is not one. */
  finish(contentType: string): ImageInfo {
    if (this.declared !== undefined && this.#size !== this.declared) {
      throw new ImageFetchError('network', `body ended after ${this.#size} of ${this.declared} bytes`);
    }
    this.#look();
    if (!this.#info) throw new ImageFetchError('not-an-image', `${contentType} body is not a supported image`);
    return this.#info;
  }

  #look(): void {
    if (this.#info) return;
    const head = Buffer.concat(this.#chunks, this.#held);
    this.#chunks = [head];
    this.#info = inspectImage(head);
    if (this.#info) {
      this.#chunks = [];
      this.#held = 0;
    }
  }
}
