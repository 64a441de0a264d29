import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, rawRequest, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { connectMcp, textOf } from './mcp-client.js';

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe.each(engineCases())('the MCP endpoint over HTTP on $engine', (c) => {
  let s: TestServer;
  const post = (body: string, headers: Record<string, string> = MCP_HEADERS, path = '/mcp') =>
    rawRequest(`${s.base}${path}`, 'POST', headers, body);

  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('is POST only: GET (no SSE stream) and DELETE (no session) are 405 with Allow', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await rawRequest(`${s.base}/mcp`, method, { Accept: 'text/event-stream' });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow, method).toBe('POST');
    }
  });

  it('answers a plain JSON-RPC call statelessly, uncached, with the usual headers', async () => {
    const res = await post(JSON.stringify(toolCall(1, 'count_records', { table: 'interview' })));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-response-time']).toBeDefined();
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { structuredContent: { total: 131 } } });
  });

  it('leaves transport errors to the SDK: JSON-RPC errors with 406, 415 and 400', async () => {
    const body = JSON.stringify(toolCall(1, 'list_databases', {}));
    const noAccept = await post(body, { 'Content-Type': 'application/json' });
    expect(noAccept.status).toBe(406);
    expect(noAccept.json.error.message).toMatch(/Not Acceptable/);
    const text = await post(body, { ...MCP_HEADERS, 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.json.jsonrpc).toBe('2.0');
    const broken = await post('{"jsonrpc": "2.0", ');
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe(-32700);
  });

  it('is documented in the OpenAPI description at MCP_PATH', async () => {
    const doc = (await s.get('/openapi.json')).json;
    const op = doc.paths['/mcp'].post;
    expect(op.operationId).toBe('mcp');
    expect(op.description).toContain('`search_records`');
    expect(op.description).toContain('`get_av_indexation_fragment`');
  });
});

describe.each(engineCases())('MCP configuration and shared request limits on $engine', (c) => {
  it('MCP_PATH moves the endpoint (and its documentation)', async () => {
    const s = await startTestServer(c, { MCP_PATH: '/agents' });
    try {
      const mcp = await connectMcp(`${s.base}/agents`);
      expect(textOf(await mcp.call('list_databases'))).toContain(c.db);
      await mcp.close();
      const doc = (await s.get('/openapi.json')).json;
      expect(doc.paths['/agents'].post).toBeDefined();
      expect(doc.paths['/mcp']).toBeUndefined();
      const old = await rawRequest(`${s.base}/mcp`, 'POST', MCP_HEADERS, '{}');
      expect(old.status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it('MCP_ENABLED=false registers no route: 404, and nothing documented', async () => {
    const s = await startTestServer(c, { MCP_ENABLED: 'false' });
    try {
      const body = JSON.stringify(toolCall(1, 'list_databases', {}));
      for (const method of ['POST', 'GET']) {
        const res = await rawRequest(
          `${s.base}/mcp`,
          method,
          MCP_HEADERS,
          method === 'POST' ? body : undefined,
        );
        expect(res.status, method).toBe(404);
      }
      const doc = (await s.get('/openapi.json')).json;
      expect(doc.paths['/mcp']).toBeUndefined();
      expect(doc.tags.map((t: { name: string }) => t.name)).not.toContain('mcp');
    } finally {
      await s.close();
    }
  });

  it('tool calls spend the request statement budget, and running out is an isError result', async () => {
    const s = await startTestServer(c, { REQUEST_MAX_STATEMENTS: '1' });
    try {
      const mcp = await connectMcp(`${s.base}/mcp`);
      const over = await mcp.call('search_records', { table: 'interview', limit: 1, count: true });
      expect(over.isError).toBe(true);
      expect(textOf(over)).toMatch(/^Too Many Requests \(429\): .*statements/);
      // One HTTP request, one budget: the next call starts afresh.
      expect((await mcp.call('search_records', { table: 'interview', limit: 1 })).isError).toBeFalsy();
      await mcp.close();
    } finally {
      await s.close();
    }
  });

  it('API keys apply: refused without X-API-Key, served with it', async () => {
    const s = await startTestServer(c, { API_KEYS: 'k-123' });
    try {
      const body = JSON.stringify(toolCall(1, 'list_databases', {}));
      const refused = await rawRequest(`${s.base}/mcp`, 'POST', MCP_HEADERS, body);
      expect(refused.status).toBe(401);
      await expect(connectMcp(`${s.base}/mcp`)).rejects.toThrow();
      const mcp = await connectMcp(`${s.base}/mcp`, { 'X-API-Key': 'k-123' });
      expect((await mcp.call('list_databases')).isError).toBeFalsy();
      await mcp.close();
    } finally {
      await s.close();
    }
  });

  it('rate limiting applies, one token per tool call of a JSON-RPC batch', async () => {
    const s = await startTestServer(c, { RATE_LIMIT_RPM: '5' });
    try {
      const batch = (n: number) =>
        JSON.stringify(Array.from({ length: n }, (_, i) => toolCall(i + 1, 'list_databases', {})));
      const two = await rawRequest(`${s.base}/mcp`, 'POST', MCP_HEADERS, batch(2));
      expect(two.status).toBe(200);
      expect(two.json).toHaveLength(2);
      expect(two.headers['ratelimit-remaining']).toBe('3');
      const four = await rawRequest(`${s.base}/mcp`, 'POST', MCP_HEADERS, batch(4));
      expect(four.status).toBe(429);
      expect(four.json.detail).toMatch(/costs 4 tokens/);
      expect(four.headers['retry-after']).toBeDefined();
    } finally {
      await s.close();
    }
  });
});
