/**
 * Starts the real work server on a free port against a fresh database of one engine, and gives
 * tests a small client that posts raw bodies and reads the envelope.
 */
import { loadWorkConfig } from '../../src/work/config.js';
import { type RunningWorkServer, startWorkServer } from '../../src/work/server.js';
import type { FreshDatabase, WorkEngineCase } from './work-engines.js';

export interface WorkAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the envelope holds
  body: any;
}

export interface WorkServerHandle {
  server: RunningWorkServer;
  /** POSTs `body` (an object is JSON-encoded, a string is sent as is) to the base URL + `path`. */
  post(body: unknown, init?: { path?: string; contentType?: string }): Promise<WorkAnswer>;
  stop(): Promise<void>;
}

export async function startTestWorkServer(
  engine: WorkEngineCase,
  env: Record<string, string> = {},
): Promise<WorkServerHandle> {
  const fresh: FreshDatabase = await engine.freshDatabase();
  const config = loadWorkConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    DEDALO_ROOT_PASSWORD: 'test root password',
    ...fresh.env,
    ...env,
  });
  const server = await startWorkServer(config);
  return {
    server,
    post: async (body, init = {}) => {
      const res = await fetch(`${server.url}${init.path ?? ''}`, {
        method: 'POST',
        headers: { 'content-type': init.contentType ?? 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: JSON.parse(text) };
    },
    stop: async () => {
      await server.close();
      await fresh.dispose();
    },
  };
}
