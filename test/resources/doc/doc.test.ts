import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/index.js';
import { documentedType, openApiPath } from '../../../src/resources/doc/openapi.js';
import type { Endpoint, Method } from '../../../src/http/route.js';
import type { DescriptionKey } from '../../../src/i18n/en.js';
import { describe as describeKey } from '../../../src/i18n/index.js';
import { testCalendar, type TestCalendar } from '../../helpers/harness.js';
import { descriptions, skeleton } from '../../helpers/descriptions.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking JSON

const keys = (o: unknown) => Object.keys(o as object);

// §2.3, written from the spec: `D` stands for a description.
const D = 'D';
const int = { type: 'integer', description: D };
const str = { type: 'string', description: D };
const bool = { type: 'boolean', description: D };
const uri = { type: 'string', format: 'uri', description: D };
const ref = (name: string) => `#/components/schemas/${name}`;
const listOf = (name: string) => ({ type: 'array', description: D, items: { $ref: ref(name) } });
const lineage = { type: 'array', items: { type: 'string' }, description: D };
const head = {
  id: int,
  global_id: str,
  global_id_lineage: lineage,
  author: int,
  date: str,
  date_utc: str,
  modified: str,
  modified_utc: str,
  status: str,
  url: str,
};
const object = (properties: Json) => ({ type: 'object', properties });

const SPEC_SCHEMAS = {
  ImageSize: object({ width: int, height: int, 'mime-type': str, url: uri }),
  CostDetails: object({
    currency_symbol: str,
    'currency_position ': { type: 'string', description: D, enum: ['prefix', 'postfix'] },
    values: { type: 'array', items: { type: 'integer' }, description: D },
  }),
  Term: object({
    id: int,
    name: str,
    slug: str,
    taxonomy: str,
    description: str,
    parent: int,
    count: int,
    url: str,
    urls: { type: 'array', description: D, items: { type: 'string' } },
  }),
  Image: object({ url: uri, id: int, extension: str, width: int, height: int, sizes: listOf('ImageSize') }),
  DateDetails: object({ year: int, month: int, day: int, hour: int, minutes: int, seconds: int }),
  Event: object({
    ...head,
    rest_url: str,
    title: str,
    description: str,
    excerpt: str,
    slug: str,
    image: { type: 'object', description: D, $ref: ref('Image') },
    all_day: bool,
    start_date: str,
    start_date_details: listOf('DateDetails'),
    end_date: str,
    end_date_details: listOf('DateDetails'),
    utc_start_date: str,
    utc_start_date_details: listOf('DateDetails'),
    utc_end_date: str,
    utc_end_date_details: listOf('DateDetails'),
    timezone: str,
    timezone_abbr: str,
    cost: str,
    cost_details: listOf('CostDetails'),
    website: str,
    show_map: bool,
    show_map_link: bool,
    hide_from_listings: bool,
    sticky: bool,
    featured: bool,
    categories: listOf('Term'),
    tags: listOf('Term'),
    venue: { type: 'object', description: D, $ref: ref('Venue') },
    organizer: listOf('Organizer'),
  }),
  Venue: object({
    ...head,
    venue: str,
    description: str,
    excerpt: str,
    slug: str,
    image: { type: 'string', description: D, $ref: ref('Image') },
    show_map: bool,
    show_map_link: bool,
    address: str,
    city: str,
    country: str,
    province: str,
    state: str,
    zip: str,
    phone: str,
    website: str,
    stateprovince: str,
    geo_lat: { type: 'number', format: 'double', description: D },
    geo_lng: { type: 'number', format: 'double', description: D },
  }),
  Organizer: object({
    ...head,
    organizer: str,
    description: str,
    excerpt: str,
    slug: str,
    image: { type: 'string', description: D, $ref: ref('Image') },
    phone: str,
    website: str,
    email: str,
  }),
};

