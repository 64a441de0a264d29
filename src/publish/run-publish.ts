/**
 * One publish run: reads records from the work database page by page, maps them with the
 * publication map and writes them to one target. Every entry point (the CLI, the work API's
 * `dd_diffusion_api.diffuse`, the demo start) calls this function.
 *
 * What a run covers:
 * - `rebuild`: every mapped section into a new database swapped in at the end (the live one
 *   is untouched until then; a failure leaves it as it was).
 * - `sectionTipo` (+ `sectionId`): that section (or that record), replaced in place. A record that
 *   no longer exists or is not publishable has its rows removed.
 * - Record and incremental runs also republish the records whose `dd_relations` change
 *   with them: the records they point at, and the published records whose dd_relations still list
 *   them (a relation removed since: found on the published side, writer.listedIn).
 * - `since` (a time, or `'last'`, the target's watermark; also the default when nothing is
 *   named): records created, saved or deleted since then, plus the records whose rows show them.
 *   With no watermark yet, every mapped section.
 *
 * Runs to the same target never interleave: a run waits up to `lockWaitMs` for another one to
 * finish, then fails with TargetBusy (target-lock.ts).
 *
 * Faults: a record that fails to map is reported in `failures` and skipped (its published rows
 * stay as they were); the run goes on. A target that fails stops the run with TargetUnavailable;
 * the batches already committed stay (each is whole), a rebuild is discarded. The watermark moves
 * only after a clean whole run (rebuild or incremental), so the next incremental run redoes what
 * a failed one missed.
 */

import type { TableDef } from '../demo/dataset.js';
import type { Ontology } from '../work/ontology/load-ontology.js';
import type { MatrixRow } from '../work/store/record-rows.js';
import type { SqlQueryable } from '../work/store/sql-client.js';
import { type CheckedMap, PUBLICATION_SCHEMA_DEF } from './load-publication-map.js';
import { type MapInputs, type MappedRecord, RecordMapError, RecordMapper } from './map-record.js';
import type { TableMap } from './publication-map-schema.js';
import { readWatermark, writeWatermark } from './publish-watermark.js';
import type { PublishWriter, RecordRemoval } from './publish-writer.js';
import { DEFAULT_LOCK_WAIT_MS, withTargetLock } from './target-lock.js';
import {
  changesSince,
  countSection,
  InboundIndex,
  Projection,
  pageComponents,
  readSectionRecords,
  readViaRecords,
  relationTargets,
  sectionRecordsAfter,
  viaComponents,
} from './work-source.js';

export interface PublishRequest {
  sectionTipo?: string;
  sectionId?: number;
  since?: Date | 'last';
  rebuild?: boolean;
}

export interface PublishProgress {
  done: number;
  total: number;
  section: string;
}

export interface RecordFailure {
  section_tipo: string;
  section_id: number;
  message: string;
}

export interface PublishSummary {
  target: string;
  mode: 'rebuild' | 'incremental';
  /** Records read from the work database. */
  records: number;
  /** Records whose rows were written. */
  published: number;
  /** Records whose rows were removed (deleted, or not publishable). */
  removed: number;
  /**
   * Records republished only because their dd_relations change with the run's records (the
   * targets those point at, or pointed at before a relation was removed).
   */
  refreshed: number;
  rows: number;
  failures: RecordFailure[];
  seconds: number;
  /** The new watermark, when this run moved it. */
  watermark?: Date;
}

export interface PublishDeps {
  db: SqlQueryable;
  ontology: Ontology;
  map: CheckedMap;
  targetName: string;
  writer: PublishWriter;
  onProgress?: (p: PublishProgress) => void;
  now?: () => Date;
  batchSize?: number;
  /** How long to wait for another run on the same target (default DEFAULT_LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** Tests: replaces the mapping of one record (to inject a failure). */
  mapRecord?: (mapper: RecordMapper, table: TableMap, row: MatrixRow, inputs: MapInputs) => MappedRecord;
}

/** A request that names something the map does not publish, or contradicts itself. */
export class PublishRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PublishRequestError';
  }
}

