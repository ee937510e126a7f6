import { arg } from '../../args/arg.js';
import type { RequestContext } from '../../http/context.js';
import { apiError } from '../../http/errors.js';
import { READABLE, endpoint, route } from '../../http/route.js';
import { routeObject } from '../../http/route-description.js';

/** The namespace index: every route of the calendar with its arguments. */
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
