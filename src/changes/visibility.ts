/**
 * How a read of an item's own route tells the change feed and webhooks what became of it for a
 * viewer: shown (200), hidden from them or gone (400, 401, 403, 404, 410: a read by a well-formed
 * id answers 400 only when the id names no item of that kind, as upstream's id checks do), or unknown: any other
 * answer (a 503 while the store is unreachable) says nothing about the item, and must neither be
 * reported as a deletion nor skipped over.
 */
export function readOutcome(status: number): 'visible' | 'hidden' | 'unknown' {
  if (status === 200) return 'visible';
  return [400, 401, 403, 404, 410].includes(status) ? 'hidden' : 'unknown';
}
