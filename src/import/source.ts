/**
 * The site an import reads from: a REST root serving the original plugin's v1 API (or this
 * library's). Requests are limited in number and rate, retried with backoff when the source
 * fails for a while, and archives are read page by page the way the original accepts.
 */
import { Limiter } from './limiter.js';

/** How to reach the source and how hard to press it. */
export interface SourceOptions {
  /** The source's REST root, e.g. `https://old.example/wp-json`. */
  root: string;
  /** Its namespace: `tribe/events/v1` for the original plugin. */
  namespace?: string;
  /** The `Authorization` header to send: `Basic …` (an application password) or `Bearer …`. */
  authorization?: string;
  /** Requests under way at once (default 4). */
  concurrency?: number;
  /** Requests started per second at most (default 10). */
  requestsPerSecond?: number;
  /** Time limit of one request, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Tries of one request when the source answers 5xx or 429, times out or cannot be reached (default 6). */
  attempts?: number;
  /** The first wait before a retry, doubled each time up to 30 s (default 500 ms); a `Retry-After` wins. */
  backoffMs?: number;
}

/** A request the source refused or kept failing. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly url: string,
    /** The HTTP status of the last answer, if there was one. */
    readonly status?: number,
    /** The API's error code (`rest_invalid_param`…), if the body had one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** One answer of the source. */
export interface SourceAnswer {
  body: unknown;
  headers: Headers;
}

/** An archive of the source, as its route names it. */
export type SourceArchive = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

/** The original's largest page (`per_page` above it is clamped to it). */
export const SOURCE_PAGE_SIZE = 50;

/** Longest wait between two tries. */
const MAX_BACKOFF_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait a `Retry-After` asks for (seconds or an HTTP date), capped. */
function retryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_BACKOFF_MS) : undefined;
}

/** Whether an answer is worth another try: the source is failing, not refusing. */
const transient = (status: number) => status >= 500 || status === 429 || status === 408;

/** The source site of an import. */
export class Source {
  readonly #base: string;
  readonly #limiter: Limiter;
  readonly #options: Required<Omit<SourceOptions, 'authorization' | 'namespace' | 'root'>> & Pick<SourceOptions, 'authorization'>;

  constructor(options: SourceOptions) {
    const root = options.root.replace(/\/+$/, '');
    const namespace = (options.namespace ?? 'tribe/events/v1').replace(/^\/+|\/+$/g, '');
    this.#base = `${root}/${namespace}`;
    this.#options = {
      authorization: options.authorization,
      concurrency: options.concurrency ?? 4,
      requestsPerSecond: options.requestsPerSecond ?? 10,
      timeoutMs: options.timeoutMs ?? 30_000,
      attempts: options.attempts ?? 6,
      backoffMs: options.backoffMs ?? 500,
    };
    this.#limiter = new Limiter(this.#options.concurrency, this.#options.requestsPerSecond);
  }

  /** Whether requests carry credentials (every status the account may read is then asked for). */
  get signedIn(): boolean {
    return this.#options.authorization !== undefined;
  }

  /** The URL of a path under the namespace with a query. */
  url(path: string, query: Record<string, string | number> = {}): string {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return `${this.#base}${path}${search ? `?${search}` : ''}`;
  }

  /** `GET` of a path under the namespace, retried while the source fails; a refusal (4xx) throws at once. */
  async get(path: string, query: Record<string, string | number> = {}): Promise<SourceAnswer> {
    const url = this.url(path, query);
    let wait = this.#options.backoffMs;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(url);
      if ('body' in outcome) return outcome;
      if (!outcome.transient || attempt >= this.#options.attempts) throw outcome.failure;
      await sleep(outcome.retryAfter ?? wait);
      wait = Math.min(wait * 2, MAX_BACKOFF_MS);
    }
  }

  /** One try: the answer, or why it failed and whether another try may do better. */
  async #attempt(url: string): Promise<SourceAnswer | { failure: SourceError; transient: boolean; retryAfter?: number }> {
    const { timeoutMs, authorization } = this.#options;
    let answer: { status: number; ok: boolean; headers: Headers; text: string };
    try {
      answer = await this.#limiter.run(async () => {
        const res = await fetch(url, { headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) }, signal: AbortSignal.timeout(timeoutMs) });
        return { status: res.status, ok: res.ok, headers: res.headers, text: await res.text() };
      });
    } catch (e) {
      // Unreachable, reset, or out of time (the body too).
      return { failure: new SourceError(`${url}: ${e instanceof Error ? e.message : String(e)}`, url), transient: true };
    }
    let body: unknown;
    try {
      body = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {
      body = undefined;
    }
    if (answer.ok && body !== undefined) return { body, headers: answer.headers };
    const code = typeof body === 'object' && body !== null && 'code' in body ? String(body.code) : undefined;
    const failure = new SourceError(`${answer.status} from ${url}${code ? ` (${code})` : answer.ok ? ' (not JSON)' : ''}`, url, answer.status, code);
    // A refusal stays a refusal; a failing source, or a page that is not JSON (a proxy's error page), may recover.
    return { failure, transient: answer.ok || transient(answer.status), retryAfter: retryAfter(answer.headers.get('retry-after')) };
  }

  /**
   * Every item of an archive, page by page (`page=1…total_pages`, 50 a page, the original's
   * largest). Paging URLs the source writes are not followed: for a signed-in caller they carry
   * `status=any`, which the original then refuses with 400. `query` holds the filters (explicit
   * statuses, the date window of events).
   */
  async *pages(archive: SourceArchive, query: Record<string, string | number> = {}): AsyncGenerator<{ page: number; totalPages: number; items: unknown[] }> {
    const read = (page: number) => this.get(`/${archive}`, { ...query, per_page: SOURCE_PAGE_SIZE, page });
    const first = await read(1);
    const totalPages = pageCount(first);
    yield { page: 1, totalPages, items: itemsOf(first.body, archive) };
    // The other pages are asked for at once; the limiter keeps the source's load in bounds.
    const rest = Array.from({ length: Math.max(0, totalPages - 1) }, (_, i) => read(i + 2));
    // Unobserved rejections of later pages are reported in turn below, not as unhandled.
    for (const p of rest) p.catch(() => undefined);
    for (const [i, next] of rest.entries()) yield { page: i + 2, totalPages, items: itemsOf((await next).body, archive) };
  }
}

/** The number of pages an archive answer announces: in its body, else its headers (`X-TEC-TotalPages` of post archives, `X-WP-TotalPages` of terms). */
function pageCount(answer: SourceAnswer): number {
  const body = answer.body as { total_pages?: unknown } | undefined;
  if (typeof body?.total_pages === 'number' && Number.isSafeInteger(body.total_pages) && body.total_pages >= 0) return body.total_pages;
  for (const name of ['x-tec-totalpages', 'x-wp-totalpages']) {
    const value = answer.headers.get(name);
    if (value !== null && /^\d+$/.test(value.trim())) return Number(value);
  }
  return 1;
}

/** The items of an archive answer: `{ events: […] }`, `{ categories: […] }`… */
function itemsOf(body: unknown, archive: SourceArchive): unknown[] {
  if (typeof body !== 'object' || body === null) return [];
  const items = (body as Record<string, unknown>)[archive];
  return Array.isArray(items) ? items : [];
}
