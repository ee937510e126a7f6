/**
 * The Node bridge every Node adapter shares (`IncomingMessage` → `CoreRequest`, the body read
 * up to the calendar's limit, `CoreResponse` → `ServerResponse`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Calendar, CoreRequest, CoreResponse, User } from '../src/index.js';

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
  };
}

/**
 * The bytes a body is read up to: one past the calendar's limit, so that the core sees a body
 * too large and answers 413 without the adapter knowing the rule.
 */
export function bodyLimit(calendar: Calendar): number {
  return calendar.options.limits.bodyBytes + 1;
}

/** A body the core answers 413 for, given when a host parser refused one as too large. */
export function tooLargeBody(calendar: Calendar): Uint8Array {
  return new Uint8Array(bodyLimit(calendar));
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

/** Writes a core response as it is (its body is the JSON already encoded: it is not encoded again). */
export function writeNodeResponse(res: ServerResponse, response: CoreResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/**
 * Answers a Node request through the calendar and writes the answer; `false`, with nothing
 * written, when the core leaves the path to the host (outside the namespace).
 */
export async function answerNode<Raw>(calendar: Calendar, req: IncomingMessage, res: ServerResponse, mount: NodeMount<Raw>, body: CoreRequest['body']): Promise<boolean> {
  const response = await calendar.handle(coreRequest(req, body, mount));
  if (!response) return false;
  writeNodeResponse(res, response);
  return true;
}
