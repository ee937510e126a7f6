/**
 * Paging URLs of every archive, in the two styles upstream uses: post
 * archives (events, venues, organizers) write `rest_url` verbatim with `page` first and
 * re-encode for next/previous; term archives build one query string and append `page`.
 */

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

/** `rest_url` with its query built the upstream way. */
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
 * (none for page 1). Absent when that page would be empty. `encodedFirst`: the `rest_url`
 * of an events archive filtered by venue, organizer or featured encodes `pairs` and keeps
 * only `rawPairs` verbatim, as upstream builds it in two steps.
 */
export function pagingUrls(
  base: string,
  page: number,
  totalPages: number,
  pairs: readonly QueryPair[],
  rawPairs: readonly QueryPair[] = [],
  encodedFirst = false,
): Record<string, string> {
  const all = [...pairs, ...rawPairs];
  const out: Record<string, string> = { rest_url: rawUrl(base, [['page', page], ...all]) };
  if (encodedFirst) {
    const head = encodedUrl(base, [['page', page], ...pairs]);
    const tail = rawUrl('', rawPairs).slice(1);
    out.rest_url = tail ? `${head}${head.includes('?') ? '&' : '?'}${tail}` : head;
  }
  const withPage = (n: number) => encodedUrl(base, n === 1 ? all : [...all, ['page', n]]);
  if (page + 1 <= totalPages) out.next_rest_url = withPage(page + 1);
  if (page > 1 && page - 1 <= totalPages) out.previous_rest_url = withPage(page - 1);
  return out;
}

/**
 * The paging URLs of a term archive: the parameters the client sent, `http_build_query`
 * style, then `page` appended for the next and previous pages (none for page 1).
 */
export function termPagingUrls(
  base: string,
  page: number,
  totalPages: number,
  carried: readonly QueryPair[],
): { rest_url: string; next_rest_url?: string; previous_rest_url?: string } {
  const query = new URLSearchParams();
  for (const [k, v] of carried) if (v !== undefined && v !== '') query.append(k, String(v));
  const restUrl = query.size ? `${base}?${query}` : base;
  const withPage = (n: number) => `${restUrl}${restUrl.includes('?') ? '&' : '?'}page=${n}`;
  return {
    rest_url: restUrl,
    ...(page < totalPages ? { next_rest_url: withPage(page + 1) } : {}),
    ...(page > 1 ? { previous_rest_url: page === 2 ? restUrl : withPage(page - 1) } : {}),
  };
}

/** A parameter as a client would resend it: lists comma-joined, scalars as text. */
export function asQueryValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String).join(',');
  if (typeof value === 'object') return undefined;
  return String(value);
}
