import { runCheck, typeFailure, type Arg, type Args } from '../args/arg.js';
import { toPrincipal, type Principal } from '../auth/capabilities.js';
import type { ContextOptions, ContextServices, RequestContext } from './context.js';
import { ApiError, apiError, forbidden, invalidParams, missingParams, noRoute } from './errors.js';
import { INVALID_PARAMETER, type ParamFailure } from '../args/failure.js';
import { callerHeaders } from './cors.js';
import { commonHeaders } from './headers.js';
import { headerValue } from './header-value.js';
import { limitFailure } from './limits.js';
import { isDatabaseUnavailable } from '../store/unavailable.js';
import { cleanStrings, parseBracketString, readBody, type ParamMap } from './params.js';
import { routeObject } from './route-description.js';
import { bodyBytes } from './raw-json.js';
import { checkPreconditions, entityTag, hasPrecondition, notModified, notModifiedHeaders, type CurrentRepresentation } from './conditional.js';
import type { Endpoint, HandlerContext, Reply, Route } from './route.js';
import type { CoreRequest, CoreResponse } from './types.js';
import { urlsFor, type Urls } from './urls.js';
import type { ResponseCache, Settle } from './response-cache.js';

/** What the pipeline needs of a calendar. */
export interface Core {
  options: ContextOptions;
  services: ContextServices;
  routes: readonly Route[];
  /**
   * The REST root's index (`GET /wp-json/`) built on the namespace index's JSON, when
   * `rootIndex` is on: given by the calendar, which knows what the site says of itself.
   */
  root?: (index: unknown, urls: Urls, now: Date) => unknown;
  /** The store's version now (`store/version.ts`); `undefined` where the dialect has none. */
  version: () => Promise<string | undefined>;
  /** Rendered logged-out reads, kept under the store version; absent when off. */
  responses?: { cache: ResponseCache };
}

type Sources = { json: ParamMap; body: ParamMap; query: ParamMap; path: ParamMap; defaults: ParamMap };
const ORDER = ['json', 'body', 'query', 'path', 'defaults'] as const;

function decodePath(path: string): string {
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
function underNamespace(path: string, namespace: string): string | null {
  let p = decodePath(path.split('?')[0]!);
  if (!p.startsWith('/')) p = `/${p}`;
  if (p.length > 1) p = p.replace(/\/+$/, '');
  const ns = `/${namespace}`;
  if (p.toLowerCase() === ns.toLowerCase()) return '';
  if (p.toLowerCase().startsWith(`${ns.toLowerCase()}/`)) return p.slice(ns.length);
  return null;
}

/** A read of the REST root itself (`GET /wp-json/`). */
function isRoot(req: CoreRequest): boolean {
  return /^\/*$/.test(req.path.split('?')[0]!) && ['GET', 'HEAD'].includes(req.method.toUpperCase());
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

function match(routes: readonly Route[], rest: string): { route: Route; captures: ParamMap } | undefined {
  for (const route of routes) {
    const m = route.regex.exec(rest);
    if (m) return { route, captures: cleanStrings({ ...(m.groups ?? {}) }) as ParamMap };
  }
  return undefined;
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

function bodySize(body: CoreRequest['body']): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  return body instanceof Uint8Array ? body.byteLength : 0;
}

/** Whether the request carries parameters in a body (raw, or already parsed by the host). */
function hasBody(body: CoreRequest['body']): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body === 'string' || body instanceof Uint8Array) return bodySize(body) > 0;
  return Array.isArray(body) ? body.length > 0 : Object.keys(body).length > 0;
}

/** Whether the client asks for an answer computed now (`Cache-Control: no-cache`, or HTTP/1.0's `Pragma`). */
function wantsFresh(headers: CoreRequest['headers']): boolean {
  return [headers['cache-control'], headers.pragma].flat().some((v) => v !== undefined && /\bno-cache\b/i.test(v));
}

/**
 * Where a logged-out read's answer may be kept (`http/response-cache.ts`): the store version
 * and the key (everything the answer is computed from: mount URLs, locale, path and query).
 * Anything else (a caller, a body, another verb) is computed every time.
 */
async function cacheSlot(core: Core, req: CoreRequest, method: string, principal: Principal | null, urls: Urls, rest: string, storeVersion: () => Promise<string | undefined>) {
  if (!core.responses || principal !== null || (method !== 'GET' && method !== 'HEAD') || hasBody(req.body)) return undefined;
  const version = await storeVersion();
  if (version === undefined) return undefined;
  return { cache: core.responses.cache, version, key: `${urls.root}\n${req.locale ?? 'en'}\n${rest}\n${req.query ?? ''}`, fresh: wantsFresh(req.headers) };
}

