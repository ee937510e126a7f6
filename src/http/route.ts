import type { Args, ParamsOf } from '../args/arg.js';
import type { RequestContext } from '../context.js';

/** HTTP verbs the API registers handlers for. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** WordPress' verb groups. */
export const READABLE = ['GET'] as const satisfies readonly Method[];
export const CREATABLE = ['POST'] as const satisfies readonly Method[];
export const EDITABLE = ['POST', 'PUT', 'PATCH'] as const satisfies readonly Method[];
export const DELETABLE = ['DELETE'] as const satisfies readonly Method[];

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
}

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
