/**
 * Read params: a request's parameters by source, and the context its checks, permission
 * checks and handler see (`RequestContext`, `http/context.ts`).
 */
import { RequestMemo, type RequestContext } from '../context.js';
import { hasPrecondition } from '../conditional.js';
import type { ParamMap } from '../params.js';
import type { CoreRequest } from '../types.js';
import type { Urls } from '../urls.js';
import { storeVersion, type Core, type Exchange } from './exchange.js';

/** A request's parameters by source; `defaults` are filled from the endpoint's declarations. */
export interface Sources {
  json: ParamMap;
  body: ParamMap;
  query: ParamMap;
  path: ParamMap;
  defaults: ParamMap;
}

/** Sources in the order a parameter is looked up (WordPress' `get_param`). */
export const ORDER = ['json', 'body', 'query', 'path', 'defaults'] as const;

/** Sources a client sends (`ctx.sent`). */
const SENT = ['json', 'body', 'query'] as const;

/** Whether a parameter map holds any key. */
function hasKeys(params: ParamMap): boolean {
  for (const _ in params) return true;
  return false;
}

/** A read of another path of the namespace by the same caller on the same mount: its status and JSON body. */
export type PathReader = (core: Core, req: CoreRequest, path: string) => Promise<{ status: number; body: unknown }>;

/**
 * The context of a request answered by `verb`'s endpoint: `read` re-enters the pipeline
 * (`http/pipeline.ts`), which hands it in.
 */
export function requestContext(x: Exchange, urls: Urls, verb: string, sources: Sources, read: PathReader): RequestContext {
  const { core, req } = x;
  // The sources a client sent nothing in are skipped by every lookup (most requests send one or
  // two); they are not written to once the request is read. `defaults` is filled in later.
  const lookedUp = ORDER.filter((source) => source === 'defaults' || hasKeys(sources[source]));
  const sentIn = SENT.filter((source) => lookedUp.includes(source));
  return {
    options: core.options,
    services: core.services,
    principal: x.principal,
    urls,
    locale: req.locale ?? 'en',
    method: verb,
    now: () => {
      x.clockRead = true;
      return x.now;
    },
    input: (name) => {
      for (const source of lookedUp) {
        const v = sources[source][name];
        if (v !== undefined && v !== null) return v;
      }
      return undefined;
    },
    sent: (name) => sentIn.some((s) => Object.hasOwn(sources[s], name)),
    path: (name) => {
      const v = sources.path[name];
      return typeof v === 'string' ? v : undefined;
    },
    routes: core.routes,
    version: () => storeVersion(x),
    conditional: verb !== 'GET' && verb !== 'OPTIONS' && hasPrecondition(req.headers),
    read: (path) => read(core, req, path),
    memo: new RequestMemo(),
  };
}
