/**
 * The calendar over HTTP twice in one Express app: the REST API at /wp-json and the tRPC
 * router at /trpc, with the same callers (bearer tokens from CALENDAR_TOKENS, as every
 * example) and the same rules. A typed client needs only the router's type:
 *
 *   npx tsx examples/trpc/server.ts
 *
 *   import { createTRPCClient, httpBatchLink } from '@trpc/client';
 *   import type { CalendarRouter } from 'calendar-events-rest/trpc';
 *   const api = createTRPCClient<CalendarRouter>({
 *     links: [httpBatchLink({ url: 'http://127.0.0.1:8080/trpc', headers: { authorization: `Bearer ${token}` } })],
 *   });
 *   const venue = await api.venues.create.mutate({ venue: 'Blue Note' });
 */
import express from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { calendarRouter } from '../../adapters/express.js';
import { createCalendarRouter, createNodeContext } from '../../src/trpc/index.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';

const setup = calendarFromEnv();
const { calendar, port } = setup;
await calendar.migrate();

const app = express();
app.use('/wp-json', calendarRouter(calendar));
app.use(
  '/trpc',
  createExpressMiddleware({
    router: createCalendarRouter(calendar),
    // The caller from the calendar's getUser (the bearer token), URLs in answers under the REST root.
    createContext: createNodeContext(calendar, { root: '/wp-json' }),
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') calendar.options.onError(error);
    },
  }),
);

const server = app.listen(port, '127.0.0.1', () => {
  announce(setup);
  console.log(`tRPC router on http://127.0.0.1:${port}/trpc`);
});
closeOnSignal(async () => {
  server.close();
  await calendar.close();
});
