/**
 * A whole-table export of a 40k-interview demo archive (the interview table: about 86k rows,
 * 145 MB of NDJSON, long transcriptions) streams in flat memory: the export is read in chunks
 * and written as fast as the client reads, so the server never holds the table. The file is
 * generated with the demo generator into a temp directory (about 10 s, 260 MB on disk) and
 * removed afterwards (it was 100k interviews, 380 MB: a minute of the CI run for the same proof). The client counts bytes and checks the key order as it goes, keeping
 * nothing: an export that buffered the table would grow RSS by well over the bound.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSqliteDemo } from '../../src/demo/index.js';
import { startTestServer, type TestServer } from '../helpers/publication-server.js';
import { sampleRss } from '../helpers/rss-sampler.js';

const INTERVIEWS = 40_000;
/**
 * Growth allowed over the baseline: three times what streaming takes (about 20 MB measured), well
 * below the 145 MB the export weighs.
 */
const MAX_GROWTH_BYTES = 60 * 1024 * 1024;

/** Streams an NDJSON export, checking each line's key follows the previous one; keeps nothing. */
function consumeExport(
  url: string,
): Promise<{ rows: number; bytes: number; ordered: boolean; status: number }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let rows = 0;
      let bytes = 0;
      let ordered = true;
      let prev: [number, string] = [0, ''];
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        bytes += Buffer.byteLength(chunk);
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          const row = JSON.parse(line) as { section_id: number; lang: string };
          const key: [number, string] = [row.section_id, row.lang];
          if (key[0] < prev[0] || (key[0] === prev[0] && key[1] <= prev[1])) ordered = false;
          prev = key;
          rows += 1;
        }
      });
      res.on('end', () =>
        resolve({ rows, bytes, ordered: ordered && rest === '', status: res.statusCode ?? 0 }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('export of a 40k-interview archive', () => {
  let dir: string;
  let s: TestServer;
  let expectedRows: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'i13-export-40k-'));
    const summary = await writeSqliteDemo(join(dir, 'big.sqlite'), { interviews: INTERVIEWS, seed: 3 });
    expectedRows = summary.tables.interview!;
    s = await startTestServer({
      engine: 'sqlite',
      db: 'big',
      env: { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: dir, DB_NAMES: 'big' },
      openDirect: () => Promise.reject(new Error('not used')),
    });
  }, 400_000);
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams every row of the interview table in key order with flat memory', async () => {
    const { result, rss } = await sampleRss(() =>
      consumeExport(`${s.base}/big/tables/interview/records?format=ndjson`),
    );
    expect(result.status).toBe(200);
    expect(result.rows).toBe(expectedRows);
    expect(result.ordered).toBe(true);
    expect(result.bytes).toBeGreaterThan(140 * 1024 * 1024);
    expect(rss.samples).toBeGreaterThan(10);
    console.log(
      `[measure] export of ${result.bytes} bytes: RSS grew ${Math.round((rss.peak - rss.baseline) / 1048576)} MB`,
    );
    expect(rss.peak - rss.baseline).toBeLessThan(MAX_GROWTH_BYTES);
  }, 180_000);
});
