// An Express app (CommonJS) embedding the calendar as README "Embedding in Express" shows, on
// SQLite, or on PostgreSQL when CALENDAR_DB_URL is a postgres:// URL (with `pg` installed instead
// of better-sqlite3), and serving its tRPC router at /trpc as README "Typed calls with tRPC" shows
// (tRPC's Express adapter, the context from createNodeContext).
'use strict';
const express = require('express');
const { createCalendar } = require('calendar-events-rest');
const { calendarRouter } = require('calendar-events-rest/express');
const { createCalendarRouter, createNodeContext } = require('calendar-events-rest/trpc');
const { createExpressMiddleware } = require('@trpc/server/adapters/express');

// The app's own authentication: one fixed administrator token.
function lookUpUser(authorization) {
  return authorization === 'Bearer consumer-admin-token' ? { id: 1, roles: ['administrator'] } : null;
}

async function main() {
  const calendar = createCalendar({
    db: process.env.CALENDAR_DB_URL ?? process.env.CALENDAR_DB ?? 'data/calendar.sqlite',
    getUser: (req) => lookUpUser(req.headers.authorization),
  });
  await calendar.migrate();

  const app = express();
  app.use('/wp-json', calendarRouter(calendar));
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: createCalendarRouter(calendar),
      // The caller from the calendar's getUser (the bearer token), URLs in answers under the REST root.
      createContext: createNodeContext(calendar, { root: '/wp-json' }),
    }),
  );

  const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}`);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