/**
 * Saves commit with the server's clock while the run reads: records saved in the few seconds
 * before the run started are published again next time rather than risk missing one.
 */
const WATERMARK_SLACK_MS = 5_000;

/** Above this many records, dd_relations come from one scan instead of index lookups. */
const LOOKUP_LIMIT = 50;

/** One page read from the work database: the ids asked for, the records found, their via records. */
interface Page {
  ids: number[];
  rows: MatrixRow[];
  vias: Map<string, MatrixRow>;
  /** Whether a next page may follow. */
  more: boolean;
}

interface Part {
  table: TableMap;
  /** undefined: the whole section. */
  ids?: number[];
  removed?: number[];
  /** Records republished only for their dd_relations (counted as `refreshed`). */
  related?: boolean;
}

/**
 * The records whose dd_relations change with the records of `parts`: the mapped records they
 * point at now (for a record or section run; an incremental run's changesSince has added them
 * already) and the published records whose dd_relations still list them (the targets of a
 * relation since removed, which the work database no longer shows). Answers them as parts of
 * their own, without the records `parts` already publish.
 */
async function relatedParts(
  deps: PublishDeps,
  parts: readonly Part[],
  defOf: ReadonlyMap<string, TableDef>,
  pointsNow: boolean,
): Promise<Part[]> {
  const { db, ontology, map, writer } = deps;
  const sources = parts.flatMap((p) =>
    [...(p.ids ?? []), ...(p.removed ?? [])].map((id) => ({
      section_tipo: p.table.section_tipo,
      section_id: id,
    })),
  );
  if (sources.length === 0) return [];
  const wanted = new Map<string, Set<number>>();
  const add = (sectionTipo: string, id: number) => {
    let ids = wanted.get(sectionTipo);
    if (!ids) {
      ids = new Set();
      wanted.set(sectionTipo, ids);
    }
    ids.add(id);
  };
  if (pointsNow) {
    for (const part of parts) {
      if (!part.ids || part.ids.length === 0) continue;
      for (const row of await readSectionRecords(db, ontology, part.table.section_tipo, part.ids))
        for (const l of relationTargets(map, row)) add(l.section_tipo, l.section_id);
    }
  }
  if (writer.listedIn) {
    const sourceTables = new Set(sources.map((s) => ontology.tableOf(s.section_tipo)));
    for (const t of map.tables) {
      if (!t.dd_relations) continue;
      // Only sections the sources' relations can point into.
      const reachable = [...sourceTables].some(
        (table) => table && ontology.relationComponentsInto(table, t.section_tipo).length > 0,
      );
      if (!reachable) continue;
      for (const id of await writer.listedIn(defOf.get(t.section_tipo)!, sources)) add(t.section_tipo, id);
    }
  }
  const already = new Set(parts.flatMap((p) => (p.ids ?? []).map((id) => `${p.table.section_tipo}/${id}`)));
  const out: Part[] = [];
  for (const t of map.tables) {
    const ids = [...(wanted.get(t.section_tipo) ?? [])]
      .filter((id) => !already.has(`${t.section_tipo}/${id}`))
      .sort((a, b) => a - b);
    if (ids.length > 0) out.push({ table: t, ids, related: true });
  }
  return out;
}

function checkRequest(map: CheckedMap, request: PublishRequest): void {
  if (request.sectionId !== undefined && !request.sectionTipo) {
    throw new PublishRequestError('a record id needs its section (--section)');
  }
  if (request.sectionTipo && !map.tableOf(request.sectionTipo)) {
    const known = map.tables.map((t) => t.section_tipo).join(', ');
    throw new PublishRequestError(
      `section ${request.sectionTipo} is not in the publication map (mapped: ${known})`,
    );
  }
  if (request.rebuild && (request.sectionTipo || request.since)) {
    throw new PublishRequestError('a rebuild publishes everything: it takes no section, id or since');
  }
  if (request.sectionTipo && request.since) {
    throw new PublishRequestError('choose either a section/record or since, not both');
  }
}

