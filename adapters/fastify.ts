import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RegisterOptions } from 'fastify';
import type { Readable } from 'node:stream';
import type { Calendar, User } from '../src/index.js';
import { noRoute } from '../src/http/errors.js';
import { aFlag, checkedLater } from '../src/options-shape.js';
import { checkCalendar, checkMountOptions, MOUNT_SHAPES } from '../src/options-mount.js';
import { bodyLimit, coreRequest, errorResponse, hostBody, NOT_FOUND_SHAPE, readNodeBody, readStream, type NotFound } from './node.js';

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
  /**
   * A path under the prefix that is not the calendar's: `'next'` (the default) goes to the
   * host's not-found handler; `'json'` answers the API's 404 `rest_no_route`, as WordPress does.
   */
  notFound?: NotFound;
  /** Whether `app.close()` closes the calendar (its `onClose` hook). Default `true`. */
  close?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The calendar registered in this scope by `calendarPlugin`, for the host's own routes (`app.calendar.call(…)`). */
    calendar: Calendar;
  }
}

/** The plugin's name, for Fastify's messages and other plugins' `dependencies`. */
const NAME = 'calendar-events-rest';

const FASTIFY_MOUNT_SHAPES = {
  ...MOUNT_SHAPES,
  calendar: checkedLater,
  notFound: NOT_FOUND_SHAPE,
  close: aFlag,
  // What Fastify's `register` takes besides the plugin's own options.
  prefix: checkedLater,
  logLevel: checkedLater,
  logSerializers: checkedLater,
};

/** Calendars an `onClose` hook closes already: one registered under several prefixes is closed once. */
const closing = new WeakSet<Calendar>();

/** The calendar's routes under one prefix, in a scope of their own (their body parsing applies to them only). */
function calendarRoutes(options: FastifyCalendarOptions): FastifyPluginAsync {
  return async (app) => {
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
      const response =
        (await calendar.handle(coreRequest(raw, body, { path, root, locale, getUser, raw: request }))) ??
        (options.notFound === 'json' ? errorResponse(noRoute(), request.method) : null);
      // Written through the reply, so that the host's hooks (onSend, logging, compression) see it.
      if (!response) return reply.callNotFound();
      return reply.code(response.status).headers(response.headers).send(response.body);
    };
    // `all` includes HEAD and OPTIONS, so Fastify adds no HEAD route of its own.
    app.all('/', handler);
    app.all('/*', handler);
  };
}

/**
 * A Fastify plugin serving the calendar's namespace under its prefix:
 * `app.register(calendarPlugin, { calendar, prefix: '/wp-json' })`, once per language root.
 * Its options are checked at `register`; it decorates the scope it is registered in with
 * `app.calendar` and closes the calendar when the app closes (`close: false` leaves it open).
 * Its routes stay encapsulated (their body parsing applies to them only).
 */
export const calendarPlugin = Object.assign(
  async function calendarPlugin(app: FastifyInstance, options: FastifyCalendarOptions & RegisterOptions): Promise<void> {
    checkMountOptions('calendarPlugin', options, FASTIFY_MOUNT_SHAPES);
    checkCalendar('app.register(calendarPlugin, { calendar })', 'calendar', options.calendar);
    const { calendar } = options;
    if (!app.hasDecorator('calendar')) app.decorate('calendar', calendar);
    else if (app.calendar !== calendar) {
      throw new TypeError(
        `calendar-events-rest: calendarPlugin: this Fastify scope already has another calendar as app.calendar; register each calendar in a scope of its own (app.register(async (scope) => scope.register(calendarPlugin, …))).`,
      );
    }
    if (options.close !== false && !closing.has(calendar)) {
      closing.add(calendar);
      app.addHook('onClose', () => calendar.close());
    }
    // This plugin shares its scope (for the decorator): what `register` takes for a scope of its
    // own (prefix, log level) applies to the routes' scope.
    const { prefix = '', logLevel, logSerializers } = options;
    await app.register(calendarRoutes(options), { prefix, ...(logLevel ? { logLevel } : {}), ...(logSerializers ? { logSerializers } : {}) });
  },
  {
    // fastify-plugin's metadata: the decorator is the host's scope's, the name and Fastify range are checked by Fastify.
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: NAME,
    [Symbol.for('plugin-meta')]: { name: NAME, fastify: '5.x' },
  },
);