/** The request's instant, and whether anything read it. */
interface Clock {
  now: Date;
  read: boolean;
}

/**
 * A computed or kept answer as sent: `304` with its headers and no body when it is a read the
 * client already holds (`If-None-Match`, `If-Modified-Since`), else as it is.
 */
function readAnswer(req: CoreRequest, status: number, headers: Record<string, string>, body: Uint8Array, head: boolean): CoreResponse {
  const tag = headers.ETag;
  if (status === 200 && tag !== undefined && notModified(req.headers, tag, headers['Last-Modified'])) {
    return { status: 304, headers: notModifiedHeaders(headers), body: undefined };
  }
  return { status, headers, body: head ? undefined : body };
}

/** Request headers that would change what a plain read of the same URL answers. */
const NOT_FORWARDED = new Set(['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'x-http-method-override', 'content-type', 'content-length']);

/** A plain `GET` of `path` by the caller of `req`, on its mount: no query, body or conditions. */
function plainRead(req: CoreRequest, path: string): CoreRequest {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase())));
  return { ...req, method: 'GET', path, query: '', body: undefined, headers };
}

/**
 * What a read of the write's URL answers its caller now (tag and date), for its preconditions:
 * the same pipeline, caller and mount, so the tag is the one that caller was given.
 */
async function currentRepresentation(core: Core, req: CoreRequest): Promise<CurrentRepresentation> {
  const read = await dispatch(core, plainRead(req, req.path));
  if (!read) return { status: 404 };
  return read.status === 200 ? { status: 200, etag: read.headers.ETag, lastModified: read.headers['Last-Modified'] } : { status: read.status };
}

function respond(status: number, headers: Record<string, string>, body: unknown, head: boolean): CoreResponse {
  return { status, headers, body: head ? undefined : bodyBytes(body) };
}

/** Answers that say the store could not be reached (`isUnavailableAnswer`). */
const UNAVAILABLE = new WeakSet<CoreResponse>();

/** Whether `dispatch` answered 503 because the store of its node could not be reached (another node may answer). */
export function isUnavailableAnswer(response: CoreResponse | null): boolean {
  return response !== null && UNAVAILABLE.has(response);
}

function errorBody(error: unknown, options: ContextOptions): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError('rest_service_unavailable', 'The calendar store is unavailable; try again shortly.', { status: 503 });
  }
  options.onError(error);
  return new ApiError('rest_internal_error', 'The server could not complete the request.', { status: 500 });
}

/**
 * The answer to a request the calendar cannot serve at all (its store did not open, or its
 * tables are not set up): the error in the API's shape; `null` outside the namespace.
 */
export function failedStart(options: ContextOptions, req: CoreRequest, error: unknown): CoreResponse | null {
  if (underNamespace(req.path, options.namespace) === null) return null;
  const e = errorBody(error, options);
  const method = req.method.toUpperCase();
  return respond(e.status, { ...commonHeaders(undefined, options.cors), ...callerHeaders(req.headers, method, null, options.cors) }, e.toJSON(), method === 'HEAD');
}

/** Whether `dispatch` answers `req` (a path in the namespace, or the REST root's index). */
export function answers(options: ContextOptions, req: CoreRequest): boolean {
  return underNamespace(req.path, options.namespace) !== null || (options.rootIndex && isRoot(req));
}

/** Whether `req` addresses a route whose answers must come from the primary (`Route.primaryOnly`). */
export function needsPrimary(core: Core, req: CoreRequest): boolean {
  const rest = underNamespace(req.path, core.options.namespace);
  return rest !== null && match(core.routes, rest)?.route.primaryOnly === true;
}

/**
 * Runs one request through the pipeline; `null` when the path is outside the namespace.
 * `version` is the store version when the caller has read it already (on the node `core`
 * stands for: a replica read is routed by it).
 */
