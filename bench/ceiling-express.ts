/**
 * The Express ceiling: the same framework answering a static JSON body of a given size
 * (`/wp-json/static/<bytes>`, any method; request bodies are read), through a router
 * mounted at `/wp-json` as the calendar's is, and ended with `res.end` as the adapter does.
 * `PORT` sets the port.
 */
import express, { Router } from 'express';
import { staticJson } from './static-body.js';

const router = Router();
router.all('/static/:bytes', async (req, res) => {
  for await (const _chunk of req) {
    // The calendar reads every request body; so does its ceiling.
  }
  res.status(req.method === 'POST' ? 201 : 200).set('content-type', 'application/json; charset=UTF-8');
  res.end(staticJson(Number(req.params.bytes)));
});
const app = express();
app.use('/wp-json', router);
const port = Number(process.env.PORT ?? 8091);
const server = app.listen(port, '127.0.0.1', () => console.log(`ceiling listening on ${port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
