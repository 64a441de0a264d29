/**
 * The MCP SDK's own client over Streamable HTTP, as an agent would use it, with shortcuts for
 * the MCP test files: call a tool and get its result, read the text of an isError result.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface McpSession {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The structured answer of a successful call; fails the test with the text otherwise. */
  data(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function connectMcp(url: string, headers: Record<string, string> = {}): Promise<McpSession> {
  const client = new Client({ name: 'publication-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    call,
    data: async (name, args) => {
      const result = await call(name, args);
      if (result.isError || !result.structuredContent) {
        throw new Error(`${name} failed: ${textOf(result)}`);
      }
      return result.structuredContent;
    },
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
