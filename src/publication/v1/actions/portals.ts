/**
 * Portal and relation resolution of `records` (docs/publication-v1.md): `resolve_portals_custom`
 * (`{column: table}`, dotted keys for deeper levels, `table.column` targets, `link: auto`),
 * `resolve_portal` (every column named in publication_schema), `resolve_dd_relations`,
 * `portal_filter`, `apply_postprocess`. Each (column, target table) pair is one statement for
 * all rows at once, not one per row (upstream's per-row queries, docs/publication-v1.md, give the same
 * result more slowly). Portals use the records `lang` when sent, else the request language
 * (upstream kept the first row of any language: docs/publication-v1.md).
 */

import { parseTags } from '../../../common/text/tag-grammar.js';
import type { Condition, Expr } from '../../db/types.js';
import { publicationFilter } from '../publication-filter.js';
import { parseCondition } from '../sql-subset.js';
import { optBool, optLang, optObject, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import { relationId, relationItems, shapeRow, type V1Row } from '../v1-rows.js';

/** Most ids one IN list carries; longer lists are split into several statements. */
const IN_CHUNK = 500;

/** Row id=1 of publication_schema, decoded; undefined when the table or row is missing. */
export async function readPublicationSchema(
  call: V1Call,
): Promise<Record<string, unknown> | undefined | false> {
  const schema = await call.ctx.schemas.get(call.db);
  const info = schema.tables.get('publication_schema');
  if (!info?.columnsByName.has('data')) return undefined;
  const key = info.columnsByName.has('id') ? 'id' : 'section_id';
  const rows = await call.ctx.driver.select(call.db, {
    table: info.name,
    columns: ['data'],
    where: [{ column: key, op: 'eq', value: 1 }],
    orderBy: [],
    limit: 1,
  });
  const data = rows[0]?.data;
  if (data === undefined) return false;
  try {
    const parsed: unknown = typeof data === 'string' ? JSON.parse(data) : data;
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : false;
  } catch {
    return false;
  }
}

/** Reads the rows of `table` whose `column` is one of `keys`, first row per key. */
async function fetchByKeys(
  call: V1Call,
  table: string,
  column: string,
  keys: string[],
  lang: string,
  filter: Expr | undefined,
): Promise<Map<string, V1Row>> {
  const info = await tableOf(call, table, 'resolve_portals_custom');
  if (!info.columnsByName.has(column)) {
    throw new V1Error(
      `Error on sql request. Illegal resolve_portals_custom: unknown column ${table}.${column}`,
    );
  }
  const found = new Map<string, V1Row>();
  const numeric = info.columnsByName.get(column)!.kind === 'integer';
  const values = [...new Set(keys)].filter((k) => !numeric || /^\d+$/.test(k));
  for (let i = 0; i < values.length; i += IN_CHUNK) {
    const chunk = values.slice(i, i + IN_CHUNK);
    const where: Condition[] = [{ column, op: 'in', value: numeric ? chunk.map(Number) : chunk }];
    if (info.hasLang) where.push({ column: 'lang', op: 'eq', value: lang });
    const rows = await call.ctx.driver.select(call.db, {
      table: info.name,
      columns: info.columns.map((c) => c.name),
      where,
      filter,
      orderBy: [],
    });
    for (const row of rows) {
      const key = String(row[column]);
      if (!found.has(key)) found.set(key, shapeRow(info.name, row, call.v1.numbersAsStrings));
    }
  }
  return found;
}

/** The call's portal_filter for `table`, or else the configured PUBLICACION_FILTER_SQL (docs/publication-v1.md). */
async function portalFilterFor(call: V1Call, filters: Record<string, unknown> | undefined, table: string) {
  const text = filters?.[table];
  const info = await tableOf(call, table, 'portal_filter');
  if (typeof text !== 'string' || text.trim() === '') return publicationFilter(call, info);
  return parseCondition('portal_filter', text, { tables: [info] });
}

/** Replaces `column` of each row by the rows it points at in `target`. */
async function resolveColumn(
  call: V1Call,
  rows: V1Row[],
  column: string,
  target: string,
  lang: string,
  filters: Record<string, unknown> | undefined,
): Promise<void> {
  const holders = rows.filter((r) => column in r && r.table !== column);
  if (holders.length === 0) return;
  if (target === 'auto') {
    // `link`: each cell names its own table: {"table":"…","section_id":N}.
    const byTable = new Map<string, string[]>();
    const links = holders.map((row) => {
      const item = relationItems(row[column])[0] as { table?: unknown; section_id?: unknown } | undefined;
      const table = typeof item?.table === 'string' ? item.table : undefined;
      const id = relationId(item);
      if (table && id) byTable.set(table, [...(byTable.get(table) ?? []), id]);
      return { row, table, id };
    });
    const resolved = new Map<string, Map<string, V1Row>>();
    for (const [table, ids] of byTable) {
      resolved.set(
        table,
        await fetchByKeys(call, table, 'section_id', ids, lang, await portalFilterFor(call, filters, table)),
      );
    }
    for (const { row, table, id } of links) {
      const hit = table && id ? resolved.get(table)?.get(id) : undefined;
      row[column] = hit ? [hit] : [];
    }
    return;
  }
  const [table, keyColumn] = target.includes('.')
    ? (target.split('.', 2) as [string, string])
    : [target, 'section_id'];
  const ids = holders.map((row) =>
    relationItems(row[column])
      .map(relationId)
      .filter((id): id is string => !!id),
  );
  const found = await fetchByKeys(
    call,
    table,
    keyColumn,
    ids.flat(),
    lang,
    await portalFilterFor(call, filters, table),
  );
  holders.forEach((row, i) => {
    row[column] = ids[i]!.map((id) => found.get(id)).filter((r): r is V1Row => r !== undefined);
  });
}

/** The rows at `path` (dotted columns already resolved) below `rows`. */
function rowsAt(rows: V1Row[], path: string[]): V1Row[] {
  let level = rows;
  for (const step of path) {
    level = level.flatMap((r) => (Array.isArray(r[step]) ? (r[step] as V1Row[]) : []));
  }
  return level;
}

/** "Delete marks": every [..] mark of a transcription removed, the text kept. */
export function deleteMarks(text: string): string {
  let out = '';
  let at = 0;
  for (const tag of parseTags(text)) {
    if (tag.kind === 'html') continue;
    out += text.slice(at, tag.start);
    at = tag.end;
  }
  return out + text.slice(at);
}

export async function resolveRows(call: V1Call, rows: V1Row[]): Promise<V1Row[]> {
  const { options } = call;
  const lang = optLang(options) ?? call.lang;
  const filters = optObject(options, 'portal_filter');
  let portals = optObject(options, 'resolve_portals_custom');
  const ddRelations = optBool(options, 'resolve_dd_relations', false);
  let schema: Record<string, unknown> | undefined | false;
  if (portals === undefined && optBool(options, 'resolve_portal', false)) {
    schema = await readPublicationSchema(call);
    portals = {};
    for (const [column, table] of Object.entries(schema || {})) {
      if (column !== 'dd_relations' && typeof table === 'string') portals[column] = table;
    }
  }
  if (portals) {
    const keys = Object.keys(portals).sort((a, b) => a.split('.').length - b.split('.').length);
    for (const key of keys) {
      const target = portals[key];
      if (
        typeof target !== 'string' ||
        !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$|^auto$/.test(target)
      ) {
        throw new V1Error(`Error on sql request. Illegal resolve_portals_custom: target of ${key}`);
      }
      const path = key.split('.');
      const column = path.pop()!;
      await resolveColumn(call, rowsAt(rows, path), column, target, lang, filters);
    }
  }
  if (ddRelations) await resolveDdRelations(call, rows, lang, schema);
  if (optBool(options, 'apply_postprocess', false)) {
    for (const row of rows) if (typeof row.rsc36 === 'string') row.rsc36 = deleteMarks(row.rsc36);
  }
  return rows;
}

/** `dd_relations`: the row's locators resolved through publication_schema.dd_relations. */
async function resolveDdRelations(
  call: V1Call,
  rows: V1Row[],
  lang: string,
  known: Record<string, unknown> | undefined | false,
): Promise<void> {
  const schema = known === undefined ? await readPublicationSchema(call) : known;
  const map = (schema ? schema.dd_relations : undefined) as Record<string, unknown> | undefined;
  const tipoTable = (tipo: unknown) =>
    typeof tipo === 'string' && typeof map?.[tipo] === 'string' ? (map[tipo] as string) : undefined;
  const perRow = rows.map((row) =>
    relationItems(row.dd_relations)
      .map((loc) => ({
        table: tipoTable((loc as { section_tipo?: unknown })?.section_tipo),
        id: relationId(loc),
      }))
      .filter((l): l is { table: string; id: string } => l.table !== undefined && l.id !== undefined),
  );
  const byTable = new Map<string, string[]>();
  for (const l of perRow.flat()) byTable.set(l.table, [...(byTable.get(l.table) ?? []), l.id]);
  const found = new Map<string, Map<string, V1Row>>();
  for (const [table, ids] of byTable) {
    const info = (await call.ctx.schemas.get(call.db)).tables.get(table);
    if (info) found.set(table, await fetchByKeys(call, table, 'section_id', ids, lang, undefined));
  }
  rows.forEach((row, i) => {
    row.dd_relations = perRow[i]!.map((l) => found.get(l.table)?.get(l.id)).filter(
      (r): r is V1Row => r !== undefined,
    );
  });
}
