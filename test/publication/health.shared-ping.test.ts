import { describe, expect, it } from 'vitest';
import type { PublicationContext } from '../../src/publication/services/context.js';
import { checkHealth } from '../../src/publication/services/health-service.js';

/** A context whose engine counts pings and answers each one when the test says so. */
function countingContext(dbNames: string[]) {
  const pings: { db: string; answer: (ok: boolean) => void }[] = [];
  const ctx = {
    config: { dbNames },
    driver: {
      ping: (db: string) =>
        new Promise<void>((resolve, reject) => {
          pings.push({ db, answer: (ok) => (ok ? resolve() : reject(new Error('down'))) });
        }),
    },
  } as unknown as PublicationContext;
  return { ctx, pings };
}

describe('health checks share the ping in flight', () => {
  it('sends one ping per database for checks that overlap, and a new one after it settles', async () => {
    const { ctx, pings } = countingContext(['a', 'b']);
    const overlapping = Array.from({ length: 20 }, () => checkHealth(ctx, '2.1.0', Date.now()));
    expect(pings.map((p) => p.db)).toEqual(['a', 'b']);
    pings[0]!.answer(true);
    pings[1]!.answer(false);
    const reports = await Promise.all(overlapping);
    for (const r of reports) {
      expect(r.status).toBe('error');
      expect(r.databases).toEqual({ a: 'connected', b: 'error' });
    }
    // The next check does not reuse a settled answer: it asks again, and sees b come back.
    const next = checkHealth(ctx, '2.1.0', Date.now());
    expect(pings).toHaveLength(4);
    pings[2]!.answer(true);
    pings[3]!.answer(true);
    expect((await next).status).toBe('ok');
  });
});
