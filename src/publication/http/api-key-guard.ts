/**
 * Optional API keys (API_KEYS): when configured, every request but the favicon and CORS
 * preflights must carry a valid `X-API-Key`, compared in constant time. Answers that depend on
 * the key must not be shared by caches, so cacheable responses become private and vary on it.
 */
import type { FastifyInstance } from 'fastify';
import { matchesAnySecret } from '../../common/constant-time.js';
import { ProblemError } from '../problems.js';
import { sendProblem } from './error-handling.js';
import { pathOf } from './query-params.js';
import { appendVary } from './vary.js';

export function installApiKeyGuard(app: FastifyInstance, keys: readonly string[]): void {
  if (keys.length === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || pathOf(request.url).endsWith('/favicon.ico')) return;
    const given = request.headers['x-api-key'];
    if (typeof given === 'string' && given !== '' && matchesAnySecret(given, keys)) return;
    return sendProblem(
      request,
      reply,
      new ProblemError(
        'unauthorized',
        given === undefined
          ? 'this server requires an API key in the X-API-Key header'
          : 'the X-API-Key given is not valid',
        undefined,
        { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' },
      ),
    );
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    const cache = reply.getHeader('cache-control');
    if (typeof cache === 'string' && cache.startsWith('public')) {
      reply.header('Cache-Control', cache.replace(/^public/, 'private'));
    }
    appendVary(reply, 'X-API-Key');
    return payload;
  });
}
