/** Static JSON bodies of an exact size, for the ceiling servers (made once per size). */
const bodies = new Map<number, Buffer>();

/** A JSON object of exactly `bytes` bytes (at least 10), built once per size. */
export function staticJson(bytes: number): Buffer {
  const size = Math.max(10, Math.min(Number.isFinite(bytes) ? Math.floor(bytes) : 10, 10_000_000));
  let body = bodies.get(size);
  if (!body) {
    body = Buffer.from(`{"pad":"${'x'.repeat(size - 10)}"}`);
    if (bodies.size < 1000) bodies.set(size, body);
  }
  return body;
}
