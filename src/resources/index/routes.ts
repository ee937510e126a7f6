import { arg, type Args } from '../../args/arg.js';
import type { RequestContext } from '../../context.js';
import { apiError } from '../../http/errors.js';
import { READABLE, endpoint, route, type Route } from '../../http/route.js';
import { describe } from '../../i18n/index.js';

/** An endpoint's `args` as the index shows them: declared keys in order, then `required`. */
export function argsObject(args: Args<RequestContext>, ctx: RequestContext): Record<string, unknown> | [] {
  const entries = Object.entries(args);
  if (!entries.length) return [];
  const out: Record<string, unknown> = {};
  for (const [name, a] of entries) {
    const shown: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(a.doc)) {
      if (key === 'description') shown.description = describe(value as Parameters<typeof describe>[0], ctx.locale, ctx.options.dictionaries);
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

/** The namespace index: every route of the calendar with its arguments (index-and-doc.md §1). */
export const namespaceIndexRoute = route('', [
  endpoint({
    methods: READABLE,
    args: {
      namespace: arg({ default: (ctx: RequestContext) => ctx.options.namespace }),
      context: arg({ default: 'view' }),
    },
    handler: (ctx) => {
      const ns = ctx.options.namespace;
      if (ctx.params.namespace !== ns) throw apiError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
      const routes: Record<string, unknown> = {};
      for (const r of ctx.routes) routes[`/${ns}${r.pattern}`] = routeObject(r, ctx);
      return { body: { namespace: ns, routes, _links: { up: [{ href: ctx.urls.root }] } } };
    },
  }),
]);
