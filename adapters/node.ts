/**
 * The Node bridge every Node adapter shares (`IncomingMessage` → `CoreRequest`, the body read
 * up to the calendar's limit, `CoreResponse` → `ServerResponse`), and on it the plain Node
 * handler for `http.createServer`, Koa, Connect and any server that hands out Node's `(req, res)`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { ApiError, type Calendar, type CoreRequest, type CoreResponse, type User } from '../src/index.js';
import { noRoute } from '../src/http/errors.js';
import { merged } from '../src/merged.js';
import { aChoice, aFunction, either } from '../src/options-shape.js';
import { checkCalendar, checkMountOptions, MOUNT_SHAPES } from '../src/options-mount.js';

/** How a framework's request is mounted: what the Node request alone does not say. */
export interface NodeMount<Raw> {
  /** The path below the root, not decoded (`/calendar/events/v1/events`); the query is read from the request. */
  path: string;
  /** The REST root as seen from outside (`/wp-json`, `/fr/wp-json`). */
  root: string;
  /** Locale of this mount (`fr` for `/fr/wp-json`); selects translated descriptions. */
  locale?: string;
  /** Who is calling, from the framework's own request: `null` for anonymous. */
  getUser?: (raw: Raw) => User | null | Promise<User | null>;
  /** The framework's own request, given to `getUser` and to the calendar's hooks as `raw`. */
  raw: Raw;
  /** Set when a host body parser refused the body as too large, with its limit in bytes (`CoreRequest.refusedBody`). */
  refusedBody?: { limit?: number };
}

/** The body a host parser left on the request (Express' and Connect's `req.body`). */
type ParsedRequest = IncomingMessage & { body?: unknown };

/** The plain request of a Node request under a mount, with the body the adapter read. */
export function coreRequest<Raw>(req: IncomingMessage, body: CoreRequest['body'], mount: NodeMount<Raw>): CoreRequest {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const { getUser, raw } = mount;
  return {
    method: req.method ?? 'GET',
    path: mount.path,
    query: q >= 0 ? url.slice(q + 1) : '',
    headers: req.headers,
    body,
    root: mount.root,
    locale: mount.locale,
    protocol: 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http',
    resolveUser: getUser && (() => getUser(raw)),
    raw,
    ...(mount.refusedBody ? { refusedBody: mount.refusedBody } : {}),
  };
}

/**
 * The bytes a body is read up to: one past the calendar's limit, so that the core sees a body
 * too large and answers 413 without the adapter knowing the rule.
 */
export function bodyLimit(calendar: Calendar): number {
  return calendar.options.limits.bodyBytes + 1;
}

/**
 * What a host body parser produced, as the core takes it. A JSON parser without `strict`
 * gives bare numbers and booleans, which carry no parameters: they count as no body (the core
 * would fail on them as bytes).
 */
export function hostBody(value: unknown): CoreRequest['body'] {
  if (value === undefined || value === null || typeof value === 'string' || value instanceof Uint8Array || Array.isArray(value)) return value;
  return typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

/** The body of a Node request: what a host parser already made of it (`req.body`), else its bytes up to {@link bodyLimit}. */
export async function nodeBody(calendar: Calendar, req: ParsedRequest): Promise<CoreRequest['body']> {
  return req.body !== undefined ? hostBody(req.body) : readNodeBody(req, bodyLimit(calendar));
}

/**
 * Reads a Node request body as bytes, stopping one byte past `limit` so that the core
 * can answer 413 without the adapter knowing the rule. `undefined` when there is none.
 */
export async function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (req.readableEnded || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) {
    return undefined;
  }
  return readStream(req, limit);
}

/** Reads a body stream (a request, or a host's decoding stream) up to one byte past `limit`. */
export async function readStream(stream: Readable, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Destroying a request destroys its socket, and the 413 would never reach the client:
  // stop iterating without destroying, then discard the rest.
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    size += buf.length;
    if (size > limit) {
      stream.resume();
      break;
    }
  }
  return Buffer.concat(chunks);
}

/**
 * Writes a core response as it is (its body is the JSON already encoded: it is not encoded
 * again), with its `Content-Length`; one in pieces (`chunks`) is written from them, in one
 * `writev`, without joining them first.
 */
export function writeNodeResponse(res: ServerResponse, response: CoreResponse): void {
  const chunks = response.chunks ?? (response.body === undefined ? undefined : [response.body]);
  if (!chunks) {
    res.writeHead(response.status, response.headers);
    res.end();
    return;
  }
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  res.writeHead(response.status, merged(response.headers, { 'Content-Length': String(length) }));
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  // `end` uncorks: the head and every piece leave together.
  res.end();
}

/**
 * Answers a Node request through the calendar and writes the answer; `false`, with nothing
 * written, when the core leaves the path to the host (outside the namespace).
 */
export async function answerNode<Raw>(
  calendar: Calendar,
  req: IncomingMessage,
  res: ServerResponse,
  mount: NodeMount<Raw>,
  body: CoreRequest['body'],
): Promise<boolean> {
  const response = await calendar.handle(coreRequest(req, body, mount));
  if (!response) return false;
  writeNodeResponse(res, response);
  return true;
}

// ---- the plain Node handler -------------------------------------------------------------------

