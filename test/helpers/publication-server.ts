/**
 * Starts the real publication server on a free port against one engine's test archive, and
 * gives tests a plain HTTP client plus a direct connection to the same database (the reference
 * the API's answers are checked against).
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { inject } from 'vitest';
import { loadPublicationConfig } from '../../src/publication/config.js';
import {
  type RunningServer,
  type StartOptions,
  startPublicationServer,
} from '../../src/publication/server.js';
import { FIXTURE_DB } from './global-setup.js';
import { MARIADB } from './mariadb-availability.js';

export type EngineName = 'sqlite' | 'mariadb';

export interface DirectDb {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Quotes an identifier the engine's way, for reference SQL written in tests. */
  q(identifier: string): string;
  close(): Promise<void>;
}

export interface EngineCase {
  engine: EngineName;
  db: string;
  env: Record<string, string>;
  openDirect(): Promise<DirectDb>;
}

/** The engines this run covers: SQLite always, MariaDB when global setup could build it. */
export function engineCases(): EngineCase[] {
  const cases: EngineCase[] = [];
  const dir = inject('sqliteDir');
  cases.push({
    engine: 'sqlite',
    db: FIXTURE_DB,
    env: { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: dir, DB_NAMES: FIXTURE_DB },
    openDirect: async () => {
      const conn = new Database(join(dir, `${FIXTURE_DB}.sqlite`), { readonly: true });
      return {
        query: async <T>(sql: string, params: unknown[] = []) => conn.prepare(sql).all(...params) as T[],
        q: (id) => `"${id}"`,
        close: async () => {
          conn.close();
        },
      };
    },
  });
  const mariadbDb = inject('mariadbDb');
  if (mariadbDb) {
    cases.push({
      engine: 'mariadb',
      db: mariadbDb,
      env: {
        DB_DRIVER: 'mariadb',
        DB_HOST: MARIADB.host,
        DB_PORT: String(MARIADB.port),
        DB_USER: MARIADB.user,
        DB_PASSWORD: MARIADB.password,
        DB_NAMES: mariadbDb,
      },
      openDirect: async () => {
        const conn = await mysql.createConnection({ ...MARIADB, database: mariadbDb, dateStrings: true });
        return {
          query: async <T>(sql: string, params: unknown[] = []) => (await conn.query(sql, params))[0] as T[],
          q: (id) => `\`${id}\``,
          close: () => conn.end(),
        };
      },
    });
  }
  return cases;
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience for asserting on arbitrary JSON
  json: any;
}

export interface TestServer {
  server: RunningServer;
  /** The server's base URL, BASE_PATH included. */
  base: string;
  get(path: string, headers?: Record<string, string>): Promise<HttpResult>;
  request(method: string, path: string, headers?: Record<string, string>, body?: string): Promise<HttpResult>;
  close(): Promise<void>;
}

/** A raw HTTP request: no automatic decompression, so compression itself can be observed. */
export function rawRequest(
  url: string,
  method = 'GET',
  headers: Record<string, string> = {},
  body?: string,
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        const text = buf.toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buf, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export async function startTestServer(
  c: EngineCase,
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestServer> {
  // Suites send far more than 100 requests a minute from one address; the rate-limit suites set
  // their own RATE_LIMIT_RPM.
  const config = loadPublicationConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_RPM: '1000000',
    ...c.env,
    ...extraEnv,
  });
  const server = await startPublicationServer(config, options);
  const origin = server.url.slice(0, server.url.length - config.basePath.length);
  return {
    server,
    base: server.url,
    get: (path, headers) => rawRequest(`${server.url}${path}`, 'GET', headers),
    request: (method, path, headers, body) =>
      rawRequest(`${origin}${path.startsWith('/') ? '' : '/'}${path}`, method, headers, body),
    close: () => server.close(),
  };
}
