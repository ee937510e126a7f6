import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scalarBundlePath } from '../../examples/shared/api-reference.js';
import { send, startExample, type RunningServer } from '../adapters/servers.js';

// The API reference page the Express example serves (`npm start`, /api-reference/): the page,
// its script (Scalar's standalone bundle from node_modules, no CDN) and the complete OpenAPI
// document it points at, all over HTTP from the running example.

describe('the Express example serves the API reference', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startExample('express');
  });
  afterAll(async () => {
    await server.stop();
  });

  /** The page's <script src> values, and the document URL its configuration names. */
  const readPage = (html: string) => ({
    scripts: [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] ?? ''),
    docUrl: /"url":"([^"]+)"/.exec(html)?.[1],
  });

  it('answers the page, pointing at the complete OpenAPI document', async () => {
    for (const path of ['/api-reference/', '/api-reference']) {
      const page = await send(server.base, 'GET', path);
      expect(page.status, path).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const { scripts, docUrl } = readPage(page.text);
      expect(scripts).toEqual(['/api-reference/standalone.js']);
      expect(docUrl).toBe('/wp-json/calendar/events/v1/doc/complete');
      expect(page.text).toContain("Scalar.createApiReference('#app'");
      // Nothing fetched from Scalar's servers: fonts, telemetry and the AI agent are off.
      expect(page.text).toMatch(/"withDefaultFonts":false,"telemetry":false,"agent":\{"disabled":true\}/);
    }
  });

  it('serves its script from node_modules, not from a CDN', async () => {
    const { scripts } = readPage((await send(server.base, 'GET', '/api-reference/')).text);
    for (const src of scripts) expect(src, 'a script of the page itself').toMatch(/^\/[^/]/);
    const script = await send(server.base, 'GET', scripts[0] ?? '');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(script.text).toBe(readFileSync(scalarBundlePath(), 'utf8'));
    expect(script.text).toContain('createApiReference');
  });

  it('points at a document that answers, with the writes', async () => {
    const { docUrl } = readPage((await send(server.base, 'GET', '/api-reference/')).text);
    const doc = await send(server.base, 'GET', docUrl ?? '');
    expect(doc.status).toBe(200);
    const json = JSON.parse(doc.text) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(json.openapi).toMatch(/^3\./);
    expect(Object.keys(json.paths['/events'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
  });
});