/** Where the plain Node handler is mounted, and what it does with the paths that are not its own. */
export interface NodeMountOptions<Req extends IncomingMessage = IncomingMessage> {
  /** The REST root the handler serves below, as seen from outside. Default `/wp-json`. */
  root?: string;
  /** Locale of this mount (`fr` for `/fr/wp-json`); selects translated descriptions. */
  locale?: string;
  /**
   * Who is calling, from the Node request (its cookies, `Authorization`, or what a host
   * middleware put on it): `null` for anonymous. Takes precedence over the calendar's own `getUser`.
   */
  getUser?: (req: Req) => User | null | Promise<User | null>;
  /**
   * A path that is not the calendar's, when the handler was given no `next`: a function answers
   * it; by default a 404 in the API's shape (`rest_no_route`). `'json'` answers that 404 even
   * with a `next` for the paths below `root` (as WordPress does for anything under its REST
   * root); paths outside `root` still go to `next`.
   */
  notFound?: 'json' | ((req: Req, res: ServerResponse) => void | Promise<void>);
}

/** How a mount answers a path below its root that is not the calendar's: on to the host (`next`), or the API's JSON 404 (`json`). */
export type NotFound = 'next' | 'json';

/** The shape of a `notFound` mount option of Express and Fastify. */
export const NOT_FOUND_SHAPE = aChoice(['next', 'json'], "'next' (the default: on to the host's next handler) or 'json' (the API's 404 rest_no_route)");

const NODE_MOUNT_SHAPES = {
  ...MOUNT_SHAPES,
  notFound: either("'json' or a function (req, res) => void", aChoice(['json'], ''), aFunction()),
};

/** Connect's and Koa's `next`: passes the request on (with an error, in Connect). */
export type NodeNext = (error?: unknown) => unknown;

/** A Node request handler: `(req, res)` for `http.createServer`, `(req, res, next)` as Connect middleware. */
export type NodeHandler<Req extends IncomingMessage = IncomingMessage> = (req: Req, res: ServerResponse, next?: NodeNext) => Promise<void>;

/**
 * A plain Node handler serving the calendar's namespace below `root`:
 * `http.createServer(calendarNodeHandler(calendar, { root: '/wp-json' }))`, or Connect-style
 * middleware, or Koa through `ctx.req`/`ctx.res`. A path that is not the calendar's goes to
 * `next` when there is one, else to `notFound`. Without `next` its promise never rejects, so
 * that a plain server needs no error handling of its own.
 */
export function calendarNodeHandler<Req extends IncomingMessage = IncomingMessage>(calendar: Calendar, options: NodeMountOptions<Req> = {}): NodeHandler<Req> {
  checkCalendar('calendarNodeHandler(calendar, options)', 'calendar', calendar);
  checkMountOptions('calendarNodeHandler', options, NODE_MOUNT_SHAPES);
  const root = `/${(options.root ?? '/wp-json').replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  const notFound = typeof options.notFound === 'function' ? options.notFound : answerNoRoute;
  const answer = async (req: Req, res: ServerResponse): Promise<boolean> => {
    const pathname = pathOf(req.url ?? '/');
    if (pathname !== root && !pathname.startsWith(`${root}/`)) return false;
    const mount: NodeMount<Req> = { path: pathname.slice(root.length) || '/', root, locale: options.locale, getUser: options.getUser, raw: req };
    if (await answerNode(calendar, req, res, mount, await nodeBody(calendar, req))) return true;
    // Below its root, a mount that answers as WordPress does keeps the path.
    if (options.notFound !== 'json') return false;
    answerNoRoute(req, res);
    return true;
  };
  return async (req, res, next) => {
    // `next` runs outside the `try`: an error thrown after it is the host's, not to be passed to it again.
    let answered: boolean;
    try {
      answered = await answer(req, res);
    } catch (error) {
      if (next) await next(error);
      else failed(calendar, req, res, error);
      return;
    }
    if (answered) return;
    if (next) {
      await next();
      return;
    }
    try {
      await notFound(req, res);
    } catch (error) {
      failed(calendar, req, res, error);
    }
  };
}

/** The path of a request target, not decoded: origin form (`/a?b`), or absolute form as a proxy sends it. */
function pathOf(target: string): string {
  const q = target.indexOf('?');
  const path = q >= 0 ? target.slice(0, q) : target;
  const absolute = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i.exec(path);
  return absolute ? path.slice(absolute[0].length) || '/' : path;
}

/** The API's own 404 for a path it has no route for (`rest_no_route`), written to a Node response. */
export function answerNoRoute(req: IncomingMessage, res: ServerResponse): void {
  answerError(req, res, noRoute());
}

/** An error in the API's JSON shape, as a response (no body for HEAD): what a mount answers outside the core. */
export function errorResponse(error: ApiError, method: string): CoreResponse {
  const body = Buffer.from(JSON.stringify(error.toJSON()));
  return {
    status: error.status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': String(body.length), 'X-Content-Type-Options': 'nosniff' },
    body: method.toUpperCase() === 'HEAD' ? undefined : body,
  };
}

function answerError(req: IncomingMessage, res: ServerResponse, error: ApiError): void {
  writeNodeResponse(res, errorResponse(error, req.method ?? 'GET'));
}

/**
 * A failure outside the core (the body could not be read, a `notFound` threw) with no `next`
 * to hand it to: a request its client abandoned is dropped quietly; anything else is reported
 * to the calendar's `onError` and answered 500 in the API's shape, as the core answers its own.
 */
function failed(calendar: Calendar, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (req.socket.destroyed || res.destroyed) {
    res.destroy();
    return;
  }
  calendar.options.onError(error);
  if (res.headersSent) res.destroy();
  else answerError(req, res, new ApiError('rest_internal_error', 'The server could not complete the request.', { status: 500 }));
}
