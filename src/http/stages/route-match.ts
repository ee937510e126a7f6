/**
 * Match: which route of the namespace a request addresses, the verb it stands for, and the
 * endpoint that answers that verb.
 */
import type { Endpoint, Route } from '../context.js';
import { noRoute } from '../errors.js';
import { headerValue } from '../header-value.js';
import { cleanText, parseBracketString, type ParamMap } from '../params.js';
import type { CoreRequest } from '../types.js';
import type { Exchange } from './exchange.js';

/** A route a request matched: its path captures, and the request's query. */
export interface Matched {
  route: Route;
  captures: ParamMap;
  query: ParamMap;
}

function decodePath(path: string): string {
  // Most paths hold no escape: every request decodes its path up to three times (is it ours,
  // must the primary answer, which route).
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

/** The part of `path` below the namespace (`""` for the namespace itself), or `null` when outside it. */
export function underNamespace(path: string, namespace: string): string | null {
  const query = path.indexOf('?');
  let p = decodePath(query < 0 ? path : path.slice(0, query));
  if (!p.startsWith('/')) p = `/${p}`;
  if (p.length > 1 && p.endsWith('/')) p = p.replace(/\/+$/, '');
  const ns = `/${namespace}`;
  const lower = p.toLowerCase();
  const nsLower = ns.toLowerCase();
  if (lower === nsLower) return '';
  if (lower.startsWith(nsLower) && lower.charCodeAt(nsLower.length) === 0x2f /* / */) return p.slice(ns.length);
  return null;
}

/** A read of the REST root itself (`GET /wp-json/`). */
export function isRoot(req: CoreRequest): boolean {
  return /^\/*$/.test(req.path.split('?')[0] ?? '') && ['GET', 'HEAD'].includes(req.method.toUpperCase());
}

/** The route that answers `rest` (the first whose pattern matches it). */
export function routeAt(routes: readonly Route[], rest: string): Route | undefined {
  return routes.find((route) => route.regex.test(rest));
}

/**
 * The verb a request stands for: `_method` or `X-HTTP-Method-Override` on a POST (clients
 * that can only POST), never on another verb. A GET or HEAD that could delete would let any
 * link or image on any page act with the visitor's cookies.
 */
function overriddenMethod(req: CoreRequest, query: ParamMap): string {
  const method = req.method.toUpperCase();
  if (method !== 'POST') return method;
  const fromQuery = query._method;
  const override = typeof fromQuery === 'string' && fromQuery ? fromQuery : headerValue(req.headers, 'x-http-method-override');
  return (override || method).toUpperCase();
}

/** A match's named groups as parameters, cleaned as every parameter is (`cleanText`). */
function captures(m: RegExpExecArray): ParamMap {
  return Object.fromEntries(Object.entries(m.groups ?? {}).map(([name, value]) => [name, value === undefined ? value : cleanText(value)]));
}

/** Reads the query, settles the verb (`x.method`) and matches the route; `404 rest_no_route` when none does. */
export function matchRoute(x: Exchange): Matched {
  const query = parseBracketString(x.req.query ?? '', x.core.options.limits);
  x.method = overriddenMethod(x.req, query);
  for (const route of x.core.routes) {
    const m = route.regex.exec(x.rest);
    if (m) return { route, captures: captures(m), query };
  }
  throw noRoute();
}

/** The endpoint of `route` that answers `verb` (`HEAD` is answered as `GET`); `404 rest_no_route` when none does. */
export function endpointFor(route: Route, verb: string): Endpoint {
  for (const endpoint of route.endpoints) {
    const methods: readonly string[] = endpoint.methods;
    if (methods.includes(verb)) return endpoint;
  }
  throw noRoute();
}
