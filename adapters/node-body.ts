import type { IncomingMessage } from 'node:http';

/**
 * Reads a Node request body as bytes, stopping one byte past `limit` so that the core
 * can answer 413 without the adapter knowing the rule. `undefined` when there is none.
 */
export async function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (req.readableEnded || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) {
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    chunks.push(buf);
    size += buf.length;
    if (size > limit) break;
  }
  return Buffer.concat(chunks);
}
