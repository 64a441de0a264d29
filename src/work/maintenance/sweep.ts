/**
 * The sweep: a list of purge steps, each removing one kind of dead state, run by a timer
 * (WORK_SWEEP_INTERVAL_SECONDS) and on demand from the maintenance `sweep` widget. A step that
 * fails is reported and the others still run. What the last run removed is kept in `last_sweep`
 * (one row, whichever instance ran it).
 */
import type { FastifyBaseLogger } from 'fastify';
import { LOGIN_THROTTLE } from '../auth/login-throttle.js';
import { idleSince } from '../auth/sessions.js';
import { purgeExpiredLocks } from '../locks/component-locks.js';
import { purgeKnownAddresses, purgeStaleThrottleRows } from '../store/login-throttle.js';
import { purgeDeadSessions } from '../store/sessions.js';
import type { SqlClient } from '../store/sql-client.js';
import { purgeAbandonedUploads } from '../uploads/purge-abandoned.js';

export interface SweepContext {
  db: SqlClient;
  dataDir: string;
  now: Date;
}

export interface PurgeStep {
  name: string;
  /** Returns how many things it removed. */
  run(ctx: SweepContext): Promise<number>;
}

const longestThrottleWindowMs = Math.max(
  LOGIN_THROTTLE.pairWindowMs,
  LOGIN_THROTTLE.addressWindowMs,
  LOGIN_THROTTLE.usernameWindowMs,
  LOGIN_THROTTLE.deviceWindowMs,
);

/**
 * The steps, in order. A dead session's component locks go with its row (ON DELETE CASCADE); an
 * expired lock of a live session is removed by its own step.
 */
export const SWEEP_STEPS: readonly PurgeStep[] = [
  { name: 'expired_sessions', run: ({ db, now }) => purgeDeadSessions(db, now, idleSince(now)) },
  { name: 'expired_component_locks', run: ({ db, now }) => purgeExpiredLocks(db, now) },
  { name: 'abandoned_upload_chunks', run: ({ dataDir, now }) => purgeAbandonedUploads(dataDir, now) },
  {
    name: 'stale_login_throttle_rows',
    run: ({ db, now }) => purgeStaleThrottleRows(db, now, new Date(now.getTime() - longestThrottleWindowMs)),
  },
  {
    name: 'old_known_login_addresses',
    run: ({ db, now }) => purgeKnownAddresses(db, new Date(now.getTime() - LOGIN_THROTTLE.knownAddressMs)),
  },
];

export interface SweepReport {
  ran_at: string;
  trigger: 'timer' | 'widget';
  /** Things removed by each step. */
  purged: Record<string, number>;
  /** Steps that failed, with their message (the others still ran). */
  failed: Record<string, string>;
}

export async function runSweep(
  ctx: SweepContext,
  trigger: SweepReport['trigger'],
  log?: FastifyBaseLogger,
  steps: readonly PurgeStep[] = SWEEP_STEPS,
): Promise<SweepReport> {
  const report: SweepReport = { ran_at: ctx.now.toISOString(), trigger, purged: {}, failed: {} };
  for (const step of steps) {
    try {
      report.purged[step.name] = await step.run(ctx);
    } catch (err) {
      log?.error({ err, step: step.name }, 'sweep step failed');
      report.failed[step.name] = err instanceof Error ? err.message : String(err);
    }
  }
  await ctx.db.query(
    `INSERT INTO last_sweep (id, ran_at, trigger, purged) VALUES (1, $1::timestamptz, $2, $3::jsonb)
     ON CONFLICT (id) DO UPDATE SET ran_at = EXCLUDED.ran_at, trigger = EXCLUDED.trigger, purged = EXCLUDED.purged`,
    [report.ran_at, trigger, JSON.stringify({ purged: report.purged, failed: report.failed })],
  );
  return report;
}

export async function lastSweep(db: SqlClient): Promise<SweepReport | null> {
  const { rows } = await db.query<{
    ran_at: Date | string;
    trigger: SweepReport['trigger'];
    purged: { purged: Record<string, number>; failed: Record<string, string> };
  }>('SELECT ran_at, trigger, purged FROM last_sweep WHERE id = 1');
  const row = rows[0];
  if (!row) return null;
  return {
    ran_at: new Date(row.ran_at).toISOString(),
    trigger: row.trigger,
    purged: row.purged.purged,
    failed: row.purged.failed,
  };
}

/**
 * Runs the sweep every `intervalMs` (0: never) with the server's clock. One run at a time; the
 * timer does not keep the process alive. Returns the function that stops it.
 */
export function startSweepTimer(
  ctx: { db: SqlClient; dataDir: string; clock: () => Date; log: FastifyBaseLogger },
  intervalMs: number,
  steps: readonly PurgeStep[] = SWEEP_STEPS,
): () => void {
  if (intervalMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runSweep({ db: ctx.db, dataDir: ctx.dataDir, now: ctx.clock() }, 'timer', ctx.log, steps)
      .then((r) => ctx.log.info({ sweep: r.purged, failed: r.failed }, 'sweep'))
      .catch((err) => ctx.log.error({ err }, 'sweep failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
