import { completeDocument } from './complete.js';
import { openApiDocument } from './openapi.js';
import { READABLE, endpoint, route } from '../../http/route.js';
import type { Resource } from '../resource.js';

/** `GET /doc`: the OpenAPI document generated from the calendar's own routes and resources, upstream's or the complete one. */
export function docRoute(resources: readonly Resource[]) {
  return route('/doc', [
    endpoint({
      methods: READABLE,
      args: {},
      handler: (ctx) => ({ body: ctx.options.doc === 'complete' ? completeDocument(ctx, resources) : openApiDocument(ctx, resources) }),
    }),
  ]);
}
