import Fastify from 'fastify';
import { calendarPlugin } from '../../adapters/fastify.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';

const setup = calendarFromEnv();
const { calendar, port } = setup;
await calendar.migrate();

const app = Fastify();
// One calendar, two language roots: each registration is its own encapsulated context.
await app.register(calendarPlugin, { calendar, prefix: '/wp-json' });
await app.register(calendarPlugin, { calendar, prefix: '/fr/wp-json', locale: 'fr' });

await app.listen({ port, host: '127.0.0.1' });
announce(setup);
closeOnSignal(async () => {
  await app.close();
  await calendar.close();
});
