import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/publication/db/schema-builder.js';
import { buildSelect, doubleQuoteDialect } from '../../src/publication/db/sql-builder.js';
import { ValidationError } from '../../src/publication/problems.js';
import { parseQueryString } from '../../src/publication/query/query-string.js';
import { parseRecordListRequest, parseRecordRequest } from '../../src/publication/query/record-requests.js';

const schema = buildSchema(
  [
    { table: 't', name: 'section_id', type: 'int(11)' },
    { table: 't', name: 'lang', type: 'varchar(8)' },
    { table: 't', name: 'title', type: 'text' },
    { table: 't', name: 'order', type: 'int(11)' },
  ],
  new Map(),
  new Map(),
);
const table = schema.tables.get('t')!;
const COLUMNS = ['section_id', 'lang', 'title', 'order'];

/** Query-string fragments that look like the DSL, plus arbitrary noise. */
const keyArb = fc.oneof(
  fc.constantFrom('limit', 'offset', 'sort', 'fields', 'lang', 'count', 'filter', 'filter[', 'filter[]'),
  fc
    .tuple(
      fc.oneof(fc.constantFrom(...COLUMNS), fc.string()),
      fc.option(fc.oneof(fc.constantFrom('eq', 'in', 'like', 'is_null', 'gt'), fc.string())),
    )
    .map(([c, op]) => (op === null ? `filter[${c}]` : `filter[${c}][${op}]`)),
  fc.string(),
);
const valueArb = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.constantFrom('', 'lg-eng', '1|2|x', '-lang,title', '%', '%ZZ', '1e999'),
);
const queryArb = fc
  .array(fc.tuple(keyArb, valueArb), { maxLength: 8 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
const rawQueryArb = fc.oneof(
  queryArb,
  fc.string(),
  fc.string().map((s) => s.replaceAll('x', '%')),
);

function parseOrValidationError(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    expect(err.problems.length).toBeGreaterThan(0);
    for (const p of err.problems) expect(p.detail.length).toBeGreaterThan(0);
  }
}

describe('query parser properties', () => {
  it('any query string either parses or fails with a ValidationError naming parameters', () => {
    fc.assert(
      fc.property(rawQueryArb, (raw) => {
        parseOrValidationError(() => parseRecordListRequest(parseQueryString(raw), table, schema));
        parseOrValidationError(() => parseRecordRequest(parseQueryString(raw), table, schema));
      }),
      { numRuns: 3000 },
    );
  });

  it('accepted requests only ever name live columns and bind every value', () => {
    fc.assert(
      fc.property(queryArb, (raw) => {
        let req: ReturnType<typeof parseRecordListRequest>;
        try {
          req = parseRecordListRequest(parseQueryString(raw), table, schema);
        } catch {
          return;
        }
        for (const c of req.where) expect(COLUMNS).toContain(c.column);
        for (const o of req.sort) expect(COLUMNS).toContain(o.column);
        for (const f of req.fields ?? []) expect(COLUMNS).toContain(f);
        expect(req.limit).toBeGreaterThanOrEqual(0);
        expect(req.limit).toBeLessThanOrEqual(1000);
        const { sql, params } = buildSelect(doubleQuoteDialect, {
          table: 't',
          columns: req.fields ?? COLUMNS,
          where: req.where,
          orderBy: req.sort,
          limit: req.limit,
          offset: req.offset,
        });
        // Values never reach the SQL text: one placeholder per bound parameter.
        expect(sql.split('?').length - 1).toBe(params.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips every filter operator with encoded pipes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 20 }), (ids) => {
        const raw = `${encodeURIComponent('filter[section_id][in]')}=${encodeURIComponent(ids.join('|'))}`;
        const req = parseRecordListRequest(parseQueryString(raw), table, schema);
        expect(req.where).toEqual([{ column: 'section_id', op: 'in', value: ids }]);
      }),
    );
  });
});
