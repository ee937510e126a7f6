import type { ApiArchive, ApiError } from './api-types.js';

/** The archive's largest page (the API clamps `per_page` to 50). */
const PER_PAGE = 50;
/** Pages read at most for one view: 1,000 items, more than a month shows. */
const MAX_PAGES = 20;

/** The page's client of the public REST API: GETs under the namespace, the token as a Bearer header. */
export interface Api {
  /** The namespace's URL (`…/wp-json/calendar/events/v1/`), ending with `/`. */
  readonly namespaceUrl: URL;
  /** Every item of an archive (`events`, `venues`, `categories`), page after page. */
  listAll<T>(kind: string, params: Record<string, string>): Promise<T[]>;
}

/** The API's message of a failed answer, else its status. */
async function failure(response: Response): Promise<Error> {
  const body: unknown = await response.json().catch(() => undefined);
  const message = typeof body === 'object' && body !== null && 'message' in body ? (body as ApiError).message : undefined;
  return new Error(message ?? `HTTP ${response.status}`);
}

/**
 * A client of the namespace at `namespaceUrl`; `token()` is read at each call, so a token entered
 * or forgotten applies to the next request. The token travels in `Authorization` only, never in
 * a URL.
 */
export function createApi(namespaceUrl: URL, token: () => string | undefined): Api {
  async function page<T>(kind: string, params: Record<string, string>, n: number): Promise<ApiArchive<string, T>> {
    const url = new URL(kind, namespaceUrl);
    for (const [key, value] of Object.entries({ ...params, per_page: String(PER_PAGE), page: String(n) })) url.searchParams.set(key, value);
    const bearer = token();
    const response = await fetch(url, { headers: { Accept: 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) } });
    if (!response.ok) throw await failure(response);
    return (await response.json()) as ApiArchive<string, T>;
  }
  return {
    namespaceUrl,
    async listAll<T>(kind: string, params: Record<string, string>): Promise<T[]> {
      const first = await page<T>(kind, params, 1);
      const pages = Math.min(first.total_pages, MAX_PAGES);
      const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => page<T>(kind, params, i + 2)));
      return [first, ...rest].flatMap((p) => p[kind] ?? []);
    },
  };
}
