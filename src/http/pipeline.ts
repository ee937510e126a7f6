/**
 * The request pipeline: one request through named stages (`http/stages/`) over one state object
 * (`Exchange`), in the order README "Architecture" lists them. The stages never call the
 * pipeline; the reads it makes of itself for a request's caller (the REST root's index, a
 * write's preconditions, `ctx.read`) are here, with it.
 */
import { checkPreconditions, entityTag, type CurrentRepresentation } from './conditional.js';
import type { ContextOptions } from './context.js';
import { bodyBytes } from './raw-json.js';
import { readBody } from './params.js';
import type { CoreRequest, CoreResponse } from './types.js';
import { urlsFor } from './urls.js';
import { cachedAnswer, claimAnswer, settleAnswer } from './stages/answer-cache.js';
import { authenticate, guardCookies } from './stages/caller.js';
import { exchange, type Core } from './stages/exchange.js';
import { failure } from './stages/failure.js';
import { checkParams } from './stages/param-checks.js';
import { answerOptions, permit } from './stages/permission.js';
import { readAnswer, render, send } from './stages/render.js';
import { requestContext, type PathReader, type Sources } from './stages/request-context.js';
import { endpointFor, isRoot, matchRoute, routeAt, underNamespace } from './stages/route-match.js';

export type { Core } from './stages/exchange.js';
export { failedStart, isUnavailableAnswer } from './stages/failure.js';

/**
 * Runs one request through the pipeline; `null` when the path is outside the namespace.
 * `version` is the store version when the caller has read it already (on the node `core`
 * stands for: a replica read is routed by it).
 */
export async function dispatch(core: Core, req: CoreRequest, version?: Promise<string | undefined>): Promise<CoreResponse | null> {
  const rest = underNamespace(req.path, core.options.namespace);
  if (rest === null) return core.options.rootIndex && isRoot(req) ? answerRoot(core, req) : null;
  const x = exchange(core, req, rest, version);
  try {
    const urls = await authenticate(x);
    const kept = await cachedAnswer(x, urls);
    if (kept) return kept;
    const matched = matchRoute(x);
    claimAnswer(x);
    if (x.method === 'OPTIONS') return await answerOptions(x, urls, matched, readPath);
    const verb = x.method === 'HEAD' ? 'GET' : x.method;
    const endpoint = endpointFor(matched.route, verb);
    const body = await readBody(req, verb, core.options.limits);
    guardCookies(x, urls, verb, matched.query, body);
    const sources: Sources = { json: body.json, body: body.body, query: matched.query, path: matched.captures, defaults: {} };
    const ctx = requestContext(x, urls, verb, sources, readPath);
    const checked = await checkParams(endpoint, ctx, sources, body.jsonError);
    const hctx = await permit(x, matched.route, endpoint, ctx, checked);
    if (ctx.conditional) await preconditions(core, req);
    const reply = await endpoint.handler(hctx);
    const rendered = render(x, urls, verb, reply);
    settleAnswer(x, rendered);
    return send(x, verb, rendered);
  } catch (error) {
    return failure(x, error);
  } finally {
    settleAnswer(x, undefined);
  }
}

/** Whether `dispatch` answers `req` (a path in the namespace, or the REST root's index). */
export function answers(options: ContextOptions, req: CoreRequest): boolean {
  return underNamespace(req.path, options.namespace) !== null || (options.rootIndex && isRoot(req));
}

/** Whether `req` addresses a route whose answers must come from the primary (`Route.primaryOnly`). */
export function needsPrimary(core: Core, req: CoreRequest): boolean {
  const rest = underNamespace(req.path, core.options.namespace);
  return rest !== null && routeAt(core.routes, rest)?.primaryOnly === true;
}

/** Request headers that would change what a plain read of the same URL answers. */
const NOT_FORWARDED = new Set([
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'x-http-method-override',
  'content-type',
  'content-length',
]);

/** A plain `GET` of `path` by the caller of `req`, on its mount: no query, body or conditions. */
function plainRead(req: CoreRequest, path: string): CoreRequest {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase())));
  return { ...req, method: 'GET', path, query: '', body: undefined, headers };
}

/** `ctx.read`: a path of the namespace read as its caller would read it. */
const readPath: PathReader = async (core, req, path) => {
  const answer = await dispatch(core, plainRead(req, `/${core.options.namespace}${path}`));
  if (!answer) return { status: 404, body: undefined };
  return { status: answer.status, body: answer.body === undefined ? undefined : JSON.parse(Buffer.from(answer.body).toString('utf8')) };
};

/**
 * Checks a conditional write's preconditions against what a read of its URL answers its caller
 * now (the same pipeline, caller and mount, so the tag is the one that caller was given). After
 * the permission check, which read the item a write addresses: a write that changes it before
 * this write's transaction is seen there (`posts/write-target.ts`).
 */
async function preconditions(core: Core, req: CoreRequest): Promise<void> {
  const read = await dispatch(core, plainRead(req, req.path));
  const current: CurrentRepresentation = !read
    ? { status: 404 }
    : read.status === 200
      ? { status: 200, etag: read.headers.ETag, lastModified: read.headers['Last-Modified'] }
      : { status: read.status };
  checkPreconditions(req.headers, current);
}

/** The root index, built on the namespace index (same caller, headers and errors), tagged by its own bytes. */
async function answerRoot(core: Core, req: CoreRequest): Promise<CoreResponse | null> {
  const inner = await dispatch(core, plainRead(req, `/${core.options.namespace}`));
  if (!inner || inner.status !== 200 || inner.body === undefined) return inner;
  const urls = urlsFor(req, core.options.namespace, core.options.baseUrl, core.options.trustProxy);
  if (!core.root) return null;
  const body = bodyBytes(core.root(JSON.parse(Buffer.from(inner.body).toString('utf8')), urls, new Date()));
  return readAnswer(req, 200, { ...inner.headers, ETag: entityTag(body) }, body, req.method.toUpperCase() === 'HEAD');
}
