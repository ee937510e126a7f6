/**
 * How a route describes itself: in the namespace index and in the answer to `OPTIONS`, as
 * WordPress describes its routes (`namespace`, `methods`, `endpoints` with their `args`).
 */
import type { Args } from '../args/arg.js';
import type { RequestContext } from './context.js';
import { describe } from '../i18n/index.js';
import type { Route } from './route.js';

/** An endpoint's `args` as the index shows them: declared keys in order, then `required`. */
export function argsObject(args: Args<RequestContext>, ctx: RequestContext): Record<string, unknown> | [] {
  const entries = Object.entries(args).filter(([, a]) => !a.addition);
  if (!entries.length) return [];
  const out: Record<string, unknown> = {};
  for (const [name, a] of entries) {
    const shown: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(a.doc)) {
      if (key === 'description') shown.description = describe(a.doc.description ?? 'doc.no_description', ctx.locale, ctx.options.dictionaries);
      else if (key === 'default') shown.default = typeof value === 'function' ? value(ctx) : value;
      else shown[key] = value;
    }
    shown.required = a.required;
    out[name] = shown;
  }
  return out;
}

/** A route as the index shows it (`namespace`, `methods`, `endpoints`, `_links`). */
export function routeObject(r: Route, ctx: RequestContext): Record<string, unknown> {
  const ns = ctx.options.namespace;
  const obj: Record<string, unknown> = {
    namespace: ns,
    methods: r.endpoints.flatMap((e) => e.methods),
    endpoints: r.endpoints.map((e) => ({ methods: [...e.methods], args: argsObject(e.args, ctx) })),
  };
  if (!r.hasCaptures) obj._links = { self: [{ href: `${ctx.urls.root}${ns}${r.pattern}` }] };
  return obj;
}
