import { fetchHandler, type CalendarSource, type FetchHandler, type FetchMountOptions } from './fetch.js';
import { checkFetchMount } from './fetch-mount.js';

export { fetchHandler, type CalendarSource, type FetchHandler, type FetchMountOptions };

/** The methods a Next.js route module exports. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/**
 * Next.js App Router handlers for a catch-all route such as `app/wp-json/[[...path]]/route.ts` (optional, so that it also answers the root index at `/wp-json/`):
 * `export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = calendarHandlers(calendar, { root: '/wp-json' })`.
 */
export function calendarHandlers(source: CalendarSource, options: FetchMountOptions = {}): Record<RouteMethod, FetchHandler> {
  // Next.js builds the request URL's scheme from the client's X-Forwarded-Proto; `next start`
  // serves plain HTTP, and a proxy in front is the calendar's `trustProxy`/`baseUrl` to declare.
  checkFetchMount('calendarHandlers', source, options);
  const handle = fetchHandler(source, { protocol: 'http', ...options });
  return { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, HEAD: handle, OPTIONS: handle };
}
