/**
 * What a publish run reads from the work database, always in whole pages (one statement per page
 * of ids, never one per record): the ids of a section in order, the records of a page, the
 * records their `via` columns reach, who points at a record (for `dd_relations`), and what changed
 * or was deleted since a time (incremental runs). Read-only: publishing never writes the work
 * records.
 */
import type { Ontology } from '../work/ontology/load-ontology.js';
import { DATA_COLUMNS, type MatrixTable } from '../work/store/matrix-tables.js';
import {
  checkedTable,
  componentItems,
  type MatrixRow,
  readRecords,
  readRecordsAfter,
} from '../work/store/record-rows.js';
import type { SqlQueryable } from '../work/store/sql-client.js';
import type { CheckedMap } from './load-publication-map.js';
import { isPublishable, type PublishLocator } from './map-record.js';

const key = (sectionTipo: string, id: number | string) => `${sectionTipo}/${id}`;

function tableOf(ontology: Ontology, sectionTipo: string): MatrixTable {
  const table = ontology.tableOf(sectionTipo);
  if (!table) throw new Error(`${sectionTipo} is not a section`);
  return checkedTable(table);
}

/**
 * What a publish read selects of a section's rows: only the components `needed` (the map's
 * columns, via relations and publishable component), each typed column trimmed in SQL with
 * `- text[]` of the section's other components, a column holding none of them read as '{}', and
 * none of the bookkeeping columns (meta, created/modified): less JSON to send and parse.
 */
export class Projection {
  /** The select list; its parameters are $1.. (`params`), the statement's own come after. */
  readonly select: string;
  readonly params: string[][];

  constructor(ontology: Ontology, sectionTipo: string, needed: ReadonlySet<string>) {
    const parts = ['section_tipo', 'section_id'];
    this.params = [];
    for (const column of DATA_COLUMNS) {
      const here = ontology
        .sectionComponents(sectionTipo)
        .filter((c) => ontology.dataColumnOf(c.tipo) === column);
      if (!here.some((c) => needed.has(c.tipo))) {
        parts.push(`'{}'::jsonb AS ${column}`);
        continue;
      }
      const drop = here.filter((c) => !needed.has(c.tipo)).map((c) => c.tipo);
      if (drop.length === 0) {
        parts.push(column);
        continue;
      }
      this.params.push(drop);
      parts.push(`${column} - $${this.params.length}::text[] AS ${column}`);
    }
    this.select = parts.join(', ');
  }
}

/** The components the pages of `sectionTipo` need: own columns, via relations, publishable. */
export function pageComponents(map: CheckedMap, sectionTipo: string): Set<string> {
  const table = map.tableOf(sectionTipo);
  const out = new Set<string>();
  if (!table) return out;
  if (table.publishable) out.add(table.publishable);
  for (const c of table.columns) {
    if (c.via) out.add(c.via);
    else if (c.component) out.add(c.component);
  }
  return out;
}

/** The components read through a `via` relation, on whatever record it reaches. */
export function viaComponents(map: CheckedMap): Set<string> {
  return new Set(
    map.tables.flatMap((t) => t.columns.flatMap((c) => (c.via && c.component ? [c.component] : []))),
  );
}

/** The next page of a section's records after `afterId`, by ascending id. */
export async function sectionRecordsAfter(
  db: SqlQueryable,
  ontology: Ontology,
  sectionTipo: string,
  afterId: number,
  limit: number,
  projection?: Projection,
): Promise<MatrixRow[]> {
  const table = tableOf(ontology, sectionTipo);
  if (!projection) return readRecordsAfter(db, table, sectionTipo, afterId, limit);
  const p = projection.params.length;
  const { rows } = await db.query<MatrixRow>(
    `SELECT ${projection.select} FROM ${table}
     WHERE section_tipo = $${p + 1} AND section_id > $${p + 2} ORDER BY section_id LIMIT $${p + 3}`,
    [...projection.params, sectionTipo, afterId, limit],
  );
  return rows;
}

