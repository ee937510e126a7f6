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

/** The calendar's resources, in upstream registration order: adding one is one line here. */
export const RESOURCES: readonly Resource[] = [events, venues, organizers, categories, tags];

/** The routes of the API: the namespace index, `/doc` and `/doc/complete`, then every resource's, then the additions: the change feed, the iCalendar feeds and the occurrences of recurring events. */
export const ROUTES: readonly Route[] = [
  namespaceIndexRoute,
  ...docRoutes(RESOURCES),
  ...RESOURCES.flatMap((r) => r.routes),
  changesRoute,
  ...icalRoutes,
  occurrencesRoute,
];
