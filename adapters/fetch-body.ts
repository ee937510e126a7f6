/**
 * Reads a Fetch `Request` body as bytes, stopping as soon as it is longer than `limit` so that
 * the core can answer 413 without the adapter knowing the rule. `undefined` when there is none.
 */
export async function readFetchBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!request.body) return undefined;
  // A declared length over the limit is answered unread: the core only needs to see "too large".
  if (Number(request.headers.get('content-length')) > limit) return new Uint8Array(limit + 1);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks);
}
