import type { Kysely } from 'kysely';
import { corsPolicy } from './http/cors.js';
import { csrfGuard } from './http/csrf.js';
import { resolveLimits } from './http/limits.js';
import { resolveZone } from './dates/index.js';
import { dispatch, type Core } from './http/pipeline.js';
import { ResponseCache } from './http/response-cache.js';
import type { CoreRequest, CoreResponse } from './http/types.js';
import type { CalendarOptions, ResolvedOptions } from './options.js';
import type { User } from './auth/capabilities.js';
import { ROUTES } from './resources/registry.js';
import { createServices, type Services } from './resources/services.js';
import { connectDatabase } from './store/connect.js';
import { Store, dropStore, migrateStore } from './store/index.js';

/** The routes of the API, in upstream registration order (`resources/registry.ts`). */
export { ROUTES };

/** A calendar: one store, its services, and the request handler every adapter calls. */
export interface Calendar {
  /** Answers one request; `null` when its path is outside the calendar's namespace. */
  handle(request: CoreRequest): Promise<CoreResponse | null>;
  /**
   * Runs one operation without HTTP (for typed callers such as the tRPC router): the same
   * routes, validation, permissions and errors, with parameters given as JSON values.
   */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /**
   * A nonce for the pages of a signed-in user whose requests the host authenticates by a
   * cookie: sent back as `X-WP-Nonce` (or `_wpnonce`), it lets their writes through the CSRF
   * guard. Pass the session the `csrf.session` option reads, if nonces are bound to sessions.
   */
  createNonce(user: User | number, session?: string): string;
  /** Creates or upgrades the store's tables. Call once at start (it is idempotent). */
  migrate(): Promise<void>;
  /** The business rules, for typed callers (the tRPC router, scripts, seeding). */
  services(): Promise<Services>;
  /** Drops the store's tables and their data (an uninstall; also used by tests). */
  uninstall(): Promise<void>;
  /** Closes the database connection if the calendar opened it. */
  close(): Promise<void>;
  readonly options: ResolvedOptions;
}

/** Parameters and caller of a {@link Calendar.call}. */
export interface CallOptions {
  params?: Record<string, unknown>;
  user?: User | null;
  locale?: string;
  /** The REST root URLs in responses are built with (default `/wp-json`). */
  root?: string;
}

/** The outcome of a {@link Calendar.call}: the status and JSON body an HTTP client would get. */
export interface CallResult {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The error of an option a host set wrong: which one, what it was, and what it takes. */
function invalidOption(name: string, value: unknown, takes: string): TypeError {
  return new TypeError(`calendar-events-rest: option \`${name}\` is ${JSON.stringify(value) ?? String(value)}; it takes ${takes}.`);
}

/** A whole number of at least 1, or the error naming the option. */
function positiveWhole(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalidOption(name, value, 'a whole number of at least 1');
  return value;
}

/**
 * The options as the calendar uses them, checked once here: a wrong value fails
 * `createCalendar` with a message naming the option, instead of every request later.
 */
function resolveOptions(o: CalendarOptions): ResolvedOptions {
  const perPage = positiveWhole('perPage', o.perPage ?? 10);
  const namespace = (o.namespace ?? 'calendar/events/v1').replace(/^\/+|\/+$/g, '');
  if (!/^[\w.~-]+(?:\/[\w.~-]+)*$/.test(namespace)) throw invalidOption('namespace', o.namespace, "a path such as 'calendar/events/v1' or 'tribe/events/v1'");
  const timezone = o.timezone ?? 'UTC';
  if (resolveZone(timezone) === undefined) throw invalidOption('timezone', o.timezone, "a time zone name such as 'Europe/Paris' or 'UTC', or an offset such as 'UTC+2'");
  if (o.baseUrl !== undefined && !/^https?:\/\/[^/?#\s]+/i.test(o.baseUrl)) throw invalidOption('baseUrl', o.baseUrl, "an absolute http(s) URL such as 'https://example.org'");
  const cors = corsPolicy(o.cors);
  const doc = o.doc ?? 'original';
  if (doc !== 'original' && doc !== 'complete') throw invalidOption('doc', o.doc, "'original' or 'complete'");
  return {
    tablePrefix: o.tablePrefix ?? 'tec_',
    namespace,
    perPage,
    maxPerPage: positiveWhole('maxPerPage', o.maxPerPage ?? 50),
    timezone,
    baseUrl: o.baseUrl,
    imageHosts: (o.imageHosts ?? []).map((h) => h.toLowerCase()),
    trustProxy: o.trustProxy ?? false,
    getUser: o.getUser ?? (() => null),
    userExists: o.userExists ?? ((id) => Number.isInteger(id) && id > 0),
    dictionaries: o.dictionaries ?? {},
    limits: resolveLimits(o.limits),
    // eslint-disable-next-line no-console -- the documented default of onError is console.error
    onError: o.onError ?? ((error) => console.error('[calendar] unexpected error:', error)),
    responseCache: o.responseCache === false ? false : { maxBytes: o.responseCache?.maxBytes ?? 16 * 1024 * 1024 },
    cors,
    csrf: csrfGuard(o.csrf, cors),
    doc,
  };
}

/** Creates a calendar over a database (a Kysely instance, or a connection string). */
export function createCalendar(options: CalendarOptions): Calendar {
  const resolved = resolveOptions(options);
  const ownsDb = typeof options.db === 'string';
  const raw: Promise<Kysely<unknown>> = typeof options.db === 'string' ? connectDatabase(options.db) : Promise.resolve(options.db as Kysely<unknown>);
  // Built once, on first use: connecting may be asynchronous (driver import).
  const core: Promise<Core> = raw.then((db) => {
    const store = Store.open(db, resolved.tablePrefix);
    const { responseCache } = resolved;
    return {
      options: resolved,
      services: createServices(store, resolved),
      routes: ROUTES,
      responses: responseCache ? { cache: new ResponseCache(responseCache.maxBytes), version: () => store.version() } : undefined,
    };
  });
  core.catch(() => undefined);
  return {
    options: resolved,
    handle: async (request) => dispatch(await core, request),
    call: async (method, path, { params = {}, user = null, locale, root = '/wp-json' } = {}) => {
      // Parameters travel as a pre-parsed JSON body, the highest-precedence source for every verb.
      const response = await dispatch(await core, {
        method,
        path: `/${resolved.namespace}${path.startsWith('/') ? path : `/${path}`}`,
        headers: { 'content-type': 'application/json' },
        body: params,
        root,
        locale,
        user,
      });
      if (!response) throw new Error(`No route for ${path}`);
      return { status: response.status, headers: response.headers, body: response.body === undefined ? undefined : JSON.parse(response.body) };
    },
    createNonce: (user, session) => resolved.csrf.createNonce(user, session),
    migrate: async () => migrateStore(await raw, resolved.tablePrefix),
    uninstall: async () => dropStore(await raw, resolved.tablePrefix),
    services: async () => (await core).services,
    close: async () => {
      if (ownsDb) await (await raw).destroy();
    },
  };
}
