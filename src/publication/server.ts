/**
 * Starts a publication server from a configuration: engine, schema cache, app, listen. Used by
 * main.ts, the demo launcher, the tests and the benchmarks alike, so they all run the same thing.
 */
import type { FastifyInstance } from 'fastify';
import { buildPublicationApp } from './app.js';
import type { PublicationConfig } from './config.js';
import { createDriver, resolveSqliteNames } from './db/create-driver.js';
import { SchemaCache } from './db/schema-cache.js';
import { BudgetedDriver } from './db/statement-budget.js';
import type { Driver } from './db/types.js';
import { IndexationCache } from './services/thesaurus-terms.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /**
   * Drops the cached schemas and thesaurus indexes, so tables and columns a publish run just
   * created are served at once (rows need nothing: every request reads the live database). The
   * demo calls it after publishing; `npm run start:publication` calls it on SIGHUP.
   */
  refreshSchemas(): void;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Lets tests observe the engine (for example count statements) without replacing it. */
  wrapDriver?: (driver: Driver) => Driver;
}

export async function startPublicationServer(
  config: PublicationConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const resolved = config.driver === 'sqlite' ? { ...config, dbNames: resolveSqliteNames(config) } : config;
  const breaker = await createDriver(resolved);
  const engine = new BudgetedDriver(breaker);
  const driver = options.wrapDriver ? options.wrapDriver(engine) : engine;
  const schemas = new SchemaCache(driver, undefined, undefined, (db) => breaker.refuseIfOpen(db));
  const indexations = new IndexationCache();
  const app = await buildPublicationApp({
    config: resolved,
    driver,
    schemas,
    indexations,
    breaker,
    poolStats: () => breaker.poolStats(),
  });
  app.addHook('onClose', async () => driver.close());
  await app.listen({ port: resolved.port, host: resolved.host });
  const port = (app.server.address() as { port: number }).port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    app,
    url: `http://${host}:${port}${resolved.basePath}`,
    refreshSchemas: () => {
      schemas.clear();
      indexations.clear();
    },
    close: () => app.close(),
  };
}
