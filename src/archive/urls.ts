/** A query parameter of a paging URL; `undefined` values are left out. */
export type QueryPair = readonly [string, string | number | undefined];

/** PHP's `urlencode`: everything but letters, digits, `-`, `_`, `.` percent-encoded; space → `+`. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * Upstream inserts `rest_url` values verbatim (raw spaces, colons and commas in dates and
 * lists). Characters that would change the URL's structure are still encoded.
 */
function rawValue(value: string): string {
  return value.replace(/[%&#+?\s\x00-\x1f\x7f]/g, (c) => (c === ' ' ? ' ' : encodeURIComponent(c)));
}

function present(pairs: readonly QueryPair[]): [string, string][] {
  return pairs.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]);
}

/** `rest_url` with its query built the upstream way (lists.md §4.1). */
export function rawUrl(base: string, pairs: readonly QueryPair[]): string {
  const q = present(pairs).map(([k, v]) => `${k}=${rawValue(v)}`);
  return q.length ? `${base}?${q.join('&')}` : base;
}

/** A URL with every value PHP-`urlencode`d. */
export function encodedUrl(base: string, pairs: readonly QueryPair[]): string {
  const q = present(pairs).map(([k, v]) => `${k}=${phpUrlencode(v)}`);
  return q.length ? `${base}?${q.join('&')}` : base;
}

/**
 * `rest_url`, `next_rest_url` and `previous_rest_url` of a post archive: the current
 * query with `page` first; next/previous drop `page`, re-encode, then append the new page
 * (none for page 1). Absent when that page would be empty.
 */
export function pagingUrls(base: string, page: number, totalPages: number, pairs: readonly QueryPair[]): Record<string, string> {
  const out: Record<string, string> = { rest_url: rawUrl(base, [['page', page], ...pairs]) };
  const withPage = (n: number) => encodedUrl(base, n === 1 ? pairs : [...pairs, ['page', n]]);
  if (page + 1 <= totalPages) out.next_rest_url = withPage(page + 1);
  if (page > 1 && page - 1 <= totalPages) out.previous_rest_url = withPage(page - 1);
  return out;
}
