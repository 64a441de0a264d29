/**
 * A connection reset while a query runs (the database killed, a proxy or firewall dropping the
 * connection) rejects that query and nothing else: the process keeps running. The reset comes
 * from a TCP proxy in front of the shared PostgreSQL, which is never touched. Before the fix the
 * checked-out client's 'error' event had no listener: vitest reported an uncaught ECONNRESET /
 * "Connection terminated" and the server process would have crashed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgClient } from '../../src/work/store/pg-client.js';
import { POSTGRES_ADMIN_URL, requirePostgresOrSkip } from '../helpers/postgres-availability.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const canRun = await requirePostgresOrSkip();

describe.runIf(canRun)('PostgreSQL client: a reset mid-query', () => {
  const target = new URL(POSTGRES_ADMIN_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  let client: PgClient;

  beforeAll(async () => {
    const port = await proxy.open(0);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.port = String(port);
    client = new PgClient({ url: url.toString(), poolMax: 2 });
  });

  afterAll(async () => {
    await client?.close().catch(() => {});
    await proxy.close();
  });

  it('rejects the running query and the transaction, and does not crash the process', async () => {
    expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    const running = client.query('SELECT pg_sleep(5)');
    const inTransaction = client.transaction((tx) => tx.query('SELECT pg_sleep(5)'));
    await new Promise((r) => setTimeout(r, 300));
    const settled = Promise.allSettled([running, inTransaction]);
    await proxy.close();
    expect((await settled).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    // The events that follow the reset arrive on the next turns: give them the time to.
    await new Promise((r) => setTimeout(r, 300));
    await proxy.open();
    expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
