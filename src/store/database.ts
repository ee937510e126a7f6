import type { Generated } from 'kysely';
import type { AnyKind, HostKindName, Kind, KINDS, PostKindName, TermKindName } from '../kinds.js';

/** Post types sharing the post id space, as WordPress posts do. */
export type PostType = PostKindName | 'attachment' | HostKindName;

/** Taxonomies of the API's terms. */
export type Taxonomy = (typeof KINDS)[TermKindName]['wordpress'];

/** `YYYY-MM-DD HH:MM:SS`: every stored date is such a string (sorts as it compares). */
export type DateString = string;

/** Columns every post has: events, venues, organizers and attachments. */
export interface PostsTable {
  id: Generated<number>;
  type: PostType;
  author: number;
  status: string;
  /** The status a trashed post had, for restoring and for permission checks. */
  status_before_trash: string | null;
  /** The slug a trashed post had, given back when it leaves the trash (WordPress' `_wp_desired_post_slug`). */
  slug_before_trash: string | null;
  title: string;
  content: string;
  excerpt: string;
  /** `null` while a draft has no slug; unique per type otherwise. */
  slug: string | null;
  password: string | null;
  date: DateString;
  date_utc: DateString;
  modified: DateString;
  modified_utc: DateString;
  /** `-1` for sticky events. */
  menu_order: number;
  parent: number;
  image_id: number | null;
}

/** Event details, one row per event post. */
export interface EventsTable {
  post_id: number;
  start_local: DateString;
  end_local: DateString;
  start_utc: DateString;
  end_utc: DateString;
  timezone: string;
  timezone_abbr: string;
  all_day: number;
  hidden: number;
  featured: number;
  show_map: number;
  show_map_link: number;
  /** `null` when no website was ever stored (the response then shows the event URL). */
  website: string | null;
  /** JSON array of the raw cost strings; `null` for no cost. */
  cost: string | null;
  currency_symbol: string;
  currency_position: string;
  currency_code: string;
  venue_id: number | null;
  /**
   * `null` for an event that does not recur; its own id for a series; the series' id for an
   * event that overrides one occurrence of it (`occurrences.content_id` names it).
   */
  series_id: number | null;
}

/** Venue details, one row per venue post. */
export interface VenuesTable {
  post_id: number;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  stateprovince: string;
  website: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
}

/** Organizer details, one row per organizer post. */
export interface OrganizersTable {
  post_id: number;
  phone: string;
  website: string;
  email: string;
}

/** Event ↔ organizer links, in the order they were given. */
export interface EventOrganizersTable {
  event_id: number;
  organizer_id: number;
  position: number;
}

/** Image attachments (featured images). */
export interface AttachmentsTable {
  post_id: number;
  url: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  filesize: number | null;
  /** JSON object of named sizes, `{}` when none. */
  sizes: string;
}

/** Event categories and tags. */
export interface TermsTable {
  id: Generated<number>;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Published events carrying the term, kept up to date by every write that changes it. */
  count: Generated<number>;
}

/** Which post carries which term. */
export interface TermRelationshipsTable {
  post_id: number;
  term_id: number;
}

/** The kinds of item the change log records. */
export type ChangeKind = AnyKind;

/** What happened to an item: created, updated (trash and status changes included) or deleted for good. */
export type ChangeType = 'created' | 'updated' | 'deleted';

/** The change log (`changes/log.ts`): one row per item a committed write changed, in commit order. */
export interface ChangesTable {
  /** Position in the log: commits take successive positions, one at a time. */
  seq: number;
  kind: ChangeKind;
  item_id: number;
  change_type: ChangeType;
  /** ISO 8601 UTC instant with milliseconds. */
  at_utc: string;
  /** For a change to a recurring event: what it applied to (`this`, `following`, `all`). */
  scope: 'this' | 'following' | 'all' | null;
}

/** The log's single row: its last position, how far it was pruned, and the store's identity. */
export interface ChangeSequenceTable {
  id: number;
  last_seq: number;
  /** Entries up to here were pruned: a sync token before it has expired. */
  pruned_through: number;
  /** Random, set once: a sync token of another store is unknown here. */
  store_id: string;
}

/** Where each webhook endpoint stands in the change log, and who is delivering to it. */
export interface WebhookCursorsTable {
  /** The endpoint's key (its name, or its URL). */
  endpoint: string;
  /** The last change delivered (or skipped by its filters). */
  seq: number;
  /** Failed attempts at the next change since it was last delivered. */
  attempts: number;
  /** Not before this instant (ISO), after a failure. */
  retry_at: string;
  /** The instance delivering now, until `lease_until` (ISO). */
  lease_owner: string;
  lease_until: string;
  last_error: string;
}

/** An item an import brought in: which item of which source site it came from. */
export interface ImportedItemsTable {
  /** The source's REST root and namespace (`https://old.example/wp-json/tribe/events/v1`). */
  source: string;
  kind: ImportedKind;
  source_id: number;
  /** The item it became here. */
  item_id: number;
  /** The source's `modified_utc` when it was imported (`''` for terms, which have none). */
  source_modified: string;
  /** When (ISO). */
  imported_at: string;
}

