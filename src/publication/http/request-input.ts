/**
 * Reads what an operation needs from a Fastify request: its path parameters and the strictly
 * parsed query string. Validation itself happens in the operations' input step (query/), the
 * same for REST, batch and MCP.
 */
import type { FastifyRequest } from 'fastify';
import { parseQueryString, type QueryParams } from '../query/query-string.js';
import { rawQueryOf } from './query-params.js';

export function queryOf(request: FastifyRequest): QueryParams {
  return parseQueryString(rawQueryOf(request.url));
}