/** Records of a section by id (in the order of `ids`), projected. */
async function projectedRecords(
  db: SqlQueryable,
  ontology: Ontology,
  sectionTipo: string,
  ids: readonly number[],
  projection: Projection,
): Promise<MatrixRow[]> {
  if (ids.length === 0) return [];
  const p = projection.params.length;
  const { rows } = await db.query<MatrixRow>(
    `SELECT ${projection.select} FROM ${tableOf(ontology, sectionTipo)}
     WHERE section_tipo = $${p + 1} AND section_id = ANY($${p + 2}::integer[])`,
    [...projection.params, sectionTipo, [...ids]],
  );
  const byId = new Map(rows.map((r) => [Number(r.section_id), r]));
  return ids.map((id) => byId.get(id)).filter((r): r is MatrixRow => r !== undefined);
}

export async function countSection(
  db: SqlQueryable,
  ontology: Ontology,
  sectionTipo: string,
): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM ${tableOf(ontology, sectionTipo)} WHERE section_tipo = $1`,
    [sectionTipo],
  );
  return Number(rows[0]?.n ?? 0);
}

export function readSectionRecords(
  db: SqlQueryable,
  ontology: Ontology,
  sectionTipo: string,
  ids: readonly number[],
  projection?: Projection,
): Promise<MatrixRow[]> {
  if (projection) return projectedRecords(db, ontology, sectionTipo, ids, projection);
  return readRecords(db, tableOf(ontology, sectionTipo), sectionTipo, ids);
}

function relationItems(ontology: Ontology, row: MatrixRow, tipo: string): Record<string, unknown>[] {
  const column = ontology.dataColumnOf(tipo);
  if (!column) return [];
  return componentItems(row, column, tipo).filter(
    (l): l is Record<string, unknown> => l !== null && typeof l === 'object' && !Array.isArray(l),
  );
}

function locatorId(l: Record<string, unknown>): number | undefined {
  const id = typeof l.section_id === 'string' ? Number(l.section_id) : l.section_id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The records the `via` columns of a page reach (first locator of each via component), by key. */
export async function readViaRecords(
  db: SqlQueryable,
  ontology: Ontology,
  map: CheckedMap,
  sectionTipo: string,
  rows: readonly MatrixRow[],
  projectionOf?: (targetSectionTipo: string) => Projection,
): Promise<Map<string, MatrixRow>> {
  const table = map.tableOf(sectionTipo);
  const out = new Map<string, MatrixRow>();
  const vias = [...new Set((table?.columns ?? []).flatMap((c) => (c.via ? [c.via] : [])))];
  const wanted = new Map<string, Set<number>>();
  for (const row of rows) {
    for (const via of vias) {
      const first = relationItems(ontology, row, via)[0];
      const id = first ? locatorId(first) : undefined;
      if (!first || id === undefined || typeof first.section_tipo !== 'string') continue;
      let ids = wanted.get(first.section_tipo);
      if (!ids) {
        ids = new Set();
        wanted.set(first.section_tipo, ids);
      }
      ids.add(id);
    }
  }
  for (const [target, ids] of wanted) {
    if (!ontology.tableOf(target)) continue;
    for (const r of await readSectionRecords(db, ontology, target, [...ids], projectionOf?.(target)))
      out.set(key(target, r.section_id), r);
  }
  return out;
}

/**
 * Inbound locators (who points at a record) among the published records of the map: the
 * `dd_relations` column. Built either by one scan of every mapped section's relations (whole
 * runs) or by containment lookups on the relation GIN index for a few targets.
 */
export class InboundIndex {
  private readonly bySource = new Map<string, Map<string, PublishLocator>>();

  private add(target: string, source: PublishLocator): void {
    let sources = this.bySource.get(target);
    if (!sources) {
      sources = new Map();
      this.bySource.set(target, sources);
    }
    sources.set(key(source.section_tipo, source.section_id), source);
  }

  private collect(ontology: Ontology, map: CheckedMap, row: MatrixRow, only?: Set<string>): void {
    const table = map.tableOf(row.section_tipo);
    if (!table || !isPublishable(ontology, table, row)) return;
    const source = { section_tipo: row.section_tipo, section_id: Number(row.section_id) };
    for (const [tipo, items] of Object.entries(row.relation ?? {})) {
      if (tipo === table.publishable || !Array.isArray(items)) continue;
      for (const l of items as Record<string, unknown>[]) {
        const id = l && typeof l === 'object' ? locatorId(l) : undefined;
        if (id === undefined || typeof l.section_tipo !== 'string' || !map.tableOf(l.section_tipo)) continue;
        const target = key(l.section_tipo, id);
        if (only && !only.has(target)) continue;
        this.add(target, source);
      }
    }
  }

  /** Every mapped section's relations, read once. */
  static async scan(db: SqlQueryable, ontology: Ontology, map: CheckedMap): Promise<InboundIndex> {
    const index = new InboundIndex();
    const bySourceTable = new Map<MatrixTable, string[]>();
    for (const t of map.tables) {
      const table = tableOf(ontology, t.section_tipo);
      bySourceTable.set(table, [...(bySourceTable.get(table) ?? []), t.section_tipo]);
    }
    for (const [table, sections] of bySourceTable) {
      const { rows } = await db.query<MatrixRow>(
        `SELECT section_tipo, section_id, relation FROM ${table} WHERE section_tipo = ANY($1::text[])`,
        [sections],
      );
      for (const row of rows) index.collect(ontology, map, row);
    }
    return index;
  }

  /** Only the given targets, through the relation GIN index. */
  static async lookup(
    db: SqlQueryable,
    ontology: Ontology,
    map: CheckedMap,
    targets: readonly PublishLocator[],
  ): Promise<InboundIndex> {
    const index = new InboundIndex();
    const wanted = new Set(targets.map((t) => key(t.section_tipo, t.section_id)));
    const sourceTables = new Set(map.tables.map((t) => tableOf(ontology, t.section_tipo)));
    for (const table of sourceTables) {
      const mappedSections = map.tables
        .map((t) => t.section_tipo)
        .filter((st) => ontology.tableOf(st) === table);
      for (let i = 0; i < targets.length; i += 50) {
        const params: unknown[] = [mappedSections];
        const tests: string[] = [];
        for (const target of targets.slice(i, i + 50)) {
          for (const tipo of ontology.relationComponentsInto(table, target.section_tipo)) {
            for (const id of [Number(target.section_id), String(target.section_id)]) {
              params.push(
                JSON.stringify({ [tipo]: [{ section_tipo: target.section_tipo, section_id: id }] }),
              );
              tests.push(`relation @> $${params.length}::jsonb`);
            }
          }
        }
        if (tests.length === 0) continue;
        const { rows } = await db.query<MatrixRow>(
          `SELECT section_tipo, section_id, relation FROM ${table}
           WHERE section_tipo = ANY($1::text[]) AND (${tests.join(' OR ')})`,
          params,
        );
        for (const row of rows) index.collect(ontology, map, row, wanted);
      }
    }
    return index;
  }

  inbound(sectionTipo: string, sectionId: number): PublishLocator[] {
    const sources = this.bySource.get(key(sectionTipo, sectionId));
    if (!sources) return [];
    return [...sources.values()].sort((a, b) =>
      a.section_tipo === b.section_tipo
        ? Number(a.section_id) - Number(b.section_id)
        : a.section_tipo < b.section_tipo
          ? -1
          : 1,
    );
  }
}

/** The mapped records a record's relations point at (whose dd_relations list it). */
export function relationTargets(
  map: CheckedMap,
  row: Pick<MatrixRow, 'relation'>,
): { section_tipo: string; section_id: number }[] {
  const out: { section_tipo: string; section_id: number }[] = [];
  for (const items of Object.values(row.relation ?? {})) {
    if (!Array.isArray(items)) continue;
    for (const l of items as Record<string, unknown>[]) {
      const id = l && typeof l === 'object' ? locatorId(l) : undefined;
      if (id !== undefined && typeof l.section_tipo === 'string' && map.tableOf(l.section_tipo)) {
        out.push({ section_tipo: l.section_tipo, section_id: id });
      }
    }
  }
  return out;
}

export interface ChangeSet {
  /** Records saved or created since the time, by section. */
  changed: Map<string, Set<number>>;
  /** Records deleted (delete_record) since the time, by section. */
  deleted: Map<string, Set<number>>;
}

function addTo(map: Map<string, Set<number>>, sectionTipo: string, id: number): void {
  let set = map.get(sectionTipo);
  if (!set) {
    set = new Set();
    map.set(sectionTipo, set);
  }
  set.add(id);
}

/**
 * The mapped records changed since `since`, plus the records whose published rows show them:
 * records whose `via` columns reach a changed record (the interview showing an audiovisual's
 * transcription) and the targets of a changed or deleted record's relations (their dd_relations).
 */
export async function changesSince(
  db: SqlQueryable,
  ontology: Ontology,
  map: CheckedMap,
  since: Date,
): Promise<ChangeSet> {
  const changed = new Map<string, Set<number>>();
  const deleted = new Map<string, Set<number>>();
  const sections = map.tables.map((t) => t.section_tipo);
  const touched: MatrixRow[] = [];
  for (const table of new Set(sections.map((st) => tableOf(ontology, st)))) {
    const { rows } = await db.query<MatrixRow>(
      `SELECT section_tipo, section_id, relation FROM ${table}
       WHERE section_tipo = ANY($1::text[]) AND (created_at >= $2 OR modified_at >= $2)`,
      [sections, since.toISOString()],
    );
    for (const row of rows) {
      addTo(changed, row.section_tipo, Number(row.section_id));
      touched.push(row);
    }
  }
  const { rows: snapshots } = await db.query<{ section_tipo: string; section_id: number; data: unknown }>(
    `SELECT section_tipo, section_id, data FROM matrix_time_machine
     WHERE kind = 'snapshot' AND section_tipo = ANY($1::text[]) AND created_at >= $2`,
    [sections, since.toISOString()],
  );
  for (const s of snapshots) {
    addTo(deleted, s.section_tipo, Number(s.section_id));
    const data = s.data as { relation?: Record<string, unknown[]> } | null;
    touched.push({
      section_tipo: s.section_tipo,
      section_id: Number(s.section_id),
      relation: data?.relation ?? {},
    } as MatrixRow);
  }
  // Targets of the changed records' relations get a fresh dd_relations.
  for (const row of touched) {
    for (const l of relationTargets(map, row)) addTo(changed, l.section_tipo, l.section_id);
  }
  // Records that show a changed record through a via column.
  const viaTargets: PublishLocator[] = [];
  for (const [st, ids] of changed)
    for (const id of ids) viaTargets.push({ section_tipo: st, section_id: id });
  for (const t of map.tables) {
    const vias = new Set(t.columns.flatMap((c) => (c.via ? [c.via] : [])));
    if (vias.size === 0) continue;
    const table = tableOf(ontology, t.section_tipo);
    const targets = viaTargets.filter((v) =>
      [...vias].some((via) => ontology.node(via)?.target_section_tipo?.includes(v.section_tipo)),
    );
    for (let i = 0; i < targets.length; i += 50) {
      const params: unknown[] = [t.section_tipo];
      const tests: string[] = [];
      for (const target of targets.slice(i, i + 50)) {
        for (const via of vias) {
          for (const id of [Number(target.section_id), String(target.section_id)]) {
            params.push(JSON.stringify({ [via]: [{ section_tipo: target.section_tipo, section_id: id }] }));
            tests.push(`relation @> $${params.length}::jsonb`);
          }
        }
      }
      const { rows } = await db.query<{ section_id: number }>(
        `SELECT section_id FROM ${table} WHERE section_tipo = $1 AND (${tests.join(' OR ')})`,
        params,
      );
      for (const r of rows) addTo(changed, t.section_tipo, Number(r.section_id));
    }
  }
  for (const [st, ids] of deleted) for (const id of ids) changed.get(st)?.delete(id);
  return { changed, deleted };
}
