import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MARIADB } from '../helpers/mariadb-availability.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

describe('request time-out on sqlite', () => {
  const c = engineCases().find((e) => e.engine === 'sqlite')!;
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    // A private copy with an endless view: a query on it runs until something stops it.
    dir = mkdtempSync(join(tmpdir(), 'timeout-'));
    const file = join(dir, `${c.db}.sqlite`);
    copyFileSync(join(inject('sqliteDir'), `${c.db}.sqlite`), file);
    const db = new Database(file);
    db.exec(
      'CREATE VIEW slow_view AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000000) SELECT x AS section_id FROM c',
    );
    db.close();
    // One worker: if the endless statement were only abandoned, every later query would wait on it.
    s = await startTestServer(c, { DB_SQLITE_DIR: dir, DB_SQLITE_WORKERS: '1', REQUEST_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 504 and really stops the statement, so the next query runs', async () => {
    const slow = await s.get(`/${c.db}/tables/slow_view/records?limit=1`);
    expect(slow.status).toBe(504);
    expect(slow.json.type).toMatch(/\/timeout$/);
    const next = await s.get(`/${c.db}/tables/interview/records/1`);
    expect(next.status).toBe(200);
  });
});

describe.runIf(engineCases().some((e) => e.engine === 'mariadb'))('request time-out on mariadb', () => {
  const c = engineCases().find((e) => e.engine === 'mariadb')!;
  let s: TestServer;
  let admin: mysql.Connection;
  beforeAll(async () => {
    admin = await mysql.createConnection({ ...MARIADB, database: c.db });
    // A view that sleeps a second per row over 100000 rows: a day of work unless it is killed.
    await admin.query(
      'CREATE OR REPLACE VIEW slow_view AS SELECT seq + SLEEP(1) AS section_id FROM seq_1_to_100000',
    );
    s = await startTestServer(c, { REQUEST_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await s.close();
    await admin.query('DROP VIEW IF EXISTS slow_view');
    await admin.end();
  });

  it('answers 504 and the server stops the statement (max_statement_time)', async () => {
    const slow = await s.get(`/${c.db}/tables/slow_view/records?limit=1`);
    expect(slow.status).toBe(504);
    expect(slow.json.type).toMatch(/\/timeout$/);
    let running = 1;
    for (let attempt = 0; attempt < 50 && running > 0; attempt++) {
      const [rows] = await admin.query(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%slow_view%' AND INFO NOT LIKE '%PROCESSLIST%'",
      );
      running = Number((rows as { n: number }[])[0]!.n);
      if (running > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(running).toBe(0);
  });
});
