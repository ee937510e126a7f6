import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInDictionaries } from '../../src/i18n/index.js';
import { send, startExample, TOKENS, type RunningServer } from './servers.js';

const ROOTS = { en: '/wp-json', fr: '/fr/wp-json', de: '/de/wp-json', es: '/es/wp-json' } as const;
const NS = 'calendar/events/v1';

/** Every string of a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The value with descriptions and clock-based defaults removed and `root` written as ROOT. */
function skeleton(value: unknown, root: string): unknown {
  if (typeof value === 'string') return value.split(root).join('ROOT');
  if (Array.isArray(value)) return value.map((v) => skeleton(v, root));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k, v]) => k !== 'description' && !(k === 'default' && typeof v === 'string' && /^\d{4}-\d\d-\d\d /.test(v)))
        .map(([k, v]) => [k, skeleton(v, root)]),
    );
  }
  return value;
}

describe('examples/multilingual: four language roots in one app', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startExample('multilingual');
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the namespace index under each root, with its URLs and its language', async () => {
    const bodies: Record<string, unknown> = {};
    for (const [locale, root] of Object.entries(ROOTS)) {
      const res = await send(server.base, 'GET', `${root}/${NS}`);
      expect(res.status, locale).toBe(200);
      const home = `${server.base}${root}/`;
      expect(res.headers.link).toBe(`<${home}>; rel="https://api.w.org/"`);
      const body = JSON.parse(res.text);
      const urls = strings(body).filter((s) => s.startsWith('http://127.0.0.1'));
      expect(urls.length, locale).toBeGreaterThan(0);
      for (const url of urls) expect(url.startsWith(home), url).toBe(true);
      // A description in the root's language.
      const perPage = body.routes[`/${NS}/categories`].endpoints[0].args.per_page.description;
      expect(perPage, locale).toBe(builtInDictionaries[locale]?.['archive.per_page']);
      bodies[locale] = skeleton(body, `${server.base}${root}/`);
    }
    expect(new Set(Object.values(builtInDictionaries).map((d) => d['archive.per_page'])).size).toBe(4);
    // Everything but the descriptions and the root is the same.
    for (const locale of ['fr', 'de', 'es']) expect(bodies[locale], locale).toEqual(bodies.en);
  });

  it('builds the URLs of an answer from the root the request came in on', async () => {
    const created = await send(
      server.base,
      'POST',
      `${ROOTS.de}/${NS}/categories`,
      { authorization: `Bearer ${TOKENS.admin}`, 'content-type': 'application/json' },
      JSON.stringify({ name: 'Konzerte' }),
    );
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.text);
    expect(created.headers.location).toBe(`${server.base}${ROOTS.de}/${NS}/categories/${id}`);
    for (const root of Object.values(ROOTS)) {
      const res = await send(server.base, 'GET', `${root}/${NS}/categories/${id}`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).urls.self).toBe(`${server.base}${root}/${NS}/categories/${id}`);
    }
  });
});