const PATHS = [
  '/doc',
  // The complete document whatever the `doc` option says: an addition of this library.
  '/doc/complete',
  '/events',
  '/events/{id}',
  '/events/by-slug/{slug}',
  '/venues',
  '/venues/{id}',
  '/venues/by-slug/{slug}',
  '/organizers',
  '/organizers/{id}',
  '/organizers/by-slug/{slug}',
  '/categories',
  '/categories/{id}',
  '/tags',
  '/tags/{id}',
  // The change feed: an addition of this library, after the original's routes.
  '/changes',
  // The iCalendar feed and files: additions too.
  '/ics/events',
  '/ics/events/{id}',
  '/ics/events/by-slug/{slug}',
  // The occurrences of a recurring event: an addition too.
  '/events/{id}/occurrences',
];

const CREATE = {
  events:
    'author date date_utc title description slug excerpt status timezone all_day start_date end_date image cost website show_map show_map_link hide_from_listings sticky featured categories tags venue organizer',
  venues: 'author date date_utc venue description status show_map show_map_link address city country province state zip phone stateprovince website image',
  organizers: 'author date date_utc organizer description status phone website email image',
  categories: 'name description slug parent',
  tags: 'name description slug',
};

let t: TestCalendar;
let en: Json;
let fr: Json;

beforeAll(async () => {
  t = await testCalendar(':memory:');
  en = (await t.request('GET', '/doc')).body;
  fr = (await t.request('GET', '/doc', { locale: 'fr', root: '/fr/wp-json' })).body;
});
afterAll(() => t.close());

