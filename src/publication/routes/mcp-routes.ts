/**
 * POST {MCP_PATH}: the MCP endpoint (Streamable HTTP transport of the official SDK, stateless,
 * JSON answers; mcp/mcp-endpoint.ts). The endpoint's module, with the SDK, is loaded on the first
 * MCP request, not at start. Only POST is registered: a stateless server offers no SSE stream
 * (GET) and no session to end (DELETE), and the method guard answers both with 405 and Allow: POST.
 */
import type { FastifyInstance } from 'fastify';
import type { McpAnswer } from '../mcp/mcp-endpoint.js';

/** The JSON-RPC message(s), or undefined to let the transport answer the parse error itself. */
function parseMessages(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function toolCallsIn(messages: unknown): number {
  const list = Array.isArray(messages) ? messages : [messages];
  return list.filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call').length;
}

export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  let endpoint: Promise<McpAnswer> | undefined;
  // The transport judges the body itself (content type, JSON, JSON-RPC shape) and answers in
  // JSON-RPC terms, so Fastify hands it the raw text whatever the content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post(ctx.config.mcpPath, async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : undefined;
    const messages = parseMessages(body);
    // A JSON-RPC batch of tool calls pays one rate-limit token per call, like POST /batch.
    await app.rateLimiter.chargeBatch(request, reply, toolCallsIn(messages));
    endpoint ??= import('../mcp/mcp-endpoint.js').then((m) => m.mcpEndpoint(ctx.config.dbNames));
    const answer = await endpoint;
    return answer(request, reply, body, messages);
  });
}
