/**
 * One publish run per target at a time: two runs to the same target (the CLI, the work API's
 * `diffuse`, on one or several work-server instances) would interleave their batches, and two
 * rebuilds would race for the swap. A run holds the target's lock from before it reads what to
 * publish (so the second run sees the first one's watermark) until it has swapped or committed.
 *
 * - PostgreSQL work database: a transaction-scoped advisory lock keyed by the target name, held by
 *   a transaction left open on one pooled connection for the run (the run's own statements use
 *   other connections). Every process publishing from the same work database sees it; it is
 *   released by COMMIT/ROLLBACK, or by PostgreSQL when a crashed process's connection drops.
 * - PGlite (one process per data directory): an in-process queue per database and target; PGlite
 *   runs one statement at a time, so a transaction held open would stall the run itself.
 *
 * A run that cannot get the lock within the wait fails with TargetBusy (work API: 409
 * `diffusion.target_busy`; CLI: exit 4).
 */
import type { SqlClient, SqlQueryable } from '../work/store/sql-client.js';

export class TargetBusy extends Error {
  constructor(
    readonly target: string,
    waitMs: number,
  ) {
    super(
      `publication target "${target}" is busy: another publish run to it did not finish within ` +
        `${(waitMs / 1000).toFixed(1)} s (PUBLISH_LOCK_WAIT_SECONDS); try again when it has`,
    );
    this.name = 'TargetBusy';
  }
}

/** Default wait for another run on the same target to finish. */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

/** PostgreSQL's lock_not_available: lock_timeout expired. */
const LOCK_NOT_AVAILABLE = '55P03';

const isPostgresClient = (db: SqlQueryable): db is SqlClient =>
  (db as Partial<SqlClient>).engine === 'postgres' &&
  typeof (db as Partial<SqlClient>).transaction === 'function';

/** Per database client, per target: the promise the next run waits for. */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

async function localLock(db: object, target: string, waitMs: number): Promise<() => void> {
  let tails = queues.get(db);
  if (!tails) {
    tails = new Map();
    queues.set(db, tails);
  }
  const previous = tails.get(target) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Whoever comes next waits for the previous run and then for this one.
  const tail = previous.then(() => mine);
  tails.set(target, tail);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    previous.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), waitMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    // Those queued behind this run now wait for the previous one only (the tail stays queued).
    release();
    throw new TargetBusy(target, waitMs);
  }
  return () => {
    release();
    if (tails.get(target) === tail) tails.delete(target);
  };
}

/** Runs `fn` holding the lock of `target`, waiting at most `waitMs` for it. */
export async function withTargetLock<R>(
  db: SqlQueryable,
  target: string,
  waitMs: number,
  fn: () => Promise<R>,
): Promise<R> {
  if (!isPostgresClient(db)) {
    const release = await localLock(db, target, waitMs);
    try {
      return await fn();
    } finally {
      release();
    }
  }
  // The lock is held for the whole publish run, which may be long and idle on this connection (it
  // writes to the target): no statement, idle-in-transaction or client-side limit; the wait for
  // the lock keeps its own lock_timeout, set first thing.
  return db.transaction(
    async (tx) => {
      // lock_timeout 0 would mean "wait forever".
      await tx.query("SELECT set_config('lock_timeout', $1, true)", [`${Math.max(1, Math.round(waitMs))}ms`]);
      try {
        await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('dd-publish:' || $1, 0))", [target]);
      } catch (err) {
        if ((err as { code?: string }).code === LOCK_NOT_AVAILABLE) throw new TargetBusy(target, waitMs);
        throw err;
      }
      return fn();
    },
    { unlimited: true },
  );
}
