// An Express app (ES modules) embedding the calendar as README "Embedding in Express" shows.
import express from 'express';
import { createCalendar } from 'calendar-events-rest';
import { calendarRouter } from 'calendar-events-rest/express';

// The app's own authentication: one fixed administrator token.
function lookUpUser(authorization) {
  return authorization === 'Bearer consumer-admin-token' ? { id: 1, roles: ['administrator'] } : null;
}

const calendar = createCalendar({
  db: process.env.CALENDAR_DB ?? 'data/calendar.sqlite',
  getUser: (req) => lookUpUser(req.headers.authorization),
});
await calendar.migrate();

const app = express();
app.use('/wp-json', calendarRouter(calendar));
app.use('/fr/wp-json', calendarRouter(calendar, { locale: 'fr' }));

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
