import type { PostKind } from '../auth/capabilities.js';
import type { PostType } from '../store/database.js';

/** What differs between the three post resources in the shared rules. */
export interface PostKindInfo {
  type: PostType;
  /** Capability suffix kind (`edit_tribe_venues`…). */
  kind: PostKind;
  /** WordPress post type name, used in plain permalinks (`?post_type=tribe_venue&p=1`). */
  postType: string;
  /** Permalink base: `{home}/{base}/{slug}/`. */
  permalinkBase: 'event' | 'venue' | 'organizer';
  /** Singular noun used in error codes and messages (`venue-is-in-trash`). */
  noun: 'event' | 'venue' | 'organizer';
  /** Collection path and envelope key. */
  collection: 'events' | 'venues' | 'organizers';
  /** Venues and organizers get a slug even as drafts; events only once public. */
  slugWhileDraft: boolean;
}

export const EVENT: PostKindInfo = {
  type: 'event',
  kind: 'events',
  postType: 'tribe_events',
  permalinkBase: 'event',
  noun: 'event',
  collection: 'events',
  slugWhileDraft: false,
};

export const VENUE: PostKindInfo = {
  type: 'venue',
  kind: 'venues',
  postType: 'tribe_venue',
  permalinkBase: 'venue',
  noun: 'venue',
  collection: 'venues',
  slugWhileDraft: true,
};

export const ORGANIZER: PostKindInfo = {
  type: 'organizer',
  kind: 'organizers',
  postType: 'tribe_organizer',
  permalinkBase: 'organizer',
  noun: 'organizer',
  collection: 'organizers',
  slugWhileDraft: true,
};
