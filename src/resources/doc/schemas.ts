import type { DescriptionKey } from '../../i18n/en.js';

/** The response schemas of `/doc`, in upstream order. */
export const SCHEMA_NAMES = ['ImageSize', 'CostDetails', 'Term', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer'] as const;

/** A name of `components.schemas`. */
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** A `$ref` to one of the schemas. */
export type SchemaRef = `#/components/schemas/${SchemaName}`;

/**
 * One documented property. Its key order is the order `/doc` shows (it varies upstream:
 * `type, items, description` for some, `type, format, description` for others), and
 * `description` is a dictionary key, translated per request.
 */
export interface PropertyDoc {
  type: 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object';
  description: DescriptionKey;
  format?: 'uri' | 'double';
  enum?: readonly string[];
  items?: { type: 'integer' | 'string' } | { $ref: SchemaRef };
  $ref?: SchemaRef;
}

const ref = (name: SchemaName): SchemaRef => `#/components/schemas/${name}`;

// Small builders keep each property's key order in one place.
const integer = (description: DescriptionKey): PropertyDoc => ({ type: 'integer', description });
const string = (description: DescriptionKey): PropertyDoc => ({ type: 'string', description });
const boolean = (description: DescriptionKey): PropertyDoc => ({ type: 'boolean', description });
const uri = (description: DescriptionKey): PropertyDoc => ({ type: 'string', format: 'uri', description });
const double = (description: DescriptionKey): PropertyDoc => ({ type: 'number', format: 'double', description });
const listOf = (description: DescriptionKey, name: SchemaName): PropertyDoc => ({ type: 'array', description, items: { $ref: ref(name) } });
const stringList = (description: DescriptionKey): PropertyDoc => ({ type: 'array', items: { type: 'string' }, description });

/** The properties every post-like schema (event, venue, organizer) starts with, up to `status`/`url`. */
function postHead(kind: 'Event' | 'Venue' | 'Organizer'): Record<string, PropertyDoc> {
  return {
    id: integer(`schema.${kind}.id`),
    global_id: string(`schema.${kind}.global_id`),
    global_id_lineage: stringList(`schema.${kind}.global_id_lineage`),
    author: integer(`schema.${kind}.author`),
    date: string(`schema.${kind}.date`),
    date_utc: string(`schema.${kind}.date_utc`),
    modified: string(`schema.${kind}.modified`),
    modified_utc: string(`schema.${kind}.modified_utc`),
    status: string(`schema.${kind}.status`),
    url: string(`schema.${kind}.url`),
  };
}

/** The properties of every schema, keyed by schema name, in upstream order. */
export const SCHEMAS: Record<SchemaName, Record<string, PropertyDoc>> = {
  ImageSize: {
    width: integer('schema.ImageSize.width'),
    height: integer('schema.ImageSize.height'),
    'mime-type': string('schema.ImageSize.mime-type'),
    url: uri('schema.ImageSize.url'),
  },
  CostDetails: {
    currency_symbol: string('schema.CostDetails.currency_symbol'),
    // The trailing space is upstream's; clients of the original document rely on the key as is.
    'currency_position ': { type: 'string', description: 'schema.CostDetails.currency_position', enum: ['prefix', 'postfix'] },
    values: { type: 'array', items: { type: 'integer' }, description: 'schema.CostDetails.values' },
  },
  Term: {
    id: integer('schema.Term.id'),
    name: string('schema.Term.name'),
    slug: string('schema.Term.slug'),
    taxonomy: string('schema.Term.taxonomy'),
    description: string('schema.Term.description'),
    parent: integer('schema.Term.parent'),
    count: integer('schema.Term.count'),
    url: string('schema.Term.url'),
    urls: { type: 'array', description: 'schema.Term.urls', items: { type: 'string' } },
  },
  Image: {
    url: uri('schema.Image.url'),
    id: integer('schema.Image.id'),
    extension: string('schema.Image.extension'),
    width: integer('schema.Image.width'),
    height: integer('schema.Image.height'),
    sizes: listOf('schema.Image.sizes', 'ImageSize'),
  },
  DateDetails: {
    year: integer('schema.DateDetails.year'),
    month: integer('schema.DateDetails.month'),
    day: integer('schema.DateDetails.day'),
    hour: integer('schema.DateDetails.hour'),
    minutes: integer('schema.DateDetails.minutes'),
    seconds: integer('schema.DateDetails.seconds'),
  },
  Event: {
    ...postHead('Event'),
    rest_url: string('schema.Event.rest_url'),
    title: string('schema.Event.title'),
    description: string('schema.Event.description'),
    excerpt: string('schema.Event.excerpt'),
    slug: string('schema.Event.slug'),
    image: { type: 'object', description: 'schema.Event.image', $ref: ref('Image') },
    all_day: boolean('schema.Event.all_day'),
    start_date: string('schema.Event.start_date'),
    start_date_details: listOf('schema.Event.start_date_details', 'DateDetails'),
    end_date: string('schema.Event.end_date'),
    end_date_details: listOf('schema.Event.end_date_details', 'DateDetails'),
    utc_start_date: string('schema.Event.utc_start_date'),
    utc_start_date_details: listOf('schema.Event.utc_start_date_details', 'DateDetails'),
    utc_end_date: string('schema.Event.utc_end_date'),
    utc_end_date_details: listOf('schema.Event.utc_end_date_details', 'DateDetails'),
    timezone: string('schema.Event.timezone'),
    timezone_abbr: string('schema.Event.timezone_abbr'),
    cost: string('schema.Event.cost'),
    cost_details: listOf('schema.Event.cost_details', 'CostDetails'),
    website: string('schema.Event.website'),
    show_map: boolean('schema.Event.show_map'),
    show_map_link: boolean('schema.Event.show_map_link'),
    hide_from_listings: boolean('schema.Event.hide_from_listings'),
    sticky: boolean('schema.Event.sticky'),
    featured: boolean('schema.Event.featured'),
    categories: listOf('schema.Event.categories', 'Term'),
    tags: listOf('schema.Event.tags', 'Term'),
    venue: { type: 'object', description: 'schema.Event.venue', $ref: ref('Venue') },
    organizer: listOf('schema.Event.organizer', 'Organizer'),
  },
  Venue: {
    ...postHead('Venue'),
    venue: string('schema.Venue.venue'),
    description: string('schema.Venue.description'),
    excerpt: string('schema.Venue.excerpt'),
    slug: string('schema.Venue.slug'),
    // Documented as a string referencing Image, as upstream does (the data is an object or `false`).
    image: { type: 'string', description: 'schema.Venue.image', $ref: ref('Image') },
    show_map: boolean('schema.Venue.show_map'),
    show_map_link: boolean('schema.Venue.show_map_link'),
    address: string('schema.Venue.address'),
    city: string('schema.Venue.city'),
    country: string('schema.Venue.country'),
    province: string('schema.Venue.province'),
    state: string('schema.Venue.state'),
    zip: string('schema.Venue.zip'),
    phone: string('schema.Venue.phone'),
    website: string('schema.Venue.website'),
    stateprovince: string('schema.Venue.stateprovince'),
    geo_lat: double('schema.Venue.geo_lat'),
    geo_lng: double('schema.Venue.geo_lng'),
  },
  Organizer: {
    ...postHead('Organizer'),
    organizer: string('schema.Organizer.organizer'),
    description: string('schema.Organizer.description'),
    excerpt: string('schema.Organizer.excerpt'),
    slug: string('schema.Organizer.slug'),
    image: { type: 'string', description: 'schema.Organizer.image', $ref: ref('Image') },
    phone: string('schema.Organizer.phone'),
    website: string('schema.Organizer.website'),
    email: string('schema.Organizer.email'),
  },
};