describe('GET /doc: document shape (index-and-doc.md §2)', () => {
  it('answers 200 with the top-level keys, info and servers of §2.1', async () => {
    const res = await t.request('GET', '/doc');
    expect(res.status).toBe(200);
    expect(res.headers.Allow).toBe('GET');
    expect(keys(en)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(en.openapi).toBe('3.0.0');
    expect(JSON.stringify(en.info)).toBe(
      JSON.stringify({
        version: '1.0.0',
        title: 'The Events Calendar REST API',
        description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
      }),
    );
    expect(en.servers).toEqual([{ url: `${t.base}/` }]);
    expect(keys(en.components)).toEqual(['schemas']);
  });

  it('has the schemas of §2.3: names, properties, types, extras and key orders', () => {
    expect(keys(en.components.schemas)).toEqual(['ImageSize', 'CostDetails', 'Term', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer']);
    for (const [name, expected] of Object.entries(SPEC_SCHEMAS)) {
      // JSON text equality also compares key order.
      expect(JSON.stringify(skeleton(en.components.schemas[name])), name).toBe(JSON.stringify(expected));
    }
    expect(keys(en.components.schemas.CostDetails.properties)).toContain('currency_position ');
    expect(keys(en.components.schemas.CostDetails.properties)).not.toContain('currency_code');
  });

  it('lists the paths in registration order, with {id}/{slug} instead of regexes', () => {
    expect(keys(en.paths)).toEqual(PATHS);
    expect(keys(en.paths)).toEqual(ROUTES.filter((r) => r.pattern !== '').map((r) => openApiPath(r.pattern)));
  });

  it('documents /doc with only a 200 response', () => {
    expect(skeleton(en.paths['/doc'])).toEqual({ get: { responses: { 200: { description: D } } } });
  });

  it('documents archives with only get, their parameters and 200/400/404', () => {
    const schemaOf = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' };
    for (const [collection, schema] of Object.entries(schemaOf)) {
      const item = en.paths[`/${collection}`];
      expect(keys(item), collection).toEqual(['get']);
      expect(keys(item.get)).toEqual(['parameters', 'responses']);
      expect(keys(item.get.responses)).toEqual(['200', '400', '404']);
      expect(JSON.stringify(skeleton(item.get.responses[200]))).toBe(
        JSON.stringify({ description: D, content: { 'application/json': { schema: { title: collection, type: 'array', items: { $ref: ref(schema) } } } } }),
      );
      expect(skeleton(item.get.responses[404])).toEqual({ description: D });
    }
  });

  it('documents single items with get, post and delete and the response codes of the §2.2 table', () => {
    const codes: Record<string, { get: string[]; post: string[] }> = {
      events: { get: ['200', '400', '403', '404'], post: ['200', '201', '400', '403'] },
      venues: { get: ['200', '400', '403', '404'], post: ['200', '201', '400', '403'] },
      organizers: { get: ['200', '400', '403', '404'], post: ['201', '400', '403'] },
      categories: { get: ['200', '400', '404'], post: ['200', '201', '400', '403'] },
      tags: { get: ['200', '400', '404'], post: ['200', '201', '400', '403'] },
    };
    const singles = PATHS.filter((p) => p.includes('{') && !p.startsWith('/ics/') && !p.endsWith('/occurrences'));
    expect(singles).toHaveLength(8);
    for (const path of singles) {
      const collection = path.split('/')[1] ?? '';
      const item = en.paths[path];
      expect(keys(item), path).toEqual(['get', 'post', 'delete']);
      expect(keys(item.get)).toEqual(['parameters', 'responses']);
      expect(keys(item.post)).toEqual(['parameters', 'requestBody', 'responses']);
      expect(keys(item.delete)).toEqual(['parameters', 'responses']);
      expect(keys(item.get.responses), path).toEqual(codes[collection]?.get);
      expect(keys(item.post.responses), path).toEqual(codes[collection]?.post);
      expect(keys(item.delete.responses), path).toEqual(['200', '400', '403', '410', '500']);
      const $ref = en.paths[`/${collection}`].get.responses[200].content['application/json'].schema.items.$ref;
      const itemContent = { 'application/json': { schema: { $ref } } };
      expect(item.get.responses[200].content).toEqual(itemContent);
      expect(item.post.responses[201].content).toEqual(itemContent);
      if (item.post.responses[200]) expect(item.post.responses[200].content).toEqual(itemContent);
      expect(item.delete.responses[200].content).toEqual(itemContent);
      for (const code of ['400', '403', '410', '500']) expect(keys(item.delete.responses[code])).toEqual(['description']);
    }
  });

  it('writes parameter objects as §2.2 says (key order, in, schema, style)', () => {
    const params = (path: string, op = 'get'): Json[] => en.paths[path][op].parameters;
    const byName = (path: string, name: string, op = 'get') => params(path, op).find((p) => p.name === name);
    for (const path of PATHS.slice(2)) {
      for (const op of keys(en.paths[path])) {
        for (const p of params(path, op)) {
          expect(keys(p), `${path} ${op} ${p.name}`).toEqual(
            p.style ? ['in', 'schema', 'description', 'required', 'name', 'style'] : ['in', 'schema', 'description', 'required', 'name'],
          );
        }
      }
    }
    expect(byName('/events', 'page')).toEqual({
      in: 'query',
      schema: { type: 'integer' },
      description: 'The archive page to return',
      required: false,
      name: 'page',
    });
    expect(byName('/events', 'start_date')?.schema).toEqual({ type: 'string' });
    expect(byName('/events', 'categories')).toMatchObject({ schema: { type: 'array', items: { type: 'integer' } }, style: 'form' });
    for (const name of ['categories', 'tags', 'venue', 'organizer', 'include']) expect(byName('/events', name)?.style, name).toBe('form');
    expect(
      params('/events')
        .filter((p) => p.style)
        .map((p) => p.name),
    ).toEqual(['categories', 'tags', 'venue', 'organizer', 'include']);
    expect(byName('/events', 'geoloc_lat')?.schema).toEqual({ type: 'number' });
    expect(byName('/venues', 'only_with_upcoming')?.schema).toEqual({ type: 'boolean' });
    expect(byName('/venues', 'has_events')?.schema).toEqual({ type: 'boolean' });
    expect(byName('/organizers', 'has_events')?.schema).toEqual({ type: 'boolean' });
    expect(byName('/events/{id}', 'id')).toMatchObject({ in: 'path', schema: { type: 'integer' }, required: true });
    expect(byName('/events/by-slug/{slug}', 'slug', 'post')).toMatchObject({ in: 'path', schema: { type: 'string' }, required: true });
    expect(params('/events/{id}', 'post').map((p) => p.name)).toEqual(['id', 'password']);
    expect(params('/categories/{id}', 'delete').map((p) => p.name)).toEqual(['id']);
  });

  it('lists the request body properties of §2.2 per resource', () => {
    const body = (path: string): Json => en.paths[path].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    const names = (path: string) => keys(body(path).properties).join(' ');
    expect(keys(en.paths['/events/{id}'].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(body('/events/{id}').type).toBe('object');
    expect(names('/events/{id}')).toBe(CREATE.events);
    expect(names('/events/by-slug/{slug}')).toBe(CREATE.events);
    expect(names('/venues/{id}')).toBe(CREATE.venues);
    expect(names('/venues/by-slug/{slug}')).toBe(CREATE.venues);
    expect(names('/organizers/{id}')).toBe(`id ${CREATE.organizers}`);
    expect(names('/organizers/by-slug/{slug}')).toBe(`slug ${CREATE.organizers}`);
    expect(names('/categories/{id}')).toBe(`id ${CREATE.categories}`);
    expect(names('/tags/{id}')).toBe(CREATE.tags);
    const props = body('/events/{id}').properties;
    expect(JSON.stringify(props.title)).toBe(JSON.stringify({ description: 'The event title', type: 'string' }));
    expect(JSON.stringify(props.categories)).toBe(JSON.stringify({ description: props.categories.description, type: 'array', items: { type: 'integer' } }));
    expect(props.all_day.type).toBe('boolean');
    expect(props.cost.type).toBe('string');
  });
});

describe('GET /doc: generated from the route table', () => {
  const endpointOf = (pattern: string, method: Method): Endpoint => {
    const e = ROUTES.find((r) => r.pattern === pattern)?.endpoints.find((x) => x.methods.includes(method));
    if (!e) throw new Error(`${method} ${pattern}`);
    return e;
  };
  const expectMatches = (parameters: Json[], endpoint: Endpoint, where: string) => {
    // The library's own arguments on upstream's routes are left out of the original document.
    const args = Object.entries(endpoint.args).filter(([, a]) => !a.addition);
    expect(
      parameters.map((p) => p.name),
      where,
    ).toEqual(args.map(([name]) => name));
    for (const [i, [name, a]] of args.entries()) {
      const p: Json = parameters[i] ?? {};
      expect(p.required, `${where} ${name}`).toBe(a.required);
      expect(p.in, `${where} ${name}`).toBe(a.in ?? 'query');
      expect(p.schema.type, `${where} ${name}`).toBe(documentedType(a.doc, a.swaggerType));
      expect(p.schema.items, `${where} ${name}`).toEqual(a.doc.items);
      expect(p.style, `${where} ${name}`).toBe(a.style);
      expect(p.description, `${where} ${name}`).toBe(describeKey(a.doc.description as DescriptionKey, 'en'));
    }
  };

  it('has one parameter per declared argument of the matching endpoint', () => {
    for (const route of ROUTES) {
      if (route.pattern === '' || route.pattern === '/doc' || route.pattern === '/doc/complete') continue;
      const path = openApiPath(route.pattern);
      if (!route.hasCaptures || route.pattern.startsWith('/ics/') || route.pattern.endsWith('/occurrences')) {
        expectMatches(en.paths[path].get.parameters, endpointOf(route.pattern, 'GET'), `${path} get`);
        continue;
      }
      expectMatches(en.paths[path].get.parameters, endpointOf(route.pattern, 'GET'), `${path} get`);
      expectMatches(en.paths[path].post.parameters, endpointOf(route.pattern, 'GET'), `${path} post`);
      expectMatches(en.paths[path].delete.parameters, endpointOf(route.pattern, 'DELETE'), `${path} delete`);
    }
  });

  it('builds request bodies from the create endpoints', () => {
    const create = endpointOf('/events', 'POST');
    const props = en.paths['/events/{id}'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
    // The library's own arguments (`recurrence`) are left out of the original document.
    const upstream = Object.entries(create.args).filter(([, a]) => !a.addition);
    expect(keys(props)).toEqual(upstream.map(([name]) => name));
    for (const [name, a] of upstream) {
      expect(props[name].type, name).toBe(documentedType(a.doc, a.swaggerType));
      expect(props[name].description, name).toBe(describeKey(a.doc.description as DescriptionKey, 'en'));
    }
  });

  it('derives types the way §2.2 needs them', () => {
    expect(documentedType({ type: 'integer' })).toBe('integer');
    expect(documentedType({ items: { type: 'integer' } })).toBe('array');
    expect(documentedType({ format: 'double' })).toBe('number');
    expect(documentedType({ default: false })).toBe('boolean');
    expect(documentedType({ default: 'false' })).toBe('string');
    expect(documentedType({})).toBe('string');
    expect(openApiPath('/events/by-slug/(?P<slug>[^/]+)')).toBe('/events/by-slug/{slug}');
    expect(openApiPath('/tags/(?P<id>\\d+)')).toBe('/tags/{id}');
  });

  it('is listed in the namespace index right after the namespace, with "args": []', async () => {
    const index = (await t.request('GET', `/${t.ns}`)).body;
    const routeKeys = keys(index.routes);
    expect(routeKeys[0]).toBe(`/${t.ns}`);
    expect(routeKeys[1]).toBe(`/${t.ns}/doc`);
    expect(JSON.stringify(index.routes[`/${t.ns}/doc`])).toBe(
      JSON.stringify({
        namespace: t.ns,
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: [] }],
        _links: { self: [{ href: `${t.base}/doc` }] },
      }),
    );
  });

  it('gives every response, parameter, body property and schema property a description', () => {
    const all = descriptions(en);
    expect(all.length).toBeGreaterThan(400);
    for (const d of all) expect(d).toMatch(/\S/);
    expect(all).not.toContain(describeKey('doc.no_description', 'en'));
  });
});

describe('GET /doc: validation and language', () => {
  it('validates as OpenAPI 3.0 with swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(en) as never)).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(structuredClone(fr) as never)).resolves.toBeTruthy();
  });

  it('the validator rejects what OpenAPI 3.0 forbids (so the check above can fail)', async () => {
    const broken = structuredClone(en);
    broken.paths['/events/{id}'].get.parameters[0].required = false; // a path parameter must be required
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
    const body = structuredClone(en);
    body.paths['/events/{id}'].get.parameters[1].in = 'body'; // Swagger 2.0's location, not OpenAPI 3's
    await expect(SwaggerParser.validate(body as never)).rejects.toThrow();
  });

  it('builds servers[0].url from the root and namespace of the request', async () => {
    expect(fr.servers).toEqual([{ url: `http://example.org/fr/wp-json/${t.ns}/` }]);
    const other = await testCalendar(':memory:', { namespace: 'tribe/events/v1', baseUrl: 'https://example.com/site' });
    try {
      const doc = (await other.request('GET', '/doc', { root: '/de/wp-json' })).body;
      expect(doc.servers).toEqual([{ url: 'https://example.com/site/de/wp-json/tribe/events/v1/' }]);
    } finally {
      await other.close();
    }
  });

  it('translates every description under locale fr and keeps every other byte', () => {
    expect(fr.info.title).toBe('L’API REST de The Events Calendar');
    expect(fr.info.description).toMatch(/^L’API REST de The Events Calendar permet/);
    const strip = (doc: Json) => JSON.stringify(skeleton({ ...doc, info: { ...doc.info, title: 'T' }, servers: [] }));
    expect(strip(fr)).toBe(strip(en));
    const [a, b] = [descriptions(en), descriptions(fr)];
    expect(b).toHaveLength(a.length);
    const untranslated = a.filter((d, i) => d === b[i]);
    expect(untranslated).toEqual([]);
    expect(fr.paths['/events'].get.parameters[0].description).toBe('La page de l’archive à renvoyer');
    expect(fr.components.schemas.Event.properties.title.description).toBe('Le titre de l’événement');
    expect(fr.paths['/doc'].get.responses[200].description).toBe('Renvoie le document OpenAPI de l’API REST');
  });

  it('translates under de and es too, and lets a host dictionary override /doc texts', async () => {
    const host = await testCalendar(':memory:', { dictionaries: { de: { 'doc.info.title': 'Unser Kalender' } } });
    try {
      const de = (await host.request('GET', '/doc', { locale: 'de-DE' })).body;
      const es = (await host.request('GET', '/doc', { locale: 'es' })).body;
      expect(de.info.title).toBe('Unser Kalender');
      expect(de.info.description).toMatch(/^Die REST-API von The Events Calendar/);
      expect(es.info.title).toBe('La API REST de The Events Calendar');
      const strip = (doc: Json) => JSON.stringify(skeleton({ ...doc, info: { ...doc.info, title: 'T' } }));
      expect(strip(de)).toBe(strip(en));
      expect(strip(es)).toBe(strip(en));
    } finally {
      await host.close();
    }
  });
});
