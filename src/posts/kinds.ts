import type { PostKind } from '../auth/capabilities.js';
import { KINDS, type AnyPostKindName, type HostCollection, type PostKindName } from '../kinds.js';
import type { PostType } from '../store/database.js';

/** What differs between the post resources (the three built-in ones, a host's kinds) in the shared rules. */
export interface PostKindInfo {
  type: PostType;
  /** Capability suffix kind (`edit_tribe_venues`…; a host's kind: its collection). */
  kind: PostKind | HostCollection;
  /** WordPress post type name, used in plain permalinks (`?post_type=tribe_venue&p=1`). */
  postType: string;
  /** Permalink base: `{home}/{base}/{slug}/`. */
  permalinkBase: AnyPostKindName;
  /** Singular noun used in error codes and messages (`venue-is-in-trash`). */
  noun: AnyPostKindName;
  /** Collection path and envelope key. */
  collection: (typeof KINDS)[PostKindName]['collection'] | HostCollection;
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

/** The rules of a kind a host declared (`host-kinds/`): named by its noun and collection, a slug even as a draft. */
export function hostPostKind(noun: string, collection: string): PostKindInfo {
  return { type: noun, kind: collection, postType: noun, permalinkBase: noun, noun, collection, slugWhileDraft: true };
}