export async function runPublish(deps: PublishDeps, request: PublishRequest = {}): Promise<PublishSummary> {
  checkRequest(deps.map, request);
  // Held from before the watermark and the changes are read until the target is swapped or
  // committed: a second run to the same target waits for this one (target-lock.ts).
  return withTargetLock(deps.db, deps.targetName, deps.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS, () =>
    runLocked(deps, request),
  );
}

async function runLocked(deps: PublishDeps, request: PublishRequest): Promise<PublishSummary> {
  const { db, ontology, map, writer } = deps;
  const now = deps.now ?? (() => new Date());
  const started = now();
  const watermarkAt = new Date(started.getTime() - WATERMARK_SLACK_MS);
  // A rebuild writes a fresh database nobody reads yet: larger pages mean fewer transactions
  // (measured: ~5% faster into SQLite, the same into MariaDB, at 3k interviews).
  const batchSize = deps.batchSize ?? (request.rebuild ? 2000 : 500);
  const mode = request.rebuild ? 'rebuild' : 'incremental';
  const whole = request.rebuild || !request.sectionTipo;

  let parts: Part[];
  if (request.rebuild) {
    parts = map.tables.map((table) => ({ table }));
  } else if (request.sectionTipo) {
    const table = map.tableOf(request.sectionTipo)!;
    parts = [{ table, ids: request.sectionId !== undefined ? [request.sectionId] : undefined }];
  } else {
    const since =
      request.since === undefined || request.since === 'last'
        ? await readWatermark(db, deps.targetName)
        : request.since;
    if (!since) {
      parts = map.tables.map((table) => ({ table }));
    } else {
      const changes = await changesSince(db, ontology, map, since);
      parts = map.tables.map((table) => ({
        table,
        ids: [...(changes.changed.get(table.section_tipo) ?? [])].sort((a, b) => a - b),
        removed: [...(changes.deleted.get(table.section_tipo) ?? [])],
      }));
    }
  }

  const summary: PublishSummary = {
    target: deps.targetName,
    mode,
    records: 0,
    published: 0,
    removed: 0,
    refreshed: 0,
    rows: 0,
    failures: [],
    seconds: 0,
  };
  const defOf = new Map(map.tables.map((t, i) => [t.section_tipo, map.tableDefs[i + 1]!]));
  const mapper = new RecordMapper(ontology, map.map);
  const mapOne =
    deps.mapRecord ??
    ((m, table, row, inputs) => m.mapRecord(table, defOf.get(table.section_tipo)!, row, inputs));

  // Only the components the map reads are selected (measured at 100k interviews: node CPU of
  // reading every page and its via records 4.9-5.2 -> 4.1-4.3 s; docs/benchmarks.md).
  const projections = {
    page: (st: string) => new Projection(ontology, st, pageComponents(map, st)),
    via: (st: string) => new Projection(ontology, st, viaComponents(map)),
  };
  await writer.open(map.tableDefs, mode);
  let done = 0;
  try {
    // A record or incremental run also refreshes the dd_relations its records change.
    if (mode === 'incremental' && parts.every((p) => p.ids)) {
      parts.push(...(await relatedParts(deps, parts, defOf, Boolean(request.sectionTipo))));
    }

    let total = 0;
    for (const part of parts) {
      total += part.ids ? part.ids.length : await countSection(db, ontology, part.table.section_tipo);
      total += part.removed?.length ?? 0;
    }
    const explicit = parts.flatMap((p) =>
      (p.ids ?? []).map((id) => ({ section_tipo: p.table.section_tipo, section_id: id })),
    );
    // A few records: containment lookups on the relation GIN index; more: one scan of every
    // mapped section's relations is cheaper than hundreds of OR-ed lookups (measured: 993 records
    // took 21 s by lookups).
    const inbound =
      parts.some((p) => !p.ids) || explicit.length > LOOKUP_LIMIT
        ? await InboundIndex.scan(db, ontology, map)
        : await InboundIndex.lookup(db, ontology, map, explicit);

    // publication_schema first: a reader of a fresh database can resolve relations at once.
    await writer.writeBatch([
      { table: PUBLICATION_SCHEMA_DEF, sectionId: 1, rows: [[1, JSON.stringify(map.publicationSchema)]] },
    ]);
    for (const part of parts) {
      const def = defOf.get(part.table.section_tipo)!;
      const sectionTipo = part.table.section_tipo;
      if (part.removed && part.removed.length > 0) {
        await writer.writeBatch([], [{ table: def, sectionIds: part.removed }]);
        summary.removed += part.removed.length;
        done += part.removed.length;
      }
      const projection = projections.page(sectionTipo);
      // The page after is read while this one is mapped and written (pipelining: the work
      // database and the target work at the same time instead of taking turns).
      const loadPage = async (cursor: number): Promise<Page> => {
        let ids: number[];
        let rows: MatrixRow[];
        let more: boolean;
        if (part.ids) {
          ids = part.ids.slice(cursor, cursor + batchSize);
          rows = await readSectionRecords(db, ontology, sectionTipo, ids, projection);
          more = cursor + ids.length < part.ids.length;
        } else {
          rows = await sectionRecordsAfter(db, ontology, sectionTipo, cursor, batchSize, projection);
          ids = rows.map((r) => Number(r.section_id));
          more = rows.length === batchSize;
        }
        const vias = await readViaRecords(db, ontology, map, sectionTipo, rows, projections.via);
        return { ids, rows, vias, more };
      };
      const nextCursor = (page: Page, cursor: number) =>
        part.ids ? cursor + page.ids.length : (page.ids[page.ids.length - 1] ?? cursor);
      let cursor = 0;
      let pending: Promise<Page> | undefined = loadPage(cursor);
      while (pending) {
        const page: Page = await pending;
        pending = undefined;
        if (page.ids.length === 0) break;
        cursor = nextCursor(page, cursor);
        if (page.more) {
          pending = loadPage(cursor);
          // A failed write stops the run before this page is awaited: its error is not the one to report.
          pending.catch(() => {});
        }
        const { ids, rows, vias } = page;
        const inputs: MapInputs = {
          viaRecord: (l) => vias.get(`${l.section_tipo}/${l.section_id}`),
          inbound: (st, id) => inbound.inbound(st, id),
        };
        const mapped: MappedRecord[] = [];
        const found = new Set<number>();
        for (const row of rows) {
          found.add(Number(row.section_id));
          try {
            mapped.push(mapOne(mapper, part.table, row, inputs));
          } catch (err) {
            const message =
              err instanceof RecordMapError
                ? err.message
                : `${sectionTipo} ${row.section_id}: ${(err as Error).message}`;
            summary.failures.push({ section_tipo: sectionTipo, section_id: Number(row.section_id), message });
          }
        }
        const missing = ids.filter((id) => !found.has(id));
        const removals: RecordRemoval[] = missing.length > 0 ? [{ table: def, sectionIds: missing }] : [];
        // A rebuild starts empty: a record without rows is simply not written.
        const toWrite = mode === 'rebuild' ? mapped.filter((m) => m.rows.length > 0) : mapped;
        summary.rows += await writer.writeBatch(toWrite, removals);
        if (part.related) {
          summary.refreshed += mapped.filter((m) => m.rows.length > 0).length;
        } else {
          summary.records += rows.length;
          for (const m of mapped) {
            if (m.rows.length > 0) summary.published++;
            else if (mode === 'incremental') summary.removed++;
          }
          if (mode === 'incremental') summary.removed += missing.length;
        }
        done += ids.length;
        deps.onProgress?.({ done, total, section: sectionTipo });
      }
      if (mode === 'rebuild') writer.tableDone?.(def);
    }
    await writer.finish();
  } catch (err) {
    await writer.abort();
    throw err;
  } finally {
    await writer.close();
  }
  if (whole && summary.failures.length === 0) {
    await writeWatermark(db, deps.targetName, watermarkAt);
    summary.watermark = watermarkAt;
  }
  summary.seconds = (now().getTime() - started.getTime()) / 1000;
  return summary;
}
