import type { ArgDoc, Args, WpType } from '../../args/arg.js';
import type { RequestContext } from '../../http/context.js';
import type { Endpoint, Method, Route } from '../../http/route.js';
import { describe, type Description } from '../../i18n/index.js';
import { CALENDAR_CONTENT, DOC_RESPONSES, additionResponses, isDocPattern, type ResponsesDoc } from './resources.js';
import type { Resource } from '../resource.js';
import { SCHEMAS, SCHEMA_NAMES, type Field, type SchemaName } from '../../schemas/responses.js';

/** A JSON object of the document (the document is data for clients, not for this code). */
export type JsonObject = Record<string, unknown>;

/** The OpenAPI document `/doc` answers, keys in upstream order. */
export interface OpenApiDocument {
  openapi: '3.0.0';
  info: { version: string; title: string; description: string };
  components: { schemas: Record<SchemaName, JsonObject> };
  servers: { url: string }[];
  paths: Record<string, JsonObject>;
}

/** The API's semantic version (`V1/Main.php::get_semantic_version`). */
export const API_VERSION = '1.0.0';

/** The text of a description key in the request's language. */
export type Translate = (key: Description) => string;

/** The translator of a request: its locale, the host's dictionaries first. */
export function translator(ctx: Pick<RequestContext, 'locale' | 'options'>): Translate {
  return (key) => describe(key, ctx.locale, ctx.options.dictionaries);
}

/**
 * The type `/doc` gives an argument: its declared `type`, else what its other
 * declarations imply (a list with `items`, a `double`, a boolean default), else `string`.
 */
export function documentedType(doc: ArgDoc, swaggerType?: WpType): WpType {
  if (swaggerType) return swaggerType;
  if (doc.type) return doc.type;
  if (doc.items) return 'array';
  if (doc.format === 'double') return 'number';
  if (typeof doc.default === 'boolean') return 'boolean';
  return 'string';
}

/** The OpenAPI path of a route pattern: `(?P<id>\d+)` captures become `{id}`. */
export function openApiPath(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
}

function descriptionOf(doc: ArgDoc, t: Translate): string {
  return t(doc.description ?? 'doc.no_description');
}

/**
 * The parameter objects of an operation (`Base.php::swaggerize_args`). Arguments without a
 * declared `in` go in the query: upstream's `body` for `post` is not an OpenAPI 3 location.
 */
export function parameters(args: Args<RequestContext>, t: Translate, { additions = false } = {}): JsonObject[] {
  return Object.entries(args)
    .filter(([, a]) => additions || !a.addition)
    .map(([name, a]) => {
      const schema: JsonObject = { type: documentedType(a.doc, a.swaggerType) };
      if (a.doc.items) schema.items = { ...a.doc.items };
      const parameter: JsonObject = { in: a.in ?? 'query', schema, description: descriptionOf(a.doc, t), required: a.required, name };
      if (a.style) parameter.style = a.style;
      return parameter;
    });
}

/** The form body of a `post` operation (`Base.php::swaggerize_post_args`). */
export function requestBody(args: Args<RequestContext>, t: Translate): JsonObject {
  const properties: JsonObject = {};
  for (const [name, a] of Object.entries(args)) {
    if (a.addition) continue;
    const property: JsonObject = { description: descriptionOf(a.doc, t), type: documentedType(a.doc, a.swaggerType) };
    if (a.doc.items) property.items = { ...a.doc.items };
    properties[name] = property;
  }
  return { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties } } } };
}

function responses(docs: ResponsesDoc, t: Translate, resource?: Resource): JsonObject {
  const out: JsonObject = {};
  for (const [code, r] of Object.entries(docs)) {
    const response: JsonObject = { description: t(r.description) };
    if (r.content === 'calendar') response.content = CALENDAR_CONTENT;
    else if (r.content && resource) {
      const $ref = `#/components/schemas/${resource.doc.schema}`;
      const schema = r.content === 'list' ? { title: resource.collection, type: 'array', items: { $ref } } : { $ref };
      response.content = { 'application/json': { schema } };
    }
    out[code] = response;
  }
  return out;
}

/** Upstream's `components.schemas`: what its document says of each property, translated. */
export function schemaComponents(t: Translate, resources: readonly Resource[] = []): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  // The API's, then the item schemas a host's kinds bring (their lists are not in upstream's document).
  const items = resources.flatMap((r) => (r.schemas && r.doc.schema in r.schemas ? [[r.doc.schema, r.schemas[r.doc.schema]] as const] : []));
  for (const [name, fields] of [...SCHEMA_NAMES.map((n) => [n, SCHEMAS[n]] as const), ...items]) {
    const properties: JsonObject = {};
    for (const [property, field] of Object.entries<Field>(fields ?? {})) {
      if (!field.documented) continue;
      properties[field.documentedKey ?? property] = Object.fromEntries(
        Object.entries(field.documented).map(([k, v]) => [k, k === 'description' ? t(field.description) : v]),
      );
    }
    out[name] = { type: 'object', properties };
  }
  return out;
}

