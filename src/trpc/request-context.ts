/**
 * The tRPC context built from an HTTP request, for serving the calendar's router with one of
 * tRPC's adapters: `createNodeContext` for the Node ones (`standalone` / `node-http`, Express,
 * Fastify), `createFetchContext` for the Fetch one (Next.js route handlers, Hono, Bun, Deno,
 * workers). The caller comes from the host's `getUser` as the REST mounts get it, and a write
 * authenticated by a cookie passes the calendar's CSRF guard as a REST write does: without a
 * nonce or a trusted origin it runs as nobody, since tRPC's own transport takes form posts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Calendar } from '../calendar.js';
import { toPrincipal, type User } from '../auth/capabilities.js';
import { ApiError } from '../http/errors.js';
import type { CoreRequest, Headers } from '../http/types.js';
import { urlsFor } from '../http/urls.js';
import type { CalendarContext } from './context.js';
import { toTRPCError } from './errors.js';

/** How a context is made from a request of type `R`. */
export interface RequestContextOptions<R> {
  /**
   * The caller of a request, typed with the framework's request (the mount's `getUser` of the
   * REST adapters); by default the calendar's own `getUser`, given the request as the core sees it.
   */
  getUser?: (request: R) => User | null | Promise<User | null>;
  /** The language of descriptions (`index`, `doc`): a locale, or one read from the request. */
  locale?: string | ((request: R) => string | undefined);
  /** The REST root URLs in answers are built with (default `/wp-json`): where the REST API is mounted, if it is. */
  root?: string;
}

/** What tRPC's Node adapters hand `createContext` as `req`: Node's request, or Fastify's, which has the same fields. */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  /** Node's socket, whose `encrypted` says the request came over TLS (Fastify's request has one too). */
  socket?: unknown;
}

/** Whether a Node socket is a TLS one. */
const overTls = (socket: unknown) => typeof socket === 'object' && socket !== null && 'encrypted' in socket && socket.encrypted === true;

/** The host's getUser answer, refusals (a bad token's 401) as tRPC errors the client can read. */
async function userOf<R>(calendar: Pick<Calendar, 'options'>, request: R, core: CoreRequest, options: RequestContextOptions<R>): Promise<User | null> {
  try {
    return await (options.getUser ? options.getUser(request) : calendar.options.getUser(core));
  } catch (error) {
    throw error instanceof ApiError ? toTRPCError(error) : error;
  }
}

/**
 * The caller a request may act as: a write (tRPC's POST) authenticated by a cookie needs a
 * nonce (`X-WP-Nonce`, `_wpnonce`) or an origin the calendar trusts, exactly as over REST;
 * without either it is anonymous, and a wrong nonce is refused (403).
 */
function guarded(calendar: Pick<Calendar, 'options'>, core: CoreRequest, user: User | null): User | null {
  if (!user || core.method === 'GET') return user;
  const { options } = calendar;
  const principal = toPrincipal(user, options.unknownRole, options.roles);
  const urls = urlsFor(core, options.namespace, options.baseUrl, options.trustProxy, options.permalinks);
  const query = Object.fromEntries(new URLSearchParams(core.query ?? ''));
  let verdict;
  try {
    verdict = options.csrf.check(core, principal, [query], urls);
  } catch (error) {
    throw error instanceof ApiError ? toTRPCError(error) : error;
  }
  return verdict.principal === null ? null : user;
}

/** A context from the parts of a request, whatever the framework. */
async function contextOf<R>(
  calendar: Pick<Calendar, 'options'>,
  request: R,
  parts: { method: string; url: string; headers: Headers; protocol: 'http' | 'https' },
  options: RequestContextOptions<R>,
): Promise<CalendarContext> {
  const url = new URL(parts.url, 'http://localhost');
  const core: CoreRequest = {
    method: parts.method.toUpperCase(),
    path: url.pathname,
    query: url.search.slice(1),
    headers: parts.headers,
    protocol: parts.protocol,
    root: options.root ?? '/wp-json',
  };
  const user = guarded(calendar, core, await userOf(calendar, request, core, options));
  const locale = typeof options.locale === 'function' ? options.locale(request) : options.locale;
  return { user, locale, root: options.root, headers: parts.headers, protocol: parts.protocol };
}

/**
 * `createContext` for tRPC's Node adapters: `createHTTPServer` / `createHTTPHandler`
 * (`@trpc/server/adapters/standalone`), `createExpressMiddleware` (`…/express`) and
 * `fastifyTRPCPlugin` (`…/fastify`), which all hand it `{ req }`.
 */
export function createNodeContext<R extends NodeRequestLike = NodeRequestLike>(
  calendar: Pick<Calendar, 'options'>,
  options: RequestContextOptions<R> = {},
): (opts: { req: R }) => Promise<CalendarContext> {
  return ({ req }) =>
    contextOf(
      calendar,
      req,
      { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, protocol: overTls(req.socket) ? 'https' : 'http' },
      options,
    );
}

/**
 * `createContext` for tRPC's Fetch adapter (`fetchRequestHandler` from
 * `@trpc/server/adapters/fetch`: Next.js route handlers, Hono, Bun, Deno, workers), which hands it `{ req }`.
 */
export function createFetchContext(
  calendar: Pick<Calendar, 'options'>,
  options: RequestContextOptions<Request> = {},
): (opts: { req: Request }) => Promise<CalendarContext> {
  return ({ req }) =>
    contextOf(
      calendar,
      req,
      { method: req.method, url: req.url, headers: Object.fromEntries(req.headers), protocol: new URL(req.url).protocol === 'https:' ? 'https' : 'http' },
      options,
    );
}
