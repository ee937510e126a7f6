import Fastify from 'fastify';
import { calendarPlugin } from '../../adapters/fastify.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';

/** One root per language: the same API, descriptions in the root's language. */
const ROOTS = [
  { prefix: '/wp-json', locale: 'en' },
  { prefix: '/fr/wp-json', locale: 'fr' },
  { prefix: '/de/wp-json', locale: 'de' },
  { prefix: '/es/wp-json', locale: 'es' },
];

const setup = calendarFromEnv();
const { calendar, port } = setup;
await calendar.migrate();

const app = Fastify();
for (const { prefix, locale } of ROOTS) await app.register(calendarPlugin, { calendar, prefix, locale });

await app.listen({ port, host: '127.0.0.1' });
announce(setup);
for (const { prefix } of ROOTS.slice(1)) console.log(`  also at http://127.0.0.1:${port}${prefix}/${calendar.options.namespace}`);
closeOnSignal(async () => {
  await app.close();
  await calendar.close();
});
