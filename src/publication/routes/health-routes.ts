/** GET /health: 200 when every database answers a ping, 503 otherwise; never cached. */
import type { FastifyInstance } from 'fastify';
import { sendJson } from '../http/send-json.js';
import { checkHealth } from '../services/health-service.js';
import { API_VERSION } from './discovery-routes.js';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const startedAt = Date.now();
  app.get('/health', async (request, reply) => {
    const report = await checkHealth(app.ctx, API_VERSION, startedAt);
    reply.code(report.status === 'ok' ? 200 : 503);
    return sendJson(request, reply, { ...report }, { maxAge: 0, cacheable: false });
  });
}
