/**
 * The site an import reads from: a REST root serving the original plugin's v1 API (or this
 * library's). Requests are limited in number, rate and size, retried with backoff when the
 * source fails for a while, redirected only where the outbound policy lets them go, and
 * archives are read page by page the way the original accepts, until a page adds nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Limiter } from './limiter.js';
import { OutboundPolicy } from './outbound.js';
import { RequestRefused, SourceConnection, type RawAnswer } from './source-request.js';

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
  /**
   * Hosts (`host`, `host:port`, as `imageHosts`) the source may redirect to, or serve images
   * from, whatever their address: elsewhere than its own origin, only public addresses on web ports.
   */
  allowHosts?: readonly string[];
  /** Largest answer read, in bytes (default 32 MiB): a page over it is reported as unread. */
  maxPageBytes?: number;
}

/** The default of {@link SourceOptions.maxPageBytes}. */
export const DEFAULT_MAX_PAGE_BYTES = 32 * 1024 * 1024;

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

/** An answer larger than the byte limit: not read, and not asked for again. */
export class AnswerTooLarge extends SourceError {}

/** One answer of the source. */
export interface SourceAnswer {
  body: unknown;
  headers: Headers;
}

/** An archive of the source, as its route names it. */
export type SourceArchive = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

/** The original's largest page (`per_page` above it is clamped to it). */
export const SOURCE_PAGE_SIZE = 50;

/** WordPress' largest page in its own collections (`wp/v2/…`). */
const WORDPRESS_PAGE_SIZE = 100;

/** One page of an archive: its items, or why it could not be read after every retry. */
export interface SourcePage {
  page: number;
  totalPages: number;
  total: number;
  items: unknown[];
  failure?: SourceError;
}

/** Longest wait between two tries of our own choosing. */
const MAX_BACKOFF_MS = 30_000;

/** Longest wait a source's `Retry-After` is granted. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** Most pages an archive is read to: 5 million items; a larger count is a broken source. */
const MAX_PAGES = 100_000;

/** The wait a `Retry-After` asks for (seconds or an HTTP date), capped. */
function retryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}

/** A wait of about `ms` (±20 %), so that clients retrying together spread out. */
const jittered = (ms: number) => ms * (0.8 + 0.4 * Math.random());

/** The text of a failed request, with its cause (the timeout of an abort…), which its own message leaves out. */
function requestFailure(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
  return `${e.message}${cause}`;
}

/** A number option, checked: a bad limit would stall or flood the source. */
function checked(name: string, value: number, least: number): number {
  if (!Number.isFinite(value) || value < least) throw new RangeError(`import source: ${name} must be a number of at least ${least}, not ${value}`);
  return value;
}

/** Whether an answer is worth another try: the source is failing, not refusing. */
const transient = (status: number) => status >= 500 || status === 429 || status === 408;

/** The source site of an import. */
export class Source {
  readonly #root: string;
  readonly #base: string;
  readonly #limiter: Limiter;
  readonly #connection: SourceConnection;
  readonly #options: Required<Omit<SourceOptions, 'authorization' | 'namespace' | 'root' | 'allowHosts' | 'maxPageBytes'>> &
    Pick<SourceOptions, 'authorization'>;

