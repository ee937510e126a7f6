// The Fastify example (examples/fastify/server.ts) with the bench's host fields (bench/fields.ts).
import Fastify from 'fastify';
import { calendarPlugin } from '../adapters/fastify.js';
import { announce, calendarFromEnv, closeOnSignal } from '../examples/shared/env.js';
import { BENCH_FIELDS } from './fields.js';

const setup = calendarFromEnv(process.env, 8080, { fields: BENCH_FIELDS });
const { calendar, port } = setup;
await calendar.migrate();

const app = Fastify();
await app.register(calendarPlugin, { calendar, prefix: '/wp-json' });
await app.register(calendarPlugin, { calendar, prefix: '/fr/wp-json', locale: 'fr' });

await app.listen({ port, host: '127.0.0.1' });
announce(setup);
closeOnSignal(async () => {
  await app.close();
  await calendar.close();
});
