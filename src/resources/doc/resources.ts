import type { DescriptionKey } from '../../i18n/en.js';
import type { Collection, HostCollection } from '../../kinds.js';
import type { Description } from '../../i18n/index.js';
import type { SchemaName } from '../../schemas/responses.js';

/** The noun of a resource's items, which names the complete document's own schemas (`EventList`, `EventCreate`; a host's kind's: `Sponsor`). */
export type Noun = 'Event' | 'Venue' | 'Organizer' | 'Category' | 'Tag' | (string & NonNullable<unknown>);

/** One documented response: its description (a key; a host's kind's own texts) and, for successes, what its body holds. */
export interface ResponseDoc {
  description: Description;
  /** What a success holds: the resource's item or list (JSON), or a calendar file. */
  content?: 'item' | 'list' | 'calendar';
}

/** Responses by status code (integer-like keys keep ascending order in JSON). */
export type ResponsesDoc = Record<number, ResponseDoc>;

/**
 * What `/doc` says of one resource beyond its routes' arguments:
 * the schema of its items, which arguments its `post` body lists, and the responses of
 * each operation.
 */
export interface ResourceDoc {
  /** The schema of its items: one of {@link SchemaName}, or one the resource brings (`Resource.schemas`). */
  schema: SchemaName | (string & NonNullable<unknown>);
  /** `create`: the create arguments; `read+create`: the single route's read arguments, then those. */
  body: 'create' | 'read+create';
  archive: ResponsesDoc;
  get: ResponsesDoc;
  post: ResponsesDoc;
  delete: ResponsesDoc;
  /** What the complete document adds: the noun of its schemas, and the responses of each write. */
  writes: { noun: Noun; create: ResponsesDoc; update: ResponsesDoc; delete: ResponsesDoc };
}

/** The collections `/doc` knows, by route segment. */
export type { Collection };

/** How a resource's documentation differs from the others'. */
export interface DocShape {
  schema: ResourceDoc['schema'];
  body: ResourceDoc['body'];
  /** Whether a read may be refused (posts: trashed, private, password-protected). */
  readForbidden: boolean;
  /** Whether `post` documents the update answer (200); upstream's organizers only document 201. */
  updateResponse: boolean;
  noun: Noun;
  /** Whether deleting trashes (deleting again answers 410) rather than deleting for good. */
  trash: boolean;
  /** Whether a write naming a missing item answers 404 (events), not the 400 of an argument check. */
  writeNotFound: boolean;
}

const BAD_REQUEST: ResponseDoc = { description: 'doc.response.bad_request' };
const UNAUTHORIZED: ResponseDoc = { description: 'doc.response.unauthorized' };

/** `{ [code]: response }` when the resource documents it, else nothing. */
const optional = (documented: boolean, code: number, response: ResponseDoc): ResponsesDoc => (documented ? { [code]: response } : {});

/** What `/doc` says of a resource of this collection and shape. */
export function resourceDoc(collection: Collection | HostCollection, shape: DocShape, describe?: (suffix: string) => Description): ResourceDoc {
  const key = describe ?? ((suffix: string) => `doc.${collection}.${suffix}` as DescriptionKey);
  return {
    schema: shape.schema,
    body: shape.body,
    archive: {
      200: { description: key('archive'), content: 'list' },
      400: { description: 'doc.response.bad_query' },
      404: { description: 'doc.response.page_not_found' },
    },
    get: {
      200: { description: key('read'), content: 'item' },
      400: BAD_REQUEST,
      ...optional(shape.readForbidden, 403, { description: key('read_forbidden') }),
      404: { description: key('not_found') },
    },
    post: {
      ...optional(shape.updateResponse, 200, { description: key('updated'), content: 'item' }),
      201: { description: key('created'), content: 'item' },
      400: BAD_REQUEST,
      403: { description: key('write_forbidden') },
    },
    delete: {
      200: { description: key('deleted'), content: 'item' },
      400: BAD_REQUEST,
      403: { description: key('delete_forbidden') },
      410: { description: key('gone') },
      500: { description: key('delete_failed') },
    },
    writes: {
      noun: shape.noun,
      create: {
        201: { description: key('created'), content: 'item' },
        400: BAD_REQUEST,
        401: UNAUTHORIZED,
        403: { description: key('write_forbidden') },
      },
      update: {
        200: { description: key('updated'), content: 'item' },
        400: BAD_REQUEST,
        401: UNAUTHORIZED,
        403: { description: key('write_forbidden') },
        ...optional(shape.writeNotFound, 404, { description: key('not_found') }),
      },
      delete: {
        200: { description: key('deleted'), content: 'item' },
        400: BAD_REQUEST,
        401: UNAUTHORIZED,
        403: { description: key('delete_forbidden') },
        ...optional(shape.writeNotFound, 404, { description: key('not_found') }),
        ...optional(shape.trash, 410, { description: key('gone') }),
        500: { description: key('delete_failed') },
      },
    },
  };
}

/** The route of the OpenAPI document the `doc` option chooses. */
export const DOC_PATTERN = '/doc';

/** The route of the complete OpenAPI document, whatever the `doc` option says. */
export const COMPLETE_DOC_PATTERN = '/doc/complete';

/** Whether a route answers one of the OpenAPI documents. */
export const isDocPattern = (pattern: string) => pattern === DOC_PATTERN || pattern === COMPLETE_DOC_PATTERN;

/** The response of `/doc` (and `/doc/complete`) itself. */
export const DOC_RESPONSES: ResponsesDoc = { 200: { description: 'doc.response.doc' } };

/** The responses of the change feed (`/changes`, an addition of this library). */
export const CHANGES_RESPONSES: ResponsesDoc = {
  200: { description: 'doc.changes' },
  400: { description: 'doc.response.bad_query' },
  410: { description: 'doc.response.sync_token_gone' },
};

/** The responses of the iCalendar feed (`/ics/events`, an addition of this library). */
export const ICAL_FEED_RESPONSES: ResponsesDoc = {
  200: { description: 'doc.ical.feed', content: 'calendar' },
  400: { description: 'doc.response.bad_query' },
};

/** The responses of one event's calendar file: those of the event's own read. */
export const ICAL_EVENT_RESPONSES: ResponsesDoc = {
  200: { description: 'doc.ical.event', content: 'calendar' },
  400: BAD_REQUEST,
  403: { description: 'doc.events.read_forbidden' },
  404: { description: 'doc.events.not_found' },
};

/** The responses of a recurring event's occurrences (`/events/{id}/occurrences`, an addition of this library). */
export const OCCURRENCES_RESPONSES: ResponsesDoc = {
  200: { description: 'doc.occurrences' },
  400: { description: 'doc.response.bad_query' },
  403: { description: 'doc.events.read_forbidden' },
  404: { description: 'doc.events.not_found' },
};

/** The responses a route of the additions documents, by pattern; `undefined` for the resources' routes. */
export function additionResponses(pattern: string): ResponsesDoc | undefined {
  if (pattern.endsWith('/occurrences')) return OCCURRENCES_RESPONSES;
  if (pattern === '/changes') return CHANGES_RESPONSES;
  if (pattern === '/ics/events') return ICAL_FEED_RESPONSES;
  if (pattern.startsWith('/ics/events/')) return ICAL_EVENT_RESPONSES;
  return undefined;
}

/** The body of a calendar file in an OpenAPI document. */
export const CALENDAR_CONTENT = { 'text/calendar': { schema: { type: 'string' } } };
