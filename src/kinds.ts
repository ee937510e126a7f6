/**
 * The kinds of items a calendar holds, named once. Upstream spells each kind several ways (a
 * singular noun in error codes and the change log, a collection in paths and envelopes, a
 * WordPress post type or taxonomy, a capability suffix); every list and union of kinds in the
 * code derives from this table (README "Architecture": adding a kind).
 */
export const KINDS = {
  event: { collection: 'events', wordpress: 'tribe_events', family: 'post', capability: 'events' },
  venue: { collection: 'venues', wordpress: 'tribe_venue', family: 'post', capability: 'venues' },
  organizer: { collection: 'organizers', wordpress: 'tribe_organizer', family: 'post', capability: 'organizers' },
  category: { collection: 'categories', wordpress: 'tribe_events_cat', family: 'term', capability: undefined },
  tag: { collection: 'tags', wordpress: 'post_tag', family: 'term', capability: undefined },
} as const;

/** A kind of item: `event`, `venue`, `organizer`, `category` or `tag`. */
export type Kind = keyof typeof KINDS;

/** The kinds stored as posts (events, venues, organizers). */
export type PostKindName = { [K in Kind]: (typeof KINDS)[K]['family'] extends 'post' ? K : never }[Kind];

/** The kinds stored as terms (categories, tags). */
export type TermKindName = Exclude<Kind, PostKindName>;

/** A kind's collection: its path segment and its archive's envelope key (`events`…). */
export type Collection = (typeof KINDS)[Kind]['collection'];

/** The capability suffix of a post kind (`edit_tribe_events`…). */
export type CapabilityKind = (typeof KINDS)[PostKindName]['capability'];

/** Whether a value names a kind. */
export const isKind = (value: unknown): value is Kind => typeof value === 'string' && Object.hasOwn(KINDS, value);

/** Every kind, in upstream's registration order (the table's). */
export const KIND_NAMES: readonly Kind[] = Object.keys(KINDS).filter(isKind);

/** The path of an item of a kind, under the namespace, up to its id (`/events/`). */
export const itemPath = (kind: Kind): string => `/${KINDS[kind].collection}/`;

/**
 * The noun of a kind a host declared (the `kinds` option, `host-kinds/`): any other name, so
 * that a union with the built-in kinds still lists theirs. Its items are posts.
 */
export type HostKindName = string & NonNullable<unknown>;

/** The collection of a kind a host declared (`/sponsors`). */
export type HostCollection = string & NonNullable<unknown>;

/** A kind of post, built in or a host's. */
export type AnyPostKindName = PostKindName | HostKindName;

/** A kind of item, built in or a host's: what the change log records. */
export type AnyKind = Kind | HostKindName;
