/**
 * Every environment variable of the publication API, validated once at start. An invalid or
 * empty value is a ConfigError naming the variable; nothing falls back silently.
 * docs/configuration.md documents the same list (keep them together).
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { proxyEntryProblem } from '../common/client-address.js';
import { ConfigError } from '../common/config-error.js';
import {
  boolVar,
  type EnvShape,
  enumVar,
  intVar,
  listVar,
  parseEnv,
  rawVar,
  stringVar,
  stringVarOr,
} from '../common/env-schema.js';
import { type HttpTimeouts, httpTimeoutProblems } from '../common/http-timeouts.js';
import { metricsPathProblems, metricsPathVar, metricsTokenProblems } from '../common/metrics-config.js';
import type { MariadbOptions } from './db/mariadb-driver.js';
import { loadV1Config, type V1Config } from './v1/v1-config.js';

/** Where a MEDIA_DIR is served, under BASE_PATH (routes/media-routes.ts). */
export const MEDIA_PREFIX = '/media';

export const DB_NAME_PATTERN = /^[A-Za-z0-9_$-]{1,64}$/;

const envSchema = {
  PORT: intVar('PORT', 3100, 0, 65535),
  HOST: stringVarOr('HOST', '127.0.0.1'),
  BASE_PATH: stringVarOr('BASE_PATH', '/publication/server_api/v2'),
  LOG_LEVEL: enumVar('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  DB_DRIVER: enumVar('DB_DRIVER', ['mariadb', 'mysql', 'sqlite'] as const),
  DB_HOST: stringVar('DB_HOST'),
  DB_PORT: intVar('DB_PORT', 3306, 1, 65535),
  DB_USER: stringVar('DB_USER'),
  DB_PASSWORD: rawVar(), // may legitimately be empty
  DB_SOCKET: stringVar('DB_SOCKET'),
  DB_NAMES: listVar('DB_NAMES'),
  DB_POOL_MAX: intVar('DB_POOL_MAX', 10, 1, 1000),
  DB_SQLITE_DIR: stringVarOr('DB_SQLITE_DIR', './data/publication'),
  DB_SQLITE_WORKERS: intVar('DB_SQLITE_WORKERS', Math.min(4, Math.max(2, availableParallelism())), 1, 64),
  // better-sqlite3 builds SQLite with a 16 MB page cache per connection, and each worker holds
  // one per database: 8 MB halved that memory with no measurable cost (docs/benchmarks.md).
  DB_SQLITE_CACHE_MB: intVar('DB_SQLITE_CACHE_MB', 8, 1, 4096),
  MEDIA_BASE_URL: stringVarOr('MEDIA_BASE_URL', ''),
  MEDIA_DIR: stringVar('MEDIA_DIR'),
  API_KEYS: rawVar(),
  CORS_ORIGIN: stringVar('CORS_ORIGIN'),
  RATE_LIMIT_RPM: intVar('RATE_LIMIT_RPM', 100, 1, 1_000_000),
  RATE_LIMIT_REDIS_URL: stringVar('RATE_LIMIT_REDIS_URL'),
  TRUST_PROXY: listVar('TRUST_PROXY'),
  CACHE_MAX_AGE: intVar('CACHE_MAX_AGE', 60, 0, 31_536_000),
  REQUEST_TIMEOUT_MS: intVar('REQUEST_TIMEOUT_MS', 15_000, 100, 600_000),
  HTTP_HEADERS_TIMEOUT_MS: intVar('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
  HTTP_BODY_TIMEOUT_MS: intVar('HTTP_BODY_TIMEOUT_MS', 30_000, 100, 3_600_000),
  HTTP_IDLE_TIMEOUT_MS: intVar('HTTP_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: intVar('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
  REQUEST_MAX_STATEMENTS: intVar('REQUEST_MAX_STATEMENTS', 500, 1, 100_000),
  SEARCH_MAX_CANDIDATES: intVar('SEARCH_MAX_CANDIDATES', 1000, 1, 1_000_000),
  EXPORT_MAX_ROWS: intVar('EXPORT_MAX_ROWS', 1_000_000, 1, 100_000_000),
  DEPLOYMENT_MODE: enumVar('DEPLOYMENT_MODE', ['standalone', 'apache', 'nginx'] as const),
  MCP_ENABLED: boolVar('MCP_ENABLED', true),
  MCP_PATH: stringVarOr('MCP_PATH', '/mcp'),
  METRICS_PATH: metricsPathVar('/metrics'),
  METRICS_TOKEN: stringVar('METRICS_TOKEN'),
  AV_TABLE: stringVarOr('AV_TABLE', 'interview'),
  AV_TRANSCRIPTION_COLUMN: stringVarOr('AV_TRANSCRIPTION_COLUMN', 'transcription'),
  AV_MEDIA_TABLE: stringVarOr('AV_MEDIA_TABLE', 'audiovisual'),
  AV_MEDIA_RELATION_COLUMN: stringVarOr('AV_MEDIA_RELATION_COLUMN', 'audiovisual'),
  AV_VIDEO_COLUMN: stringVarOr('AV_VIDEO_COLUMN', 'video'),
  AV_IMAGE_COLUMN: stringVarOr('AV_IMAGE_COLUMN', 'image'),
  AV_SPEAKER_TABLE: stringVarOr('AV_SPEAKER_TABLE', 'informant'),
  AV_SPEAKER_RELATION_COLUMN: stringVarOr('AV_SPEAKER_RELATION_COLUMN', 'informant'),
} satisfies EnvShape;

export type DbDriverName = 'mariadb' | 'sqlite';

export interface PublicationConfig {
  port: number;
  host: string;
  basePath: string;
  logLevel: string;
  driver: DbDriverName;
  dbNames: string[];
  mariadb: MariadbOptions;
  /** cacheMb: SQLite's page cache per connection (each worker has one per database). */
  sqlite: { dir: string; workers: number; cacheMb: number };
  mediaBaseUrl: string;
  /** MEDIA_DIR: a folder of media files this server serves read-only under {BASE_PATH}/media/. */
  mediaDir?: string;
  apiKeys: string[];
  /** CORS_ORIGIN: `*`, or the allowed origins in their serialised form; absent: no CORS. */
  corsOrigin?: '*' | string[];
  rateLimitRpm: number;
  /** Where rate-limit buckets are shared between instances; absent: this process's memory. */
  rateLimitRedisUrl?: string;
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDRs); empty: the socket peer is the client. */
  trustProxy: string[];
  cacheMaxAge: number;
  requestTimeoutMs: number;
  /** How long the server waits for a client's headers, whole request, traffic and next request. */
  http: HttpTimeouts;
  /** Database statements one request (a whole batch included) may run. */
  requestMaxStatements: number;
  /** Full-text search serves and counts at most this many best-ranked matching rows. */
  searchMaxCandidates: number;
  /** Rows a CSV/NDJSON export without `limit` sends at most. */
  exportMaxRows: number;
  deploymentMode: 'standalone' | 'apache' | 'nginx';
  mcpEnabled: boolean;
  mcpPath: string;
  /**
   * The Prometheus endpoint (common/metrics.ts): `path` outside BASE_PATH, undefined when
   * METRICS_PATH is empty (off); `token`: the bearer token scrapes must send, when set.
   */
  metrics: { path?: string; token?: string };
  /** Where the audiovisual routes find transcriptions, media and speakers (conventions file). */
  av: {
    /** Default table of av-indexation-fragment when section_tipo does not name one. */
    table: string;
    transcriptionColumn: string;
    mediaTable: string;
    mediaRelationColumn: string;
    videoColumn: string;
    imageColumn: string;
    speakerTable: string;
    speakerRelationColumn: string;
  };
  /** The legacy v1 API (v1/); absent when V1_API_CODE is not set. */
  v1?: V1Config;
}

/** The default proxies of the reverse-proxy modes: a proxy on the same host. */
const LOCAL_PROXIES = ['127.0.0.1', '::1'];

/** CORS_ORIGIN: `*`, or comma-separated origins (scheme://host[:port]), each normalised. */
function parseCorsOrigin(value: string | undefined, problems: string[]): '*' | string[] | undefined {
  if (value === undefined) return undefined;
  if (value === '*') return '*';
  const origins: string[] = [];
  for (const item of value.split(',').map((o) => o.trim())) {
    let url: URL | undefined;
    try {
      url = new URL(item);
    } catch {
      url = undefined;
    }
    const bare = url !== undefined && url.pathname === '/' && !url.search && !url.hash && !url.username;
    if (!url || !/^https?:$/.test(url.protocol) || !bare) {
      problems.push(
        `CORS_ORIGIN must be *, or origins like https://example.org separated by commas, got "${item}"`,
      );
    } else origins.push(url.origin);
  }
  return origins;
}

function normalizePath(name: string, value: string, problems: string[]): string {
  if (value === '/') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(value) || value.includes('//')) {
    problems.push(`${name} must be a path like /publication/server_api/v2, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

/** Reads and validates the configuration; throws ConfigError listing every problem. */
export function loadPublicationConfig(
  env: Record<string, string | undefined> = process.env,
): PublicationConfig {
  const e = parseEnv(envSchema, env);
  const problems: string[] = [];
  const driver: DbDriverName = e.DB_DRIVER
    ? e.DB_DRIVER === 'sqlite'
      ? 'sqlite'
      : 'mariadb'
    : e.DB_HOST || e.DB_SOCKET
      ? 'mariadb'
      : 'sqlite';
  const basePath = normalizePath('BASE_PATH', e.BASE_PATH, problems);
  const mcpPath = normalizePath('MCP_PATH', e.MCP_PATH, problems);
  if (mcpPath === '') problems.push('MCP_PATH must not be the root path');
  const dbNames = e.DB_NAMES ?? [];
  for (const name of dbNames) {
    if (!DB_NAME_PATTERN.test(name)) problems.push(`DB_NAMES item "${name}" is not a valid database name`);
  }
  if (new Set(dbNames).size !== dbNames.length) problems.push('DB_NAMES lists a database twice');
  if (driver === 'mariadb' && dbNames.length === 0) {
    problems.push('DB_NAMES is required with the mariadb driver (comma-separated list of public databases)');
  }
  if (e.MEDIA_BASE_URL && !/^(https?:\/\/|\/)/.test(e.MEDIA_BASE_URL)) {
    problems.push(`MEDIA_BASE_URL must start with http://, https:// or /, got "${e.MEDIA_BASE_URL}"`);
  }
  const apiKeys =
    e.API_KEYS === undefined
      ? []
      : e.API_KEYS.split(',')
          .map((k) => k.trim())
          .filter((k) => k !== '');
  const trustProxy =
    e.TRUST_PROXY ?? (e.DEPLOYMENT_MODE && e.DEPLOYMENT_MODE !== 'standalone' ? LOCAL_PROXIES : []);
  for (const entry of e.TRUST_PROXY ?? []) {
    const problem = proxyEntryProblem(entry);
    if (problem) problems.push(`TRUST_PROXY item ${problem}`);
  }
  if (e.RATE_LIMIT_REDIS_URL && !/^rediss?:\/\/[^/?#]/.test(e.RATE_LIMIT_REDIS_URL)) {
    problems.push(
      'RATE_LIMIT_REDIS_URL must be a URL like redis://127.0.0.1:6379 or rediss://user:pass@host:6380/0',
    );
  }
  const corsOrigin = parseCorsOrigin(e.CORS_ORIGIN, problems);
  for (const key of Object.keys(e).filter((k) => k.startsWith('AV_'))) {
    const value = e[key as keyof typeof e] as string;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
      problems.push(`${key} must be a table or column name, got "${value}"`);
  }
  const v1 = loadV1Config(env, problems);
  problems.push(
    ...metricsPathProblems('METRICS_PATH', e.METRICS_PATH, [
      { name: 'BASE_PATH', path: basePath },
      ...(v1 ? [{ name: 'V1_BASE_PATH', path: v1.basePath }] : []),
    ]),
    ...metricsTokenProblems('METRICS_TOKEN', e.METRICS_TOKEN),
  );
  if (v1?.defaultDb && dbNames.length > 0 && !dbNames.includes(v1.defaultDb)) {
    problems.push(`V1_DEFAULT_DB "${v1.defaultDb}" is not one of DB_NAMES`);
  }
  const http: HttpTimeouts = {
    headersMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: e.HTTP_BODY_TIMEOUT_MS,
    idleMs: e.HTTP_IDLE_TIMEOUT_MS,
    keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  };
  problems.push(
    ...httpTimeoutProblems(http, {
      headersMs: 'HTTP_HEADERS_TIMEOUT_MS',
      requestMs: 'HTTP_BODY_TIMEOUT_MS',
      idleMs: 'HTTP_IDLE_TIMEOUT_MS',
      keepAliveMs: 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    }),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port: e.PORT,
    host: e.HOST,
    basePath,
    logLevel: e.LOG_LEVEL ?? 'info',
    driver,
    dbNames,
    mariadb: {
      host: e.DB_HOST ?? (e.DB_SOCKET ? undefined : '127.0.0.1'),
      port: e.DB_PORT,
      user: e.DB_USER,
      password: e.DB_PASSWORD,
      socketPath: e.DB_SOCKET,
      poolMax: e.DB_POOL_MAX,
    },
    sqlite: { dir: resolve(e.DB_SQLITE_DIR), workers: e.DB_SQLITE_WORKERS, cacheMb: e.DB_SQLITE_CACHE_MB },
    // A served MEDIA_DIR is where relative media paths point unless MEDIA_BASE_URL says otherwise.
    mediaBaseUrl: (e.MEDIA_BASE_URL || (e.MEDIA_DIR ? `${basePath}${MEDIA_PREFIX}` : '')).replace(/\/+$/, ''),
    mediaDir: e.MEDIA_DIR ? resolve(e.MEDIA_DIR) : undefined,
    apiKeys,
    corsOrigin,
    rateLimitRpm: e.RATE_LIMIT_RPM,
    rateLimitRedisUrl: e.RATE_LIMIT_REDIS_URL,
    trustProxy,
    cacheMaxAge: e.CACHE_MAX_AGE,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    http,
    requestMaxStatements: e.REQUEST_MAX_STATEMENTS,
    searchMaxCandidates: e.SEARCH_MAX_CANDIDATES,
    exportMaxRows: e.EXPORT_MAX_ROWS,
    deploymentMode: e.DEPLOYMENT_MODE ?? 'standalone',
    mcpEnabled: e.MCP_ENABLED,
    mcpPath,
    metrics: {
      ...(e.METRICS_PATH !== undefined ? { path: e.METRICS_PATH } : {}),
      ...(e.METRICS_TOKEN !== undefined ? { token: e.METRICS_TOKEN } : {}),
    },
    av: {
      table: e.AV_TABLE,
      transcriptionColumn: e.AV_TRANSCRIPTION_COLUMN,
      mediaTable: e.AV_MEDIA_TABLE,
      mediaRelationColumn: e.AV_MEDIA_RELATION_COLUMN,
      videoColumn: e.AV_VIDEO_COLUMN,
      imageColumn: e.AV_IMAGE_COLUMN,
      speakerTable: e.AV_SPEAKER_TABLE,
      speakerRelationColumn: e.AV_SPEAKER_RELATION_COLUMN,
    },
    v1,
  };
}
