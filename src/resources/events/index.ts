import type { Resource } from '../resource.js';
import { resourceDoc } from '../doc/resources.js';
import { eventRoutes } from './routes.js';

/** Events: `/events`, by id and by slug. */
export const events: Resource = {
  collection: 'events',
  routes: eventRoutes(),
  doc: resourceDoc('events', { schema: 'Event', body: 'create', readForbidden: true, updateResponse: true, noun: 'Event', trash: true, writeNotFound: true }),
};
