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
  const breaker = createDriver(resolved);
  const engine = new BudgetedDriver(breaker);
  const driver = options.wrapDriver ? options.wrapDriver(engine) : engine;
  const schemas = new SchemaCache(driver);
  const app = await buildPublicationApp({
    config: resolved,
    driver,
    schemas,
    indexations: new IndexationCache(),
    breaker,
  });
  app.addHook('onClose', async () => driver.close());
  await app.listen({ port: resolved.port, host: resolved.host });
  const port = (app.server.address() as { port: number }).port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    app,
    url: `http://${host}:${port}${resolved.basePath}`,
    close: () => app.close(),
  };
}
