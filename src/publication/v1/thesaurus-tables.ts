/**
 * Which tables hold the thesaurus (TABLE_THESAURUS) and which table a term id belongs to
 * ($table_thesaurus_map), from V1_TABLE_THESAURUS / V1_TABLE_THESAURUS_MAP when set, otherwise
 * derived from the published database: every `ts_*` table, and each table's term-id prefixes
 * (its `tld` column, or the part of `term_id` before `_`). Derived values are kept per schema
 * snapshot, so they follow the schema cache.
 */
import type { DatabaseSchema } from '../db/types.js';
import type { V1Call } from './v1-call.js';

const derivedMaps = new WeakMap<DatabaseSchema, Promise<Record<string, string>>>();

export async function thesaurusTables(call: V1Call): Promise<string[]> {
  if (call.v1.tableThesaurus) return call.v1.tableThesaurus;
  const schema = await call.ctx.schemas.get(call.db);
  return [...schema.tables.keys()].filter((t) => t.startsWith('ts_')).sort();
}

async function deriveMap(call: V1Call, schema: DatabaseSchema): Promise<Record<string, string>> {
  const map: Record<string, string> = {};
  for (const table of await thesaurusTables(call)) {
    const info = schema.tables.get(table);
    if (!info) continue;
    const column = info.columnsByName.has('tld')
      ? 'tld'
      : info.columnsByName.has('term_id')
        ? 'term_id'
        : undefined;
    if (!column) continue;
    const rows = await call.ctx.driver.select(call.db, {
      table,
      columns: [],
      select: [{ expr: { kind: 'column', name: column }, as: 'v' }],
      distinct: column === 'tld',
      where: [{ column, op: 'is_not_null' }],
      orderBy: [],
      limit: column === 'tld' ? 100 : 1,
    });
    for (const row of rows) {
      const prefix = String(row.v).split('_')[0]!;
      if (prefix !== '' && !(prefix in map)) map[prefix] = table;
    }
  }
  return map;
}

export async function thesaurusMap(call: V1Call): Promise<Record<string, string>> {
  if (call.v1.tableThesaurusMap) return call.v1.tableThesaurusMap;
  const schema = await call.ctx.schemas.get(call.db);
  let map = derivedMaps.get(schema);
  if (!map) {
    map = deriveMap(call, schema);
    derivedMaps.set(schema, map);
    map.catch(() => derivedMaps.delete(schema));
  }
  return map;
}

/** The table of a term id: its prefix before `_` looked up exactly (docs/publication-v1.md: no prefix match). */
export async function tableOfTerm(call: V1Call, termId: string): Promise<string | undefined> {
  const prefix = termId.split('_')[0] ?? '';
  return (await thesaurusMap(call))[prefix];
}
