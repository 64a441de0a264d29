/** The sweep timer: runs every interval, never twice at once, and stops; 0 never runs. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PurgeStep, startSweepTimer } from '../../src/work/maintenance/sweep.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';

const silentLog = { info: () => {}, error: () => {} } as never;

/** A step that only counts its runs (the real steps touch the file system, outside fake time). */
const countingStep = (): PurgeStep & { runs: number } => {
  const step = { name: 'count', runs: 0, run: async () => ++step.runs };
  return step;
};

function recordingDb(): { db: SqlClient; sweeps: () => number } {
  const statements: string[] = [];
  const db = {
    query: async (sql: string) => {
      statements.push(sql);
      return { rows: [], rowCount: 0 };
    },
  } as unknown as SqlClient;
  return { db, sweeps: () => statements.filter((s) => s.includes('INSERT INTO last_sweep')).length };
}

describe('sweep timer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps once per interval until stopped', async () => {
    vi.useFakeTimers();
    const { db, sweeps } = recordingDb();
    const step = countingStep();
    const stop = startSweepTimer(
      { db, dataDir: '/nonexistent-dir', clock: () => new Date(), log: silentLog },
      60_000,
      [step],
    );
    await vi.advanceTimersByTimeAsync(59_000);
    expect(sweeps()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sweeps()).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sweeps()).toBe(3);
    expect(step.runs).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(sweeps()).toBe(3);
  });

  it('an interval of 0 never sweeps', async () => {
    vi.useFakeTimers();
    const { db, sweeps } = recordingDb();
    startSweepTimer({ db, dataDir: '/nonexistent-dir', clock: () => new Date(), log: silentLog }, 0);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(sweeps()).toBe(0);
  });
});
