import type { User } from '../auth/capabilities.js';

/** Header map as the core sees it: lower-case names. */
export type Headers = Record<string, string | string[] | undefined>;

/** A framework-free HTTP request, as an adapter hands it to the core. */
export interface CoreRequest {
  method: string;
  /** Path below the mount's root, e.g. `/calendar/events/v1/events/12` (not decoded). */
  path: string;
  /** Raw query string without the leading `?`. */
  query?: string;
  headers: Headers;
  /**
   * The body: raw bytes or text (the core parses it by `Content-Type`), or a value the
   * host's own body parser already produced.
   */
  body?: Uint8Array | string | Record<string, unknown> | unknown[] | null;
  /**
   * Set when the host's own body parser refused the body as too large (`express.json()`'s
   * 100 KB by default): the answer is a 413 naming that parser's `limit` in bytes (when it
   * said), which applied before the calendar's `limits.bodyBytes`.
   */
  refusedBody?: { limit?: number };
  /** The mount's REST root as seen from outside, e.g. `/wp-json` or `/fr/wp-json`. */
  root: string;
  /** The mount's locale (`en`, `fr`, …); selects translated descriptions. */
  locale?: string;
  /** The caller, when the adapter already knows it; otherwise `resolveUser`, else the calendar's `getUser`, decides. */
  user?: User | null;
  /**
   * Who is calling, by the mount's own hook (an adapter's typed `getUser`): run inside the
   * pipeline, so that an `ApiError` it throws is answered like any other.
   */
  resolveUser?: () => User | null | Promise<User | null>;
  /** The scheme the client used, when the adapter knows it (TLS on the socket). */
  protocol?: 'http' | 'https';
  /** The framework's own request object, for `getUser`. */
  raw?: unknown;
}

/**
 * A framework-free HTTP response. `body` is the JSON as UTF-8 bytes (a `Buffer`, written to
 * the socket as it is), `undefined` for HEAD.
 */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  /**
   * The same bytes as `body` in the buffers they are kept in, when the answer was joined from
   * kept items (a list) and no answer had these bytes before: an adapter that writes to a socket
   * writes these (one `writev`) and leaves `body`, which is joined into one buffer only when
   * read. From their second time on, the same bytes come as one buffer in `body`, without these.
   */
  chunks?: readonly Uint8Array[];
}
