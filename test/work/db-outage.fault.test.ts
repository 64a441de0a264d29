/**
 * The work API through a real database outage (issue 21 §4), on a PostgreSQL server of the
 * test's own: three writers create records for the whole run while the database is first hung
 * (SIGSTOP of every PostgreSQL process), then killed (SIGKILL) and started again (crash
 * recovery). The work server is never restarted. Checked:
 *
 * - nothing acknowledged is lost: every record whose create answered 200 is in the database
 *   after recovery;
 * - every request is answered within its budget (WORK_REQUEST_TIMEOUT_MS) plus a margin, with
 *   200 or a retryable 503 (db.unavailable / db.timeout) carrying Retry-After, never a 500;
 * - the first db.unavailable comes right after the kill (asserted under 3 s, measured and
 *   logged: the goal is under 1 s);
 * - service comes back by itself once the database is up again.
 */

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkConfig } from '../../src/work/config.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { type RunningWorkServer, startWorkServer } from '../../src/work/server.js';
import { PrivatePostgres, requirePrivatePostgresOrSkip } from '../helpers/private-postgres.js';

const BUDGET_MS = 3_000;
/** Generous: the machine is shared and loaded; the budget itself is what the server keeps. */
const MARGIN_MS = 2_000;
const ROOT_PASSWORD = 'fault test root password';

interface Outcome {
  writer: number;
  started: number;
  ended: number;
  status: number;
  code?: string;
  retryAfter?: string | null;
  sectionId?: number;
}

const canRun = requirePrivatePostgresOrSkip();

describe.runIf(canRun)('work API through a PostgreSQL hang, crash and restart', () => {
  let db: PrivatePostgres;
  let server: RunningWorkServer;

  beforeAll(async () => {
    db = new PrivatePostgres();
    await db.init();
    await db.start();
    const config = loadWorkConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      DEDALO_ROOT_PASSWORD: ROOT_PASSWORD,
      WORK_DB_URL: db.url,
      WORK_DB_POOL_MAX: '6',
      WORK_REQUEST_TIMEOUT_MS: String(BUDGET_MS),
      WORK_DB_ACQUIRE_TIMEOUT_MS: '1000',
      WORK_DB_LOCK_TIMEOUT_MS: '1000',
      WORK_SWEEP_INTERVAL_SECONDS: '0',
    });
    server = await startWorkServer(config, { publish: null });
  });

  afterAll(async () => {
    await server?.close().catch(() => {});
    await db?.destroy();
  });

  it('loses nothing acknowledged, answers every request within its budget, and recovers alone', async () => {
    // One session per writer, like three cataloguers.
    const sessions: { cookie: string; csrf: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          dd_api: 'dd_utils_api',
          action: 'login',
          options: { username: 'root', auth: ROOT_PASSWORD },
        }),
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      sessions.push({ cookie: (res.headers.getSetCookie()[0] ?? '').split(';')[0]!, csrf: body.csrf_token });
    }

    const outcomes: Outcome[] = [];
    const createOne = async (writer: number): Promise<Outcome> => {
      const s = sessions[writer]!;
      const started = Date.now();
      try {
        const res = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-dedalo-csrf-token': s.csrf },
          body: JSON.stringify({ action: 'create', source: { section_tipo: 'oh1' } }),
          // Only so a broken server cannot hang the test; the assertions are far tighter.
          signal: AbortSignal.timeout(60_000),
        });
        const body = await res.json();
        return {
          writer,
          started,
          ended: Date.now(),
          status: res.status,
          code: body.ok ? undefined : body.error?.code,
          retryAfter: res.headers.get('retry-after'),
          sectionId: body.ok ? body.data : undefined,
        };
      } catch (err) {
        return { writer, started, ended: Date.now(), status: 0, code: String(err) };
      }
    };

    let writing = true;
    const writers = [0, 1, 2].map(async (writer) => {
      while (writing) {
        const outcome = await createOne(writer);
        outcomes.push(outcome);
        // A client that is told to wait does not hammer; otherwise it goes on at once.
        if (outcome.status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
    });

    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await sleep(2_000);
    const frozeAt = Date.now();
    db.freeze();
    await sleep(4_000);
    const killedAt = Date.now();
    await db.kill();
    await sleep(2_000);
    const restartAt = Date.now();
    await db.start();
    const upAt = Date.now();
    await sleep(2_000);
    writing = false;
    await Promise.all(writers);

    // Service comes back without restarting the work server (the breaker probes on its own).
    let recoveredAt: number | undefined;
    for (let i = 0; i < 100 && recoveredAt === undefined; i++) {
      const outcome = await createOne(0);
      outcomes.push(outcome);
      if (outcome.status === 200) recoveredAt = outcome.ended;
      else await sleep(200);
    }

    const byStatus = outcomes.reduce<Record<string, number>>((acc, o) => {
      const key = `${o.status}${o.code ? ` ${o.code}` : ''}`;
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {});
    const slowest = Math.max(...outcomes.map((o) => o.ended - o.started));
    const firstUnavailable = outcomes
      .filter((o) => o.code === 'db.unavailable' && o.ended >= killedAt)
      .sort((a, b) => a.ended - b.ended)[0];
    const firstUnavailableMs = firstUnavailable ? firstUnavailable.ended - killedAt : undefined;
    console.log(
      `[db-outage] ${outcomes.length} requests ${JSON.stringify(byStatus)}; slowest answer ${slowest} ms ` +
        `(budget ${BUDGET_MS} ms); first db.unavailable ${firstUnavailableMs} ms after the kill; ` +
        `frozen ${killedAt - frozeAt} ms; restart took ${upAt - restartAt} ms; ` +
        `service back ${recoveredAt === undefined ? 'never' : `${recoveredAt - upAt} ms after the database`}`,
    );

    // Every answer is a success or a retryable 503 with Retry-After, within the budget.
    for (const o of outcomes) {
      expect(o.ended - o.started, JSON.stringify(o)).toBeLessThan(BUDGET_MS + MARGIN_MS);
      if (o.status === 200) continue;
      expect(o.status, JSON.stringify(o)).toBe(503);
      expect(['db.unavailable', 'db.timeout'], JSON.stringify(o)).toContain(o.code);
      expect(Number(o.retryAfter), JSON.stringify(o)).toBeGreaterThan(0);
    }
    // The hang was answered with time-outs, the crash with unavailability, promptly.
    expect(
      outcomes.some((o) => o.code === 'db.timeout' && o.ended >= frozeAt && o.ended <= killedAt + 500),
    ).toBe(true);
    expect(firstUnavailableMs).toBeDefined();
    expect(firstUnavailableMs!).toBeLessThan(3_000);
    expect(recoveredAt).toBeDefined();

    // Nothing acknowledged is lost: every 200's record survived the crash.
    const acknowledged = outcomes.filter((o) => o.status === 200).map((o) => o.sectionId!);
    expect(acknowledged.length).toBeGreaterThan(3);
    const table = loadOntology().tableOf('oh1')!;
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ section_id: number }>(
        `SELECT section_id FROM ${table} WHERE section_tipo = 'oh1'`,
      );
      const stored = new Set(rows.map((r) => Number(r.section_id)));
      const lost = acknowledged.filter((id) => !stored.has(Number(id)));
      expect(lost, `acknowledged but lost: ${lost.join(', ')}`).toEqual([]);
    } finally {
      await check.end();
    }
  }, 120_000);
});
