// A Hono app on Node embedding the calendar as README "Any Fetch-standard server" shows.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createCalendar } from 'calendar-events-rest';
import { fetchHandler } from 'calendar-events-rest/fetch';

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

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
