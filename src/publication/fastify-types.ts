/** Types the publication app adds to Fastify. */
import type { PublicationContext } from './services/context.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: PublicationContext;
    /** Secret header value that marks in-process batch sub-requests (see request-budget.ts). */
    internalToken: string;
  }
}
