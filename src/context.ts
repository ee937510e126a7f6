import type { Principal } from './auth/capabilities.js';
import type { Route } from './http/route.js';
import type { Urls } from './http/urls.js';
import type { ResolvedOptions } from './options.js';
import type { Services } from './resources/services.js';

/** Everything a request's checks, permissions and handlers may use. */
export interface RequestContext {
  options: ResolvedOptions;
  services: Services;
  principal: Principal | null;
  urls: Urls;
  locale: string;
  /** The verb after method override (`HEAD` is answered by `GET` handlers as `GET`). */
  method: string;
  /**
   * The request's instant, so that one request sees one "now". Reading it marks the answer as
   * depending on the clock (a kept answer then lasts one second: `http/response-cache.ts`).
   */
  now(): Date;
  /** A parameter as sent (first non-null source), declared or not. */
  input(name: string): unknown;
  /** Whether the client sent a parameter (JSON, form body or query; even as `null`). */
  sent(name: string): boolean;
  /** A capture of the route's path (`id`, `slug`), as matched. */
  path(name: string): string | undefined;
  /** The routes of the calendar, for the namespace index. */
  routes: readonly Route[];
  /**
   * The store's version (`store/version.ts`), read once per request when first asked:
   * whatever is kept under it must be derived from rows read after it.
   */
  version(): Promise<string | undefined>;
  /**
   * Whether this write is conditional (`If-Match`, `If-Unmodified-Since`, checked before the
   * handler): its transaction then also requires the item to be as it was read.
   */
  conditional: boolean;
  /**
   * A read of another path of the namespace (`/events/12`) by the same caller on the same
   * mount, answered as the pipeline answers it: its status and JSON body.
   */
  read(path: string): Promise<{ status: number; body: unknown }>;
}
