/**
 * The PostgreSQL session limits of the work API (store/pg-client.ts), on the shared server: a
 * row lock held elsewhere makes a write wait at most WORK_DB_LOCK_TIMEOUT_MS, and a request that
 * cannot finish within WORK_REQUEST_TIMEOUT_MS is answered then; both as a retryable 503
 * db.timeout with Retry-After. Before, such a request waited as long as the lock was held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const LOCK_MS = 500;
const BUDGET_MS = 2_000;
/** Generous: the machine is shared and loaded. */
const MARGIN_MS = 2_000;

describe.runIf(workEngineCases().some((e) => e.engine === 'postgres'))(
  'work API time limits on PostgreSQL',
  () => {
    const engine = workEngineCases().find((e) => e.engine === 'postgres')!;
    let work: WorkServerHandle;
    let root: WorkBrowser;
    const table = loadOntology().tableOf('oh1')!;

    beforeAll(async () => {
      work = await startTestWorkServer(engine, {
        WORK_DB_LOCK_TIMEOUT_MS: String(LOCK_MS),
        WORK_REQUEST_TIMEOUT_MS: String(BUDGET_MS),
      });
      root = await rootBrowser(work);
    });
    afterAll(async () => {
      await work?.stop();
    });

    it('answers a write blocked by a held row lock with 503 db.timeout within the lock limit', async () => {
      const created = await root.post({ action: 'create', source: { section_tipo: 'oh1' } });
      expect(created.status).toBe(200);
      const id = created.body.data as number;
      // Another session holds the record's row lock (on the server's own pool) until released.
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holding = work.server.db.transaction(async (tx) => {
        await tx.query(`SELECT 1 FROM ${table} WHERE section_tipo = 'oh1' AND section_id = $1 FOR UPDATE`, [
          id,
        ]);
        locked();
        await released;
      });
      await lockTaken;
      try {
        const started = Date.now();
        const answer = await root.post({ action: 'delete', source: { section_tipo: 'oh1', section_id: id } });
        const ms = Date.now() - started;
        console.log(`[db-limits] blocked delete answered after ${ms} ms (lock_timeout ${LOCK_MS} ms)`);
        expect(answer.status, JSON.stringify(answer.body)).toBe(503);
        expect(answer.body.error).toMatchObject({ code: 'db.timeout', retryable: true });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(ms).toBeLessThan(LOCK_MS + MARGIN_MS);
      } finally {
        release();
        await holding;
      }
      // The lock gone, the same request goes through.
      const again = await root.post({ action: 'delete', source: { section_tipo: 'oh1', section_id: id } });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
    });
  },
);
