/**
 * Health: pings every configured database at once, each with a short time limit, and reports
 * `connected`/`error` per database and the state of its circuit breaker (db/circuit-breaker.ts:
 * `open` while data requests are refused at once with 503). Nothing is cached: a database that
 * comes back after an outage reads `connected` on the next call (pools open fresh connections on
 * demand), and that ping closes its breaker. Health requests that arrive while a database's ping
 * is in flight share that ping instead of sending one each: a load balancer polling often, or a
 * burst of checks, costs the database one ping at a time (the answer is never older than the
 * request that asked for it).
 */
import type { BreakerState } from '../db/circuit-breaker.js';
import type { PublicationContext } from './context.js';

const PING_TIMEOUT_MS = 3_000;

export interface HealthReport {
  status: 'ok' | 'error';
  databases: Record<string, 'connected' | 'error'>;
  /** Per database: `open` means data requests fail fast with 503 until a probe succeeds. */
  circuit?: Record<string, BreakerState>;
  uptime: number;
  timestamp: string;
  version: string;
}

/** Per context and database, the ping in flight (removed when it settles). */
const inFlight = new WeakMap<PublicationContext, Map<string, Promise<boolean>>>();

function sharedPing(ctx: PublicationContext, db: string): Promise<boolean> {
  let pings = inFlight.get(ctx);
  if (!pings) {
    pings = new Map();
    inFlight.set(ctx, pings);
  }
  let ping = pings.get(db);
  if (!ping) {
    const map = pings;
    ping = pingWithin(ctx, db).finally(() => map.delete(db));
    pings.set(db, ping);
  }
  return ping;
}

async function pingWithin(ctx: PublicationContext, db: string): Promise<boolean> {
  // Never longer than the request's own deadline (a /health request is a request too).
  const limit = Math.min(PING_TIMEOUT_MS, ctx.config.requestTimeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), limit);
  });
  const ping = ctx.driver.ping(db, { timeoutMs: limit }).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(
  ctx: PublicationContext,
  version: string,
  startedAt: number,
): Promise<HealthReport> {
  const names = ctx.config.dbNames;
  const results = await Promise.all(names.map((db) => sharedPing(ctx, db)));
  const databases: HealthReport['databases'] = {};
  names.forEach((db, i) => {
    databases[db] = results[i] ? 'connected' : 'error';
  });
  const circuit = ctx.breaker?.states(names);
  return {
    status: results.every(Boolean) ? 'ok' : 'error',
    databases,
    ...(circuit ? { circuit } : {}),
    uptime: Math.round((Date.now() - startedAt) / 10) / 100,
    timestamp: new Date().toISOString(),
    version,
  };
}
