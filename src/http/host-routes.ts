/**
 * Routes a host adds inside the calendar's namespace (README "Extending: routes"): declared with
 * `arg()` like the calendar's own, checked, permitted and answered by the same pipeline, listed
 * in the namespace index and `/doc`, mounted by every adapter with the rest.
 */
import type { Args } from '../args/arg.js';
import type { Description } from '../i18n/index.js';
import type { HandlerContext, Method, Reply, RequestContext, Route } from './context.js';
import { endpoint, route } from './route.js';

/** One verb (or several) of a host's route. */
export interface HostEndpoint<A extends Args<RequestContext>> {
  methods: readonly Method[];
  /** Its arguments, declared with `arg()`: checked before the handler runs, as every route's are. */
  args?: A;
  /** Whether the caller may use it (default: anyone). */
  permission?: (ctx: HandlerContext<A>) => boolean | Promise<boolean>;
  /** Its answer: a JSON body, with a status (default 200) and headers. */
  handler: (ctx: HandlerContext<A>) => Reply | Promise<Reply>;
}

/** A host's route, as `calendarRoute` takes it. */
export interface HostRouteDeclaration<A extends Args<RequestContext>> extends HostEndpoint<A> {
  /**
   * Its path under the namespace, as WordPress writes route patterns: `/stats`,
   * `/stats/(?P<year>\d{4})` (a capture is a path parameter of that name).
   */
  path: string;
  /** What it does, for `/doc`: a text, or texts by locale. */
  description?: Description;
}

/** What `/doc` says of a host's route. */
export interface HostRouteDoc {
  description?: Description;
}

/** A route path: segments of letters, digits, `-`, `_`, `.`, or WordPress captures. */
const HOST_PATH = /^(?:\/(?:[\w.-]+|\(\?P<\w+>[^)]+\)))+$/;

/** Declares a host's route: `calendarRoute({ path: '/stats', methods: ['GET'], handler: (ctx) => ({ body: … }) })`. */
export function calendarRoute<A extends Args<RequestContext> = Record<never, never>>(declaration: HostRouteDeclaration<A>): Route {
  const { path, description, methods, args, permission, handler } = declaration;
  if (typeof path !== 'string' || !HOST_PATH.test(path)) {
    throw new Error(`calendar-events-rest: calendarRoute: the path '${String(path)}' is not a route path such as '/stats' or '/stats/(?P<year>\\d{4})'`);
  }
  if (typeof handler !== 'function') throw new Error(`calendar-events-rest: calendarRoute ${path}: 'handler' must be a function (ctx) => ({ body })`);
  const declared = endpoint<A>({ methods, args: args ?? ({} as A), permission, handler });
  return { ...route(path, [declared]), host: { description } };
}

/** The calendar's routes and the host's: a host route may not take a built-in route's path. */
export function withHostRoutes(routes: readonly Route[], host: readonly Route[]): readonly Route[] {
  if (!host.length) return routes;
  const taken = new Set(routes.map((r) => r.pattern));
  for (const r of host) {
    if (!r.host) throw new Error('calendar-events-rest: routes: each route must be made with calendarRoute()');
    if (taken.has(r.pattern)) throw new Error(`calendar-events-rest: routes: ${r.pattern} is already a route of the calendar`);
    taken.add(r.pattern);
  }
  return [...routes, ...host];
}
