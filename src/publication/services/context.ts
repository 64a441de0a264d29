/**
 * What every service needs: the configuration, the engine and the schema cache. Built once by
 * main.ts (or a test) and passed down; there is no module-level state.
 */
import type { PoolStats } from '../../common/metrics.js';
import type { PublicationConfig } from '../config.js';
import type { CircuitBreakerDriver } from '../db/circuit-breaker.js';
import type { SchemaCache } from '../db/schema-cache.js';
import type { Driver } from '../db/types.js';
import type { IndexationCache } from './thesaurus-terms.js';

export interface PublicationContext {
  config: PublicationConfig;
  driver: Driver;
  schemas: SchemaCache;
  /** Parsed thesaurus indexation locators per database (av-indexation-fragment). */
  indexations: IndexationCache;
  /**
   * The caller only sends the rows it reads, as JSON (the REST and batch doors): record reads
   * may then hand them over as bytes the engine already wrote (Driver.selectJson, RawJson)
   * instead of row objects. Doors that look into rows (HTML pages, MCP, exports) leave it unset.
   */
  rowsAsJson?: boolean;
  /** The engine's circuit breaker, for /health to report (absent in apps built without one). */
  breaker?: Pick<CircuitBreakerDriver, 'states'>;
  /** The engine's pools at this moment, for the metrics endpoint (absent: none reported). */
  poolStats?: () => PoolStats[];
}
