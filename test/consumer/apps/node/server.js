// A plain Node server (no framework) embedding the calendar as README "Plain Node, Koa, Connect" shows,
// meant to run behind a reverse proxy as README "Behind a reverse proxy" shows (trustProxy).
import { createServer } from 'node:http';
import { createCalendar } from 'calendar-events-rest';
import { calendarNodeHandler } from 'calendar-events-rest/node';

// The app's own authentication: one fixed administrator token.
function lookUpUser(authorization) {
  return authorization === 'Bearer consumer-admin-token' ? { id: 1, roles: ['administrator'] } : null;
}

const calendar = createCalendar({
  db: process.env.CALENDAR_DB ?? 'data/calendar.sqlite',
  getUser: (req) => lookUpUser(req.headers.authorization),
  trustProxy: true,
});
await calendar.migrate();

const english = calendarNodeHandler(calendar, { root: '/wp-json' });
const french = calendarNodeHandler(calendar, { root: '/fr/wp-json', locale: 'fr' });
const server = createServer((req, res) => void english(req, res, () => french(req, res)));

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
