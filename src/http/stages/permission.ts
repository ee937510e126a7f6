/**
 * Permit: whether the caller may use the endpoint, and which verbs of the route it may use
 * (the `Allow` header, and the answer to `OPTIONS`).
 */
import type { Args } from '../../args/arg.js';
import type { Endpoint, HandlerContext, RequestContext, Route } from '../context.js';
import { ApiError, forbidden } from '../errors.js';
import { commonHeaders } from '../headers.js';
import { routeObject } from '../route-description.js';
import type { CoreResponse } from '../types.js';
import type { Urls } from '../urls.js';
import type { Exchange } from './exchange.js';
import { callerHeadersOf, respond } from './render.js';
import type { Matched } from './route-match.js';
import { requestContext, type PathReader, type Sources } from './request-context.js';
import { merged } from '../../merged.js';

type AnyHandlerContext = HandlerContext<Args<RequestContext>>;

/** The verbs of the matched route whose permission check passes for this caller. */
async function allowedMethods(route: Route, ctx: AnyHandlerContext): Promise<string> {
  const verbs: string[] = [];
  for (const e of route.endpoints) {
    let ok = true;
    if (e.permission) {
      try {
        ok = await e.permission(ctx);
      } catch {
        ok = false;
      }
    }
    if (ok) verbs.push(...e.methods);
  }
  return verbs.join(', ');
}

/**
 * The context the endpoint's permission check and handler share, once the caller may use it.
 * The `Allow` header (`x.allow`) is set first, so that a refusal for bad parameters
 * (`checked`, an `ApiError`) carries it too.
 */
export async function permit(
  x: Exchange,
  route: Route,
  endpoint: Endpoint,
  ctx: RequestContext,
  checked: Record<string, unknown> | ApiError,
): Promise<AnyHandlerContext> {
  const hctx: AnyHandlerContext = merged(ctx, { params: checked instanceof ApiError ? {} : checked });
  x.allow = await allowedMethods(route, hctx);
  if (checked instanceof ApiError) throw checked;
  if (endpoint.permission && !(await endpoint.permission(hctx))) throw forbidden(x.principal !== null);
  return hctx;
}

/** The answer to `OPTIONS`: the route described as the index describes it, with the verbs this caller may use. */
export async function answerOptions(x: Exchange, urls: Urls, matched: Matched, read: PathReader): Promise<CoreResponse> {
  const sources: Sources = { json: {}, body: {}, query: matched.query, path: matched.captures, defaults: {} };
  const ctx = requestContext(x, urls, 'GET', sources, read);
  x.allow = await allowedMethods(matched.route, { ...ctx, params: {} });
  const headers = { ...commonHeaders(urls, x.core.options.cors), Allow: x.allow, ...callerHeadersOf(x) };
  return respond(200, headers, routeObject(matched.route, ctx), false);
}
