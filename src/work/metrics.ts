/**
 * The work API's part of the metrics endpoint (common/metrics.ts): its database pool and circuit
 * breaker, and the sessions and component locks alive, counted from their tables at scrape time.
 * Those two counts are cached for a few seconds, so scrapes from several Prometheus servers (or
 * a refresh storm) cost the database at most two small counts per interval; a database that does
 * not answer within PROBE_TIMEOUT_MS leaves the two gauges out of that scrape instead of
 * holding it.
 */
import { PROBE_TIMEOUT_MS, within } from '../common/circuit-breaker.js';
import type { ServerMetrics } from '../common/metrics.js';
import type { Clock } from './auth/clock.js';
import { idleSince } from './auth/sessions.js';
import { countLiveLocks } from './locks/component-locks.js';
import { countLiveSessions } from './store/sessions.js';
import type { SqlQueryable } from './store/sql-client.js';

/** How long the counts of sessions and locks are reused between scrapes. */
export const LIVE_COUNTS_CACHE_MS = 5_000;

interface LiveCounts {
  sessions: number;
  locks: number;
}

export function addLiveCounts(
  metrics: ServerMetrics,
  db: SqlQueryable,
  clock: Clock,
  cacheMs = LIVE_COUNTS_CACHE_MS,
): void {
  const sessions = metrics.gauge('dedalo_work_sessions_active', 'Sessions alive (not idle, not expired)');
  const locks = metrics.gauge(
    'dedalo_work_component_locks_active',
    'Component locks that count (not expired, session alive)',
  );
  let cached: { at: number; counts: Promise<LiveCounts> } | undefined;
  const read = async (): Promise<LiveCounts> => {
    const now = clock();
    const [s, l] = await Promise.all([countLiveSessions(db, now, idleSince(now)), countLiveLocks(db, now)]);
    return { sessions: s, locks: l };
  };
  metrics.onScrape(async () => {
    const at = Date.now();
    if (!cached || at - cached.at >= cacheMs) {
      const counts = within(read(), PROBE_TIMEOUT_MS, () => new Error('no answer'));
      cached = { at, counts };
      // A failed count is not kept: the next scrape asks again.
      counts.catch(() => {
        if (cached?.counts === counts) cached = undefined;
      });
    }
    // Awaited first, then set in one go: a scrape running meanwhile never sees the gauges empty.
    const counts = await cached.counts.catch(() => undefined);
    sessions().reset();
    locks().reset();
    // The database is away or slow: these two gauges are absent from this scrape.
    if (counts === undefined) return;
    sessions().set(counts.sessions);
    locks().set(counts.locks);
  });
}
