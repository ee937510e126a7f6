/**
 * The Express ceiling: the same framework answering a static JSON body of a given size
 * (`/wp-json/static/<bytes>`, any method; request bodies are read), or the bytes a run stored
 * under a name (`PUT /wp-json/static/as/<name>`, then `GET` or `POST` it: a case's own answer),
 * through a router mounted at `/wp-json` as the calendar's is, and ended with `res.end` as the
 * adapter does. `PORT` sets the port.
 */
import express, { Router } from 'express';
import { staticJson } from './static-body.js';

const router = Router();
/** The bodies stored by name. */
const stored = new Map<string, Buffer>();
router.put('/static/as/:name', async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  stored.set(req.params.name, Buffer.concat(chunks));
  res.status(204).end();
});
router.all('/static/as/:name', async (req, res) => {
  for await (const _chunk of req) {
    // Read, as below.
  }
  res.status(req.method === 'POST' ? 201 : 200).set('content-type', 'application/json; charset=UTF-8');
  res.end(stored.get(req.params.name) ?? Buffer.alloc(0));
});
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
