import type { User } from '../auth/capabilities.js';
import type { Headers } from '../http/types.js';

/**
 * What the calendar's procedures read from the tRPC context: the caller (the host
 * authenticates; `null` is anonymous), and the mount the URLs and descriptions follow.
 * A host's own context may carry more: it only has to include these keys.
 */
export interface CalendarContext {
  user: User | null;
  /** Selects translated descriptions in `index` and `doc` (`fr`, `de`, …); default English. */
  locale?: string;
  /** The REST root URLs in responses are built with (default `/wp-json`). */
  root?: string;
  /** The HTTP request's headers, of which URLs in answers follow the host (and a proxy's, with `trustProxy`). */
  headers?: Headers;
  /** The scheme the HTTP request came in on. */
  protocol?: 'http' | 'https';
}

/** Builds a {@link CalendarContext}; with no user the caller is anonymous. */
export function createCalendarContext(options: Partial<CalendarContext> = {}): CalendarContext {
  return { user: options.user ?? null, locale: options.locale, root: options.root, headers: options.headers, protocol: options.protocol };
}
