/**
 * Vary header bookkeeping shared by the hooks whose answers depend on a request header (API key,
 * CORS origin, compression): each adds its token without dropping the others'.
 */
import type { FastifyReply } from 'fastify';

/** Adds `token` to the Vary header, keeping what other hooks (API keys, compression) put there. */
export function appendVary(reply: FastifyReply, token: string): void {
  const current = reply.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (list.includes('*') || list.some((t) => t.toLowerCase() === token.toLowerCase())) return;
  reply.header('Vary', [...list, token].join(', '));
}
