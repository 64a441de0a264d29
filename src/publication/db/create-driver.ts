/**
 * Chooses and builds the engine from the configuration, behind a circuit breaker. For SQLite,
 * the public databases are the `<name>.sqlite` files of DB_SQLITE_DIR (all of them when DB_NAMES
 * is not set).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../common/config-error.js';
import { DB_NAME_PATTERN, type PublicationConfig } from '../config.js';
import { CircuitBreakerDriver } from './circuit-breaker.js';
import type { Driver } from './types.js';

/** Fills in DB_NAMES for SQLite and checks that every named file exists. */
export function resolveSqliteNames(config: PublicationConfig): string[] {
  const dir = config.sqlite.dir;
  if (!existsSync(dir)) throw new ConfigError([`DB_SQLITE_DIR "${dir}" does not exist`]);
  if (config.dbNames.length > 0) {
    const missing = config.dbNames.filter((n) => !existsSync(join(dir, `${n}.sqlite`)));
    if (missing.length > 0) {
      throw new ConfigError(
        missing.map((n) => `DB_NAMES lists "${n}" but ${join(dir, `${n}.sqlite`)} does not exist`),
      );
    }
    return config.dbNames;
  }
  const found = readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite'))
    .map((f) => f.slice(0, -'.sqlite'.length))
    .filter((n) => DB_NAME_PATTERN.test(n))
    .sort();
  if (found.length === 0) {
    throw new ConfigError([
      `DB_SQLITE_DIR "${dir}" holds no .sqlite files; set DB_NAMES or run npm run demo`,
    ]);
  }
  return found;
}

/**
 * The engine behind its circuit breaker, so a database known to be down is refused at once.
 * Only the configured engine's module is loaded: a SQLite server never loads mysql2 (about
 * 2 MB of heap).
 */
export async function createDriver(config: PublicationConfig): Promise<CircuitBreakerDriver> {
  let engine: Driver;
  if (config.driver === 'sqlite') {
    const { SqliteDriver } = await import('./sqlite-driver.js');
    engine = new SqliteDriver(config.sqlite.dir, config.sqlite.workers, config.sqlite.cacheMb);
  } else {
    const { MariadbDriver } = await import('./mariadb-driver.js');
    engine = new MariadbDriver(config.mariadb, config.dbNames);
  }
  return new CircuitBreakerDriver(engine);
}
