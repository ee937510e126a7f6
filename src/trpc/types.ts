import type { eventArchiveArgs, eventIdArg, eventScopeArgs, eventSlugArg, eventWriteArgs, occurrencesArgs } from '../resources/events/args.js';
import type { linkedArchiveArgs, linkedIdArg, linkedSlugArg, organizerWriteArgs, venueWriteArgs } from '../resources/linked/args.js';
import type { passwordArg } from '../posts/args.js';
import type { termArchiveArgs, termIdArg, termWriteArgs } from '../resources/terms/args.js';
import type { changeFeedArgs } from '../resources/changes/args.js';
import type { eventFileArgs, eventFileBySlugArgs, feedArgs } from '../resources/ical/args.js';
import type { FeedChange } from '../resources/changes/routes.js';
import type { ArgsInput } from './inputs.js';
import type { HostItem } from '../schemas/types.js';

// Input types are computed from the argument declarations the routes use; the router
// builds the runtime schemas from the routes themselves (test/trpc.test.ts checks that
// both name the same keys).

/** `force` of deletes: delete permanently instead of trashing. */
export interface ForceInput {
  force?: boolean;
}

/** Archives may be called without input. */
type Optional<T> = T | undefined;

export type EventListInput = Optional<ArgsInput<typeof eventArchiveArgs>>;
export type EventByIdInput = ArgsInput<{ id: typeof eventIdArg; password: typeof passwordArg }>;
export type EventBySlugInput = ArgsInput<{ slug: typeof eventSlugArg }>;
export type EventGetInput = EventByIdInput | EventBySlugInput;
export type EventCreateInput = ArgsInput<ReturnType<typeof eventWriteArgs<true>>>;
type EventFields = ArgsInput<ReturnType<typeof eventWriteArgs<false>>> & ArgsInput<typeof eventScopeArgs>;
/** By id, `slug` is the new slug; by slug, the slug finds the event (rename by id). */
export type EventUpdateInput = (EventByIdInput & EventFields) | (EventBySlugInput & Omit<EventFields, 'slug'>);
export type EventDeleteInput = (EventByIdInput | EventBySlugInput) & ForceInput & Pick<ArgsInput<typeof eventScopeArgs>, 'scope'>;
/** The occurrences of a recurring event: its id (or one of its occurrences'), a window and a page. */
export type OccurrencesInput = ArgsInput<typeof occurrencesArgs>;
/** `venue` of an event write: an id, `{id}`, the fields of a new venue, or a list of at most one of those. */
export type EventVenueInput = NonNullable<EventCreateInput['venue']>;
/** `organizer` of an event write: an id, `{id}`, the fields of a new organizer, or a list of those. */
export type EventOrganizerInput = NonNullable<EventCreateInput['organizer']>;
/** `categories`/`tags` of an event write: ids, names or slugs, as a list or a comma-separated string. */
export type EventTermsInput = NonNullable<EventCreateInput['categories']>;
/** `cost` of an event write: a text, a number, or a list of costs. */
export type EventCostInput = NonNullable<EventCreateInput['cost']>;

type LinkedKeyInput = ArgsInput<{ id: ReturnType<typeof linkedIdArg> }> | ArgsInput<{ slug: ReturnType<typeof linkedSlugArg> }>;
export type LinkedListInput = Optional<ArgsInput<ReturnType<typeof linkedArchiveArgs>>>;
export type LinkedGetInput = LinkedKeyInput;
export type LinkedDeleteInput = LinkedKeyInput & ForceInput;
export type VenueCreateInput = ArgsInput<ReturnType<typeof venueWriteArgs<true>>>;
export type VenueUpdateInput = LinkedKeyInput & ArgsInput<ReturnType<typeof venueWriteArgs<false>>>;
export type OrganizerCreateInput = ArgsInput<ReturnType<typeof organizerWriteArgs<true>>>;
export type OrganizerUpdateInput = LinkedKeyInput & ArgsInput<ReturnType<typeof organizerWriteArgs<false>>>;

/** What a write of a host's kind (`kinds` option) takes beside its name: an organizer's, without the contact details. */
type HostItemFields = Omit<OrganizerCreateInput, 'organizer' | 'phone' | 'website' | 'email'>;
/** The archive of a host's kind: no links to events to filter by. */
export type HostListInput = Optional<Pick<NonNullable<LinkedListInput>, 'page' | 'per_page' | 'search' | 'status'>>;
/** A new item of a host's kind: its name under its noun `N`. */
export type HostCreateInput<N extends string> = HostItemFields & { [P in N]: string };
/** A change to an item of a host's kind, by id or slug. */
export type HostUpdateInput<N extends string> = LinkedKeyInput & HostItemFields & { [P in N]?: string };
/** An item of a host's kind whose noun is `N`, as the API answers it (its name may be missing when empty). */
export type HostItemOf<N extends string> = HostItem & { [P in N]?: string };

type TermArchive = ArgsInput<ReturnType<typeof termArchiveArgs>>;
type TermCreate = ArgsInput<ReturnType<typeof termWriteArgs<true>>>;
type TermFields = ArgsInput<ReturnType<typeof termWriteArgs<false>>>;
export type TermKeyInput = ArgsInput<{ id: ReturnType<typeof termIdArg> }>;
export type CategoryListInput = Optional<TermArchive>;
export type CategoryCreateInput = TermCreate;
export type CategoryUpdateInput = TermKeyInput & TermFields;
/** Tags are not hierarchical: no `parent`. */
export type TagListInput = Optional<Omit<TermArchive, 'parent'>>;
export type TagCreateInput = Omit<TermCreate, 'parent'>;
export type TagUpdateInput = TermKeyInput & Omit<TermFields, 'parent'>;

/** Arguments of the namespace index and `/doc` (all optional; rarely needed). */
export type IndexInput = Optional<{ namespace?: string; context?: string }>;
export type ChangesInput = Optional<ArgsInput<typeof changeFeedArgs>>;
/** A page of the change feed (`GET /changes`). */
export interface ChangeFeed {
  changes: FeedChange[];
  next_sync_token: string;
  more: boolean;
}
export type DocInput = Optional<Record<string, unknown>>;
/** The iCalendar feed's filters (those of the events archive, without paging). */
export type IcalFeedInput = Optional<ArgsInput<typeof feedArgs>>;
/** One event's calendar file, by id or by slug. */
export type IcalEventInput = ArgsInput<typeof eventFileArgs> | ArgsInput<typeof eventFileBySlugArgs>;

/** Any JSON object of the API (the items, envelopes and errors it answers with). */
export type JsonObject = Record<string, unknown>;

// The JSON the procedures answer has the main entry's types, named the same here.
export type { CalendarEvent, Venue, Organizer, Term, WrittenVenue, WrittenOrganizer, Deleted, HostItem } from '../schemas/types.js';

/** An archive envelope: the page's items under their collection key, with totals and paging URLs. */
export type Archive<K extends string, T> = { [P in K]: T[] } & {
  total: number;
  total_pages: number;
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
};
