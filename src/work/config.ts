/**
 * Every environment variable of the work API, validated once at start. An invalid or empty value
 * is a ConfigError naming the variable; nothing falls back silently. docs/configuration.md
 * lists the same variables (keep them together).
 */
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

/** The root password must survive a casual guess; the generated one is much longer. */
export const ROOT_PASSWORD_MIN_LENGTH = 8;

const envSchema = {
  PORT: intVar('PORT', 3000, 0, 65535),
  HOST: stringVarOr('HOST', '127.0.0.1'),
  WORK_BASE_PATH: stringVarOr('WORK_BASE_PATH', '/dedalo/core/api/v1/json'),
  LOG_LEVEL: enumVar('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  WORK_DB_URL: stringVar('WORK_DB_URL'),
  WORK_DB_POOL_MAX: intVar('WORK_DB_POOL_MAX', 10, 1, 1000),
  WORK_DB_PREPARED_STATEMENTS: boolVar('WORK_DB_PREPARED_STATEMENTS', true),
  WORK_DATA_DIR: stringVarOr('WORK_DATA_DIR', './data/work'),
  // Not trimmed: leading or trailing spaces may be part of a password.
  DEDALO_ROOT_PASSWORD: rawVar(),
  UPLOAD_MAX_BYTES: intVar('UPLOAD_MAX_BYTES', 100 * 1024 * 1024, 1, 2 ** 40),
  TRUST_PROXY: listVar('TRUST_PROXY'),
  WORK_UI_PATH: stringVarOr('WORK_UI_PATH', '/'),
  WORK_SWEEP_INTERVAL_SECONDS: intVar('WORK_SWEEP_INTERVAL_SECONDS', 600, 0, 7 * 24 * 3600),
  WORK_DEVICE_COOKIE_SECRET: stringVar('WORK_DEVICE_COOKIE_SECRET'),
  WORK_METRICS_PATH: metricsPathVar('/metrics'),
  WORK_METRICS_TOKEN: stringVar('WORK_METRICS_TOKEN'),
  // Time limits (docs/timeouts-and-faults.md).
  WORK_REQUEST_TIMEOUT_MS: intVar('WORK_REQUEST_TIMEOUT_MS', 15_000, 100, 600_000),
  WORK_DB_LOCK_TIMEOUT_MS: intVar('WORK_DB_LOCK_TIMEOUT_MS', 5_000, 1, 600_000),
  WORK_DB_ACQUIRE_TIMEOUT_MS: intVar('WORK_DB_ACQUIRE_TIMEOUT_MS', 5_000, 100, 600_000),
  WORK_HTTP_HEADERS_TIMEOUT_MS: intVar('WORK_HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
  WORK_HTTP_BODY_TIMEOUT_MS: intVar('WORK_HTTP_BODY_TIMEOUT_MS', 30_000, 100, 3_600_000),
  WORK_HTTP_UPLOAD_TIMEOUT_MS: intVar('WORK_HTTP_UPLOAD_TIMEOUT_MS', 3_600_000, 100, 24 * 3_600_000),
  WORK_HTTP_IDLE_TIMEOUT_MS: intVar('WORK_HTTP_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
  WORK_HTTP_KEEP_ALIVE_TIMEOUT_MS: intVar('WORK_HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
} satisfies EnvShape;

/** The device cookie's HMAC key, when given, must be at least this long (32 random bytes in hex). */
export const DEVICE_COOKIE_SECRET_MIN_LENGTH = 32;

/** PostgreSQL session and pool limits (store/pg-client.ts); absent: the defaults above. */
export interface PgTimeouts {
  /** statement_timeout, and the client-side limit of one statement: WORK_REQUEST_TIMEOUT_MS. */
  statementMs: number;
  /** lock_timeout: WORK_DB_LOCK_TIMEOUT_MS. */
  lockMs: number;
  /** Waiting for a pool connection, or for a new one to connect: WORK_DB_ACQUIRE_TIMEOUT_MS. */
  acquireMs: number;
}

/** The work server's HTTP time-outs; `uploadMs` is the whole-request limit of a multipart upload. */
export interface WorkHttpTimeouts extends HttpTimeouts {
  uploadMs: number;
}

export type WorkDatabase =
  | {
      engine: 'postgres';
      url: string;
      poolMax: number;
      timeouts?: PgTimeouts;
      /** Statements prepared once per connection (default); off behind a pooler that cannot keep them. */
      preparedStatements?: boolean;
    }
  | { engine: 'pglite'; dataDir: string };

export interface WorkConfig {
  port: number;
  host: string;
  /** WORK_BASE_PATH without a trailing slash; the route answers with and without one. */
  basePath: string;
  logLevel: string;
  /** WORK_DB_URL given: that PostgreSQL server; absent: an embedded PGlite under WORK_DATA_DIR. */
  database: WorkDatabase;
  /** Absolute; holds the embedded database (`pglite/`) and, later, staged uploads. */
  dataDir: string;
  /** Used only when the database is bootstrapped; absent: a generated password is printed once. */
  rootPassword?: string;
  uploadMaxBytes: number;
  /**
   * Proxies (addresses or CIDRs) whose X-Forwarded-For and X-Forwarded-Proto are believed: the
   * client address (login throttling, logs) and TLS detection (the cookie's Secure flag).
   */
  trustProxy: string[];
  /** Where the cataloguing web client is served (`/` by default; never the API's path). */
  uiPath: string;
  /** How often the sweep (maintenance/sweep.ts) runs; 0: only when asked from the widget. */
  sweepIntervalSeconds: number;
  /**
   * The HMAC key of the device cookie (auth/device-cookie.ts); absent: one generated at the first
   * start and kept in the database, so restarts and every instance on it agree.
   */
  deviceCookieSecret?: string;
  /** Every RQO request is answered within this (WORK_REQUEST_TIMEOUT_MS): db.timeout past it. */
  requestTimeoutMs: number;
  http: WorkHttpTimeouts;
  /**
   * The Prometheus endpoint (common/metrics.ts): `path` outside WORK_BASE_PATH, undefined when
   * WORK_METRICS_PATH is empty (off); `token`: the bearer token scrapes must send, when set.
   */
  metrics: { path?: string; token?: string };
}

function normalizeBasePath(value: string, problems: string[]): string {
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(value) || value.includes('//')) {
    problems.push(`WORK_BASE_PATH must be a path like /dedalo/core/api/v1/json, got "${value}"`);
  }
  const trimmed = value.replace(/\/+$/, '');
  if (trimmed === '') problems.push('WORK_BASE_PATH must not be the root path');
  return trimmed;
}

/** `/` or a path like `/ui` (kept without a trailing slash); it may not hide the API's path. */
function normalizeUiPath(value: string, basePath: string, problems: string[]): string {
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(value) || value.includes('//')) {
    problems.push(`WORK_UI_PATH must be a path like / or /ui, got "${value}"`);
  }
  const trimmed = value.replace(/\/+$/, '') || '/';
  if (trimmed === basePath) problems.push('WORK_UI_PATH must differ from WORK_BASE_PATH');
  return trimmed;
}

/** Accepts postgres:// and postgresql:// URLs with a host; the credentials are never echoed. */
function checkDbUrl(value: string, problems: string[]): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^postgres(ql)?:$/.test(url.protocol) || url.hostname === '') {
    problems.push('WORK_DB_URL must be a URL like postgres://user:password@127.0.0.1:5432/dedalo_work');
  }
}

