import type { Route } from '../http/route.js';
import type { HostCollection } from '../kinds.js';
import type { Field } from '../schemas/responses.js';
import type { Collection, ResourceDoc } from './doc/resources.js';

/**
 * What one resource adds to the calendar, exported by its folder and listed once in
 * `registry.ts`: its routes (matched in the order given) and what `/doc` says of them.
 */
export interface Resource {
  /** The first segment of its route patterns, and the key of its descriptions in `/doc`. */
  collection: Collection | HostCollection;
  routes: readonly Route[];
  doc: ResourceDoc;
  /** Response schemas of its own, beside the API's (a host's kind's items and lists), by name. */
  schemas?: Readonly<Record<string, Readonly<Record<string, Field>>>>;
}
