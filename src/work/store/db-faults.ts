/**
 * Tells the database failures a client can do nothing about but wait apart from faults in our
 * own SQL (docs/timeouts-and-faults.md). Both become retryable 503 answers with Retry-After:
 *
 * - `unavailable` (db.unavailable): the server cannot be reached or stopped answering: refused or
 *   reset connections, a connection closed under a statement (the server was killed or shut
 *   down, 57P01-57P03, SQLSTATE class 08), a new connection that did not connect in time, a
 *   statement that got no answer at all past its limit ('Query read timeout'), or the circuit
 *   breaker refusing while the database is known to be down. These open the breaker.
 * - `timeout` (db.timeout): the server answers but this request ran out of time: a statement
 *   cancelled by statement_timeout (57014), a lock not granted within lock_timeout (55P03), no
 *   pool connection free within WORK_DB_ACQUIRE_TIMEOUT_MS, or the request's whole budget
 *   (WORK_REQUEST_TIMEOUT_MS) spent.
 */
import { BreakerOpen } from '../../common/circuit-breaker.js';

export type DbFault = 'unavailable' | 'timeout';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** admin_shutdown, crash_shutdown, cannot_connect_now. */
const SHUTDOWN_CODES = new Set(['57P01', '57P02', '57P03']);

const TIMEOUT_CODES = new Set(['57014', '55P03']);

export function classifyDbFault(err: unknown): DbFault | undefined {
  if (err instanceof BreakerOpen) return 'unavailable';
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (TIMEOUT_CODES.has(code) || message === 'timeout exceeded when trying to connect') return 'timeout';
  if (NETWORK_CODES.has(code) || SHUTDOWN_CODES.has(code) || code.startsWith('08')) return 'unavailable';
  if (
    message === 'Query read timeout' ||
    message.startsWith('Connection terminated') ||
    message.includes('Client has encountered a connection error') ||
    message === 'Client was closed and is not queryable'
  ) {
    return 'unavailable';
  }
  return undefined;
}
