/**
 * The ontology as records, kept in step with `dd_ontology` (what the loader reads) inside the
 * transaction that changes either side (docs/ontology.md, "Editing the ontology"):
 *
 * - a node `oh14` is record 14 of the ontology section `oh0` (table matrix_ontology), its fields
 *   in the template's components (term, model, parent, order, translatable, targets, mandatory,
 *   unique, date mode, list columns, other properties); a TLD of main_dd is a record of the main
 *   section (table matrix_ontology_main: code and name);
 * - rows -> records: `mirrorTld` rewrites one TLD's records from its rows (the default install,
 *   an import, a database of before the records) in a few set-based statements, whatever the
 *   number of nodes; `mirrorMain` does the same for the TLD registry;
 * - record -> row: `syncNodeRecord` and `syncMainRecords`, called after every write to those
 *   sections (ontology-edit.ts). A record without a model or a parent yet is not a node (a
 *   draft): it has no row.
 */
import type { MatrixRow } from '../store/record-rows.js';
import { componentItems, readRecord } from '../store/record-rows.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { NO_LANG } from './load-ontology.js';
import { TLD_PATTERN } from './ontology-schema.js';
import {
  NODE_FIELDS as F,
  MAIN_NAME,
  MAIN_TLD,
  ONTOLOGY_MAIN_SECTION,
  ontologySectionOf,
  YES_NO_SECTION,
} from './ontology-sections.js';

/**
 * Arbitrary constant: "the ontology is being written" (an import, an edit of its records). Taken
 * for the rest of the transaction, so two writers never check their change against a state the
 * other is changing: each one's whole-ontology check sees the other's committed result.
 */
export const ONTOLOGY_WRITE_LOCK_KEY = 7_314_200_504;

const YES = 1;
const NO = 2;
/** The relation type of a radio button's locator (component-values.ts). */
const LINK_TYPE = 'dd151';

/** The keys of a row's `properties` that have a component of their own. */
const FLAG_KEYS = { mandatory: F.mandatory, unique: F.unique } as const;
const DATE_MODE_KEY = 'date_mode';
const LIST_COLUMNS_KEY = 'list_columns';

/** A dd_ontology row, as far as the records hold it. */
export interface NodeRow {
  tipo: string;
  parent: string | null;
  term: Record<string, string>;
  model: string;
  order_number: number;
  relations: unknown;
  properties: Record<string, unknown> | null;
  is_translatable: boolean;
}

