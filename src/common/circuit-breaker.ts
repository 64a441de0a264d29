/**
 * A small circuit breaker per key (a database name), shared by both servers: the publication
 * API wraps its engine in one (publication/db/circuit-breaker.ts), the work API its PostgreSQL
 * client (work/store/guarded-sql-client.ts). Once a database is known to be down (a connection
 * failed, or it stopped answering), callers are refused at once with BreakerOpen, which each
 * server answers as a 503 with Retry-After, instead of each waiting for its whole time budget on
 * a dead server. Recovery needs no restart: once the retry delay has passed, the next caller
 * first sends one short probe (shared by every caller arriving meanwhile) and proceeds if it
 * succeeds; a success reported from elsewhere (a health ping) closes it too.
 */

/** How long an open breaker refuses before it lets a probe try again. */
export const BREAKER_RETRY_MS = 5_000;
/** A probe gives up after this long. */
export const PROBE_TIMEOUT_MS = 2_000;

export type BreakerState = 'closed' | 'open';

/** The key is known to be down; raised without touching it. */
export class BreakerOpen extends Error {
  constructor(
    readonly key: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`"${key}" is unavailable right now; try again in ${retryAfterSeconds} s`);
    this.name = 'BreakerOpen';
  }
}

interface OpenBreaker {
  /** When the key was first seen down in this outage (ISO 8601). */
  since: string;
  retryAt: number;
  probe?: Promise<boolean>;
}

/** Rejects with `late()` when `work` has not settled within `ms`. */
export function within<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export class CircuitBreaker {
  private readonly open = new Map<string, OpenBreaker>();

  constructor(
    /** One short check that the key answers again; it should give up by itself (PROBE_TIMEOUT_MS). */
    private readonly probe: (key: string) => Promise<unknown>,
    readonly retryMs = BREAKER_RETRY_MS,
  ) {}

  isOpen(key: string): boolean {
    return this.open.has(key);
  }

  /** Every key's state, for health reports. */
  states(keys: readonly string[]): Record<string, BreakerState> {
    return Object.fromEntries(keys.map((key) => [key, this.open.has(key) ? 'open' : 'closed']));
  }

  /** `key` failed like a server that is down: refuse callers for the retry delay. */
  trip(key: string): void {
    const current = this.open.get(key);
    if (current) current.retryAt = Date.now() + this.retryMs;
    else this.open.set(key, { since: new Date().toISOString(), retryAt: Date.now() + this.retryMs });
  }

  /** `key` answered: let callers through again. */
  reset(key: string): void {
    this.open.delete(key);
  }

  /** Seconds until the next probe may run (at least 1), for Retry-After. */
  retryAfterSeconds(key: string): number {
    const state = this.open.get(key);
    const wait = state ? state.retryAt - Date.now() : this.retryMs;
    return Math.max(1, Math.ceil(wait / 1000));
  }

  /** Resolves when `key` may be used; throws BreakerOpen while its breaker stays open. */
  async admit(key: string): Promise<void> {
    const state = this.open.get(key);
    if (!state) return;
    const wait = state.retryAt - Date.now();
    if (wait > 0) throw new BreakerOpen(key, Math.ceil(wait / 1000));
    state.probe ??= this.probe(key).then(
      () => {
        this.reset(key);
        return true;
      },
      () => {
        this.trip(key);
        return false;
      },
    );
    if (!(await state.probe)) {
      state.probe = undefined;
      throw new BreakerOpen(key, Math.max(1, Math.ceil(this.retryMs / 1000)));
    }
  }
}
