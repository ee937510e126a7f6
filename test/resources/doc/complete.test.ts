import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, createCalendar } from '../../../src/index.js';
import type { Endpoint, Method } from '../../../src/http/route.js';
import { openApiPath } from '../../../src/resources/doc/openapi.js';
import { SCHEMAS } from '../../../src/schemas/responses.js';
import { en } from '../../../src/i18n/en.js';
import { testCalendar, type TestCalendar } from '../../helpers/harness.js';
import { descriptions, skeleton } from '../../helpers/descriptions.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking JSON

const keys = (o: unknown) => Object.keys(o as object);

function endpointOf(pattern: string, method: Method): Endpoint {
  const e = ROUTES.find((r) => r.pattern === pattern)?.endpoints.find((x) => x.methods.includes(method));
  if (!e) throw new Error(`${method} ${pattern}`);
  return e;
}

const WRITE = [{ bearerToken: [] }, { applicationPassword: [] }, { cookieNonce: [] }];
const READ = [{}, ...WRITE];
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const NOUNS = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Category', tags: 'Tag' } as const;
const ITEMS = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' } as const;

let t: TestCalendar;
let original: Json;
let en_: Json;
let fr: Json;

beforeAll(async () => {
  t = await testCalendar(':memory:', { doc: 'complete' });
  en_ = (await t.request('GET', '/doc')).body;
  fr = (await t.request('GET', '/doc', { locale: 'fr', root: '/fr/wp-json' })).body;
  const upstream = await testCalendar(':memory:');
  original = (await upstream.request('GET', '/doc')).body;
  await upstream.close();
});
afterAll(() => t.close());

