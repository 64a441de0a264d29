import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/common/config-error.js';
import { loadWorkConfig } from '../../src/work/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadWorkConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('work configuration', () => {
  it('has working defaults with no variables at all (embedded PGlite under ./data/work)', () => {
    expect(loadWorkConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      basePath: '/dedalo/core/api/v1/json',
      logLevel: 'info',
      database: { engine: 'pglite', dataDir: resolve('data/work/pglite') },
      dataDir: resolve('data/work'),
      rootPassword: undefined,
      uploadMaxBytes: 100 * 1024 * 1024,
      trustProxy: [],
      uiPath: '/',
      sweepIntervalSeconds: 600,
      requestTimeoutMs: 15_000,
      http: {
        headersMs: 10_000,
        requestMs: 30_000,
        uploadMs: 3_600_000,
        idleMs: 60_000,
        keepAliveMs: 72_000,
      },
      metrics: { path: '/metrics' },
    });
  });

  it('reads the time limits (docs/timeouts-and-faults.md) and refuses inconsistent ones', () => {
    const config = loadWorkConfig({
      WORK_DB_URL: 'postgres://app@db.internal/work',
      WORK_REQUEST_TIMEOUT_MS: '8000',
      WORK_DB_LOCK_TIMEOUT_MS: '2000',
      WORK_DB_ACQUIRE_TIMEOUT_MS: '3000',
      WORK_HTTP_HEADERS_TIMEOUT_MS: '4000',
      WORK_HTTP_BODY_TIMEOUT_MS: '9000',
      WORK_HTTP_UPLOAD_TIMEOUT_MS: '600000',
      WORK_HTTP_IDLE_TIMEOUT_MS: '20000',
      WORK_HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000',
    });
    expect(config.requestTimeoutMs).toBe(8000);
    expect(config.database).toMatchObject({ timeouts: { statementMs: 8000, lockMs: 2000, acquireMs: 3000 } });
    expect(config.http).toEqual({
      headersMs: 4000,
      requestMs: 9000,
      uploadMs: 600_000,
      idleMs: 20_000,
      keepAliveMs: 5000,
    });
    expect(problemsOf({ WORK_REQUEST_TIMEOUT_MS: '0' })).toEqual([
      'WORK_REQUEST_TIMEOUT_MS must be between 100 and 600000, got 0',
    ]);
    expect(problemsOf({ WORK_HTTP_HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      'WORK_HTTP_HEADERS_TIMEOUT_MS must not be longer than WORK_HTTP_BODY_TIMEOUT_MS',
    ]);
    expect(problemsOf({ WORK_HTTP_UPLOAD_TIMEOUT_MS: '1000' })).toEqual([
      'WORK_HTTP_UPLOAD_TIMEOUT_MS must not be shorter than WORK_HTTP_BODY_TIMEOUT_MS',
    ]);
  });

  it('serves the web client at WORK_UI_PATH (no trailing slash), never over the API path', () => {
    expect(loadWorkConfig({ WORK_UI_PATH: '/ui/' }).uiPath).toBe('/ui');
    expect(loadWorkConfig({ WORK_SWEEP_INTERVAL_SECONDS: '0' }).sweepIntervalSeconds).toBe(0);
    expect(() => loadWorkConfig({ WORK_SWEEP_INTERVAL_SECONDS: '-1' })).toThrow(
      /WORK_SWEEP_INTERVAL_SECONDS/,
    );
    expect(problemsOf({ WORK_UI_PATH: 'ui' })).toEqual([
      'WORK_UI_PATH must be a path like / or /ui, got "ui"',
    ]);
    expect(problemsOf({ WORK_UI_PATH: '/dedalo/core/api/v1/json' })).toEqual([
      'WORK_UI_PATH must differ from WORK_BASE_PATH',
    ]);
  });

  it('reads TRUST_PROXY as a list of addresses and CIDRs, naming a bad item', () => {
    expect(loadWorkConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(problemsOf({ TRUST_PROXY: 'proxy.local' })).toEqual([
      'TRUST_PROXY item "proxy.local" is not an IP address or CIDR range (like 10.0.0.0/8 or fd00::/8)',
    ]);
  });

  it('uses PostgreSQL when WORK_DB_URL is set', () => {
    const config = loadWorkConfig({
      WORK_DB_URL: 'postgresql://app:secret@db.internal:5433/work',
      WORK_DB_POOL_MAX: '4',
    });
    expect(config.database).toEqual({
      engine: 'postgres',
      url: 'postgresql://app:secret@db.internal:5433/work',
      poolMax: 4,
      preparedStatements: true,
      timeouts: { statementMs: 15_000, lockMs: 5_000, acquireMs: 5_000 },
    });
    const pooled = loadWorkConfig({
      WORK_DB_URL: 'postgres://db/work',
      WORK_DB_PREPARED_STATEMENTS: 'false',
    });
    expect(pooled.database).toMatchObject({ engine: 'postgres', preparedStatements: false });
    expect(problemsOf({ WORK_DB_URL: 'postgres://db/work', WORK_DB_PREPARED_STATEMENTS: 'maybe' })).toEqual([
      expect.stringContaining('WORK_DB_PREPARED_STATEMENTS'),
    ]);
  });

  it('drops a trailing slash from WORK_BASE_PATH (the route answers both ways)', () => {
    expect(loadWorkConfig({ WORK_BASE_PATH: '/api/json/' }).basePath).toBe('/api/json');
  });

  it('names every invalid or empty variable, and never echoes a database password', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      HOST: '',
      WORK_BASE_PATH: 'no-slash',
      WORK_DB_URL: 'mysql://root:hunter2@db/x',
      UPLOAD_MAX_BYTES: '0',
      LOG_LEVEL: 'loud',
      DEDALO_ROOT_PASSWORD: 'short',
    });
    expect(problems).toEqual([
      'PORT must be an integer, got "eighty"',
      'HOST is set but empty',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      `UPLOAD_MAX_BYTES must be between 1 and ${2 ** 40}, got 0`,
    ]);
    const second = problemsOf({ WORK_BASE_PATH: 'no-slash', WORK_DB_URL: 'mysql://root:hunter2@db/x' });
    expect(second).toEqual([
      'WORK_BASE_PATH must be a path like /dedalo/core/api/v1/json, got "no-slash"',
      'WORK_DB_URL must be a URL like postgres://user:password@127.0.0.1:5432/dedalo_work',
    ]);
    expect(second.join()).not.toContain('hunter2');
    expect(problemsOf({ WORK_BASE_PATH: '/' })).toEqual(['WORK_BASE_PATH must not be the root path']);
  });

  it('refuses an empty or short DEDALO_ROOT_PASSWORD but keeps spaces in a good one', () => {
    expect(problemsOf({ DEDALO_ROOT_PASSWORD: '' })).toEqual([
      'DEDALO_ROOT_PASSWORD is set but empty (unset it to have a password generated)',
    ]);
    expect(problemsOf({ DEDALO_ROOT_PASSWORD: 'short' })).toEqual([
      'DEDALO_ROOT_PASSWORD must have at least 8 characters',
    ]);
    expect(loadWorkConfig({ DEDALO_ROOT_PASSWORD: ' spaced pass ' }).rootPassword).toBe(' spaced pass ');
  });
});
