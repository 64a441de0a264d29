import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/common/config-error.js';
import { loadEnvFile } from '../../src/common/env-file.js';
import { loadPublicationConfig } from '../../src/publication/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadPublicationConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('publication configuration', () => {
  it('has working defaults with no variables at all (embedded SQLite)', () => {
    const config = loadPublicationConfig({});
    expect(config).toMatchObject({
      port: 3100,
      host: '127.0.0.1',
      basePath: '/publication/server_api/v2',
      driver: 'sqlite',
      rateLimitRpm: 100,
      mcpEnabled: true,
      mcpPath: '/mcp',
      deploymentMode: 'standalone',
    });
  });

  it('reads the HTTP time-outs (docs/timeouts-and-faults.md) and refuses a header limit past the body limit', () => {
    expect(loadPublicationConfig({}).http).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      idleMs: 60_000,
      keepAliveMs: 72_000,
    });
    expect(
      loadPublicationConfig({
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_BODY_TIMEOUT_MS: '5000',
        HTTP_IDLE_TIMEOUT_MS: '9000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '4000',
      }).http,
    ).toEqual({ headersMs: 2000, requestMs: 5000, idleMs: 9000, keepAliveMs: 4000 });
    expect(problemsOf({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_BODY_TIMEOUT_MS',
    ]);
    expect(problemsOf({ HTTP_IDLE_TIMEOUT_MS: '0' })).toEqual([
      'HTTP_IDLE_TIMEOUT_MS must be between 100 and 3600000, got 0',
    ]);
  });

  it('chooses mariadb when DB_HOST is set, and accepts mysql as its alias', () => {
    expect(loadPublicationConfig({ DB_HOST: 'db', DB_NAMES: 'a' }).driver).toBe('mariadb');
    expect(loadPublicationConfig({ DB_DRIVER: 'mysql', DB_NAMES: 'a' }).driver).toBe('mariadb');
    expect(loadPublicationConfig({ DB_DRIVER: 'sqlite', DB_HOST: 'db' }).driver).toBe('sqlite');
  });

  it('names the variable of every invalid or empty value instead of defaulting to 0', () => {
    const problems = problemsOf({
      PORT: 'abc',
      DB_POOL_MAX: '',
      RATE_LIMIT_RPM: '0',
      MCP_ENABLED: 'maybe',
      DB_DRIVER: 'oracle',
    });
    expect(problems.join('\n')).toMatch(/PORT must be an integer/);
    expect(problems.join('\n')).toMatch(/DB_POOL_MAX is set but empty/);
    expect(problems.join('\n')).toMatch(/RATE_LIMIT_RPM must be between 1/);
    expect(problems.join('\n')).toMatch(/MCP_ENABLED must be true or false/);
    expect(problems.join('\n')).toMatch(/DB_DRIVER must be one of/);
  });

  it('requires DB_NAMES for MariaDB and validates its items', () => {
    expect(problemsOf({ DB_DRIVER: 'mariadb' }).join()).toMatch(/DB_NAMES is required/);
    expect(problemsOf({ DB_DRIVER: 'mariadb', DB_NAMES: 'a,,b' }).join()).toMatch(/empty item/);
    expect(problemsOf({ DB_DRIVER: 'mariadb', DB_NAMES: 'a;drop' }).join()).toMatch(
      /not a valid database name/,
    );
    expect(loadPublicationConfig({ DB_DRIVER: 'mariadb', DB_NAMES: ' a , b ' }).dbNames).toEqual(['a', 'b']);
  });

  it('normalises BASE_PATH and refuses malformed ones', () => {
    expect(loadPublicationConfig({ BASE_PATH: '/api/' }).basePath).toBe('/api');
    expect(loadPublicationConfig({ BASE_PATH: '/' }).basePath).toBe('');
    expect(problemsOf({ BASE_PATH: 'api' }).join()).toMatch(/BASE_PATH must be a path/);
  });

  it('splits API_KEYS on commas and ignores surrounding spaces', () => {
    expect(loadPublicationConfig({ API_KEYS: ' k1 , k2 ' }).apiKeys).toEqual(['k1', 'k2']);
    expect(loadPublicationConfig({ API_KEYS: '' }).apiKeys).toEqual([]);
  });

  it('reads a .env file without overriding the real environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'envfile-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'PUBTEST_FROM_FILE=file\nPUBTEST_BOTH=file\n');
    process.env.PUBTEST_BOTH = 'real';
    expect(loadEnvFile(file)).toBe(true);
    expect(process.env.PUBTEST_FROM_FILE).toBe('file');
    expect(process.env.PUBTEST_BOTH).toBe('real');
    expect(loadEnvFile(join(dir, 'missing.env'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
