import type { Resource } from '../resource.js';
import { resourceDoc } from '../doc/resources.js';
import { VENUE } from '../../posts/kinds.js';
import { venueWriteArgs } from '../linked/args.js';
import { linkedRoutes } from '../linked/routes.js';

/** Venues: `/venues`, by id and by slug, on the rules venues and organizers share. */
export const venues: Resource = {
  collection: 'venues',
  routes: linkedRoutes((ctx) => ctx.services.venues, VENUE, venueWriteArgs),
  doc: resourceDoc('venues', { schema: 'Venue', body: 'create', readForbidden: true, updateResponse: true, noun: 'Venue', trash: true, writeNotFound: false }),
};
