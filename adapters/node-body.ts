import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * Reads a Node request body as bytes, stopping one byte past `limit` so that the core
 * can answer 413 without the adapter knowing the rule. `undefined` when there is none.
 */
export async function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (req.readableEnded || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) {
    return undefined;
  }
  return readStream(req, limit);
}

/** Reads a body stream (a request, or a host's decoding stream) up to one byte past `limit`. */
export async function readStream(stream: Readable, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Destroying a request destroys its socket, and the 413 would never reach the client:
  // stop iterating without destroying, then discard the rest.
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    size += buf.length;
    if (size > limit) {
      stream.resume();
      break;
    }
  }
  return Buffer.concat(chunks);
}
