import type { JsonOf } from './json-schema.js';
import type { Field, SCHEMAS } from './responses.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type OptionalKeys<F> = { [K in keyof F]: F[K] extends { readonly optional: true } ? K : never }[keyof F];

/** The JSON object a record of fields describes: optional fields are optional keys. */
type FieldsOf<F extends Readonly<Record<string, Field>>, C> = Simplify<
  { -readonly [K in Exclude<keyof F, OptionalKeys<F>>]: JsonOf<F[K]['json'], C> } & {
    -readonly [K in OptionalKeys<F>]?: JsonOf<F[K]['json'], C>;
  }
>;

/** The TypeScript type of every response schema, by name: the JSON the API really answers. */
export type ResponseTypes = { [N in keyof typeof SCHEMAS]: FieldsOf<(typeof SCHEMAS)[N], ResponseTypes> };

/** An event as the API answers it (`json_ld` on single reads only). */
export type CalendarEvent = ResponseTypes['Event'];
/** A venue; keys with empty values are left out. */
export type Venue = ResponseTypes['Venue'];
/** An organizer; keys with empty values are left out. */
export type Organizer = ResponseTypes['Organizer'];
/** A category or tag as the term routes answer it (`parent` for categories only). */
export type Term = ResponseTypes['Term'];
/** A category or tag inside an event. */
export type EventTerm = ResponseTypes['EventTerm'];
/** A featured image. */
export type Image = ResponseTypes['Image'];
/** One generated size of an image. */
export type ImageSize = ResponseTypes['ImageSize'];
/** The parts of a date, as zero-padded strings. */
export type DateDetails = ResponseTypes['DateDetails'];
/** The parsed cost of an event. */
export type CostDetails = ResponseTypes['CostDetails'];
/** A page of the events archive. */
export type EventList = ResponseTypes['EventList'];
/** A page of the venues archive. */
export type VenueList = ResponseTypes['VenueList'];
/** A page of the organizers archive. */
export type OrganizerList = ResponseTypes['OrganizerList'];
/** A page of the categories archive. */
export type CategoryList = ResponseTypes['CategoryList'];
/** A page of the tags archive. */
export type TagList = ResponseTypes['TagList'];
/** An error answer: `{code, message, data: {status, …}}`. */
export type ApiErrorJson = ResponseTypes['Error'];

/**
 * A venue as a write (create, update) answers it: its writer may edit it, so its name is
 * shown even when the venue is password-protected (a reader without the password gets `[]`).
 */
export type WrittenVenue = Omit<Venue, 'venue'> & { venue: string };
/** An organizer as a write answers it: its name is shown, as for {@link WrittenVenue}. */
export type WrittenOrganizer = Omit<Organizer, 'organizer'> & { organizer: string };

/**
 * What deleting an event, venue or organizer answers, told apart by `deleted`: the item as
 * moved to the trash (no `deleted` key), or with `force`, `{ deleted: true, previous }` (the
 * item as it was). `if (answer.deleted) answer.previous.id; else answer.status // 'trash'`.
 */
export type Deleted<T> = (T & { deleted?: false }) | { deleted: true; previous: T };

/**
 * An item of a host's kind (`kinds` option) as the API answers it: an organizer's keys but its
 * own details; its name is under its noun, and its fields follow (`HostItemOf` in `trpc/types.ts`).
 */
export type HostItem = Omit<Organizer, 'organizer' | 'phone' | 'website' | 'email' | 'json_ld'> & { readonly [key: string]: unknown };
