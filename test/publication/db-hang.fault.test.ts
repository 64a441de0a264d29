/**
 * The publication API while MariaDB hangs (issue 21 §4): the TCP proxy in front of the shared
 * server stops forwarding (connections stay open and silent, as with a stopped server), so no
 * server-side time limit can fire. Requests already waiting on a statement must still end by
 * REQUEST_TIMEOUT_MS (plus a margin); once the circuit breaker is open, new requests must be
 * answered at once with a 503 problem and Retry-After; and service returns when the database
 * does, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARIADB } from '../helpers/mariadb-availability.js';
import {
  engineCases,
  type HttpResult,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const TIMEOUT_MS = 2_000;
/** Generous: the machine is shared and loaded. */
const MARGIN_MS = 2_000;

const timed = async (run: () => Promise<HttpResult>) => {
  const started = Date.now();
  const answer = await run();
  return { answer, ms: Date.now() - started };
};

describe.runIf(engineCases().some((e) => e.engine === 'mariadb'))(
  'publication API while MariaDB hangs',
  () => {
    const c = engineCases().find((e) => e.engine === 'mariadb')!;
    const proxy = new TcpProxy(MARIADB.host, MARIADB.port);
    let s: TestServer;

    beforeAll(async () => {
      const port = await proxy.open();
      s = await startTestServer(c, { DB_PORT: String(port), REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
    });
    afterAll(async () => {
      await s?.close();
      await proxy.close();
    });

    it('ends requests in flight by the deadline, then answers 503 at once, and recovers', async () => {
      const path = `/${c.db}/tables/interview/records/1`;
      // Warm: schema cached, pool connections open.
      for (let i = 0; i < 3; i++) expect((await s.get(path)).status).toBe(200);

      proxy.stall();
      // In flight while the database hangs: their statements get no answer at all.
      const inFlight = await Promise.all(Array.from({ length: 4 }, () => timed(() => s.get(path))));
      const inFlightMs = inFlight.map((r) => r.ms);
      for (const { answer, ms } of inFlight) {
        expect(ms, `answered after ${ms} ms`).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
        expect([503, 504]).toContain(answer.status);
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      }

      // The breaker is open now: fresh requests are refused at once, with Retry-After.
      const fresh = await Promise.all(Array.from({ length: 4 }, () => timed(() => s.get(path))));
      const freshMs = fresh.map((r) => r.ms);
      for (const { answer, ms } of fresh) {
        expect(ms, `answered after ${ms} ms`).toBeLessThan(1_000);
        expect(answer.status).toBe(503);
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(answer.json.type).toMatch(/database-unavailable$/);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      }
      const health = await timed(() => s.get('/health'));
      expect(health.answer.status).toBe(503);
      expect(health.answer.json.circuit?.[c.db]).toBe('open');

      proxy.resume();
      let recoveredMs: number | undefined;
      const resumedAt = Date.now();
      for (let i = 0; i < 60 && recoveredMs === undefined; i++) {
        const answer = await s.get(path);
        if (answer.status === 200) recoveredMs = Date.now() - resumedAt;
        else await new Promise((r) => setTimeout(r, 200));
      }
      console.log(
        `[db-hang] in flight answered after ${inFlightMs.join(', ')} ms (REQUEST_TIMEOUT_MS ${TIMEOUT_MS}); ` +
          `with the breaker open after ${freshMs.join(', ')} ms; /health ${health.ms} ms; ` +
          `service back ${recoveredMs} ms after the database`,
      );
      expect(recoveredMs).toBeDefined();
    }, 60_000);
  },
);
