/**
 * Prepares the docs site's API reference (`npm run docs:api`, run by `docs:build`): the complete
 * OpenAPI document of a calendar made in-process, Scalar's standalone bundle from node_modules and
 * the page that renders one with the other, in docs/public/api-reference/ (generated, not committed).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createCalendar } from '../../src/index.js';
import { apiReferencePage, scalarBundlePath } from '../../examples/shared/api-reference.js';

const target = fileURLToPath(new URL('../../docs/public/api-reference/', import.meta.url));

/** The complete OpenAPI document, as `GET /wp-json/calendar/events/v1/doc/complete` answers it. */
export async function completeDocument(): Promise<unknown> {
  const calendar = createCalendar({ db: ':memory:', baseUrl: 'http://127.0.0.1:8080' });
  try {
    await calendar.migrate();
    const { status, body } = await calendar.call('GET', '/doc/complete');
    if (status !== 200) throw new Error(`GET /doc/complete answered ${status}`);
    return body;
  } finally {
    await calendar.close();
  }
}

mkdirSync(target, { recursive: true });
writeFileSync(`${target}openapi.json`, `${JSON.stringify(await completeDocument(), null, 1)}\n`);
copyFileSync(scalarBundlePath(), `${target}standalone.js`);
writeFileSync(`${target}index.html`, apiReferencePage({ docUrl: './openapi.json', scriptUrl: './standalone.js' }));
console.log(`API reference written to ${target}`);