  /** Checks the options: an absolute http(s) root, a header value, hosts, positive limits. */
  constructor(options: SourceOptions) {
    const root = options.root.replace(/\/+$/, '');
    if (!/^https?:\/\/[^/?#\s]+/i.test(root) || !URL.canParse(root))
      throw new RangeError(`import source: ${options.root} is not an http(s) REST root such as https://example.org/wp-json`);
    const parsed = new URL(root);
    // Credentials in the URL would end up in messages and in the record of imports.
    if (parsed.username || parsed.password)
      throw new RangeError('import source: the REST root carries credentials; give them as the user and password (or authorization) instead');
    if (options.authorization !== undefined && !/^[\t\x20-\x7e\x80-\xff]+$/.test(options.authorization))
      throw new RangeError('import source: the authorization is not a header value');
    const namespace = (options.namespace ?? 'tribe/events/v1').replace(/^\/+|\/+$/g, '');
    this.#root = root;
    this.#base = `${root}/${namespace}`;
    this.#options = {
      authorization: options.authorization,
      concurrency: checked('concurrency', options.concurrency ?? 4, 1),
      requestsPerSecond: checked('requestsPerSecond', options.requestsPerSecond ?? 10, Number.MIN_VALUE),
      timeoutMs: checked('timeoutMs', options.timeoutMs ?? 30_000, 1),
      attempts: Math.floor(checked('attempts', options.attempts ?? 6, 1)),
      backoffMs: checked('backoffMs', options.backoffMs ?? 500, 0),
    };
    this.#limiter = new Limiter(this.#options.concurrency, this.#options.requestsPerSecond);
    const maxPageBytes = Math.floor(checked('maxPageBytes', options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES, 1));
    this.#connection = new SourceConnection(new OutboundPolicy(parsed, options.allowHosts), options.authorization, maxPageBytes);
  }

  /** Where the import may go besides the source (its images too). */
  get policy(): OutboundPolicy {
    return this.#connection.policy;
  }

  /** Closes the connections kept to the source (requests after that open new ones). */
  close(): void {
    this.#connection.close();
  }

  /** Whether requests carry credentials (every status the account may read is then asked for). */
  get signedIn(): boolean {
    return this.#options.authorization !== undefined;
  }

  /** The URL of a path under the namespace. */
  url(path: string): string {
    return `${this.#base}${path}`;
  }

  /**
   * `GET` of a path under the namespace, retried while the source fails; a refusal (4xx) throws
   * at once, and so does `signal` once aborted (no retry after that).
   */
  get(path: string, query: Record<string, string | number> = {}, signal?: AbortSignal): Promise<SourceAnswer> {
    return this.#get(this.url(path), query, signal);
  }

  /** `GET` of a path under the REST root (`/` for its index), retried as {@link get} says. */
  fromRoot(path: string, query: Record<string, string | number> = {}): Promise<SourceAnswer> {
    return this.#get(`${this.#root}${path}`, query);
  }

  /** `GET` of `url` with `query`, retried as {@link get} says. */
  async #get(base: string, query: Record<string, string | number>, signal?: AbortSignal): Promise<SourceAnswer> {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const url = `${base}${search ? `?${search}` : ''}`;
    let wait = this.#options.backoffMs;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const outcome = await this.#attempt(url, signal);
      if ('body' in outcome) return outcome;
      if (!outcome.transient || attempt >= this.#options.attempts || signal?.aborted) throw outcome.failure;
      await sleep(outcome.retryAfter ?? jittered(wait), undefined, { signal });
      wait = Math.min(wait * 2, MAX_BACKOFF_MS);
    }
  }

