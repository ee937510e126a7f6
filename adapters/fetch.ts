/**
 * The calendar as a Fetch-API handler (`Request` → `Response`): for any server built on the
 * Fetch standard (Hono, Bun, Deno, Cloudflare Workers, Node with a Fetch bridge). The Next.js
 * adapter is this handler per route method.
 */
import type { Calendar, User } from '../src/index.js';
import { checkCalendar } from '../src/options-mount.js';
import { readFetchBody } from './fetch-body.js';
import { checkFetchMount } from './fetch-mount.js';

/** Where the handler is mounted. */
export interface FetchMountOptions {
  /** The REST root the catch-all route sits under, as seen from outside. Default `/wp-json`. */
  root?: string;
  /** Locale of this mount (`fr` for `/fr/wp-json`); selects translated descriptions. */
  locale?: string;
  /** The scheme of the connection, when the request URL's cannot be trusted for it. */
  protocol?: 'http' | 'https';
  /**
   * Who is calling, from the Fetch `Request` (its cookies or `Authorization`): `null` for
   * anonymous. Takes precedence over the calendar's own `getUser`.
   */
  getUser?: (request: Request) => User | null | Promise<User | null>;
}

/** A calendar, or a function giving one on first use (so that `next build` opens no database). */
export type CalendarSource = Calendar | (() => Calendar | Promise<Calendar>);

/** The handler of one route method: a Web `Request` in, a `Response` out. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A Fetch-API handler (`Request` → `Response`) serving the calendar's namespace below `root`. */
export function fetchHandler(source: CalendarSource, options: FetchMountOptions = {}): FetchHandler {
  checkFetchMount('fetchHandler', source, options);
  const { getUser } = options;
  const root = `/${(options.root ?? '/wp-json').replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  return async (request) => {
    const calendar = typeof source === 'function' ? await source() : source;
    checkCalendar('fetchHandler(getCalendar)', 'getCalendar()', calendar);
    const url = new URL(request.url);
    const inside = url.pathname === root || url.pathname.startsWith(`${root}/`);
    const response = inside
      ? await calendar.handle({
          method: request.method,
          path: url.pathname.slice(root.length) || '/',
          query: url.search.slice(1),
          headers: Object.fromEntries(request.headers),
          body: await readFetchBody(request, calendar.options.limits.bodyBytes),
          root,
          locale: options.locale,
          protocol: options.protocol ?? (url.protocol === 'https:' ? 'https' : 'http'),
          resolveUser: getUser && (() => getUser(request)),
          raw: request,
        })
      : null;
    if (!response) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    return new Response(response.body ?? null, { status: response.status, headers: response.headers });
  };
}
