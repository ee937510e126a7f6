import express from 'express';
import { calendarRouter } from '../../adapters/express.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';
import { mountCalendarPages } from '../calendar-page/mount.js';
import { mountApiReference } from '../shared/api-reference.js';

const setup = calendarFromEnv();
const { calendar, port } = setup;
await calendar.migrate();

const app = express();
// One calendar, two language roots.
app.use('/wp-json', calendarRouter(calendar));
app.use('/fr/wp-json', calendarRouter(calendar, { locale: 'fr' }));
// The calendar page at /calendar/ and /fr/calendar/ (examples/calendar-page).
await mountCalendarPages(app, calendar);
// The complete OpenAPI document, rendered at /api-reference/.
mountApiReference(app, { root: '/wp-json', namespace: calendar.options.namespace });

const server = app.listen(port, '127.0.0.1', () => announce(setup));
closeOnSignal(async () => {
  server.close();
  await calendar.close();
});
