/**
 * The Fastify ceiling: the same framework answering a static JSON body of a given size
 * (`/wp-json/static/<bytes>`, any method; request bodies are read), so that each case
 * reads as a fraction of what Fastify itself can do on this machine. `PORT` sets the port.
 */
import Fastify from 'fastify';
import { staticJson } from './static-body.js';

const app = Fastify();
// Bodies are read like the calendar plugin reads them: as raw bytes.
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
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