interface RecordData {
  string: Record<string, unknown[]>;
  relation: Record<string, unknown[]>;
  number: Record<string, unknown[]>;
  misc: Record<string, unknown[]>;
  meta: Record<string, number>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const texts = (values: readonly string[]) => values.map((value, i) => ({ id: i + 1, lang: NO_LANG, value }));

const yesNo = (tipo: string, yes: boolean) => [
  {
    id: 1,
    type: LINK_TYPE,
    section_tipo: YES_NO_SECTION,
    section_id: yes ? YES : NO,
    from_component_tipo: tipo,
  },
];

/** The number after a tipo's TLD (`14` for `oh14`), or undefined when it does not fit a record id. */
export function recordIdOf(tipo: string, tld: string): number | undefined {
  const digits = tipo.slice(tld.length);
  return tipo.startsWith(tld) && /^[0-9]{1,9}$/.test(digits) ? Number(digits) : undefined;
}

/** A row's record columns (rows -> records). */
export function recordDataOf(row: NodeRow): RecordData {
  const data: RecordData = { string: {}, relation: {}, number: {}, misc: {}, meta: {} };
  const put = (column: 'string' | 'relation' | 'number' | 'misc', tipo: string, items: unknown[]) => {
    if (items.length === 0) return;
    data[column][tipo] = items;
    data.meta[tipo] = items.length;
  };
  put(
    'string',
    F.term,
    Object.entries(isObject(row.term) ? row.term : {})
      .filter(([, value]) => typeof value === 'string' && value !== '')
      .map(([lang, value], i) => ({ id: i + 1, lang, value })),
  );
  put('string', F.model, texts([row.model]));
  if (row.parent !== null) put('string', F.parent, texts([row.parent]));
  put('number', F.order, [{ id: 1, lang: NO_LANG, value: row.order_number }]);
  if (row.is_translatable || row.model.startsWith('component_'))
    put('relation', F.translatable, yesNo(F.translatable, row.is_translatable));
  const targets = Array.isArray(row.relations)
    ? row.relations.map((r) => (isObject(r) ? r.tipo : r)).filter((t): t is string => typeof t === 'string')
    : [];
  put('string', F.targets, texts(targets));
  const rest = { ...(isObject(row.properties) ? row.properties : {}) };
  for (const [key, tipo] of Object.entries(FLAG_KEYS)) {
    if (typeof rest[key] !== 'boolean') continue;
    put('relation', tipo, yesNo(tipo, rest[key] as boolean));
    delete rest[key];
  }
  if (typeof rest[DATE_MODE_KEY] === 'string') {
    put('string', F.dateMode, texts([rest[DATE_MODE_KEY] as string]));
    delete rest[DATE_MODE_KEY];
  }
  const columns = rest[LIST_COLUMNS_KEY];
  if (Array.isArray(columns) && columns.every((c) => typeof c === 'string')) {
    put('string', F.listColumns, texts(columns));
    delete rest[LIST_COLUMNS_KEY];
  }
  if (Object.keys(rest).length > 0) put('misc', F.properties, [{ id: 1, lang: NO_LANG, value: rest }]);
  return data;
}

const textValues = (record: MatrixRow, tipo: string): string[] =>
  componentItems(record, 'string', tipo)
    .map((i) => (isObject(i) ? i.value : undefined))
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map((v) => v.trim());

function flagOf(record: MatrixRow, tipo: string): boolean | undefined {
  const item = componentItems(record, 'relation', tipo).find(isObject);
  if (!item || item.section_tipo !== YES_NO_SECTION) return undefined;
  return Number(item.section_id) === YES;
}

/** What a node record says its row is (record -> row), without order when it gives none. */
export function nodeRowOf(
  tipo: string,
  record: MatrixRow,
  isRoot: boolean,
): (Omit<NodeRow, 'order_number'> & { order_number: number | null }) | undefined {
  const model = textValues(record, F.model)[0];
  const parent = textValues(record, F.parent)[0] ?? null;
  if (model === undefined || (parent === null && !isRoot)) return undefined;
  const term: Record<string, string> = {};
  for (const item of componentItems(record, 'string', F.term)) {
    if (!isObject(item) || typeof item.value !== 'string' || item.value.trim() === '') continue;
    term[typeof item.lang === 'string' ? item.lang : NO_LANG] = item.value.trim();
  }
  const order = componentItems(record, 'number', F.order).find(isObject)?.value;
  const misc = componentItems(record, 'misc', F.properties).find(isObject)?.value;
  const properties: Record<string, unknown> = isObject(misc) ? { ...misc } : {};
  for (const [key, tipo] of Object.entries(FLAG_KEYS)) {
    const flag = flagOf(record, tipo);
    if (flag === undefined) delete properties[key];
    else properties[key] = flag;
  }
  const dateMode = textValues(record, F.dateMode)[0];
  if (dateMode !== undefined) properties[DATE_MODE_KEY] = dateMode;
  else delete properties[DATE_MODE_KEY];
  const columns = textValues(record, F.listColumns);
  if (columns.length > 0) properties[LIST_COLUMNS_KEY] = columns;
  else delete properties[LIST_COLUMNS_KEY];
  const targets = textValues(record, F.targets);
  return {
    tipo,
    parent: isRoot ? null : parent,
    term,
    model,
    order_number: typeof order === 'number' && Number.isInteger(order) ? order : null,
    relations: targets.length > 0 ? targets.map((t) => ({ tipo: t })) : null,
    properties: Object.keys(properties).length > 0 ? properties : null,
    is_translatable: flagOf(record, F.translatable) === true,
  };
}

/** Moves a section's counter past `highest`, never back. */
async function counterAtLeast(tx: SqlQueryable, sectionTipo: string, highest: number): Promise<void> {
  await tx.query(
    `INSERT INTO matrix_counter (section_tipo, value) VALUES ($1, $2)
     ON CONFLICT (section_tipo) DO UPDATE SET value = GREATEST(matrix_counter.value, EXCLUDED.value)`,
    [sectionTipo, highest],
  );
}

/**
 * Upserts records of one section from their computed columns in one statement. Item counters
 * never go back (an item id is never minted twice); a record whose columns did not change is not
 * rewritten.
 */
async function upsertRecords(
  tx: SqlQueryable,
  table: 'matrix_ontology' | 'matrix_ontology_main',
  sectionTipo: string,
  records: (RecordData & { section_id: number })[],
): Promise<void> {
  if (records.length === 0) return;
  await tx.query(
    `INSERT INTO ${table} (section_tipo, section_id, string, relation, number, misc, meta)
     SELECT $1, r.section_id, r.string, r.relation, r.number, r.misc, r.meta
     FROM jsonb_to_recordset($2::text::jsonb)
       AS r(section_id integer, string jsonb, relation jsonb, number jsonb, misc jsonb, meta jsonb)
     ON CONFLICT (section_tipo, section_id) DO UPDATE SET
       string = EXCLUDED.string, relation = EXCLUDED.relation, number = EXCLUDED.number,
       misc = EXCLUDED.misc,
       meta = ${table}.meta || (SELECT coalesce(jsonb_object_agg(m.key, GREATEST(m.value::numeric,
                COALESCE((${table}.meta ->> m.key)::numeric, 0))), '{}'::jsonb)
              FROM jsonb_each_text(EXCLUDED.meta) AS m)
     WHERE (${table}.string, ${table}.relation, ${table}.number, ${table}.misc)
       IS DISTINCT FROM (EXCLUDED.string, EXCLUDED.relation, EXCLUDED.number, EXCLUDED.misc)`,
    [sectionTipo, JSON.stringify(records)],
  );
}

/**
 * Rewrites the records of `tld`'s ontology section from its `dd_ontology` rows: one record per
 * node (section_id = the number of its tipo), records of nodes that are gone removed (drafts,
 * records without model or parent, are kept), the section's counter past every node, and the
 * TLD's main record. A handful of statements whatever the number of nodes. Run it inside the
 * transaction that wrote the rows (an import calls it after writing a TLD).
 */
export async function mirrorTld(tx: SqlQueryable, tld: string): Promise<void> {
  const sectionTipo = ontologySectionOf(tld);
  const { rows } = await tx.query<NodeRow>(
    `SELECT tipo, parent, term, model, order_number, relations, properties, is_translatable
     FROM dd_ontology WHERE tld = $1 AND NOT is_model`,
    [tld],
  );
  const records = rows.flatMap((row) => {
    const id = recordIdOf(row.tipo, tld);
    return id === undefined ? [] : [{ section_id: id, ...recordDataOf(row) }];
  });
  await upsertRecords(tx, 'matrix_ontology', sectionTipo, records);
  await tx.query(
    `DELETE FROM matrix_ontology
     WHERE section_tipo = $1 AND section_id <> ALL($2::integer[])
       AND jsonb_array_length(COALESCE(string -> $3, '[]'::jsonb)) > 0
       AND jsonb_array_length(COALESCE(string -> $4, '[]'::jsonb)) > 0`,
    [sectionTipo, records.map((r) => r.section_id), F.model, F.parent],
  );
  await counterAtLeast(tx, sectionTipo, Math.max(0, ...records.map((r) => r.section_id)));
  await mirrorMain(tx);
}

/** The main section's records: section_id and the TLD code and name they hold. */
async function mainRecords(tx: SqlQueryable): Promise<{ section_id: number; tld?: string; name?: string }[]> {
  const { rows } = await tx.query<MatrixRow>(
    `SELECT section_tipo, section_id, string FROM matrix_ontology_main WHERE section_tipo = $1
     ORDER BY section_id`,
    [ONTOLOGY_MAIN_SECTION],
  );
  return rows.map((r) => ({
    section_id: Number(r.section_id),
    tld: textValues(r, MAIN_TLD)[0],
    name: textValues(r, MAIN_NAME)[0],
  }));
}

const mainData = (tld: string, name: string): RecordData => ({
  string: { [MAIN_TLD]: texts([tld]), [MAIN_NAME]: texts([name]) },
  relation: {},
  number: {},
  misc: {},
  meta: { [MAIN_TLD]: 1, [MAIN_NAME]: 1 },
});

/**
 * Rewrites the main section's records from main_dd: a record per registered TLD (new ones get
 * the next ids), names in step, records of TLDs no longer registered removed (records without a
 * code yet are kept).
 */
export async function mirrorMain(tx: SqlQueryable): Promise<void> {
  const { rows: registered } = await tx.query<{ tld: string; name: string }>(
    'SELECT tld, name FROM main_dd ORDER BY installed_at, tld',
  );
  const records = await mainRecords(tx);
  const byTld = new Map(records.filter((r) => r.tld !== undefined).map((r) => [r.tld!, r]));
  let next = Math.max(0, ...records.map((r) => r.section_id));
  const upserts = registered.flatMap(({ tld, name }) => {
    const record = byTld.get(tld);
    if (record && record.name === name) return [];
    return [{ section_id: record?.section_id ?? ++next, ...mainData(tld, name) }];
  });
  await upsertRecords(tx, 'matrix_ontology_main', ONTOLOGY_MAIN_SECTION, upserts);
  const known = new Set(registered.map((r) => r.tld));
  const gone = records.filter((r) => r.tld !== undefined && !known.has(r.tld)).map((r) => r.section_id);
  if (gone.length > 0) {
    await tx.query(
      'DELETE FROM matrix_ontology_main WHERE section_tipo = $1 AND section_id = ANY($2::integer[])',
      [ONTOLOGY_MAIN_SECTION, gone],
    );
  }
  await counterAtLeast(tx, ONTOLOGY_MAIN_SECTION, next);
}

/** What syncing a record found wrong (the edit is refused with these, nothing written). */
export type SyncProblems = string[];

/**
 * Record -> row for one node record of `tld`'s section: upserts its dd_ontology row, or removes
 * it when the record is gone or is a draft. `choices` are the values the model and date-mode
 * components allow; a model is checked only when it changes (an imported node may keep a model
 * this server does not implement).
 */
export async function syncNodeRecord(
  tx: SqlQueryable,
  tld: string,
  sectionId: number,
  options: { rootTipo: string; modelChoices?: readonly string[]; dateModeChoices?: readonly string[] },
): Promise<SyncProblems> {
  const tipo = `${tld}${sectionId}`;
  const record = await readRecord(tx, 'matrix_ontology', {
    section_tipo: ontologySectionOf(tld),
    section_id: sectionId,
  });
  const row = record && nodeRowOf(tipo, record, tipo === options.rootTipo);
  const { rows } = await tx.query<{ model: string }>('SELECT model FROM dd_ontology WHERE tipo = $1', [tipo]);
  // Checked on drafts too: a model or date mode outside the lists is refused when it is saved.
  const problems: SyncProblems = [];
  const { modelChoices, dateModeChoices } = options;
  const model = record && textValues(record, F.model)[0];
  if (model !== undefined && rows[0]?.model !== model && modelChoices && !modelChoices.includes(model))
    problems.push(`${tipo}: the model "${model}" is not one of ${modelChoices.join(', ')}`);
  const dateMode = record && textValues(record, F.dateMode)[0];
  if (dateMode !== undefined && dateModeChoices && !dateModeChoices.includes(dateMode))
    problems.push(`${tipo}: the date mode "${dateMode}" is not one of ${dateModeChoices.join(', ')}`);
  if (problems.length > 0) return problems;
  if (!row) {
    if (rows[0]) await tx.query('DELETE FROM dd_ontology WHERE tipo = $1', [tipo]);
    return [];
  }
  await tx.query(
    `INSERT INTO dd_ontology
       (tipo, parent, term, model, order_number, relations, tld, properties, is_translatable)
     VALUES ($1, $2, $3::jsonb, $4,
       COALESCE($5::integer, (SELECT COALESCE(max(order_number), 0) + 1 FROM dd_ontology
                              WHERE parent IS NOT DISTINCT FROM $2 AND tipo <> $1)),
       $6::jsonb, $7, $8::jsonb, $9)
     ON CONFLICT (tipo) DO UPDATE SET parent = EXCLUDED.parent, term = EXCLUDED.term,
       model = EXCLUDED.model, order_number = COALESCE($5::integer, dd_ontology.order_number),
       relations = EXCLUDED.relations, properties = EXCLUDED.properties,
       is_translatable = EXCLUDED.is_translatable`,
    [
      tipo,
      row.parent,
      JSON.stringify(row.term),
      row.model,
      row.order_number,
      row.relations === null ? null : JSON.stringify(row.relations),
      tld,
      row.properties === null ? null : JSON.stringify(row.properties),
      row.is_translatable,
    ],
  );
  return [];
}

/**
 * Record -> main_dd for the main section: a record with a new code registers its TLD (its
 * ontology section appears), names follow the records. A registered code no record holds any
 * more was changed in its record: refused (a TLD is uninstalled by deleting its record).
 */
export async function syncMainRecords(tx: SqlQueryable): Promise<SyncProblems> {
  const records = await mainRecords(tx);
  const { rows: registered } = await tx.query<{ tld: string; name: string }>('SELECT tld, name FROM main_dd');
  const problems: SyncProblems = [];
  const seen = new Map<string, number>();
  for (const r of records) {
    if (r.tld === undefined) continue;
    if (!TLD_PATTERN.test(r.tld))
      problems.push(`record ${r.section_id}: "${r.tld}" is not a TLD (2 to 32 lowercase letters)`);
    else if (seen.has(r.tld))
      problems.push(`record ${r.section_id}: the TLD ${r.tld} is already record ${seen.get(r.tld)}`);
    seen.set(r.tld, r.section_id);
  }
  for (const { tld } of registered) {
    if (!seen.has(tld))
      problems.push(`the TLD ${tld} cannot be renamed or emptied: delete its record to uninstall it`);
  }
  if (problems.length > 0) return problems;
  const names = new Map(registered.map((r) => [r.tld, r.name]));
  for (const r of records) {
    if (r.tld === undefined) continue;
    const name = r.name ?? r.tld;
    if (!names.has(r.tld)) {
      await tx.query(`INSERT INTO main_dd (tld, name, source) VALUES ($1, $2, 'records')`, [r.tld, name]);
    } else if (names.get(r.tld) !== name) {
      await tx.query('UPDATE main_dd SET name = $2 WHERE tld = $1', [r.tld, name]);
    }
  }
  return [];
}
