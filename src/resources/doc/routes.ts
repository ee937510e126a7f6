import { completeDocument } from './complete.js';
import { openApiDocument, translator } from './openapi.js';
import { withFieldProperties } from '../fields.js';
import { READABLE, endpoint, route } from '../../http/route.js';
import type { Resource } from '../resource.js';
import { COMPLETE_DOC_PATTERN, DOC_PATTERN } from './resources.js';

/**
 * `GET /doc`, the OpenAPI document generated from the calendar's own routes and resources
 * (upstream's, or the complete one with `doc: 'complete'`), and `GET /doc/complete`, the
 * complete one whatever the option says: what a client generator needs for writes, at a path
 * of its own so that `/doc` can stay upstream's for the clients that know it.
 */
export function docRoutes(resources: readonly Resource[]) {
  return [
    route(DOC_PATTERN, [
      endpoint({
        methods: READABLE,
        args: {},
        handler: (ctx) => {
          const complete = ctx.options.doc === 'complete';
          const doc = complete ? completeDocument(ctx, resources) : openApiDocument(ctx, resources);
          withFieldProperties(doc.components.schemas, ctx.services.fields.registry, translator(ctx), complete, resources);
          return { body: doc };
        },
      }),
    ]),
    route(COMPLETE_DOC_PATTERN, [
      endpoint({
        methods: READABLE,
        args: {},
        handler: (ctx) => {
          const doc = completeDocument(ctx, resources);
          withFieldProperties(doc.components.schemas, ctx.services.fields.registry, translator(ctx), true, resources);
          return { body: doc };
        },
      }),
    ]),
  ];
}