/** The endpoint of `route` answering `method`; a route the document describes must have it. */
export function endpointOf(route: Route | undefined, method: Method): Endpoint {
  const e = route?.endpoints.find((x) => x.methods.includes(method));
  if (!e) throw new Error(`/doc: no ${method} endpoint on ${route?.pattern ?? 'a missing route'}`);
  return e;
}

/** The resource a route belongs to: the one whose collection is its first segment. */
export function resourceOf(route: Route, resources: readonly Resource[]): Resource {
  const collection = route.pattern.split('/')[1];
  const resource = resources.find((r) => r.collection === collection);
  if (!resource) throw new Error(`/doc: route ${route.pattern} has no documentation`);
  return resource;
}

/** What `/doc` says a host route answers: whatever its handler gives. */
const HOST_RESPONSE = { en: "The route's answer." };

/**
 * The operations of a host's route (`http/host-routes.ts`): each verb's parameters (a read's in
 * the query, a write's in the body), its description, and an answer the document cannot know more of.
 */
export function hostPathItem(route: Route, t: Translate, body: (args: Args<RequestContext>) => JsonObject): JsonObject {
  const out: JsonObject = {};
  const description = route.host?.description ? { description: t(route.host.description) } : {};
  for (const e of route.endpoints) {
    for (const method of e.methods) {
      const reads = method === 'GET' || method === 'DELETE';
      const operation: JsonObject = { ...description, parameters: parameters(reads ? e.args : pathArgs(e.args), t, { additions: true }) };
      if (!reads) operation.requestBody = body(e.args);
      operation.responses = { 200: { description: t(HOST_RESPONSE) } };
      out[method.toLowerCase()] = operation;
    }
  }
  return out;
}

/** The path parameters among `args` (a write's others go in its body). */
const pathArgs = (args: Args<RequestContext>): Args<RequestContext> => Object.fromEntries(Object.entries(args).filter(([, a]) => a.in === 'path'));

/** The operations of one path: `get` for archives; `get`, `post`, `delete` for single items. */
function pathItem(route: Route, routes: readonly Route[], resources: readonly Resource[], t: Translate): JsonObject {
  if (isDocPattern(route.pattern)) return { get: { responses: responses(DOC_RESPONSES, t) } };
  if (route.host) return hostPathItem(route, t, (args) => requestBody(args, t));
  const addition = additionResponses(route.pattern);
  if (addition) return { get: { parameters: parameters(endpointOf(route, 'GET').args, t), responses: responses(addition, t) } };
  const resource = resourceOf(route, resources);
  const { doc } = resource;
  if (!route.hasCaptures) {
    return { get: { parameters: parameters(endpointOf(route, 'GET').args, t), responses: responses(doc.archive, t, resource) } };
  }
  const read = endpointOf(route, 'GET').args;
  const create = endpointOf(
    routes.find((r) => r.pattern === `/${resource.collection}`),
    'POST',
  ).args;
  const body = doc.body === 'create' ? create : { ...read, ...create };
  return {
    get: { parameters: parameters(read, t), responses: responses(doc.get, t, resource) },
    post: { parameters: parameters(read, t), requestBody: requestBody(body, t), responses: responses(doc.post, t, resource) },
    delete: { parameters: parameters(endpointOf(route, 'DELETE').args, t), responses: responses(doc.delete, t, resource) },
  };
}

/**
 * The OpenAPI 3.0 document of the calendar's routes, in the request's language and with
 * the request's root in `servers`.
 */
export function openApiDocument(ctx: Pick<RequestContext, 'routes' | 'urls' | 'locale' | 'options'>, resources: readonly Resource[]): OpenApiDocument {
  const t = translator(ctx);
  const paths: Record<string, JsonObject> = {};
  // The namespace index is WordPress' own route, not part of the API's document.
  for (const route of ctx.routes) if (route.pattern !== '') paths[openApiPath(route.pattern)] = pathItem(route, ctx.routes, resources, t);
  return {
    openapi: '3.0.0',
    info: { version: API_VERSION, title: t('doc.info.title'), description: t('doc.info.description') },
    components: { schemas: schemaComponents(t, resources) },
    servers: [{ url: `${ctx.urls.base}/` }],
    paths,
  };
}
