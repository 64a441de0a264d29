/**
 * Reads what a route needs from the request: the strictly parsed query string and validated
 * path values. Kept apart from the routes so batch and MCP can reuse the same readers.
 */
import type { FastifyRequest } from 'fastify';
import { BOUNDS } from '../query/bounds.js';
import { ValidationError } from './problems.js';
import { parseQueryString, type QueryParams, rawQueryOf } from './query-params.js';

export function queryOf(request: FastifyRequest): QueryParams {
  return parseQueryString(rawQueryOf(request.url));
}

/** Ids are decimal integers: `007` reads 7; `0`, negatives, fractions and words are refused. */
export function parseRecordId(raw: string): number {
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < BOUNDS.id.min) {
    throw new ValidationError([
      {
        name: 'id',
        in: 'path',
        detail: `id must be a positive whole number (section_id), got "${raw.slice(0, 40)}"`,
      },
    ]);
  }
  return n;
}
