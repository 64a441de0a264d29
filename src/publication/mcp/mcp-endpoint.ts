/**
 * Answers one MCP request (routes/mcp-routes.ts loads this module on the first MCP request: the
 * SDK and zod cost about 13 MB of RSS, which a server nobody asks over MCP should not hold).
 * Every request gets a fresh server and transport, so nothing is shared between clients and any
 * instance behind a proxy can answer. The SDK's web-standard transport is used rather than the
 * Node one so that the answer still goes out through Fastify: the global hooks (request budget,
 * rate limit, API key, CORS, timing, compression) apply to MCP as to any route.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { asProblem } from '../http/error-handling.js';
import { requestContext } from '../http/request-context.js';
import { createMcpServer } from './mcp-server.js';
import { buildToolCatalogue } from './tool-catalogue.js';
import type { McpTool } from './tool-definition.js';

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

export type McpAnswer = (
  request: FastifyRequest,
  reply: FastifyReply,
  body: string | undefined,
  messages: unknown,
) => Promise<FastifyReply>;

/** The endpoint's handler for the databases served (the tool catalogue is built once). */
export function mcpEndpoint(dbNames: readonly string[]): McpAnswer {
  const tools: readonly McpTool[] = buildToolCatalogue(dbNames);
  return async (request, reply, body, messages) => {
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
  };
}
