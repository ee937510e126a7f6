/**
 * The Fastify ceiling: the same framework answering a static JSON body of a given size
 * (`/wp-json/static/<bytes>`, any method; request bodies are read), or the bytes a run stored
 * under a name (`PUT /wp-json/static/as/<name>`, then `GET` or `POST` it: a case's own answer),
 * so that each case reads as a fraction of what Fastify itself can do on this machine. `PORT`
 * sets the port.
 */
import Fastify from 'fastify';
import { staticJson } from './static-body.js';

const app = Fastify();
// Bodies are read like the calendar plugin reads them: as raw bytes.
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
/** The bodies stored by name. */
const stored = new Map<string, Buffer>();
const name = (request: { params: unknown }) => (request.params as { name: string }).name;
app.route({
  method: 'PUT',
  url: '/wp-json/static/as/:name',
  // A calendar feed may be some megabytes.
  bodyLimit: 64 * 1024 * 1024,
  handler: async (request, reply) => {
    stored.set(name(request), Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
    return reply.code(204).send();
  },
});
app.route({
  method: ['GET', 'POST'],
  url: '/wp-json/static/as/:name',
  handler: async (request, reply) =>
    reply
      .code(request.method === 'POST' ? 201 : 200)
      .header('content-type', 'application/json; charset=UTF-8')
      .send(stored.get(name(request)) ?? Buffer.alloc(0)),
});
app.all('/wp-json/static/:bytes', async (request, reply) => {
  const bytes = Number((request.params as { bytes: string }).bytes);
  return reply
    .code(request.method === 'POST' ? 201 : 200)
    .header('content-type', 'application/json; charset=UTF-8')
    .send(staticJson(bytes));
});
await app.listen({ port: Number(process.env.PORT ?? 8090), host: '127.0.0.1' });
console.log(`ceiling listening on ${process.env.PORT ?? 8090}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void app.close().then(() => process.exit(0)));
