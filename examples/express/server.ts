import express from 'express';
import { calendarRouter } from '../../adapters/express.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';

const setup = calendarFromEnv();
const { calendar, port } = setup;
await calendar.migrate();

const app = express();
// One calendar, two language roots.
app.use('/wp-json', calendarRouter(calendar));
app.use('/fr/wp-json', calendarRouter(calendar, { locale: 'fr' }));

const server = app.listen(port, '127.0.0.1', () => announce(setup));
closeOnSignal(async () => {
  server.close();
  await calendar.close();
});