  /** One try: the answer, or why it failed and whether another try may do better. */
  async #attempt(url: string, signal?: AbortSignal): Promise<SourceAnswer | { failure: SourceError; transient: boolean; retryAfter?: number }> {
    const { timeoutMs } = this.#options;
    let answer: RawAnswer;
    try {
      answer = await this.#limiter.run(async () => {
        signal?.throwIfAborted();
        const limit = AbortSignal.timeout(timeoutMs);
        return this.#connection.get(url, signal ? AbortSignal.any([signal, limit]) : limit);
      });
    } catch (e) {
      // Too large, or sent where the policy refuses: another try would do the same.
      if (e instanceof RequestRefused) return { failure: new (e.reason === 'too-large' ? AnswerTooLarge : SourceError)(e.message, url), transient: false };
      // Unreachable, reset, or out of time (the body too); the URL and header were checked up front.
      return { failure: new SourceError(`${url}: ${requestFailure(e)}`, url), transient: true };
    }
    const ok = answer.status >= 200 && answer.status < 300;
    let body: unknown;
    try {
      body = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {
      body = undefined;
    }
    if (ok && body !== undefined) return { body, headers: answer.headers };
    const code = typeof body === 'object' && body !== null && 'code' in body ? String(body.code) : undefined;
    const failure = new SourceError(`${answer.status} from ${url}${code ? ` (${code})` : ok ? ' (not JSON)' : ''}`, url, answer.status, code);
    // A refusal stays a refusal; a failing source, or a page that is not JSON (a proxy's error page), may recover.
    return { failure, transient: ok || transient(answer.status), retryAfter: retryAfter(answer.headers.get('retry-after')) };
  }

  /**
   * Every item of an archive, page by page (`page=1…total_pages`, 50 a page, the original's
   * largest). Paging URLs the source writes are not followed: for a signed-in caller they carry
   * `status=any`, which the original then refuses with 400. `query` holds the filters (explicit
   * statuses, the date window of events). See {@link #pages} for the reading rules.
   */
  pages(archive: SourceArchive, query: Record<string, string | number> = {}): AsyncGenerator<SourcePage> {
    return this.#pages(this.url(`/${archive}`), query, SOURCE_PAGE_SIZE, (body) => {
      const items = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[archive] : undefined;
      return Array.isArray(items) ? items : [];
    });
  }

  /**
   * Every item of one of WordPress' own collections beside the API (`wp/v2/tribe_events`…),
   * 100 a page (WordPress' largest): the original registers its post types there, where
   * events hidden from listings are listed too.
   */
  wordpressPages(collection: string, query: Record<string, string | number> = {}): AsyncGenerator<SourcePage> {
    return this.#pages(`${this.#root}/wp/v2/${collection}`, query, WORDPRESS_PAGE_SIZE, (body) => (Array.isArray(body) ? body : []));
  }

  /** One item of one of WordPress' own collections (`wp/v2/tribe_events/12`). */
  async wordpressItem(collection: string, id: number, query: Record<string, string | number> = {}): Promise<unknown> {
    return (await this.#get(`${this.#root}/wp/v2/${collection}/${id}`, query)).body;
  }

  /**
   * Reads the pages of the archive at `url`. A few pages are read ahead; stopping early cancels
   * them. Items are yielded once each, although pages shift when the source changes meanwhile;
   * the archive ends at a page that no longer exists (404), or at the first page read that adds
   * nothing (no item, or only items already yielded), whatever total the source announced. The
   * first page must be read (its failure throws: the archive cannot be read at all), unless it
   * is too large, which is reported as for a later page: a later page that keeps failing is
   * yielded with its `failure` and no items, so that one bad page does not end the run.
   */
  async *#pages(url: string, query: Record<string, string | number>, pageSize: number, itemsOf: (body: unknown) => unknown[]): AsyncGenerator<SourcePage> {
    const reading = new AbortController();
    const read = (page: number) => this.#get(url, { ...query, per_page: pageSize, page }, reading.signal);
    const seen = new Set<unknown>();
    /** The items not yielded before, and whether one of them is an item (with an id) at all. */
    const fresh = (items: unknown[]) => {
      let adds = false;
      const out = items.filter((item) => {
        const id = typeof item === 'object' && item !== null && 'id' in item ? item.id : undefined;
        if (id === undefined) return true;
        if (seen.has(id)) return false;
        seen.add(id);
        adds = true;
        return true;
      });
      return { items: out, adds };
    };
    try {
      let first: SourceAnswer;
      try {
        first = await read(1);
      } catch (e) {
        if (!(e instanceof AnswerTooLarge)) throw e;
        yield { page: 1, totalPages: 1, total: 0, items: [], failure: e };
        return;
      }
      const totalPages = Math.min(pageCount(first), MAX_PAGES);
      const total = itemCount(first, totalPages, pageSize);
      const firstItems = fresh(itemsOf(first.body));
      yield { page: 1, totalPages, total, items: firstItems.items };
      if (!firstItems.adds) return;
      const ahead = new Map<number, Promise<SourceAnswer | SourceError | undefined>>();
      const schedule = (page: number) => {
        if (page > totalPages || ahead.has(page)) return;
        const answer = read(page).catch((e: unknown) => {
          // A page past the end of an archive that shrank meanwhile (WordPress' own collections say so with a 400).
          if (e instanceof SourceError && (e.status === 404 || e.code === 'rest_post_invalid_page_number')) return undefined;
          if (e instanceof SourceError && !reading.signal.aborted) return e;
          throw e;
        });
        // Rejections are reported in turn below, not as unhandled.
        answer.catch(() => undefined);
        ahead.set(page, answer);
      };
      for (let page = 2; page <= totalPages; page++) {
        for (let next = page; next < page + this.#options.concurrency; next++) schedule(next);
        const answer = await ahead.get(page);
        ahead.delete(page);
        if (answer === undefined) return;
        if (answer instanceof SourceError) {
          yield { page, totalPages, total, items: [], failure: answer };
          continue;
        }
        const { items, adds } = fresh(itemsOf(answer.body));
        yield { page, totalPages, total, items };
        // A source announcing more pages than it has (or serving the same page again) is read no further.
        if (!adds) return;
      }
    } finally {
      reading.abort();
    }
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

/** The number of items an archive answer announces (body, else headers, else a full page per page). */
function itemCount(answer: SourceAnswer, totalPages: number, pageSize: number): number {
  const body = answer.body as { total?: unknown } | undefined;
  if (typeof body?.total === 'number' && Number.isSafeInteger(body.total) && body.total >= 0) return body.total;
  for (const name of ['x-tec-total', 'x-wp-total']) {
    const value = answer.headers.get(name);
    if (value !== null && /^\d+$/.test(value.trim())) return Number(value);
  }
  return totalPages * pageSize;
}
