/** A query string, PHP `http_build_query` style (`a=1&b=x+y`); empty values are left out. */
export function buildQuery(pairs: ReadonlyArray<readonly [string, string | number | undefined]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) if (v !== undefined && v !== '') q.append(k, String(v));
  return q.toString();
}

/** Appends a query string to a URL. */
export function withQuery(url: string, query: string): string {
  return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}

/** A parameter as a client would resend it: lists comma-joined, scalars as text. */
export function asQueryValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String).join(',');
  if (typeof value === 'object') return undefined;
  return String(value);
}
