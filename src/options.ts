import type { Kysely } from 'kysely';
import type { User } from './auth/capabilities.js';
import type { CoreRequest } from './http/types.js';
import type { CorsOptions, CorsPolicy } from './http/cors.js';
import type { CsrfGuard, CsrfOptions } from './http/csrf.js';
import type { Limits } from './http/limits.js';
import type { Dictionary } from './i18n/en.js';

/** How a host configures a calendar. */
export interface CalendarOptions {
  /**
   * The database: a Kysely instance of the host's (any supported dialect), or a
   * connection string for the built-in helper (`postgres://…`, `mysql://…`, a SQLite file).
   */
  db: Kysely<any> | string; // eslint-disable-line @typescript-eslint/no-explicit-any -- any host database type
  /** Prefix of the store's tables, so they never collide with the host's. Default `tec_`. */
  tablePrefix?: string;
  /** The REST namespace. Default `calendar/events/v1`; `tribe/events/v1` for clients of the original. */
  namespace?: string;
  /** Default `per_page` of every archive. Default 10. */
  perPage?: number;
  /** Largest `per_page` honoured (larger values are clamped). Default 50. */
  maxPerPage?: number;
  /** The site time zone (IANA name or `UTC±H`). Default `UTC`. */
  timezone?: string;
  /** The site's public home URL (`https://example.org`); absolute URLs are built from it. */
  baseUrl?: string;
  /**
   * Hosts images may be side-loaded from even when they resolve to loopback, private or
   * link-local addresses (by default only public addresses are fetched): `host` allows ports
   * 80 and 443 only; `host:port` or `[IPv6]:port` allows that one port.
   */
  imageHosts?: readonly string[];
  /** Without `baseUrl`: honour `X-Forwarded-Proto`/`X-Forwarded-Host` (only behind a trusted proxy). */
  trustProxy?: boolean;
  /** Who is calling: `null` for anonymous. Throw an `ApiError` to reject bad credentials. */
  getUser?: (request: CoreRequest) => User | null | Promise<User | null>;
  /** Whether a user id exists (for `author` fields). Default: any positive id. */
  userExists?: (id: number) => boolean | Promise<boolean>;
  /** Extra or overriding description dictionaries by locale. */
  dictionaries?: Record<string, Dictionary>;
  /** Bounds on what one request can make the calendar do (README "Limits"). */
  limits?: Partial<Limits>;
  /** Called with unexpected errors (answered as a JSON 500 without details). */
  onError?: (error: unknown) => void;
  /**
   * Reuse rendered answers to logged-out reads while the store is unchanged, for at most a
   * second (`http/response-cache.ts`; SQLite and PostgreSQL). `maxBytes` bounds the JSON kept
   * (default 16 MB); `false` turns it off.
   */
  responseCache?: false | { maxBytes?: number };
  /**
   * Which pages of other origins may read answers. Default: any origin, never with the
   * visitor's cookies; list origins to let them read with credentials; `false` sends no
   * `Access-Control-*` header (the host's own CORS middleware decides).
   */
  cors?: CorsOptions | false;
  /**
   * How writes authenticated by a cookie are protected from other sites: they need a nonce
   * (`X-WP-Nonce` / `_wpnonce`, from `calendar.createNonce`) or a trusted origin. `false` turns
   * the guard off (only for hosts that guard those writes themselves).
   */
  csrf?: CsrfOptions | false;
  /**
   * What `GET /doc` answers. `original` (the default): upstream's OpenAPI document as it is, for
   * its clients. `complete`: a document to generate a client from: the same paths and
   * parameters, every write with its JSON body, the JSON the API really answers, its errors and
   * the ways a host may authenticate callers.
   */
  doc?: 'original' | 'complete';
}

/** Options with every default applied. */
export interface ResolvedOptions {
  tablePrefix: string;
  namespace: string;
  perPage: number;
  maxPerPage: number;
  timezone: string;
  baseUrl?: string;
  imageHosts: readonly string[];
  trustProxy: boolean;
  getUser: (request: CoreRequest) => User | null | Promise<User | null>;
  userExists: (id: number) => boolean | Promise<boolean>;
  dictionaries: Record<string, Dictionary>;
  limits: Limits;
  onError: (error: unknown) => void;
  responseCache: false | { maxBytes: number };
  cors: CorsPolicy;
  csrf: CsrfGuard;
  doc: 'original' | 'complete';
}
