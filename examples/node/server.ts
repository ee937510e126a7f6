import { createServer } from 'node:http';
import { calendarNodeHandler } from '../../adapters/node.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';

const setup = calendarFromEnv();
const { calendar, port } = setup;
await calendar.migrate();

// One calendar, two language roots, on Node's own server: the English handler passes what is not
// its own to the French one, which answers the API's JSON 404 for anything else.
const english = calendarNodeHandler(calendar, { root: '/wp-json' });
const french = calendarNodeHandler(calendar, { root: '/fr/wp-json', locale: 'fr' });
const server = createServer((req, res) => void english(req, res, () => french(req, res)));

server.listen(port, '127.0.0.1', () => announce(setup));
closeOnSignal(async () => {
  server.close();
  await calendar.close();
});
