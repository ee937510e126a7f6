/** Declaring routes and their endpoints (their types are the request context's: `http/context.ts`). */
import type { Args } from '../args/arg.js';
import type { Endpoint, HandlerContext, Method, RequestContext, Route } from './context.js';

export type { Endpoint, HandlerContext, Method, Reply, Route } from './context.js';

/** WordPress' verb groups. */
export const READABLE = ['GET'] as const satisfies readonly Method[];
export const CREATABLE = ['POST'] as const satisfies readonly Method[];
export const EDITABLE = ['POST', 'PUT', 'PATCH'] as const satisfies readonly Method[];
export const DELETABLE = ['DELETE'] as const satisfies readonly Method[];

/**
 * Declares an endpoint, keeping its argument types for its handler and permission check. The
 * route list holds endpoints of every argument set alike; the pipeline builds `params` from
 * `e.args` themselves (required, check and type passes), which is what makes them `ParamsOf<A>`.
 */
export function endpoint<A extends Args<RequestContext>>(e: Endpoint<A>): Endpoint {
  // The same object, typed (not a copy): what a request's permission checks and handler keep
  // per context (the event a single route reads once) must be found by both.
  const typed = (ctx: HandlerContext<Args<RequestContext>>): HandlerContext<A> => ctx as HandlerContext<A>;
  const { permission, handler } = e;
  return {
    methods: e.methods,
    args: e.args,
    permission: permission && ((ctx) => permission(typed(ctx))),
    handler: (ctx) => handler(typed(ctx)),
  };
}

/** Declares a route from its upstream regex pattern (`(?P<id>\d+)` groups). */
export function route(pattern: string, endpoints: Endpoint[], { primaryOnly = false }: { primaryOnly?: boolean } = {}): Route {
  const source = pattern.replace(/\(\?P</g, '(?<');
  return { pattern, endpoints, hasCaptures: /\(\?P</.test(pattern), regex: new RegExp(`^${source}$`, 'i'), ...(primaryOnly ? { primaryOnly } : {}) };
}
