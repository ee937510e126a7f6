// A Fastify app embedding the calendar as README "Fastify" shows: a plugin registered per root.
import Fastify from 'fastify';
import { createCalendar } from 'calendar-events-rest';
import { calendarPlugin } from 'calendar-events-rest/fastify';

// The app's own authentication: one fixed administrator token.
function lookUpUser(authorization) {
  return authorization === 'Bearer consumer-admin-token' ? { id: 1, roles: ['administrator'] } : null;
}

const calendar = createCalendar({
  db: process.env.CALENDAR_DB ?? 'data/calendar.sqlite',
  getUser: (req) => lookUpUser(req.headers.authorization),
});
await calendar.migrate();

const app = Fastify();
await app.register(calendarPlugin, { calendar, prefix: '/wp-json' });
await app.register(calendarPlugin, { calendar, prefix: '/fr/wp-json', locale: 'fr' });

const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}`);
