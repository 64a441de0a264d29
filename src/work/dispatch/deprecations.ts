/**
 * Counts uses of deprecated input forms (a numeric-string section_id, say) per app instance, and
 * writes each use to the request's log line with the running count, so operators can see
 * whether clients still send them before the form is removed.
 */
import type { FastifyBaseLogger } from 'fastify';

export class DeprecationCounter {
  private readonly counts = new Map<string, number>();

  /** Counts one use of `name` and logs it; returns the count so far. */
  record(log: FastifyBaseLogger, name: string, detail: string): number {
    const count = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, count);
    log.warn({ deprecation: name, deprecation_count: count }, `deprecated input: ${detail}`);
    return count;
  }

  count(name: string): number {
    return this.counts.get(name) ?? 0;
  }
}
