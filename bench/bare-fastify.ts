/**
 * The HTTP ceiling of the 204 scenarios: a bare Fastify server (same version, same Node, no
 * plugins, no hooks, logger off) answering 204 on one route. Run as a child process by
 * run-bench.ts, on the port given as the first argument; prints "listening" when ready.
 */
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 41190);
const app = Fastify({ logger: false });
app.get('/favicon.ico', (_request, reply) => {
  reply.code(204).send();
});
await app.listen({ host: '127.0.0.1', port });
console.log('listening');
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
