import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Calendar, User } from '../src/index.js';
import { bodyLimit, coreRequest, hostBody, readNodeBody, readStream } from './node.js';

/** Options of one registration of {@link calendarPlugin}. */
export interface FastifyCalendarOptions {
  calendar: Calendar;
  /** The REST root as seen from outside; default: the prefix the plugin is registered under. */
  root?: string;
  /** Locale of this mount (`fr` for `/fr/wp-json`); selects translated descriptions. */
  locale?: string;
  /**
   * Who is calling, from the Fastify request (a session, a decorator set by an auth plugin, …):
   * `null` for anonymous. Takes precedence over the calendar's own `getUser`.
   */
  getUser?: (request: FastifyRequest) => User | null | Promise<User | null>;
}

/**
 * A Fastify plugin serving the calendar's namespace under its prefix:
 * `app.register(calendarPlugin, { calendar, prefix: '/wp-json' })`, once per language root.
 * It stays encapsulated (its body parsing applies to its own routes only).
 */
export async function calendarPlugin(app: FastifyInstance, options: FastifyCalendarOptions): Promise<void> {
  const { calendar, locale, getUser } = options;
  const prefix = app.prefix;
  const root = options.root ?? prefix;
  const limit = bodyLimit(calendar);

  // The core parses every media type itself (and answers 413 and rest_invalid_json).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request: FastifyRequest, payload: Readable) => readStream(payload, limit));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw;
    // Fastify skips parsing for GET and HEAD; a body sent with them still reaches the core.
    const body = request.body !== undefined ? hostBody(request.body) : await readNodeBody(raw, limit);
    const q = request.url.indexOf('?');
    const pathname = q >= 0 ? request.url.slice(0, q) : request.url;
    const path = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : `/${(request.params as { '*'?: string })['*'] ?? ''}`;
    const response = await calendar.handle(coreRequest(raw, body, { path, root, locale, getUser, raw: request }));
    // Written through the reply, so that the host's hooks (onSend, logging, compression) see it.
    if (!response) return reply.callNotFound();
    return reply.code(response.status).headers(response.headers).send(response.body);
  };
  // `all` includes HEAD and OPTIONS, so Fastify adds no HEAD route of its own.
  app.all('/', handler);
  app.all('/*', handler);
}