describe("GET /doc with doc: 'complete'", () => {
  it('validates as OpenAPI 3.0, in every language', async () => {
    expect(en_.openapi).toBe('3.0.0');
    await expect(SwaggerParser.validate(structuredClone(en_) as never)).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(structuredClone(fr) as never)).resolves.toBeTruthy();
  });

  it('keeps upstream’s paths, info, servers and parameters', () => {
    expect(keys(en_)).toEqual(keys(original));
    expect(en_.info).toEqual(original.info);
    expect(en_.servers).toEqual(original.servers);
    expect(keys(en_.paths)).toEqual(keys(original.paths));
    for (const [path, item] of Object.entries<Json>(original.paths)) {
      for (const [op, operation] of Object.entries<Json>(item)) {
        // The complete document adds the library's own arguments of upstream's routes (recurring events').
        const own = (parameters: Json[]) => parameters.filter((p) => !['scope', 'reset_overrides', 'recurrence'].includes(p.name));
        if (operation.parameters) expect(own(en_.paths[path][op].parameters), `${path} ${op}`).toEqual(operation.parameters);
      }
    }
  });

  it('documents every operation of every route, writes included', () => {
    for (const route of ROUTES) {
      if (route.pattern === '' || route.pattern === '/doc' || route.pattern === '/doc/complete') continue;
      const verbs = route.endpoints.flatMap((e) => e.methods.map((m) => m.toLowerCase()));
      expect(keys(en_.paths[openApiPath(route.pattern)]).sort(), route.pattern).toEqual(verbs.sort());
    }
    for (const path of ['/events/{id}', '/venues/by-slug/{slug}', '/tags/{id}']) {
      expect(en_.paths[path].put).toEqual(en_.paths[path].post);
      expect(en_.paths[path].patch).toEqual(en_.paths[path].post);
    }
  });

  it('describes create and update bodies from the arguments the routes declare', () => {
    for (const [collection, noun] of Object.entries(NOUNS)) {
      const create = endpointOf(`/${collection}`, 'POST').args;
      const body = en_.components.schemas[`${noun}Create`];
      expect(keys(body.properties), collection).toEqual(keys(create));
      expect(body.required).toEqual(keys(create).filter((name) => create[name]?.required));
      expect(en_.paths[`/${collection}`].post.requestBody).toEqual({
        required: true,
        content: { 'application/json': { schema: ref(`${noun}Create`) }, 'application/x-www-form-urlencoded': { schema: ref(`${noun}Create`) } },
      });
      // Updates: the arguments beyond those that address the item; by id and by slug alike.
      for (const pattern of [`/${collection}/(?P<id>\\d+)`, `/${collection}/by-slug/(?P<slug>[^/]+)`]) {
        if (!ROUTES.some((r) => r.pattern === pattern)) continue;
        const read = endpointOf(pattern, 'GET').args;
        const edit = endpointOf(pattern, 'PATCH').args;
        const update = en_.components.schemas[`${noun}Update`];
        expect(keys(update.properties).sort(), pattern).toEqual(
          keys(edit)
            .filter((name) => read[name] !== edit[name])
            .sort(),
        );
        expect(update.required).toBeUndefined();
        expect(en_.paths[openApiPath(pattern)].post.requestBody.content['application/json'].schema).toEqual(ref(`${noun}Update`));
      }
    }
    const event = en_.components.schemas.EventCreate.properties;
    expect(event.title).toEqual({ type: 'string', description: 'The event title' });
    expect(event.venue.anyOf.length).toBeGreaterThan(1);
    expect(event.venue.description).toBe(en['event.venue']);
    // A new venue's fields, nested in an event write, are the venue create fields.
    const nested = JSON.stringify(event.venue);
    for (const name of keys(en_.components.schemas.VenueCreate.properties)) expect(nested).toContain(`"${name}"`);
  });

  it('answers with the real shapes: upstream’s schema names, the JSON the API gives', () => {
    expect(keys(en_.components.schemas)).toEqual([...keys(SCHEMAS), ...Object.values(NOUNS).flatMap((noun) => [`${noun}Create`, `${noun}Update`])]);
    const event = en_.components.schemas.Event;
    expect(event.properties.author).toEqual({ type: 'string', description: en['schema.Event.author'] });
    expect(event.properties.start_date_details).toEqual({ allOf: [ref('DateDetails')], description: en['schema.Event.start_date_details'] });
    expect(event.required).not.toContain('json_ld');
    expect(en_.components.schemas.Venue.required).toEqual([
      'id',
      'global_id',
      'global_id_lineage',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'status',
      'url',
      'show_map',
      'show_map_link',
    ]);
    for (const [collection, noun] of Object.entries(NOUNS)) {
      const archive = en_.paths[`/${collection}`];
      expect(archive.get.responses[200].content['application/json'].schema).toEqual(ref(`${noun}List`));
      expect(archive.post.responses[201].content['application/json'].schema).toEqual(ref(ITEMS[collection as keyof typeof ITEMS]));
    }
  });

  it('gives every failure the error shape and every operation its security', () => {
    for (const [path, item] of Object.entries<Json>(en_.paths)) {
      for (const [op, operation] of Object.entries<Json>(item)) {
        for (const [code, response] of Object.entries<Json>(operation.responses)) {
          if (Number(code) >= 400) expect(response.content, `${path} ${op} ${code}`).toEqual({ 'application/json': { schema: ref('Error') } });
        }
        if (path === '/doc' || path === '/doc/complete') continue;
        expect(operation.security, `${path} ${op}`).toEqual(op === 'get' ? READ : WRITE);
        if (op !== 'get') expect(keys(operation.responses), `${path} ${op}`).toContain('401');
      }
    }
    expect(en_.components.securitySchemes).toEqual({
      bearerToken: { type: 'http', scheme: 'bearer', description: en['doc.security.bearer'] },
      applicationPassword: { type: 'http', scheme: 'basic', description: en['doc.security.basic'] },
      cookieNonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce', description: en['doc.security.nonce'] },
    });
  });

  it('translates every description, and nothing else', () => {
    const all = descriptions(en_);
    const french = descriptions(fr);
    expect(french).toHaveLength(all.length);
    expect(all.filter((d) => Object.hasOwn(en, d))).toEqual([]);
    expect(all.filter((d, i) => d === french[i])).toEqual([]);
    const strip = (doc: Json) => JSON.stringify(skeleton({ ...doc, info: { ...doc.info, title: 'T' }, servers: [] }));
    expect(strip(fr)).toBe(strip(en_));
  });

  it('is what a calendar answers only when asked: upstream’s document stays the default', () => {
    expect(keys(original.components)).toEqual(['schemas']);
    expect(() => createCalendar({ db: ':memory:', doc: 'full' as never })).toThrow(/option `doc` is "full"; it takes 'original' or 'complete'/);
  });
});
