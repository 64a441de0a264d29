/**
 * On SQLite the REST and batch doors get record rows as JSON the workers wrote (Driver.selectJson,
 * RawJson); every other door reads row objects. Both must answer alike: each request below runs
 * through the operation twice, once as a JSON door and once as a row-reading door, and the bytes
 * sent must be the same, failures included; the REST answer over HTTP must be that body too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawJson } from '../../src/publication/db/raw-json.js';
import { jsonBytes } from '../../src/publication/http/json-bytes.js';
import type { Operation } from '../../src/publication/operations/operation.js';
import { getRecordOperation, listRecordsOperation } from '../../src/publication/operations/records.js';
import { parseQueryString } from '../../src/publication/query/query-string.js';
import type { PublicationContext } from '../../src/publication/services/context.js';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

/** What an answer or a failure looks like to a client, timing aside. */
async function outcome(
  operation: Operation,
  ctx: PublicationContext,
  params: Record<string, string>,
  qs: string,
) {
  try {
    const answer = await operation.run(ctx, { params, query: () => parseQueryString(qs) });
    return {
      status: answer.status ?? 200,
      bytes: jsonBytes(answer.body).toString('utf8'),
      body: answer.body,
    };
  } catch (err) {
    return { status: 'failed', bytes: String((err as Error).message), body: undefined };
  }
}

describe.each(engineCases())('record rows written by the engine or by the server on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let ctx: PublicationContext;
  let untranslated: number;

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
    ctx = (s.server.app as unknown as { ctx: PublicationContext }).ctx;
    const [row] = await direct.query<{ section_id: number }>(
      "SELECT section_id FROM interview WHERE section_id NOT IN (SELECT section_id FROM interview WHERE lang = 'lg-eng') ORDER BY section_id LIMIT 1",
    );
    untranslated = row!.section_id;
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  const lists: [string, string][] = [
    ['interview', ''],
    ['interview', 'limit=7&offset=3&sort=-section_id'],
    ['interview', 'fields=section_id,title&lang=lg-spa&count=true'],
    ['interview', 'filter[lang]=lg-eng&limit=0&count=true'],
    ['interview', 'offset=100000'],
    ['informant', 'limit=20'],
    ['ts_themes', 'limit=50'],
  ];
  const singles = (): [string, string, string][] => [
    ['interview', '1', ''],
    ['interview', '1', 'lang=lg-spa'],
    ['interview', '2', 'fields=title'],
    ['interview', '2', 'fields=title,lang&lang=lg-spa'],
    ['interview', String(untranslated), 'lang=lg-eng'],
    ['interview', '999999', ''],
    ['ts_themes', '1', ''],
    ['informant', '3', 'fields=section_id'],
  ];

  it('answers every list and single-record request with the same bytes through both doors', async () => {
    const cases = [
      ...lists.map(([table, qs]) => ({ op: listRecordsOperation, params: { db: c.db, table }, qs })),
      ...singles().map(([table, id, qs]) => ({
        op: getRecordOperation,
        params: { db: c.db, table, id },
        qs,
      })),
    ];
    let engineWritten = 0;
    let read = 0;
    for (const { op, params, qs } of cases) {
      const asJson = await outcome(op as Operation, { ...ctx, rowsAsJson: true }, params, qs);
      const asRows = await outcome(op as Operation, ctx, params, qs);
      expect({ params, qs, ...asJson, body: undefined }).toEqual({ params, qs, ...asRows, body: undefined });
      const data = (asJson.body as { data?: unknown } | undefined)?.data;
      if (data instanceof RawJson) engineWritten++;
      else if (data !== undefined) expect(Array.isArray(data)).toBe(true);
      // Every successful read but a page of limit=0 (no statement for rows at all).
      if (data !== undefined && !qs.includes('limit=0')) read++;
    }
    // The SQLite workers wrote the rows of each of those reads; MariaDB never does.
    expect(read).toBeGreaterThanOrEqual(10);
    expect(engineWritten).toBe(c.engine === 'sqlite' ? read : 0);
  });

  it('sends that body over HTTP, and in a batch', async () => {
    const untimed = (body: { meta?: Record<string, unknown> }) => {
      if (body.meta) delete body.meta.response_time_ms;
      return body;
    };
    for (const [table, qs] of lists) {
      const res = await s.get(`/${c.db}/tables/${table}/records${qs ? `?${qs}` : ''}`);
      const asRows = await outcome(listRecordsOperation as Operation, ctx, { db: c.db, table }, qs);
      expect(res.status).toBe(200);
      expect(untimed(res.json)).toEqual(JSON.parse(asRows.bytes));
    }
    const res = await s.request(
      'POST',
      `${new URL(s.base).pathname}/batch`,
      { 'content-type': 'application/json' },
      JSON.stringify({ queries: [{ id: 'one', path: `/${c.db}/tables/interview/records/1` }] }),
    );
    const single = await outcome(
      getRecordOperation as Operation,
      ctx,
      { db: c.db, table: 'interview', id: '1' },
      '',
    );
    expect(res.status).toBe(200);
    expect(untimed(res.json.results[0].data)).toEqual(JSON.parse(single.bytes));
  });
});
