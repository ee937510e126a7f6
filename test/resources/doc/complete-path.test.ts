import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCalendar, type HttpCalendar } from '../../helpers/http.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking JSON

// Issue 31, trap 7: the default `/doc` (upstream's, reads only) cannot generate a write client
// (`'"/events"' is not assignable to … PathsWithMethod<paths, "post">`). The complete document
// is served at `/doc/complete` whatever the `doc` option says, and the namespace index lists it;
// `/doc` stays as it was.

describe('GET {namespace}/doc/complete', () => {
  let t: HttpCalendar;
  let complete: HttpCalendar;

  beforeAll(async () => {
    t = await httpCalendar(':memory:');
    complete = await httpCalendar(':memory:', { doc: 'complete' });
  });
  afterAll(async () => {
    await t?.close();
    await complete?.close();
  });

  it('answers the complete document with the default options, writes included', async () => {
    const res = await t.request('GET', '/doc/complete');
    expect(res.status).toBe(200);
    const doc = res.body as Json;
    expect(Object.keys(doc.paths['/events'])).toEqual(['get', 'post']);
    expect(doc.paths['/events'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EventCreate' });
    expect(Object.keys(doc.paths['/venues/{id}'])).toEqual(['get', 'post', 'put', 'patch', 'delete']);
    expect(doc.components.securitySchemes).toHaveProperty('bearerToken');
    expect(doc.servers).toEqual([{ url: `${t.origin}/wp-json/calendar/events/v1/` }]);
    // The document `doc: 'complete'` answers at /doc (but for its server), in the request's language too.
    const chosen = (await complete.request('GET', '/doc')).body as Json;
    expect({ ...doc, servers: [] }).toEqual({ ...chosen, servers: [] });
    const fr = (await t.request('GET', '/doc/complete', { root: '/fr/wp-json' })).body as Json;
    expect(fr.info.title).not.toBe(doc.info.title);
  });

  it('leaves /doc as it was: upstream’s document, reads only', async () => {
    const doc = (await t.request('GET', '/doc')).body as Json;
    expect(Object.keys(doc.paths['/events'])).toEqual(['get']);
    expect(doc.components.securitySchemes).toBeUndefined();
  });

  it('is listed in the namespace index and in the REST root’s index, read-only', async () => {
    const index = (await t.request('GET', '')).body as Json;
    const route = index.routes['/calendar/events/v1/doc/complete'];
    expect(route).toMatchObject({ namespace: 'calendar/events/v1', methods: ['GET'] });
    expect(Object.keys(index.routes).indexOf('/calendar/events/v1/doc/complete')).toBe(Object.keys(index.routes).indexOf('/calendar/events/v1/doc') + 1);
    const root = (await (await fetch(`${t.origin}/wp-json/`)).json()) as Json;
    expect(root.routes).toHaveProperty(['/calendar/events/v1/doc/complete']);
    const write = await t.request('POST', '/doc/complete', { as: 'admin', json: {} });
    expect([write.status, write.body.code]).toEqual([404, 'rest_no_route']);
  });
});
