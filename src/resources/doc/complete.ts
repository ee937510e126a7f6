import { z } from 'zod';
import { acceptedObject } from '../../args/accepted.js';
import type { Args } from '../../args/arg.js';
import { isRecord } from '../../args/checks.js';
import type { RequestContext } from '../../http/context.js';
import type { Route } from '../../http/route.js';
import { isDescriptionKey } from '../../i18n/index.js';
import { writeSchema, type JsonObject } from '../../schemas/json-schema.js';
import { SCHEMAS, type Field } from '../../schemas/responses.js';
import type { Resource } from '../resource.js';
import { API_VERSION, endpointOf, hostPathItem, openApiPath, parameters, resourceOf, translator, type Translate } from './openapi.js';
import { CALENDAR_CONTENT, DOC_RESPONSES, additionResponses, isDocPattern, type ResponsesDoc } from './resources.js';

// The complete document: what a client generator needs to call every operation. Same paths
// and parameters as upstream's document, plus every write with its JSON body, the JSON the
// API really answers (upstream's schemas keep their names, with the real shapes), errors and
// the ways a host may authenticate callers.

/** The ways a host may authenticate callers: any one of them (the example servers take bearer tokens). */
function securitySchemes(t: Translate): JsonObject {
  return {
    bearerToken: { type: 'http', scheme: 'bearer', description: t('doc.security.bearer') },
    applicationPassword: { type: 'http', scheme: 'basic', description: t('doc.security.basic') },
    cookieNonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce', description: t('doc.security.nonce') },
  };
}

/** Writes need a caller; reads take one if given (drafts, private items, `context=edit`). */
const WRITE_SECURITY = [{ bearerToken: [] }, { applicationPassword: [] }, { cookieNonce: [] }];
const READ_SECURITY = [{}, ...WRITE_SECURITY];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** One property of a response schema; a `$ref` takes no sibling keys in OpenAPI 3.0, so it goes in an `allOf`. */
function property(field: Field, t: Translate): JsonObject {
  const description = t(field.description);
  return '$ref' in field.json ? { allOf: [{ $ref: field.json.$ref }], description } : { ...writeSchema(field.json, t), description };
}

/** A response schema: its properties, the ones always present required. */
function responseSchema(fields: Readonly<Record<string, Field>>, t: Translate): JsonObject {
  const properties: JsonObject = {};
  for (const [name, field] of Object.entries(fields)) properties[name] = property(field, t);
  return { type: 'object', properties, required: Object.keys(fields).filter((name) => !fields[name]?.optional) };
}

/** A JSON value with every description key in it translated. */
function translated(value: unknown, t: Translate): unknown {
  if (Array.isArray(value)) return value.map((v) => translated(v, t));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'description' && isDescriptionKey(v) ? t(v) : translated(v, t)]));
}

/** The JSON body of a write: what a typed client sends for the arguments (the tRPC input's shape too). */
function bodySchema(args: Args<RequestContext>, t: Translate): JsonObject {
  const schema = translated(z.toJSONSchema(acceptedObject(args), { target: 'openapi-3.0', io: 'input' }), t);
  return isRecord(schema) ? schema : {};
}

/** A request body of `name`'s schema, as JSON or as a form. */
function requestBody(name: string, required: boolean): JsonObject {
  const schema = ref(name);
  return { ...(required ? { required } : {}), content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } } };
}

/** Responses with their content: the item or list of successes, the error shape of failures. */
function responses(docs: ResponsesDoc, t: Translate, schemas?: { item: string; list: string }): JsonObject {
  const out: JsonObject = {};
  for (const [code, r] of Object.entries(docs)) {
    const name = r.content === 'list' ? schemas?.list : r.content === 'item' ? schemas?.item : Number(code) >= 400 ? 'Error' : undefined;
    const content = r.content === 'calendar' ? CALENDAR_CONTENT : name ? { 'application/json': { schema: ref(name) } } : undefined;
    out[code] = { description: t(r.description), ...(content ? { content } : {}) };
  }
  return out;
}

/** The operations of one path; request body schemas are added to `bodies` the first time a route needs them. */
function pathItem(route: Route, resources: readonly Resource[], bodies: Record<string, JsonObject>, t: Translate): JsonObject {
  if (isDocPattern(route.pattern)) return { get: { responses: responses(DOC_RESPONSES, t) } };
  if (route.host) return hostPathItem(route, t, (args) => ({ content: { 'application/json': { schema: bodySchema(args, t) } } }));
  const addition = additionResponses(route.pattern);
  if (addition)
    return {
      get: { parameters: parameters(endpointOf(route, 'GET').args, t, { additions: true }), responses: responses(addition, t), security: READ_SECURITY },
    };
  const { doc } = resourceOf(route, resources);
  const { noun } = doc.writes;
  const schemas = { item: doc.schema, list: `${noun}List` };
  const read = endpointOf(route, 'GET').args;
  const get = {
    parameters: parameters(read, t, { additions: true }),
    responses: responses(route.hasCaptures ? doc.get : doc.archive, t, schemas),
    security: READ_SECURITY,
  };
  if (!route.hasCaptures) {
    bodies[`${noun}Create`] ??= bodySchema(endpointOf(route, 'POST').args, t);
    return { get, post: { requestBody: requestBody(`${noun}Create`, true), responses: responses(doc.writes.create, t, schemas), security: WRITE_SECURITY } };
  }
  // The body of an update: the arguments beyond those that address the item (its id or slug, a password).
  const edit = Object.entries(endpointOf(route, 'PUT').args).filter(([name, a]) => read[name] !== a);
  bodies[`${noun}Update`] ??= bodySchema(Object.fromEntries(edit), t);
  const update = {
    parameters: parameters(read, t, { additions: true }),
    requestBody: requestBody(`${noun}Update`, false),
    responses: responses(doc.writes.update, t, schemas),
    security: WRITE_SECURITY,
  };
  const remove = {
    parameters: parameters(endpointOf(route, 'DELETE').args, t, { additions: true }),
    responses: responses(doc.writes.delete, t, schemas),
    security: WRITE_SECURITY,
  };
  return { get, post: update, put: update, patch: update, delete: remove };
}

/**
 * The complete OpenAPI 3.0 document of the calendar (`doc: 'complete'`), in the request's
 * language and with the request's root in `servers`.
 */
export function completeDocument(
  ctx: Pick<RequestContext, 'routes' | 'urls' | 'locale' | 'options'>,
  resources: readonly Resource[],
): JsonObject & { components: { schemas: JsonObject; securitySchemes: JsonObject } } {
  const t = translator(ctx);
  const bodies: Record<string, JsonObject> = {};
  const paths: JsonObject = {};
  for (const route of ctx.routes) if (route.pattern !== '') paths[openApiPath(route.pattern)] = pathItem(route, resources, bodies, t);
  const schemas: JsonObject = {};
  for (const [name, fields] of Object.entries(SCHEMAS)) schemas[name] = responseSchema(fields, t);
  for (const r of resources) for (const [name, fields] of Object.entries(r.schemas ?? {})) schemas[name] = responseSchema(fields, t);
  return {
    openapi: '3.0.0',
    info: { version: API_VERSION, title: t('doc.info.title'), description: t('doc.info.description') },
    components: { schemas: { ...schemas, ...bodies }, securitySchemes: securitySchemes(t) },
    servers: [{ url: `${ctx.urls.base}/` }],
    paths,
  };
}
