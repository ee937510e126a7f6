// A Hono app on Node embedding the calendar as README "Any Fetch-standard server" shows, and
// serving its tRPC router at /trpc with tRPC's Fetch adapter and createFetchContext.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createCalendar } from 'calendar-events-rest';
import { fetchHandler } from 'calendar-events-rest/fetch';
import { createCalendarRouter, createFetchContext } from 'calendar-events-rest/trpc';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';

// The app's own authentication: one fixed administrator token.
function lookUpUser(authorization) {
  return authorization === 'Bearer consumer-admin-token' ? { id: 1, roles: ['administrator'] } : null;
}

const calendar = createCalendar({
  db: process.env.CALENDAR_DB ?? 'data/calendar.sqlite',
  getUser: (req) => lookUpUser(req.headers.authorization),
});
await calendar.migrate();

const app = new Hono();
const handle = fetchHandler(calendar, { root: '/wp-json' });
app.all('/wp-json', (c) => handle(c.req.raw));
app.all('/wp-json/*', (c) => handle(c.req.raw));
const router = createCalendarRouter(calendar);
const createContext = createFetchContext(calendar, { root: '/wp-json' });
app.all('/trpc/*', (c) => fetchRequestHandler({ endpoint: '/trpc', req: c.req.raw, router, createContext }));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
