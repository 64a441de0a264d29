/**
 * What the legacy v1 API suites share: the v1 path, a caller of its JSON actions with the
 * access code, and the usual fixture of one engine (a server with V1_API_CODE set and a direct
 * connection to the same database, to check answers against).
 */
import {
  type DirectDb,
  type EngineCase,
  type HttpResult,
  rawRequest,
  startTestServer,
  type TestServer,
} from './publication-server.js';

export const V1 = '/publication/server_api/v1';

/** GETs the v1 JSON `action` of `server` with `params`, and the access `code` unless withCode is false. */
export function v1Get(
  server: TestServer,
  code: string,
  action: string,
  params: Record<string, string> = {},
  withCode = true,
): Promise<HttpResult> {
  const q = new URLSearchParams(withCode ? { code, ...params } : params);
  return rawRequest(`${new URL(server.base).origin}${V1}/json/${action}?${q}`);
}

export interface V1Fixture {
  server: TestServer;
  direct: DirectDb;
  /** The server's origin (scheme, host and port). */
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts a server on `c` with V1_API_CODE `code` (and `env`), and opens a direct connection
 * (or takes the one given, for a suite that reads the database before the server starts).
 */
export async function openV1Fixture(
  c: EngineCase,
  code: string,
  env: Record<string, string> = {},
  direct?: DirectDb,
): Promise<V1Fixture> {
  const db = direct ?? (await c.openDirect());
  const server = await startTestServer(c, { V1_API_CODE: code, ...env });
  return {
    server,
    direct: db,
    origin: new URL(server.base).origin,
    close: async () => {
      await server.close();
      await db.close();
    },
  };
}
