/**
 * POST {MCP_PATH}: the MCP endpoint (Streamable HTTP transport of the official SDK, stateless,
 * JSON answers). Every request gets a fresh server and transport, so nothing is shared between
 * clients and any instance behind a proxy can answer. The SDK's web-standard transport is used
 * rather than the Node one so that the answer still goes out through Fastify: the global hooks
 * (request budget, rate limit, API key, CORS, timing, compression) apply to MCP as to any route.
 * Only POST is registered: a stateless server offers no SSE stream (GET) and no session to end
 * (DELETE), and the method guard answers both with 405 and Allow: POST.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asProblem } from '../http/error-handling.js';
import { requestContext } from '../http/request-context.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import { buildToolCatalogue } from '../mcp/tool-catalogue.js';

/** Headers that describe this hop or the raw body, which the re-built request does not carry. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function webRequestOf(request: FastifyRequest, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(new URL(request.url, 'http://localhost'), {
    method: request.method,
    headers,
    body: body === '' ? undefined : body,
  });
}

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
  const tools = buildToolCatalogue(ctx.config.dbNames);
  // The transport judges the body itself (content type, JSON, JSON-RPC shape) and answers in
  // JSON-RPC terms, so Fastify hands it the raw text whatever the content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post(ctx.config.mcpPath, async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : undefined;
    const messages = parseMessages(body);
    // A JSON-RPC batch of tool calls pays one rate-limit token per call, like POST /batch.
    await app.rateLimiter.chargeBatch(request, reply, toolCallsIn(messages));
    const server = createMcpServer({
      ctx: requestContext(request),
      tools,
      asProblem: (err) => asProblem(request, err),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(
        webRequestOf(request, body),
        messages === undefined ? undefined : { parsedBody: messages },
      );
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      reply.header('Cache-Control', 'no-store');
      const text = await response.text();
      return reply.send(text === '' ? undefined : text);
    } finally {
      await server.close();
    }
  });
}
