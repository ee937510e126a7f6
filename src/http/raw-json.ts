/**
 * JSON text already serialised (an item a cache keeps rendered), written into an answer as it
 * is: serialising a page of kept items again would cost as much as the rest of the request.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The JSON text of an answer's body. */
export function bodyText(body: unknown): string {
  return body instanceof RawJson ? body.text : JSON.stringify(body);
}

/** A list envelope `{ [key]: items, ...rest }`, keys in that order, its items objects or JSON text. */
export function listEnvelope(key: string, items: readonly unknown[], rest: Record<string, unknown>): RawJson {
  const list = items.map((item) => (item instanceof RawJson ? item.text : JSON.stringify(item))).join(',');
  const tail = JSON.stringify(rest).slice(1, -1);
  return new RawJson(`{${JSON.stringify(key)}:[${list}]${tail ? `,${tail}` : ''}}`);
}