export async function dispatch(core: Core, req: CoreRequest, version?: Promise<string | undefined>): Promise<CoreResponse | null> {
  const { options } = core;
  const rest = underNamespace(req.path, options.namespace);
  if (rest === null) return options.rootIndex && isRoot(req) ? answerRoot(core, req) : null;

  const clock: Clock = { now: new Date(), read: false };
  const second = Math.floor(clock.now.getTime() / 1000);
  let urls: Urls | undefined;
  let principal: Principal | null = null;
  let method = req.method.toUpperCase();
  let allow: string | undefined;
  const head = () => method === 'HEAD';
  // CORS and caching headers follow the verb of the request line, not an override
  // (WordPress reads `$_SERVER['REQUEST_METHOD']`): caches see that verb.
  const caller = () => callerHeaders(req.headers, req.method.toUpperCase(), principal, options.cors);
  // A logged-out answer that shared caches may keep (`httpCache.maxAge`) must not be served to a
  // signed-in caller of the same URL, nor, when its links come from forwarded headers, to a
  // request forwarded for another host.
  const varies = ['Authorization', 'Cookie', ...(options.trustProxy && !options.baseUrl ? ['X-Forwarded-Host', 'X-Forwarded-Proto'] : [])];
  const shared = (headers: Record<string, string>) =>
    options.httpCache.maxAge > 0 ? { ...headers, Vary: [headers.Vary, ...varies].filter(Boolean).join(', ') } : headers;
  // Set while this request computes an answer others may reuse (or wait for).
  let settle: Settle | undefined;
  // Read once, when first needed: the answer cache and the handlers see the same version.
  let versionRead = version;
  const storeVersion = () => (versionRead ??= core.version());
  try {
    urls = urlsFor(req, options.namespace, options.baseUrl, options.trustProxy, options.permalinks);
    const user = req.user !== undefined ? req.user : req.resolveUser ? await req.resolveUser() : await options.getUser(req);
    principal = toPrincipal(user, options.unknownRole);
    if (bodySize(req.body) > options.limits.bodyBytes) throw apiError('rest_request_too_large', 'The request body is too large.', 413);
    // A logged-out read answered before is looked up before the query is parsed and the route
    // matched: the key is the raw request, and only GET and HEAD (which no override changes)
    // are kept.
    const slot = await cacheSlot(core, req, method, principal, urls, rest, storeVersion);
    if (slot) {
      // Looked up even for a fresh answer: a new version drops the older answers.
      const found = slot.cache.lookup(slot.version, slot.key, second);
      const kept = slot.fresh ? undefined : await found;
      if (kept) return readAnswer(req, kept.status, shared({ ...kept.headers, ...caller() }), kept.body, head());
    }
    const query = parseBracketString(req.query ?? '', options.limits);
    method = overriddenMethod(req, query);
    const matched = match(core.routes, rest);
    if (!matched) throw noRoute();
    if (slot) settle = slot.cache.begin(slot.version, slot.key, second);

    if (method === 'OPTIONS') {
      const ctx = baseContext(core, req, urls, principal, 'GET', clock, storeVersion, { json: {}, body: {}, query, path: matched.captures, defaults: {} });
      allow = await allowedMethods(matched.route, { ...ctx, params: {} });
      return respond(200, { ...commonHeaders(urls, options.cors), Allow: allow, ...caller() }, routeObject(matched.route, ctx), false);
    }
    const verb = method === 'HEAD' ? 'GET' : method;
    const endpoint = matched.route.endpoints.find((e) => (e.methods as readonly string[]).includes(verb));
    if (!endpoint) throw noRoute();

    const body = await readBody(req, verb, options.limits);
    // A write authenticated by a cookie needs a nonce or a trusted origin (CSRF); reads need neither.
    if (verb !== 'GET') principal = options.csrf.check(req, principal, [query, body.body, body.json], urls);
    const sources: Sources = { json: body.json, body: body.body, query, path: matched.captures, defaults: {} };
    const ctx = baseContext(core, req, urls, principal, verb, clock, storeVersion, sources);
    for (const [name, a] of Object.entries(endpoint.args)) {
      const d = a.doc.default;
      const value = typeof d === 'function' ? d(ctx) : d;
      if (value !== undefined && value !== null) sources.defaults[name] = value;
    }

    let params: Record<string, unknown> = {};
    let failure: ApiError | undefined = body.jsonError;
    if (!failure) {
      const parsed = await parseParams(endpoint, ctx, sources);
      if (parsed instanceof ApiError) failure = parsed;
      else params = parsed;
    }
    const hctx: HandlerContext<Args<RequestContext>> = { ...ctx, params };
    allow = await allowedMethods(matched.route, hctx);
    if (failure) throw failure;
    if (endpoint.permission && !(await endpoint.permission(hctx))) throw forbidden(principal !== null);
    // After the permission check, which read the item a write addresses: a write that changes
    // it before this write's transaction is seen there (`posts/write-target.ts`).
    if (ctx.conditional) checkPreconditions(req.headers, await currentRepresentation(core, req));
    const reply: Reply = await endpoint.handler(hctx);
    const status = reply.status ?? 200;
    const headers: Record<string, string> = { ...commonHeaders(urls, options.cors), ...reply.headers, Allow: allow };
    const json = bodyBytes(reply.body);
    if (status === 200 && verb === 'GET') {
      headers.ETag = entityTag(json);
      if (principal === null) headers['Cache-Control'] = `public, max-age=${options.httpCache.maxAge}`;
    }
    settle?.(status === 200 ? { status, headers, body: json } : undefined, clock.read);
    settle = undefined;
    const sent = { ...headers, ...caller() };
    return readAnswer(req, status, status === 200 && verb === 'GET' && principal === null ? shared(sent) : sent, json, head());
  } catch (error) {
    const e = errorBody(error, options);
    const headers: Record<string, string> = { ...commonHeaders(urls, options.cors) };
    if (allow !== undefined) headers.Allow = allow;
    Object.assign(headers, caller());
    const answer = respond(e.status, headers, e.toJSON(), head());
    if (!(error instanceof ApiError) && isDatabaseUnavailable(error)) UNAVAILABLE.add(answer);
    return answer;
  } finally {
    settle?.(undefined, clock.read);
  }
}

