import type { DescriptionKey } from '../i18n/en.js';
import type { Description } from '../i18n/index.js';
import type { JsonSchema } from './json-schema.js';

/** The response schemas of upstream's `/doc`, in upstream order. */
export const SCHEMA_NAMES = ['ImageSize', 'CostDetails', 'Term', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer'] as const;

/** A name of upstream's `components.schemas`. */
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/**
 * One property as upstream's document shows it. Its key order is the order `/doc` shows (it
 * varies upstream: `type, items, description` for some, `type, format, description` for
 * others), and `description` is a dictionary key, translated per request.
 */
export interface PropertyDoc {
  type: 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object';
  description: DescriptionKey;
  format?: 'uri' | 'double';
  enum?: readonly string[];
  items?: { type: 'integer' | 'string' } | { $ref: SchemaRef };
  $ref?: SchemaRef;
}

/** A name of `components.schemas` in the complete document: upstream's, then its own. */
export type ResponseSchemaName = SchemaName | 'EventTerm' | 'EventList' | 'VenueList' | 'OrganizerList' | 'CategoryList' | 'TagList' | 'Error';

/** A `$ref` to one of the schemas. */
export type SchemaRef = `#/components/schemas/${ResponseSchemaName}`;

/**
 * One property of a response: what upstream's document says of it, if it mentions it, and
 * the JSON it really holds, which wins where they disagree (the original document must still
 * be served as it is, so both are kept, side by side).
 */
export interface Field {
  /** A key of the dictionaries; a host's kind's own texts (`resources/host-kinds/`). */
  readonly description: Description;
  readonly documented?: PropertyDoc;
  /** The key upstream's document spells the property with, when it differs. */
  readonly documentedKey?: string;
  readonly json: JsonSchema;
  /** Whether the key may be missing (venues and organizers drop their empty values). */
  readonly optional?: boolean;
}

/** A property upstream's document mentions. */
interface DocField<J extends JsonSchema> extends Field {
  readonly documented: PropertyDoc;
  readonly json: J;
}

const ref = <const N extends ResponseSchemaName>(name: N) => ({ $ref: `#/components/schemas/${name}` }) as const;

// Real shapes.
const STRING = { type: 'string' } as const;
const INTEGER = { type: 'integer' } as const;
const NUMBER = { type: 'number' } as const;
const BOOLEAN = { type: 'boolean' } as const;
/** Flags of a password-protected item are `null`. */
const FLAG = { type: 'boolean', nullable: true } as const;
/** PHP's empty array where an object or a name is expected (`custom_fields`, a redacted venue's name). */
const EMPTY_LIST = { type: 'array', maxItems: 0, items: {} } as const;
const ANY_OBJECT = { type: 'object', additionalProperties: {} } as const;
const NO_IMAGE = { type: 'boolean', enum: [false] } as const;
const arrayOf = <const S extends JsonSchema>(items: S) => ({ type: 'array', items }) as const;

// Builders: the documented form first (one place keeps each key order), the real shape
// defaulting to the documented type.
function integer(description: DescriptionKey): DocField<typeof INTEGER>;
function integer<const J extends JsonSchema>(description: DescriptionKey, json: J): DocField<J>;
function integer(description: DescriptionKey, json: JsonSchema = INTEGER): DocField<JsonSchema> {
  return { description, documented: { type: 'integer', description }, json };
}
function string(description: DescriptionKey): DocField<typeof STRING>;
function string<const J extends JsonSchema>(description: DescriptionKey, json: J): DocField<J>;
function string(description: DescriptionKey, json: JsonSchema = STRING): DocField<JsonSchema> {
  return { description, documented: { type: 'string', description }, json };
}
function boolean(description: DescriptionKey): DocField<typeof BOOLEAN>;
function boolean<const J extends JsonSchema>(description: DescriptionKey, json: J): DocField<J>;
function boolean(description: DescriptionKey, json: JsonSchema = BOOLEAN): DocField<JsonSchema> {
  return { description, documented: { type: 'boolean', description }, json };
}
const uri = (description: DescriptionKey) => ({ description, documented: { type: 'string', format: 'uri', description }, json: STRING }) as const;
const double = (description: DescriptionKey) => ({ description, documented: { type: 'number', format: 'double', description }, json: NUMBER }) as const;
/** Documented as a list of `name`; `json` is what it really is. */
const listOf = <const J extends JsonSchema>(description: DescriptionKey, name: SchemaName, json: J) =>
  ({ description, documented: { type: 'array', description, items: { $ref: ref(name).$ref } }, json }) as const;
/** Documented as an object (or a string) referencing `name`. */
const refTo = <const J extends JsonSchema>(type: 'object' | 'string', description: DescriptionKey, name: SchemaName, json: J) =>
  ({ description, documented: { type, description, $ref: ref(name).$ref }, json }) as const;
const stringList = (description: DescriptionKey) =>
  ({ description, documented: { type: 'array', items: { type: 'string' }, description }, json: arrayOf(STRING) }) as const;
/** A property upstream's document leaves out. */
const undocumented = <const J extends JsonSchema>(description: DescriptionKey, json: J) => ({ description, json }) as const;
/** A property that may be missing. */
const optional = <const F extends Field>(field: F) => ({ ...field, optional: true }) as const;

/** The properties every post-like schema (event, venue, organizer) starts with, up to `status`/`url`. */
function postHead<const A extends Field>(kind: 'Event' | 'Venue' | 'Organizer', author: A) {
  return {
    id: integer(`schema.${kind}.id`),
    global_id: string(`schema.${kind}.global_id`),
    global_id_lineage: stringList(`schema.${kind}.global_id_lineage`),
    author,
    date: string(`schema.${kind}.date`),
    date_utc: string(`schema.${kind}.date_utc`),
    modified: string(`schema.${kind}.modified`),
    modified_utc: string(`schema.${kind}.modified_utc`),
    status: string(`schema.${kind}.status`),
    url: string(`schema.${kind}.url`),
  };
}

/** Venues and organizers drop their empty values: every text may be missing. */
const text = (description: DescriptionKey) => optional(string(description));

/** `urls` of a term: its own route, its collection's and, for a child category, its parent's. */
const TERM_URLS = {
  type: 'object',
  properties: { self: STRING, collection: STRING, up: STRING },
  required: ['self', 'collection'],
} as const;

/** The paging fields of every archive envelope. */
const PAGING = {
  rest_url: undocumented('schema.List.rest_url', STRING),
  next_rest_url: optional(undocumented('schema.List.next_rest_url', STRING)),
  previous_rest_url: optional(undocumented('schema.List.previous_rest_url', STRING)),
  total: undocumented('schema.List.total', INTEGER),
  total_pages: undocumented('schema.List.total_pages', INTEGER),
};

/**
 * Every response schema, keyed by name: upstream's in upstream order (their properties too),
 * then those only the complete document has (embedded terms, list envelopes, errors).
 */
export const SCHEMAS = {
  ImageSize: {
    width: integer('schema.ImageSize.width'),
    height: integer('schema.ImageSize.height'),
    'mime-type': string('schema.ImageSize.mime-type'),
    url: uri('schema.ImageSize.url'),
    filesize: optional(undocumented('schema.ImageSize.filesize', INTEGER)),
  },
  CostDetails: {
    currency_symbol: string('schema.CostDetails.currency_symbol'),
    currency_code: undocumented('schema.CostDetails.currency_code', STRING),
    currency_position: {
      description: 'schema.CostDetails.currency_position',
      // The trailing space is upstream's; clients of the original document rely on the key as is.
      documentedKey: 'currency_position ',
      documented: { type: 'string', description: 'schema.CostDetails.currency_position', enum: ['prefix', 'postfix'] },
      json: { type: 'string', enum: ['prefix', 'postfix', ''] },
    },
    // Numeric strings (`"6.50"`), or the slug of a cost without a number (`"free"`).
    values: {
      description: 'schema.CostDetails.values',
      documented: { type: 'array', items: { type: 'integer' }, description: 'schema.CostDetails.values' },
      json: arrayOf(STRING),
    },
  },
  Term: {
    id: integer('schema.Term.id'),
    name: string('schema.Term.name'),
    slug: string('schema.Term.slug'),
    taxonomy: string('schema.Term.taxonomy'),
    description: string('schema.Term.description'),
    // Tags have no parent.
    parent: optional(integer('schema.Term.parent')),
    count: integer('schema.Term.count'),
    url: string('schema.Term.url'),
    urls: {
      description: 'schema.Term.urls',
      documented: { type: 'array', description: 'schema.Term.urls', items: { type: 'string' } },
      json: TERM_URLS,
    },
    meta: undocumented('schema.Term.meta', EMPTY_LIST),
    // Single reads and writes (not deletes) carry WordPress' links.
    _links: optional(undocumented('schema.Term._links', ANY_OBJECT)),
  },
  Image: {
    url: uri('schema.Image.url'),
    id: integer('schema.Image.id'),
    extension: string('schema.Image.extension'),
    width: optional(integer('schema.Image.width')),
    height: optional(integer('schema.Image.height')),
    filesize: optional(undocumented('schema.Image.filesize', INTEGER)),
    // An object keyed by size name, absent when there is none.
    sizes: optional(listOf('schema.Image.sizes', 'ImageSize', { type: 'object', additionalProperties: ref('ImageSize') })),
  },
  // Zero-padded strings (`"04"`), whatever upstream's document says.
  DateDetails: {
    year: integer('schema.DateDetails.year', STRING),
    month: integer('schema.DateDetails.month', STRING),
    day: integer('schema.DateDetails.day', STRING),
    hour: integer('schema.DateDetails.hour', STRING),
    minutes: integer('schema.DateDetails.minutes', STRING),
    seconds: integer('schema.DateDetails.seconds', STRING),
  },
  Event: {
    // WordPress keeps the author id as a string.
    ...postHead('Event', integer('schema.Event.author', STRING)),
    rest_url: string('schema.Event.rest_url'),
    title: string('schema.Event.title'),
    description: string('schema.Event.description'),
    excerpt: string('schema.Event.excerpt'),
    slug: string('schema.Event.slug'),
    image: refTo('object', 'schema.Event.image', 'Image', { anyOf: [NO_IMAGE, ref('Image')] }),
    all_day: boolean('schema.Event.all_day', FLAG),
    start_date: string('schema.Event.start_date'),
    start_date_details: listOf('schema.Event.start_date_details', 'DateDetails', ref('DateDetails')),
    end_date: string('schema.Event.end_date'),
    end_date_details: listOf('schema.Event.end_date_details', 'DateDetails', ref('DateDetails')),
    utc_start_date: string('schema.Event.utc_start_date'),
    utc_start_date_details: listOf('schema.Event.utc_start_date_details', 'DateDetails', ref('DateDetails')),
    utc_end_date: string('schema.Event.utc_end_date'),
    utc_end_date_details: listOf('schema.Event.utc_end_date_details', 'DateDetails', ref('DateDetails')),
    timezone: string('schema.Event.timezone'),
    timezone_abbr: string('schema.Event.timezone_abbr'),
    cost: string('schema.Event.cost'),
    cost_details: listOf('schema.Event.cost_details', 'CostDetails', ref('CostDetails')),
    website: string('schema.Event.website'),
    show_map: boolean('schema.Event.show_map', FLAG),
    show_map_link: boolean('schema.Event.show_map_link', FLAG),
    hide_from_listings: boolean('schema.Event.hide_from_listings', FLAG),
    sticky: boolean('schema.Event.sticky', FLAG),
    featured: boolean('schema.Event.featured', FLAG),
    // Embedded terms have their own shape (no `url`, no `meta`).
    categories: listOf('schema.Event.categories', 'Term', arrayOf(ref('EventTerm'))),
    tags: listOf('schema.Event.tags', 'Term', arrayOf(ref('EventTerm'))),
    // `[]` without a venue (and for a password-protected event).
    venue: refTo('object', 'schema.Event.venue', 'Venue', { anyOf: [ref('Venue'), arrayOf(ref('Venue'))] }),
    organizer: listOf('schema.Event.organizer', 'Organizer', arrayOf(ref('Organizer'))),
    custom_fields: undocumented('schema.Event.custom_fields', {
      anyOf: [
        { type: 'object', additionalProperties: { type: 'object', properties: { label: STRING, value: STRING }, required: ['label', 'value'] } },
        EMPTY_LIST,
      ],
    }),
    // Single reads only.
    json_ld: optional(undocumented('schema.Event.json_ld', ANY_OBJECT)),
    // Recurring events only (a series, or one of its occurrences).
    recurrence: optional(undocumented('schema.Event.recurrence', arrayOf(STRING))),
    series: optional(
      undocumented('schema.Event.series', {
        type: 'object',
        properties: { id: INTEGER, rest_url: STRING, occurrences_url: STRING, original_start: STRING, overridden: BOOLEAN },
        required: ['id', 'rest_url', 'occurrences_url'],
      }),
    ),
  },
  Venue: {
    // Venues and organizers drop an author `"0"`.
    ...postHead('Venue', optional(integer('schema.Venue.author', STRING))),
    // A password-protected venue's name is `[]` (its key collides with the event's `venue`).
    venue: optional(string('schema.Venue.venue', { anyOf: [STRING, EMPTY_LIST] })),
    description: text('schema.Venue.description'),
    excerpt: text('schema.Venue.excerpt'),
    slug: text('schema.Venue.slug'),
    // Documented as a string referencing Image, as upstream does (the data is an object, absent without an image).
    image: optional(refTo('string', 'schema.Venue.image', 'Image', ref('Image'))),
    show_map: boolean('schema.Venue.show_map', FLAG),
    show_map_link: boolean('schema.Venue.show_map_link', FLAG),
    address: text('schema.Venue.address'),
    city: text('schema.Venue.city'),
    country: text('schema.Venue.country'),
    province: text('schema.Venue.province'),
    state: text('schema.Venue.state'),
    zip: text('schema.Venue.zip'),
    phone: text('schema.Venue.phone'),
    website: text('schema.Venue.website'),
    stateprovince: text('schema.Venue.stateprovince'),
    geo_lat: optional(double('schema.Venue.geo_lat')),
    geo_lng: optional(double('schema.Venue.geo_lng')),
    json_ld: optional(undocumented('schema.Venue.json_ld', ANY_OBJECT)),
  },
  Organizer: {
    ...postHead('Organizer', optional(integer('schema.Organizer.author', STRING))),
    organizer: optional(string('schema.Organizer.organizer', { anyOf: [STRING, EMPTY_LIST] })),
    description: text('schema.Organizer.description'),
    excerpt: text('schema.Organizer.excerpt'),
    slug: text('schema.Organizer.slug'),
    image: optional(refTo('string', 'schema.Organizer.image', 'Image', ref('Image'))),
    phone: text('schema.Organizer.phone'),
    website: text('schema.Organizer.website'),
    email: text('schema.Organizer.email'),
    json_ld: optional(undocumented('schema.Organizer.json_ld', ANY_OBJECT)),
  },
  /** A category or tag inside an event: WordPress' term object, `term_id` renamed `id`. */
  EventTerm: {
    name: undocumented('schema.Term.name', STRING),
    slug: undocumented('schema.Term.slug', STRING),
    term_group: undocumented('schema.EventTerm.term_group', INTEGER),
    term_taxonomy_id: undocumented('schema.EventTerm.term_taxonomy_id', INTEGER),
    taxonomy: undocumented('schema.Term.taxonomy', STRING),
    description: undocumented('schema.Term.description', STRING),
    parent: undocumented('schema.Term.parent', INTEGER),
    count: undocumented('schema.Term.count', INTEGER),
    filter: undocumented('schema.EventTerm.filter', { type: 'string', enum: ['raw'] }),
    id: undocumented('schema.Term.id', INTEGER),
    urls: undocumented('schema.Term.urls', TERM_URLS),
  },
  EventList: { events: undocumented('schema.EventList.events', arrayOf(ref('Event'))), ...PAGING },
  VenueList: { venues: undocumented('schema.VenueList.venues', arrayOf(ref('Venue'))), ...PAGING },
  OrganizerList: { organizers: undocumented('schema.OrganizerList.organizers', arrayOf(ref('Organizer'))), ...PAGING },
  CategoryList: { categories: undocumented('schema.CategoryList.categories', arrayOf(ref('Term'))), ...PAGING },
  TagList: { tags: undocumented('schema.TagList.tags', arrayOf(ref('Term'))), ...PAGING },
  Error: {
    code: undocumented('schema.Error.code', STRING),
    message: undocumented('schema.Error.message', STRING),
    // `null` only for errors raised without data (then the status is 500).
    data: undocumented('schema.Error.data', {
      type: 'object',
      nullable: true,
      properties: {
        status: INTEGER,
        params: { anyOf: [arrayOf(STRING), { type: 'object', additionalProperties: STRING }] },
        details: {},
      },
      additionalProperties: {},
    }),
    additional_data: optional(undocumented('schema.Error.additional_data', arrayOf({}))),
  },
} as const satisfies Record<ResponseSchemaName, Readonly<Record<string, Field>>>;
