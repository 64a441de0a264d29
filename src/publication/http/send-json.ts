/**
 * Sends a JSON envelope with the caching contract of the API: a weak ETag computed on the body
 * without its timing field (so identical data gives identical tags), 304 on a matching
 * If-None-Match, Cache-Control from CACHE_MAX_AGE, and `meta.response_time_ms` spliced in last.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { paginationLinks } from './link-header.js';

export interface Envelope {
  [key: string]: unknown;
  meta?: Record<string, unknown>;
}

function etagOf(bytes: Buffer): string {
  return `W/"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

/** RFC 9110 weak comparison against an If-None-Match list. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Envelope,
  options: { maxAge: number; cacheable?: boolean },
): FastifyReply {
  // meta goes last so the timing can be appended without re-serialising the body.
  const { meta, ...rest } = body;
  // Encoded to UTF-8 once: the same bytes are hashed and sent.
  const stable = Buffer.from(JSON.stringify(meta === undefined ? rest : { ...rest, meta }), 'utf8');
  reply.type('application/json; charset=utf-8');
  if (options.cacheable !== false) {
    const etag = etagOf(stable);
    reply.header('ETag', etag);
    reply.header('Cache-Control', `public, max-age=${options.maxAge}`);
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      return reply.code(304).send();
    }
  } else {
    reply.header('Cache-Control', 'no-store');
  }
  if (meta === undefined) return reply.send(stable);
  const ms = Math.round(reply.elapsedTime * 100) / 100;
  const separator = Object.keys(meta).length > 0 ? ',' : '';
  const tail = Buffer.from(`${separator}"response_time_ms":${ms}}}`, 'utf8');
  return reply.send(Buffer.concat([stable.subarray(0, stable.length - 2), tail]));
}

/**
 * Sends a page of rows (records or search results): Link headers for the neighbouring pages and
 * `pagination` with `total` only when it was counted.
 */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { rows: unknown[]; hasMore: boolean; total?: number },
  paging: { limit: number; offset: number },
  maxAge: number,
): FastifyReply {
  const link = paginationLinks(request.url, paging.offset, paging.limit, page.hasMore);
  if (link) reply.header('Link', link);
  const pagination: Record<string, number> = { limit: paging.limit, offset: paging.offset };
  if (page.total !== undefined) pagination.total = page.total;
  return sendJson(request, reply, { data: page.rows, pagination, meta: {} }, { maxAge });
}
