/**
 * The routes of a calendar with the fields its host declared (`fields/`): each kind's write
 * endpoints take its fields, its archive their filters. A field may not take the name of
 * anything the kind already has (an argument of one of its routes, or a key of its items).
 */
import type { Collection, HostCollection } from '../kinds.js';
import type { Resource } from './resource.js';
import type { Route } from '../http/route.js';
import { fieldDescription, fieldFilterArgNames, fieldFilterArgs, fieldWriteArgs } from '../fields/args.js';
import { isRecord } from '../args/checks.js';
import type { Description } from '../i18n/index.js';
import type { FieldRegistry } from '../fields/registry.js';
import { SCHEMAS } from '../schemas/responses.js';

/** The response schema of each kind's items. */
const ITEM_SCHEMA = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' } as const satisfies Record<
  Collection,
  keyof typeof SCHEMAS
>;

/** The collection a route serves items of (`/events`, `/events/{id}`, `/events/by-slug/{slug}`), if any. */
function collectionOf(route: Route, registry: FieldRegistry): Collection | HostCollection | undefined {
  const [, first = '', ...rest] = route.pattern.split('/');
  const collection = registry.collections.find((c) => c === first);
  if (!collection) return undefined;
  // Not the routes below an item (`/events/{id}/occurrences`).
  const item = rest.length === 0 || (rest.length === 1 && rest[0]?.startsWith('(?P<id>')) || (rest.length === 2 && rest[0] === 'by-slug');
  return item ? collection : undefined;
}

/** The keys of a collection's items: its schema's (a host's kind's: an organizer's, its name under its noun being an argument). */
const itemKeys = (collection: string): readonly string[] =>
  Object.keys(SCHEMAS[Object.hasOwn(ITEM_SCHEMA, collection) ? ITEM_SCHEMA[collection as Collection] : 'Organizer']);

/** Refuses a field named as something its kind already has. */
function assertFree(routes: readonly Route[], registry: FieldRegistry): void {
  for (const collection of registry.collections) {
    const fields = registry.of(collection);
    if (!fields.length) continue;
    const taken = new Set<string>(itemKeys(collection));
    for (const r of routes) if (collectionOf(r, registry) === collection) for (const e of r.endpoints) for (const name of Object.keys(e.args)) taken.add(name);
    for (const name of [...fields.map((f) => f.name), ...fieldFilterArgNames(fields)]) {
      if (taken.has(name)) {
        throw new Error(`calendar-events-rest: fields.${collection}: '${name}' is already a field or an argument of ${collection}; choose another name`);
      }
    }
  }
}

/** The collections whose items each response schema describes. */
const COLLECTIONS_OF: Readonly<Record<string, readonly Collection[]>> = {
  Event: ['events'],
  Venue: ['venues'],
  Organizer: ['organizers'],
  Term: ['categories', 'tags'],
};

/** The fields a response schema's items carry (a term's: those of categories and of tags; a host's kind's: its own). */
function fieldsOfSchema(registry: FieldRegistry, schema: string, resources: readonly Resource[]) {
  const hosted = resources.filter((r) => r.schemas && r.doc.schema === schema).map((r) => r.collection);
  return [...(COLLECTIONS_OF[schema] ?? []), ...hosted].flatMap((c) => registry.of(c));
}

/**
 * Adds the declared fields to the response schemas of a `/doc` document: as upstream's document
 * describes a property (its type and description) or, `complete`, with the value's whole schema.
 */
export function withFieldProperties(
  schemas: Record<string, unknown>,
  registry: FieldRegistry,
  t: (d: Description) => string,
  complete: boolean,
  resources: readonly Resource[] = [],
): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const fields = fieldsOfSchema(registry, name, resources);
    const properties = isRecord(schema) ? schema.properties : undefined;
    if (!fields.length || !isRecord(schema) || !isRecord(properties)) continue;
    for (const f of fields) {
      const description = t(fieldDescription(f));
      properties[f.name] = complete
        ? { ...f.openApi, ...(f.declaration.default === undefined ? { nullable: true } : {}), description }
        : { type: f.wpType ?? 'object', description };
    }
    if (complete && Array.isArray(schema.required)) schema.required = [...schema.required, ...fields.map((f) => f.name)];
  }
}

/** The events' iCalendar feed (`resources/ical/`). */
const ICAL_FEED = '/ics/events';

/** The routes with the declared fields' arguments added to their kinds' endpoints. */
export function routesWithFields(routes: readonly Route[], registry: FieldRegistry): readonly Route[] {
  if (registry.empty) return routes;
  assertFree(routes, registry);
  const eventFilters = fieldFilterArgs(registry.of('events'));
  return routes.map((r) => {
    // The events' feed takes every filter of the events archive.
    if (r.pattern === ICAL_FEED) return { ...r, endpoints: r.endpoints.map((e) => ({ ...e, args: { ...e.args, ...eventFilters } })) };
    const collection = collectionOf(r, registry);
    const fields = collection ? registry.of(collection) : [];
    if (!fields.length) return r;
    const archive = r.pattern === `/${collection}`;
    const endpoints = r.endpoints.map((e) => {
      if (e.methods.includes('POST')) return { ...e, args: { ...e.args, ...fieldWriteArgs(fields) } };
      if (archive && e.methods.includes('GET')) return { ...e, args: { ...e.args, ...fieldFilterArgs(fields) } };
      return e;
    });
    return { ...r, endpoints };
  });
}
