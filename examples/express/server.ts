import express from 'express';
import { calendarRouter } from '../../adapters/express.js';
import { createCalendar } from '../../src/index.js';
import { bearerAuth, tokensFromEnv } from './auth.js';

const port = Number(process.env.PORT ?? 8080);
const { users, generated } = tokensFromEnv(process.env.CALENDAR_TOKENS);

const calendar = createCalendar({
  db: process.env.CALENDAR_DB_URL || process.env.CALENDAR_DB || 'data/calendar.sqlite',
  namespace: process.env.CALENDAR_NAMESPACE || undefined,
  baseUrl: process.env.CALENDAR_BASE_URL || undefined,
  getUser: bearerAuth(users),
  userExists: (id) => [...users.values()].some((u) => u.id === id),
});
await calendar.migrate();

const app = express();
// One calendar, two language roots.
app.use('/wp-json', calendarRouter(calendar));
app.use('/fr/wp-json', calendarRouter(calendar, { locale: 'fr' }));

const server = app.listen(port, '127.0.0.1', () => {
  console.log(`Calendar API listening on http://127.0.0.1:${port}/wp-json/${calendar.options.namespace}`);
  if (generated) console.log(`Administrator token (set CALENDAR_TOKENS to choose your own): ${generated}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void calendar.close().then(() => process.exit(0));
  });
}
