/**
 * What a request's checks, permissions and handlers see, and the shape of the routes that
 * declare them. This is the bottom of the request's world: it names no resource and no option
 * set. The calendar fills in what its parts add ({@link ContextServices}, {@link ContextOptions})
 * by augmenting these interfaces from above (`resources/services.ts`, `options.ts`), as Fastify
 * and Hono let apps augment their context: layers point down (README "Architecture").
 */
import type { Description } from '../i18n/index.js';
import type { Args, ParamsOf } from '../args/arg.js';
import type { Principal, RoleGrants, User } from '../auth/capabilities.js';
import type { Dictionary } from '../i18n/en.js';
import type { CorsPolicy } from './cors.js';
import type { CsrfGuard } from './csrf.js';
import type { Limits } from './limits.js';
import type { Permalinks } from './permalinks.js';
import type { CoreRequest } from './types.js';
import type { Urls } from './urls.js';

/**
 * The calendar's services, as a request reaches them (`ctx.services`). Empty here: the
 * resources' composition fills it in (`resources/services.ts`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging from above
export interface ContextServices {}

/**
 * The calendar's options, as a request sees them (`ctx.options`): what the HTTP core itself
 * reads is declared here; the calendar's resolved options fill in the rest (`options.ts`).
 */
export interface ContextOptions {
  /** The REST namespace, `calendar/events/v1` by default. */
  namespace: string;
  /** The site's public URL, when set: every URL in answers is built on it. */
  baseUrl?: string;
  /** Whether `X-Forwarded-*` and `Forwarded` are read (the app sits behind a proxy it trusts). */
  trustProxy: boolean;
  /** Bounds of what one request may send (`http/limits.ts`). */
  limits: Limits;
  /** Items per archive page when the request names none. */
  perPage: number;
  /** Who is calling, when the mount does not say. */
  getUser: (request: CoreRequest) => User | null | Promise<User | null>;
  /** Whether a user id names a user (an `author` argument's check). */
  userExists: (id: number) => boolean | Promise<boolean>;
  /** Reports, once per name, a user role that grants nothing. */
  unknownRole: (role: string, user: User) => void;
  /** What the host's own roles grant (`auth/roles.ts`). */
  roles: RoleGrants;
  /** Extra or overriding description dictionaries by locale (`/doc`, the index). */
  dictionaries: Record<string, Dictionary>;
  /** Where unexpected errors go. */
  onError: (error: unknown) => void;
  /** `Cache-Control: max-age` of logged-out reads. */
  httpCache: { maxAge: number };
  cors: CorsPolicy;
  csrf: CsrfGuard;
  permalinks: Permalinks;
  /** Whether the REST root itself (`GET /wp-json/`) is answered. */
  rootIndex: boolean;
}

/**
 * A key of a {@link RequestMemo}: one per fact a request may resolve once (the terms a filter
 * names, the item a single route addresses). `V` is the type of what it keeps.
 */
export class MemoKey<V> {
  /** Ties the key to the type of what it keeps (nothing is stored in it). */
  declare private readonly kept?: V;

  /** `name` says what is kept (for a reader, and in a debugger). */
  constructor(readonly name: string) {}
}

/**
 * What one request has resolved, by key: a check that looked something up keeps it here for
 * the permission check and the handler of the same request, which then do not look it up again.
 * One per request, shared by every stage of it (the contexts they see are copies of one), never
 * by two requests; a read of another path (`read`) is a request of its own.
 */
export class RequestMemo {
  private readonly values = new Map<MemoKey<unknown>, unknown>();

  /** What is kept under `key`, made by `make` the first time this request asks for it. */
  get<V>(key: MemoKey<V>, make: () => V): V {
    // Only this method stores under a key, with a value of the key's type.
    if (this.values.has(key)) return this.values.get(key) as V;
    const value = make();
    this.values.set(key, value);
    return value;
  }
}

/** HTTP verbs the API registers handlers for. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Everything a request's checks, permissions and handlers may use. */
export interface RequestContext {
  options: ContextOptions;
  services: ContextServices;
  principal: Principal | null;
  urls: Urls;
  locale: string;
  /** The verb after method override (`HEAD` is answered by `GET` handlers as `GET`). */
  method: string;
  /**
   * The request's instant, so that one request sees one "now". Reading it marks the answer as
   * depending on the clock (a kept answer then lasts one second: `http/response-cache.ts`).
   */
  now(): Date;
  /** A parameter as sent (first non-null source), declared or not. */
  input(name: string): unknown;
  /** Whether the client sent a parameter (JSON, form body or query; even as `null`). */
  sent(name: string): boolean;
  /** A capture of the route's path (`id`, `slug`), as matched. */
  path(name: string): string | undefined;
  /** The routes of the calendar, for the namespace index and `/doc`. */
  routes: readonly Route[];
  /**
   * The store's version (`store/version.ts`), read once per request when first asked:
   * whatever is kept under it must be derived from rows read after it.
   */
  version(): Promise<string | undefined>;
  /**
   * Whether this write is conditional (`If-Match`, `If-Unmodified-Since`, checked before the
   * handler): its transaction then also requires the item to be as it was read.
   */
  conditional: boolean;
  /**
   * A read of another path of the namespace (`/events/12`) by the same caller on the same
   * mount, answered as the pipeline answers it: its status and JSON body.
   */
  read(path: string): Promise<{ status: number; body: unknown }>;
  /** What this request has resolved so far, for its later stages ({@link RequestMemo}). */
  memo: RequestMemo;
}

/** What a handler answers: a JSON value, with a status (default 200) and extra headers. */
export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What handlers and permission checks receive. */
export interface HandlerContext<A extends Args<RequestContext>> extends RequestContext {
  params: ParamsOf<A>;
}

/** One verb group of a route: its arguments, who may call it, and what it does. */
export interface Endpoint<A extends Args<RequestContext> = Args<RequestContext>> {
  methods: readonly Method[];
  args: A;
  /**
   * Whether the caller may use this endpoint. Also run for the `Allow` header of a request
   * matched to a sibling endpoint, so it must cope with arguments it did not declare.
   */
  permission?: (ctx: HandlerContext<A>) => boolean | Promise<boolean>;
  handler: (ctx: HandlerContext<A>) => Reply | Promise<Reply>;
}

/** A route: its upstream pattern (relative to the namespace) and its endpoints in registration order. */
export interface Route {
  /** E.g. `/categories/(?P<id>\d+)`; `""` for the namespace index itself. */
  pattern: string;
  endpoints: Endpoint[];
  /** Whether the pattern has path parameters (such routes get no `_links` in the index). */
  hasCaptures: boolean;
  regex: RegExp;
  /**
   * Whether its answers come from the primary even with read replicas (README "Read replicas"):
   * they are checked against state a client carries from another node (a sync token).
   */
  primaryOnly?: boolean;
  /** A route the host added (`http/host-routes.ts`), with what `/doc` says of it. */
  host?: { description?: Description };
}
