/**
 * Optional API keys (API_KEYS): when configured, every request but the favicon and CORS
 * preflights must carry a valid `X-API-Key`, compared in constant time. Answers that depend on
 * the key must not be shared by caches, so cacheable responses become private and vary on it
 * (edge-hooks.ts applies both on the way out). The check is a step of the edge's one onRequest
 * hook, after CORS and the rate limit.
 */
import type { FastifyRequest } from 'fastify';
import { matchesAnySecret } from '../../common/constant-time.js';
import { ProblemError } from '../problems.js';

/** The key check of API_KEYS, or undefined when no keys are configured. */
export function apiKeyCheck(
  keys: readonly string[],
): ((request: FastifyRequest) => ProblemError | undefined) | undefined {
  if (keys.length === 0) return undefined;
  return (request) => {
    const given = request.headers['x-api-key'];
    if (typeof given === 'string' && given !== '' && matchesAnySecret(given, keys)) return undefined;
    return new ProblemError(
      'unauthorized',
      given === undefined
        ? 'this server requires an API key in the X-API-Key header'
        : 'the X-API-Key given is not valid',
      undefined,
      { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' },
    );
  };
}
