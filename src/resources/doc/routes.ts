import { openApiDocument } from './openapi.js';
import { READABLE, endpoint, route } from '../../http/route.js';
import type { Resource } from '../resource.js';

/** `GET /doc`: the OpenAPI document generated from the calendar's own routes and resources. */
export function docRoute(resources: readonly Resource[]) {
  return route('/doc', [
    endpoint({
      methods: READABLE,
      args: {},
      handler: (ctx) => ({ body: openApiDocument(ctx, resources) }),
    }),
  ]);
}
