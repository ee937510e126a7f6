import type { Route } from '../http/route.js';
import type { Collection, ResourceDoc } from './doc/resources.js';

/**
 * What one resource adds to the calendar, exported by its folder and listed once in
 * `registry.ts`: its routes (matched in the order given) and what `/doc` says of them.
 */
export interface Resource {
  /** The first segment of its route patterns, and the key of its descriptions in `/doc`. */
  collection: Collection;
  routes: readonly Route[];
  doc: ResourceDoc;
}
