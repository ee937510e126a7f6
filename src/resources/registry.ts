import type { Route } from '../http/route.js';
import { docRoutes } from './doc/routes.js';
import { events } from './events/index.js';
import { namespaceIndexRoute } from './index/routes.js';
import { organizers } from './organizers/index.js';
import type { Resource } from './resource.js';
import { categories, tags } from './terms/index.js';
import { venues } from './venues/index.js';
import { changesRoute } from './changes/routes.js';
import { icalRoutes } from './ical/routes.js';
import { occurrencesRoute } from './events/routes.js';
import { hostKindResource } from './host-kinds/index.js';
import { NO_KINDS, type KindRegistry } from '../host-kinds/registry.js';

/** The calendar's resources, in upstream registration order: adding one is one line here. */
export const RESOURCES: readonly Resource[] = [events, venues, organizers, categories, tags];

/**
 * The routes of the API: the namespace index, `/doc` and `/doc/complete`, then every resource's
 * (the host's kinds' after the built-in ones), then the additions: the change feed, the
 * iCalendar feeds and the occurrences of recurring events.
 */
export function routesOf(kinds: KindRegistry = NO_KINDS): readonly Route[] {
  const resources = [...RESOURCES, ...kinds.list.map(hostKindResource)];
  return [namespaceIndexRoute, ...docRoutes(resources), ...resources.flatMap((r) => r.routes), changesRoute, ...icalRoutes, occurrencesRoute];
}

/** The routes of a calendar without host kinds. */
export const ROUTES: readonly Route[] = routesOf();
