/**
 * The state one request carries through the pipeline's stages (`http/pipeline.ts`): what the
 * calendar hands the pipeline, and what a stage learns that a later one, the answer cache or the
 * error answer needs. Everything else passes from stage to stage as arguments and results.
 */
import type { Principal } from '../../auth/capabilities.js';
import type { ContextOptions, ContextServices, Route } from '../context.js';
import type { CsrfRefusal } from '../csrf.js';
import type { JoinedBodies } from '../joined-bodies.js';
import type { ResponseCache, Settle } from '../response-cache.js';
import type { CoreRequest } from '../types.js';
import type { Urls } from '../urls.js';

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
  /** Answers in pieces already joined, by digest (`http/joined-bodies.ts`). */
  joined: JoinedBodies;
}

/** Where a logged-out read's answer may be kept in the response cache, and under which version. */
export interface CacheSlot {
  cache: ResponseCache;
  version: string;
  key: string;
}

/** One request on its way through the stages. */
export interface Exchange {
  readonly core: Core;
  readonly req: CoreRequest;
  /** The path below the namespace (`""` for the namespace itself). */
  readonly rest: string;
  /** The request's instant: one request sees one "now". */
  readonly now: Date;
  /** `now` in whole seconds, the unit answers that read the clock are kept for. */
  readonly second: number;
  /** Whether anything read `now` (a kept answer then lasts one second: `http/response-cache.ts`). */
  clockRead: boolean;
  /** The verb: the request line's, then the one it stands for once the query is read (method override). */
  method: string;
  /** The URLs of the request's mount, once known (an error answer before that has no `Link`). */
  urls: Urls | undefined;
  /** The caller; a cookie-authenticated write without a nonce or a trusted origin runs as nobody. */
  principal: Principal | null;
  /** Why the CSRF guard ran a cookie-authenticated write as nobody, said in its error answer (`http/csrf.ts`). */
  csrfRefusal?: CsrfRefusal;
  /** The `Allow` header, once the route's permission checks have run. */
  allow: string | undefined;
  /** Where this request's answer may be kept, for a logged-out read. */
  slot: CacheSlot | undefined;
  /** Set while this request computes an answer others may reuse (or wait for). */
  settle: Settle | undefined;
  /** The store version, read once when first needed: the answer cache and the handlers see the same one. */
  version: Promise<string | undefined> | undefined;
}

/** The state of a request below the namespace (`rest`); `version` when the caller read it already. */
export function exchange(core: Core, req: CoreRequest, rest: string, version: Promise<string | undefined> | undefined): Exchange {
  const now = new Date();
  return {
    core,
    req,
    rest,
    now,
    second: Math.floor(now.getTime() / 1000),
    clockRead: false,
    method: req.method.toUpperCase(),
    urls: undefined,
    principal: null,
    allow: undefined,
    slot: undefined,
    settle: undefined,
    version,
  };
}

/** The store version for this request, read on first use. */
export function storeVersion(x: Exchange): Promise<string | undefined> {
  return (x.version ??= x.core.version());
}
