import type { PostKind } from '../auth/capabilities.js';
import { KINDS, type PostKindName } from '../kinds.js';
import type { PostType } from '../store/database.js';

/** What differs between the three post resources in the shared rules. */
export interface PostKindInfo {
  type: PostType;
  /** Capability suffix kind (`edit_tribe_venues`…). */
  kind: PostKind;
  /** WordPress post type name, used in plain permalinks (`?post_type=tribe_venue&p=1`). */
  postType: string;
  /** Permalink base: `{home}/{base}/{slug}/`. */
  permalinkBase: PostKindName;
  /** Singular noun used in error codes and messages (`venue-is-in-trash`). */
  noun: PostKindName;
  /** Collection path and envelope key. */
  collection: (typeof KINDS)[PostKindName]['collection'];
  /** Venues and organizers get a slug even as drafts; events only once public. */
  slugWhileDraft: boolean;
}

/** A post kind's rules, its names taken from the table of kinds (`kinds.ts`). */
function postKind(type: PostKindName, slugWhileDraft: boolean): PostKindInfo {
  const { collection, wordpress, capability } = KINDS[type];
  return { type, kind: capability, postType: wordpress, permalinkBase: type, noun: type, collection, slugWhileDraft };
}

export const EVENT = postKind('event', false);
export const VENUE = postKind('venue', true);
export const ORGANIZER = postKind('organizer', true);
