/**
 * Seeds a work database with the demo archive: the same generator rows the publication demo used
 * to be written from, turned into work records (interviews oh1, people rsc197, audiovisual
 * rsc167 with the transcriptions, images rsc170, thesaurus terms ts1) and inserted by the work
 * store's functions (multi-row batches by default, or one record at a time), with the section
 * counters set. Every interview is marked publishable and belongs to the default project, so
 * cataloguers see it and publishing it fills the demo's publication database. Columns the work ontology has no component for (place, link,
 * gender, the publications table, the onomastic thesaurus) are not carried over.
 */
import type { Ontology } from '../work/ontology/load-ontology.js';
import { setCounter } from '../work/store/counters.js';
import type { MatrixTable } from '../work/store/matrix-tables.js';
import { checkedTable } from '../work/store/record-rows.js';
import { insertRecord, insertRecords, type NewRecord, type RecordColumns } from '../work/store/records.js';
import type { SqlClient } from '../work/store/sql-client.js';
import { type Cell, type DemoOptions, demoDataset, type Row } from './dataset.js';

const DEFAULT_PROJECT_ID = 1;
const NO_LANG = 'lg-nolan';
const ROOT_USER = -1;

type Values = Record<string, unknown[]>;

function byName(columns: readonly { name: string }[], row: Row): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  columns.forEach((c, i) => {
    out[c.name] = row[i] ?? null;
  });
  return out;
}

const text = (value: Cell | undefined, lang = NO_LANG, id = 1) => ({ id, lang, value: String(value) });

function ids(json: Cell | undefined): number[] {
  if (typeof json !== 'string') return [];
  const parsed = JSON.parse(json) as unknown[];
  return parsed.map((v) =>
    Number(typeof v === 'object' && v !== null ? (v as { section_id: unknown }).section_id : v),
  );
}

function locators(from: string, target: string, targetIds: readonly number[], type = 'dd151') {
  return targetIds.map((id, i) => ({
    id: i + 1,
    type,
    section_tipo: target,
    section_id: id,
    from_component_tipo: from,
  }));
}

function dateItem(iso: Cell | undefined) {
  if (typeof iso !== 'string') return undefined;
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  const time = (year * 372 + (month - 1) * 31 + (day - 1)) * 86400;
  return { id: 1, lang: NO_LANG, start: { year, month, day, time } };
}

/** One work record of the demo archive, in the store's shape. */
interface SeedRecord {
  table: MatrixTable;
  record: NewRecord;
}

function toRecord(ontology: Ontology, sectionTipo: string, id: number, values: Values): SeedRecord {
  const columns: RecordColumns = {};
  const meta: Record<string, number> = {};
  for (const [tipo, items] of Object.entries(values)) {
    if (items.length === 0) continue;
    const column = ontology.dataColumnOf(tipo);
    if (!column) throw new Error(`demo seed: ${tipo} is not a component`);
    columns[column] = { ...(columns[column] ?? {}), [tipo]: items };
    meta[tipo] = items.length;
  }
  const table = ontology.tableOf(sectionTipo);
  if (!table) throw new Error(`demo seed: ${sectionTipo} is not a section`);
  return {
    table: checkedTable(table),
    record: { key: { section_tipo: sectionTipo, section_id: id }, columns, meta },
  };
}

/** Groups consecutive rows of one section_id (multilingual tables give one row per language). */
function* records(
  columns: readonly { name: string }[],
  rows: Generator<Row>,
): Generator<Record<string, Cell>[]> {
  let group: Record<string, Cell>[] = [];
  for (const row of rows) {
    const r = byName(columns, row);
    if (group.length > 0 && group[0]!.section_id !== r.section_id) {
      yield group;
      group = [];
    }
    group.push(r);
  }
  if (group.length > 0) yield group;
}