/** A recurring event's rules (`recurrence/`), one row per series post. */
export interface SeriesTable {
  /** The series' post id. */
  id: number;
  /** JSON array of its recurrence lines (`RRULE:…`, `RDATE…`, `EXDATE…`). */
  rules: string;
  /** Occurrences starting up to this local wall clock are in the index. */
  indexed_until: DateString;
  /** 1 when every occurrence of a finite rule is in the index. */
  complete: number;
}

/** One occurrence of a series in the index the archive lists. */
export interface OccurrencesTable {
  /** Its id, above `recurrence.idBase`: never reused, kept when the occurrence is edited or moved. */
  id: number;
  series_id: number;
  /** The event whose content it shows: the series, or the event that overrides this occurrence. */
  content_id: number;
  /** The local start the rule gives it (iCalendar's RECURRENCE-ID): its key within the series. */
  original_start: DateString;
  start_local: DateString;
  end_local: DateString;
  start_utc: DateString;
  end_utc: DateString;
  /** 1 when cancelled: it leaves the archive, and its id is not reused. */
  cancelled: number;
}

/** The occurrence id counter's single row. */
export interface OccurrenceSequenceTable {
  id: number;
  last_id: number;
}

/** The kinds an import brings in (images: the source's attachments). */
export type ImportedKind = Kind | 'image';

/** The store's tables by their logical names (the configured prefix is added on the way out). */
/** Values of the fields a host declares (`fields/`): one row per item and field. */
export interface FieldValuesTable {
  /** Whether `item_id` is a post's (event, venue, organizer) or a term's (category, tag). */
  family: 'post' | 'term';
  item_id: number;
  name: string;
  /** The value as JSON. */
  value: string;
  /** A number's value, for the archive's range filters. */
  number: number | null;
  /** A text (up to 191 characters) or a flag (`true`/`false`), for the archive's equality filters. */
  text: string | null;
}

/** What an entry of an iCalendar feed or a CSV file became (`feeds/records.ts`). */
export interface FeedItemsTable {
  /** The feed's key: its URL or file (hashed when longer than the column). */
  feed: string;
  /** SHA-256 (hex) of the entry's UID and RECURRENCE-ID (or of a venue's or organizer's name). */
  item_key: string;
  uid: string;
  /** The occurrence an entry edits (`YYYY-MM-DD HH:MM:SS` in the series' zone); `''` for a whole event. */
  recurrence_id: string;
  /** `event`, `occurrence`, `venue` or `organizer`. */
  kind: string;
  /** The event, occurrence, venue or organizer it became. */
  item_id: number;
  /** SHA-256 (hex) of what was written: the same digest on the next run leaves the item alone. */
  digest: string;
  /** The item's `modified_utc` after the write and the change log's position then (`modified|seq`): a change since is the API's. */
  written_modified: string;
  /** When (ISO). */
  imported_at: string;
}

/** A feed the calendar follows (`subscriptions/`): its settings, its last fetch and run, and who runs it now. */
export interface SubscriptionsTable {
  name: string;
  url: string;
  /** JSON of the subscription's settings (interval, categories, status, overwrite, hosts allowed). */
  settings: string;
  /** `option` (the calendar's `subscriptions` option) or `cli`. */
  origin: string;
  /** The validators of the last answer, sent back to ask for a 304. */
  etag: string;
  last_modified: string;
  /** Not before this instant (ISO). */
  next_run_at: string;
  /** The instance running it now, until `lease_until` (ISO). */
  lease_owner: string;
  lease_until: string;
  last_run_at: string;
  /** `imported`, `not-modified` or `failed` ('' before the first run). */
  last_outcome: string;
  last_error: string;
  /** JSON of the last run's report. */
  last_report: string;
  runs: number;
  not_modified: number;
  failures: number;
}

export interface Database {
  posts: PostsTable;
  events: EventsTable;
  venues: VenuesTable;
  organizers: OrganizersTable;
  event_organizers: EventOrganizersTable;
  attachments: AttachmentsTable;
  terms: TermsTable;
  term_relationships: TermRelationshipsTable;
  changes: ChangesTable;
  change_sequence: ChangeSequenceTable;
  webhook_cursors: WebhookCursorsTable;
  imported_items: ImportedItemsTable;
  series: SeriesTable;
  occurrences: OccurrencesTable;
  occurrence_sequence: OccurrenceSequenceTable;
  field_values: FieldValuesTable;
  feed_items: FeedItemsTable;
  subscriptions: SubscriptionsTable;
}

/** The logical table names, for the prefix plugin. */
export const TABLES: readonly (keyof Database)[] = [
  'posts',
  'events',
  'venues',
  'organizers',
  'event_organizers',
  'attachments',
  'terms',
  'term_relationships',
  'changes',
  'change_sequence',
  'webhook_cursors',
  'imported_items',
  'series',
  'occurrences',
  'occurrence_sequence',
  'field_values',
  'feed_items',
  'subscriptions',
];
