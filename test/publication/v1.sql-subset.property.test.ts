/**
 * The v1 SQL fragments never reach the engine as text. Property tests feed hostile fragments
 * (stacked statements, comments, subqueries into other databases, UNION, SLEEP, LOAD_FILE, ...)
 * mixed into valid ones: the parser either refuses them with a v1 error naming the construct,
 * or yields a tree whose SQL holds only our quoted identifiers, allowlisted functions and `?`
 * placeholders. The server-backed part records every statement the engine receives.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderExpr } from '../../src/publication/db/expr.js';
import {
  backtickDialect,
  buildCount,
  buildSelect,
  sqliteDialect,
} from '../../src/publication/db/sql-builder.js';
import type { ColumnInfo, Driver, SelectQuery, TableInfo } from '../../src/publication/db/types.js';
import {
  parseCondition,
  parseFieldList,
  parseGroup,
  parseOrder,
} from '../../src/publication/v1/sql-subset.js';
import { V1Error } from '../../src/publication/v1/v1-errors.js';
import { engineCases, rawRequest, startTestServer, type TestServer } from '../helpers/publication-server.js';

const column = (name: string, kind: ColumnInfo['kind'] = 'text'): ColumnInfo => ({ name, type: kind, kind });
const columns = [
  column('section_id', 'integer'),
  column('lang'),
  column('code'),
  column('title'),
  column('transcription'),
];
const TABLE: TableInfo = {
  name: 'interview',
  columns,
  columnsByName: new Map(columns.map((c) => [c.name, c])),
  rowEstimate: 10,
  hasLang: true,
  fulltextColumns: new Set(['transcription']),
  indexedColumns: new Set(['section_id', 'lang']),
};

const HOSTILE = [
  '1=1; DROP TABLE interview',
  '1=1 UNION SELECT user, password FROM mysql.user',
  'section_id IN (SELECT section_id FROM other_db.secrets)',
  'SLEEP(5)',
  'BENCHMARK(1000000, MD5(1))',
  "LOAD_FILE('/etc/passwd')",
  "code = 'a' -- comment",
  "code = 'a' /* comment */ OR 1=1",
  "code = 'a' # comment",
  '@@version',
  '@x := 1',
  '0x41424344 = code',
  'code = CHAR(65)',
  'IF(1=1, SLEEP(1), 0)',
  'EXISTS (SELECT 1 FROM information_schema.tables)',
  "code INTO OUTFILE '/tmp/x'",
  "'; DELETE FROM interview; --",
  'section_id = 1 LIMIT 1',
  'interview.section_id = other.section_id',
  'code REGEXP ".*"',
  'CAST(code AS BINARY)',
  'extractvalue(1, concat(0x7e, version()))',
  '(SELECT COUNT(*) FROM interview) > 0',
];
/** Breaks out of the wrapper's parentheses, yet is only a condition on this table: accepted, harmless. */
const PAREN_ESCAPE = "code = 'a') OR (1=1";
const VALID = [
  "code LIKE 'OH-%'",
  'section_id BETWEEN 1 AND 5',
  'title IS NULL',
  "lang IN ('lg-spa', 'lg-eng')",
  "NOT code = 'x'",
  "MATCH(transcription) AGAINST('+boat war*' IN BOOLEAN MODE)",
  "LOWER(code) = 'oh-1'",
];
/** What may appear in rendered SQL: no hostile word, comment, statement separator or literal text. */
const FORBIDDEN =
  /sleep|benchmark|load_file|union|information_schema|mysql|outfile|extractvalue|;|--|\/\*|#|@|0x|passwd|drop|delete|'/i;

const fragment = fc
  .tuple(
    fc.constantFrom(...VALID),
    fc.constantFrom(' AND ', ' OR ', ' ', ') OR (', ', ', '; '),
    fc.constantFrom(...HOSTILE, PAREN_ESCAPE),
    fc.boolean(),
  )
  .map(([valid, join, hostile, first]) =>
    first ? `${hostile}${join}${valid}` : `${valid}${join}${hostile}`,
  );

function renderAll(sql: (d: typeof backtickDialect) => string): string[] {
  return [backtickDialect, sqliteDialect].map(sql);
}