/** The demo archive as work records, in the order the store path writes them. */
function* demoWorkRecords(ontology: Ontology, opts: DemoOptions): Generator<SeedRecord> {
  const tables = new Map(demoDataset(opts).map((t) => [t.def.name, t]));
  const rowsOf = (name: string) => {
    const t = tables.get(name)!;
    return records(t.def.columns, t.rows());
  };
  const put = (sectionTipo: string, id: number, values: Values) =>
    toRecord(ontology, sectionTipo, id, values);
  for (const [p] of rowsOf('informant')) {
    yield put('rsc197', Number(p!.section_id), {
      rsc85: [text(p!.name)],
      rsc86: [text(p!.surname)],
      rsc9001: [text(`${p!.name} ${p!.surname}`)],
    });
  }
  for (const [img] of rowsOf('image')) {
    const path = String(img!.image);
    yield put('rsc170', Number(img!.section_id), {
      rsc29: [{ id: 1, lang: NO_LANG, value: { name: path.split('/').pop(), path } }],
    });
  }
  const av = new Map<number, Record<string, Cell>>();
  for (const [a] of rowsOf('audiovisual')) av.set(Number(a!.section_id), a!);
  for (const variants of rowsOf('interview')) {
    const first = variants[0]!;
    const id = Number(first.section_id);
    const avIds = ids(first.audiovisual);
    // The transcription lives on the audiovisual record, in every language of the interview.
    for (const avId of avIds) {
      const a = av.get(avId);
      if (!a) continue;
      const video = String(a.video);
      yield put('rsc167', avId, {
        rsc35: [{ id: 1, lang: NO_LANG, value: { name: video.split('/').pop(), path: video } }],
        rsc36: variants.map((v, i) => text(v.transcription, String(v.lang), i + 1)),
        rsc54: [text(a.duration)],
      });
      av.delete(avId);
    }
    const date = dateItem(first.date);
    yield put('oh1', id, {
      oh14: [text(first.code)],
      oh16: variants.map((v, i) => text(v.title, String(v.lang), i + 1)),
      oh23: variants.map((v, i) => text(v.abstract, String(v.lang), i + 1)),
      oh24: locators('oh24', 'rsc197', ids(first.informant)),
      oh25: locators('oh25', 'rsc167', avIds),
      oh17: locators('oh17', 'rsc170', ids(first.image)),
      oh29: date ? [date] : [],
      oh22: locators('oh22', 'dd153', [DEFAULT_PROJECT_ID], 'dd675'),
      oh32: locators('oh32', 'dd64', [1]),
    });
  }
  for (const variants of rowsOf('ts_themes')) {
    const t = variants[0]!;
    const parentIds =
      t.parent === null
        ? []
        : (String(t.parent).startsWith('[')
            ? (JSON.parse(String(t.parent)) as string[])
            : [String(t.parent)]
          ).map((p) => Number(p.split('_')[1]));
    const index =
      t.indexation === null ? [] : (JSON.parse(String(t.indexation)) as Record<string, unknown>[]);
    yield put('ts1', Number(t.section_id), {
      hierarchy25: variants.map((v, i) => text(v.term, String(v.lang), i + 1)),
      hierarchy36: locators('hierarchy36', 'ts1', parentIds, 'dd47'),
      hierarchy49: locators('hierarchy49', 'ts1', ids(t.children), 'dd48'),
      hierarchy40: index.map((l, i) => ({
        id: i + 1,
        type: 'dd96',
        section_tipo: 'oh1',
        section_id: Number(l.section_id),
        from_component_tipo: 'hierarchy40',
        tag_id: String(l.tag_id),
        tag_component_tipo: 'rsc36',
      })),
    });
  }
}

export interface SeedOptions {
  /**
   * 'bulk' (default): multi-row inserts of BULK_BATCH records, one transaction per batch, the
   * counters set after; the search trigram index is dropped for the load and rebuilt after (for
   * a fresh archive: searches during the load would not use it). 'store': one insertRecord per record in one transaction (the path the
   * bulk one is tested against).
   */
  path?: 'bulk' | 'store';
  /** Records per batch of the bulk path (default BULK_BATCH). */
  batchSize?: number;
}

/** The search side table's trigram index (migration 4), built after a bulk load. */
const SEARCH_TRIGRAM_INDEX = 'matrix_string_search_trgm';

/**
 * Drops an index for a load and answers how to create it again (its definition as PostgreSQL
 * reports it, so the migration stays the one place that defines it). No index: nothing to do.
 */
async function deferIndex(client: SqlClient, name: string): Promise<{ restore(): Promise<void> }> {
  const { rows } = await client.query<{ indexdef: string }>(
    'SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1',
    [name],
  );
  const definition = rows[0]?.indexdef;
  if (!definition) return { restore: async () => {} };
  await client.query(`DROP INDEX ${name}`);
  return { restore: async () => void (await client.query(definition)) };
}

/** Records per multi-row insert and transaction of the bulk path. */
const BULK_BATCH = 1000;

/** Writes the demo archive into the work database; answers the number of records written. */
export async function seedWorkDemo(
  client: SqlClient,
  ontology: Ontology,
  opts: DemoOptions,
  seed: SeedOptions = {},
): Promise<number> {
  const max: Record<string, number> = {};
  let written = 0;
  const count = ({ record }: SeedRecord) => {
    const { section_tipo, section_id } = record.key;
    max[section_tipo] = Math.max(max[section_tipo] ?? 0, section_id);
    written++;
  };
  if (seed.path === 'store') {
    return client.transaction(async (tx) => {
      for (const r of demoWorkRecords(ontology, opts)) {
        await insertRecord(tx, r.table, r.record.key, r.record.columns, r.record.meta, ROOT_USER);
        count(r);
      }
      for (const [sectionTipo, value] of Object.entries(max)) await setCounter(tx, sectionTipo, value);
      return written;
    });
  }
  // The trigram index of the search side table, kept up to date row by row, is ~80% of a bulk
  // load's time (measured: 2 000 interviews 10.3 s with it, 1.3 s + 0.9 s to build it after);
  // it is dropped for the load and rebuilt from its own definition, whatever happens.
  const deferred = await deferIndex(client, SEARCH_TRIGRAM_INDEX);
  try {
    // Records are buffered per table (interviews and their audiovisual records interleave in
    // `matrix`, thesaurus terms go to `matrix_hierarchy`); a full buffer is one transaction.
    const buffers = new Map<MatrixTable, NewRecord[]>();
    const flush = async (table: MatrixTable) => {
      const batch = buffers.get(table) ?? [];
      if (batch.length === 0) return;
      buffers.set(table, []);
      await client.transaction((tx) => insertRecords(tx, table, batch, ROOT_USER));
    };
    for (const r of demoWorkRecords(ontology, opts)) {
      let batch = buffers.get(r.table);
      if (!batch) {
        batch = [];
        buffers.set(r.table, batch);
      }
      batch.push(r.record);
      count(r);
      if (batch.length >= (seed.batchSize ?? BULK_BATCH)) await flush(r.table);
    }
    for (const table of buffers.keys()) await flush(table);
  } finally {
    await deferred.restore();
  }
  await client.transaction(async (tx) => {
    for (const [sectionTipo, value] of Object.entries(max)) await setCounter(tx, sectionTipo, value);
  });
  return written;
}
