// The Express example (examples/express/server.ts) with the bench's host fields (bench/fields.ts).
import express from 'express';
import { calendarRouter } from '../adapters/express.js';
import { announce, calendarFromEnv, closeOnSignal } from '../examples/shared/env.js';
import { BENCH_FIELDS } from './fields.js';

const setup = calendarFromEnv(process.env, 8080, { fields: BENCH_FIELDS });
const { calendar, port } = setup;
await calendar.migrate();

const app = express();
app.use('/wp-json', calendarRouter(calendar));
app.use('/fr/wp-json', calendarRouter(calendar, { locale: 'fr' }));

const server = app.listen(port, '127.0.0.1', () => announce(setup));
closeOnSignal(async () => {
  server.close();
  await calendar.close();
});