/** Reads and validates the configuration; throws ConfigError listing every problem. */
export function loadWorkConfig(env: Record<string, string | undefined> = process.env): WorkConfig {
  const e = parseEnv(envSchema, env);
  const problems: string[] = [];
  const basePath = normalizeBasePath(e.WORK_BASE_PATH, problems);
  const uiPath = normalizeUiPath(e.WORK_UI_PATH, basePath, problems);
  if (e.WORK_DB_URL !== undefined) checkDbUrl(e.WORK_DB_URL, problems);
  const rootPassword = e.DEDALO_ROOT_PASSWORD;
  if (rootPassword !== undefined && rootPassword.length < ROOT_PASSWORD_MIN_LENGTH) {
    problems.push(
      rootPassword === ''
        ? 'DEDALO_ROOT_PASSWORD is set but empty (unset it to have a password generated)'
        : `DEDALO_ROOT_PASSWORD must have at least ${ROOT_PASSWORD_MIN_LENGTH} characters`,
    );
  }
  for (const entry of e.TRUST_PROXY ?? []) {
    const problem = proxyEntryProblem(entry);
    if (problem) problems.push(`TRUST_PROXY item ${problem}`);
  }
  const deviceSecret = e.WORK_DEVICE_COOKIE_SECRET;
  if (deviceSecret !== undefined && deviceSecret.length < DEVICE_COOKIE_SECRET_MIN_LENGTH) {
    problems.push(
      `WORK_DEVICE_COOKIE_SECRET must have at least ${DEVICE_COOKIE_SECRET_MIN_LENGTH} characters (for example \`openssl rand -hex 32\`), or be unset to have one generated and kept in the database`,
    );
  }
  problems.push(
    ...metricsPathProblems('WORK_METRICS_PATH', e.WORK_METRICS_PATH, [
      { name: 'WORK_BASE_PATH', path: basePath },
      { name: 'WORK_UI_PATH', path: uiPath },
    ]),
    ...metricsTokenProblems('WORK_METRICS_TOKEN', e.WORK_METRICS_TOKEN),
  );
  if (e.WORK_METRICS_PATH !== undefined && e.WORK_METRICS_PATH === uiPath) {
    problems.push('WORK_METRICS_PATH must differ from WORK_UI_PATH');
  }
  const http: WorkHttpTimeouts = {
    headersMs: e.WORK_HTTP_HEADERS_TIMEOUT_MS,
    requestMs: e.WORK_HTTP_BODY_TIMEOUT_MS,
    uploadMs: e.WORK_HTTP_UPLOAD_TIMEOUT_MS,
    idleMs: e.WORK_HTTP_IDLE_TIMEOUT_MS,
    keepAliveMs: e.WORK_HTTP_KEEP_ALIVE_TIMEOUT_MS,
  };
  problems.push(
    ...httpTimeoutProblems(http, {
      headersMs: 'WORK_HTTP_HEADERS_TIMEOUT_MS',
      requestMs: 'WORK_HTTP_BODY_TIMEOUT_MS',
      idleMs: 'WORK_HTTP_IDLE_TIMEOUT_MS',
      keepAliveMs: 'WORK_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    }),
  );
  if (http.uploadMs < http.requestMs) {
    problems.push('WORK_HTTP_UPLOAD_TIMEOUT_MS must not be shorter than WORK_HTTP_BODY_TIMEOUT_MS');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const dataDir = resolve(e.WORK_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    basePath,
    logLevel: e.LOG_LEVEL ?? 'info',
    database:
      e.WORK_DB_URL !== undefined
        ? {
            engine: 'postgres',
            url: e.WORK_DB_URL,
            poolMax: e.WORK_DB_POOL_MAX,
            preparedStatements: e.WORK_DB_PREPARED_STATEMENTS,
            timeouts: {
              statementMs: e.WORK_REQUEST_TIMEOUT_MS,
              lockMs: e.WORK_DB_LOCK_TIMEOUT_MS,
              acquireMs: e.WORK_DB_ACQUIRE_TIMEOUT_MS,
            },
          }
        : { engine: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    dataDir,
    rootPassword,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    trustProxy: e.TRUST_PROXY ?? [],
    uiPath,
    sweepIntervalSeconds: e.WORK_SWEEP_INTERVAL_SECONDS,
    ...(deviceSecret !== undefined ? { deviceCookieSecret: deviceSecret } : {}),
    requestTimeoutMs: e.WORK_REQUEST_TIMEOUT_MS,
    http,
    metrics: {
      ...(e.WORK_METRICS_PATH !== undefined ? { path: e.WORK_METRICS_PATH } : {}),
      ...(e.WORK_METRICS_TOKEN !== undefined ? { token: e.WORK_METRICS_TOKEN } : {}),
    },
  };
}