function baseContext(core: Core, req: CoreRequest, urls: Urls, principal: Principal | null, method: string, clock: Clock, version: () => Promise<string | undefined>, sources: Sources): RequestContext {
  const lookup = (name: string): unknown => {
    for (const source of ORDER) {
      const v = sources[source]?.[name];
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  };
  return {
    options: core.options,
    services: core.services,
    principal,
    urls,
    locale: req.locale ?? 'en',
    method,
    now: () => {
      clock.read = true;
      return clock.now;
    },
    input: lookup,
    sent: (name) => (['json', 'body', 'query'] as const).some((s) => sources[s] !== undefined && Object.hasOwn(sources[s], name)),
    path: (name) => {
      const v = sources.path?.[name];
      return typeof v === 'string' ? v : undefined;
    },
    routes: core.routes,
    version,
    conditional: method !== 'GET' && method !== 'OPTIONS' && hasPrecondition(req.headers),
    read: async (path) => {
      const answer = await dispatch(core, plainRead(req, `/${core.options.namespace}${path}`));
      if (!answer) return { status: 404, body: undefined };
      return { status: answer.status, body: answer.body === undefined ? undefined : JSON.parse(Buffer.from(answer.body).toString('utf8')) };
    },
  };
}

/** Required, validation and type passes, in WordPress' order (README pipeline steps 4–6). */
async function parseParams(endpoint: Endpoint, ctx: RequestContext, sources: Sources): Promise<Record<string, unknown> | ApiError> {
  const args = Object.entries(endpoint.args);
  const missing = args.filter(([name, a]) => a.required && ctx.input(name) === undefined).map(([name]) => name);
  if (missing.length) return missingParams(missing);

  const failures = new Map<string, ParamFailure>();
  for (const [name, a] of args) {
    const value = ctx.input(name);
    if (value === undefined) continue;
    // Oversized values are refused before any check looks at them (or the store does).
    const tooLarge = limitFailure(name, value, ctx.options.limits, a.doc.items !== undefined);
    if (tooLarge) {
      failures.set(name, tooLarge);
      continue;
    }
    if (!a.check) continue;
    const f = await runCheck(a.check, value, ctx);
    if (f) failures.set(name, f);
  }
  if (failures.size) return invalidParams(failures);

  const params: Record<string, unknown> = {};
  for (const [name, a] of args) {
    // WordPress type-checks the value of every source, not only the one looked up: a JSON
    // `null` (absent for lookup) still fails a typed argument, even when a lower source has a value.
    const type = a.sanitizes ? undefined : a.doc.type;
    if (type && ORDER.some((s) => Object.hasOwn(sources[s], name) && sources[s][name] !== undefined && !safeCoerce(a, sources[s][name]))) {
      failures.set(name, typeFailure(name, type));
      continue;
    }
    const value = ctx.input(name);
    if (value === undefined) continue;
    const coerced = safeCoerce(a, value);
    if (coerced) params[name] = coerced.value;
    else failures.set(name, { message: INVALID_PARAMETER });
  }
  if (failures.size) return invalidParams(failures);
  return params;
}

function safeCoerce(a: Arg<unknown, boolean, RequestContext>, value: unknown): { value: unknown } | undefined {
  try {
    return a.coerce(value);
  } catch {
    return undefined;
  }
}

/** The verbs of the matched route whose permission check passes for this caller. */
async function allowedMethods(route: Route, ctx: HandlerContext<Args<RequestContext>>): Promise<string> {
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
