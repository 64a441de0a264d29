/**
 * The limits of relation resolution that the 60-interview fixture cannot reach (cells longer
 * than 50 ids, more than 1000 ids on a page, a non-selective table.column target), checked on
 * resolveRowRelations with a small in-memory engine that records every statement.
 */
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/publication/db/schema-builder.js';
import type { SchemaCache } from '../../src/publication/db/schema-cache.js';
import type { Condition, Driver, Row, SelectQuery } from '../../src/publication/db/types.js';
import { ValidationError } from '../../src/publication/problems.js';
import { BOUNDS } from '../../src/publication/query/bounds.js';
import { parseQueryString } from '../../src/publication/query/query-string.js';
import { parseRelationParams } from '../../src/publication/query/relation-params.js';
import type { PublicationContext } from '../../src/publication/services/context.js';
import { resolveRowRelations } from '../../src/publication/services/relations-service.js';
import { IndexationCache } from '../../src/publication/services/thesaurus-terms.js';

const schema = buildSchema(
  [
    { table: 'page', name: 'section_id', type: 'int' },
    { table: 'page', name: 'refs', type: 'text' },
    { table: 'page', name: 'kind', type: 'text' },
    { table: 'target', name: 'section_id', type: 'int' },
    { table: 'target', name: 'kind', type: 'varchar(10)' },
  ],
  new Map(),
  new Map(),
);

function matches(row: Row, c: Condition): boolean {
  if (c.op === 'in') return c.value.some((v) => String(v) === String(row[c.column]));
  if (c.op === 'eq') return String(row[c.column]) === String(c.value);
  throw new Error(`unexpected ${c.op}`);
}

/** 3000 target rows, all of kind "common" but one. */
function memoryContext(statements: SelectQuery[]): PublicationContext {
  const target: Row[] = Array.from({ length: 3000 }, (_v, i) => ({
    section_id: i + 1,
    kind: i === 0 ? 'rare' : 'common',
  }));
  const driver = {
    engine: 'sqlite',
    select: async (_db: string, q: SelectQuery) => {
      statements.push(q);
      const rows = target.filter((r) => q.where.every((c) => matches(r, c))).map((r) => ({ ...r }));
      return q.limit === undefined ? rows : rows.slice(0, q.limit);
    },
  } as unknown as Driver;
  return {
    config: {} as PublicationContext['config'],
    driver,
    schemas: { get: async () => schema } as unknown as SchemaCache,
    indexations: new IndexationCache(),
  };
}

const page = schema.tables.get('page')!;
const relations = (value: object) =>
  parseRelationParams(
    parseQueryString(`resolve_relations=${encodeURIComponent(JSON.stringify(value))}`),
    page,
    schema,
    undefined,
  );

describe('relation resolution limits', () => {
  it('resolves only the first 50 entries of a long cell', async () => {
    const statements: SelectQuery[] = [];
    const ids = Array.from({ length: 80 }, (_v, i) => 80 - i);
    const rows: Row[] = [{ section_id: 1, refs: ids }];
    await resolveRowRelations(memoryContext(statements), 'db', page, rows, {
      relations: relations({ refs: 'target' }),
    });
    const resolved = rows[0]!.refs as Row[];
    expect(resolved.map((r) => r.section_id)).toEqual(ids.slice(0, BOUNDS.relations.maxIdsPerCell));
    expect(statements).toHaveLength(1);
  });

  it('splits more than 1000 distinct ids of a page into statements of at most 1000', async () => {
    const statements: SelectQuery[] = [];
    // 50 rows x 50 ids = 2500 distinct ids.
    const rows: Row[] = Array.from({ length: 50 }, (_v, r) => ({
      section_id: r + 1,
      refs: Array.from({ length: 50 }, (_w, i) => String(r * 50 + i + 1)),
    }));
    await resolveRowRelations(memoryContext(statements), 'db', page, rows, {
      relations: relations({ refs: 'target' }),
    });
    expect(statements).toHaveLength(3);
    for (const q of statements) {
      const inList = q.where.find((c) => c.op === 'in');
      expect(inList && inList.op === 'in' && inList.value.length).toBeLessThanOrEqual(1000);
    }
    for (const row of rows) {
      const resolved = (row.refs as Row[]).map((t) => t.section_id);
      const start = (row.section_id as number) * 50 - 49;
      expect(resolved).toEqual(Array.from({ length: 50 }, (_w, i) => start + i));
    }
  });

  it('refuses a target column that matches more than maxRowsPerValue rows per value', async () => {
    const statements: SelectQuery[] = [];
    const ok: Row[] = [{ section_id: 1, kind: 'rare' }];
    await resolveRowRelations(memoryContext(statements), 'db', page, ok, {
      relations: relations({ kind: 'target.kind' }),
    });
    expect(ok[0]!.kind).toEqual([{ section_id: 1, kind: 'rare' }]);
    const rows: Row[] = [{ section_id: 1, kind: 'common' }];
    const attempt = resolveRowRelations(memoryContext(statements), 'db', page, rows, {
      relations: relations({ kind: 'target.kind' }),
    });
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({ problems: [{ name: 'resolve_relations' }] });
    // The statement itself was bounded: it never asked for the whole table.
    expect(statements.at(-1)!.limit).toBe(BOUNDS.relations.maxRowsPerValue + 1);
  });
});
