import { openApiDocument } from './openapi.js';
import { READABLE, endpoint, route } from '../../http/route.js';

/** `GET /doc`: the OpenAPI document generated from the calendar's own routes (index-and-doc.md §2). */
export const docRoute = route('/doc', [
  endpoint({
    methods: READABLE,
    args: {},
    handler: (ctx) => ({ body: openApiDocument(ctx) }),
  }),
]);
