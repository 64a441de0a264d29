/** Types the publication app adds to Fastify. */
import type { PublicationContext } from './services/context.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: PublicationContext;
  }
}
