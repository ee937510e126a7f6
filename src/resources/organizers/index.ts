import type { Resource } from '../resource.js';
import { resourceDoc } from '../doc/resources.js';
import { ORGANIZER } from '../../posts/kinds.js';
import { organizerWriteArgs } from '../linked/args.js';
import { linkedRoutes } from '../linked/routes.js';

/** Organizers: `/organizers`, by id and by slug, on the rules venues and organizers share. */
export const organizers: Resource = {
  collection: 'organizers',
  routes: linkedRoutes((ctx) => ctx.services.organizers, ORGANIZER, organizerWriteArgs),
  // Upstream documents no 200 for an organizer update.
  doc: resourceDoc('organizers', {
    schema: 'Organizer',
    body: 'read+create',
    readForbidden: true,
    updateResponse: false,
    noun: 'Organizer',
    trash: true,
    writeNotFound: false,
  }),
};
