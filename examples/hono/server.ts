import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { fetchHandler } from '../../adapters/fetch.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';

const setup = calendarFromEnv();
const { calendar, port } = setup;
await calendar.migrate();

const app = new Hono();
// One calendar, two language roots: each handler serves everything below its root.
const english = fetchHandler(calendar, { root: '/wp-json' });
const french = fetchHandler(calendar, { root: '/fr/wp-json', locale: 'fr' });
app.all('/wp-json', (c) => english(c.req.raw));
app.all('/wp-json/*', (c) => english(c.req.raw));
app.all('/fr/wp-json', (c) => french(c.req.raw));
app.all('/fr/wp-json/*', (c) => french(c.req.raw));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => announce(setup));
closeOnSignal(async () => {
  server.close();
  await calendar.close();
});