describe('v1 SQL subset parser', () => {
  it('refuses every hostile fragment alone, naming a construct', () => {
    for (const hostile of HOSTILE) {
      let err: unknown;
      try {
        parseCondition('sql_filter', hostile, { tables: [TABLE] });
      } catch (e) {
        err = e;
      }
      expect(err, hostile).toBeInstanceOf(V1Error);
      expect((err as V1Error).message).toMatch(/^Error on sql request\. Illegal sql_filter: \S/);
    }
  });

  it('names the construct it refuses', () => {
    const msg = (f: string) => {
      try {
        parseCondition('sql_filter', f, { tables: [TABLE] });
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(msg('SLEEP(5)')).toMatch(/function SLEEP/);
    expect(msg("LOAD_FILE('/etc/passwd')")).toMatch(/function LOAD_FILE/);
    expect(msg('1=1 UNION SELECT 1')).toMatch(/UNION/);
    expect(msg('1=1; DROP TABLE x')).toMatch(/more than one statement/);
    expect(msg('section_id IN (SELECT section_id FROM other.t)')).toMatch(/subquery/);
    expect(msg("code = 'a' -- x")).toMatch(/comment/);
    expect(msg('@@version')).toMatch(/variable/);
    expect(msg('password = 1')).toMatch(/unknown column password/);
    expect(msg('x.code = 1')).toMatch(/another table or database/);
  });

  it('turns any mix of valid and hostile fragments into a refusal or SQL without their text', () => {
    fc.assert(
      fc.property(fragment, (f) => {
        for (const parse of [
          () => [parseCondition('sql_filter', f, { tables: [TABLE] })],
          () => parseFieldList('ar_fields', f, { tables: [TABLE] }).items.map((i) => i.expr),
          () => parseOrder('order', f, { tables: [TABLE] }).map((o) => o.expr),
          () => parseGroup('group', f, { tables: [TABLE] }),
        ]) {
          let exprs: ReturnType<typeof parse>;
          try {
            exprs = parse();
          } catch (e) {
            expect(e).toBeInstanceOf(V1Error);
            continue;
          }
          for (const sql of renderAll((d) => exprs.map((e) => renderExpr(d, e, [])).join(' '))) {
            expect(sql).not.toMatch(FORBIDDEN);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('binds every literal of an accepted fragment as a parameter', () => {
    const expr = parseCondition('sql_filter', "code = 'x'' OR 1=1 --' AND section_id IN (1, 2)", {
      tables: [TABLE],
    });
    const params: unknown[] = [];
    const sql = renderExpr(backtickDialect, expr, params as (string | number)[]);
    expect(sql).toBe('((`code` = ?) AND (`section_id` IN (?, ?)))');
    expect(params).toEqual(["x' OR 1=1 --", 1, 2]);
  });
});

describe.each(engineCases())('v1 hostile fragments never reach $engine', (c) => {
  let s: TestServer;
  const statements: string[] = [];
  const record = (q: Partial<SelectQuery> & { table: string }, count = false) => {
    const d = c.engine === 'sqlite' ? sqliteDialect : backtickDialect;
    const query = { columns: [], where: [], orderBy: [], ...q } as SelectQuery;
    statements.push((count ? buildCount(d, query) : buildSelect(d, query)).sql);
  };

  beforeAll(async () => {
    s = await startTestServer(
      c,
      { V1_API_CODE: 'k' },
      {
        wrapDriver: (inner: Driver): Driver => ({
          get engine() {
            return inner.engine;
          },
          introspect: (db, o) => inner.introspect(db, o),
          select: (db, q, o) => {
            record(q);
            return inner.select(db, q, o);
          },
          count: (db, q, o) => {
            record(q, true);
            return inner.count(db, q, o);
          },
          search: (db, q, o) => inner.search(db, q, o),
          searchCount: (db, q, o) => inner.searchCount(db, q, o),
          facet: (db, q, o) => inner.facet(db, q, o),
          ping: (db, o) => inner.ping(db, o),
          close: () => inner.close(),
        }),
      },
    );
  });
  afterAll(async () => s.close());

  it('answers every hostile request with HTTP 200 and a v1 error or rows, and the engine sees none of it', async () => {
    const origin = new URL(s.base).origin;
    await fc.assert(
      fc.asyncProperty(
        fragment,
        fc.constantFrom('sql_filter', 'ar_fields', 'order', 'group', 'sql_fullselect'),
        async (f, param) => {
          statements.length = 0;
          const value = param === 'sql_fullselect' ? `SELECT section_id FROM interview WHERE ${f}` : f;
          const q = new URLSearchParams({
            code: 'k',
            table: 'interview',
            [param]: value,
            limit: '2',
            count: 'true',
          });
          const res = await rawRequest(`${origin}/publication/server_api/v1/json/records?${q}`);
          expect(res.status).toBe(200);
          expect(res.json.result === false || Array.isArray(res.json.result)).toBe(true);
          for (const sql of statements) expect(sql).not.toMatch(FORBIDDEN);
        },
      ),
      { numRuns: 60 },
    );
  });
});
