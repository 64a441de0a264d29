/**
 * What the write paths (create, save, duplicate, delete) do when the section they write is an
 * ontology section (a `<tld>0` node section or the main TLD section), inside their transaction:
 *
 * - after the write, `afterOntologyWrite` brings dd_ontology / main_dd in step with the written
 *   records (ontology-records.ts), then loads the whole candidate ontology from the transaction:
 *   a change that would break it (unknown parent, model not implemented, target that is not a
 *   section, a cycle ...) is refused with 400 `ontology.invalid` listing the problems, and the
 *   transaction rolls back, so nothing is written. The commit bumps ontology_version (trigger):
 *   every instance loads the new ontology on its next request.
 * - before a delete_record, `beforeOntologyDelete`: removing a component node counts the records
 *   holding values of it (the values stay stored, hidden, and show again if the node returns);
 *   deleting a main record uninstalls its TLD (refused for the TLDs the server needs, and while
 *   records of its sections exist unless the caller confirms; those records are kept, hidden).
 */
import { WorkError } from '../dispatch/error-registry.js';
import type { MatrixTable } from '../store/matrix-tables.js';
import { checkedColumn, checkedTable, readRecords } from '../store/record-rows.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import { defaultOntologySource } from './default-ontology.js';
import { insertOntologyRows } from './insert-ontology-rows.js';
import { loadOntology, type Ontology, OntologyError } from './load-ontology.js';
import {
  mirrorMain,
  mirrorTld,
  ONTOLOGY_WRITE_LOCK_KEY,
  syncMainRecords,
  syncNodeRecord,
} from './ontology-records.js';
import { type OntologySeed, tldOf } from './ontology-schema.js';
import {
  MAIN_TLD,
  NODE_FIELDS,
  ONTOLOGY_MAIN_SECTION,
  ONTOLOGY_TEMPLATE_SECTION,
  ONTOLOGY_TLD,
  ontologySectionOf,
} from './ontology-sections.js';
import { ontologyRows, readStoredOntology } from './ontology-store.js';

/** Tables of the records that make the server work: a TLD with a section in one is not uninstalled. */
const SYSTEM_TABLES: readonly MatrixTable[] = [
  'matrix_users',
  'matrix_profiles',
  'matrix_projects',
  'matrix_activity',
  'matrix_ontology',
  'matrix_ontology_main',
];

export type OntologySectionKind = 'node' | 'main';

/** Whether `sectionTipo` is an ontology section, and which kind. */
export function ontologySectionKind(
  ontology: Ontology,
  sectionTipo: string,
): OntologySectionKind | undefined {
  if (sectionTipo === ONTOLOGY_MAIN_SECTION) return 'main';
  if (ontology.virtualOf(sectionTipo) === ONTOLOGY_TEMPLATE_SECTION) return 'node';
  return undefined;
}

const choicesOf = (ontology: Ontology, tipo: string): readonly string[] | undefined => {
  const choices = ontology.node(tipo)?.properties?.choices;
  return Array.isArray(choices) ? choices.filter((c): c is string => typeof c === 'string') : undefined;
};

function refuse(problems: readonly string[]): WorkError {
  return new WorkError(
    'ontology.invalid',
    `The change would break the ontology: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    undefined,
    { problems },
  );
}

/** The whole ontology as this transaction sees it, checked; 400 ontology.invalid when broken. */
export async function assertOntologyValid(tx: SqlQueryable): Promise<void> {
  const stored = await readStoredOntology(tx);
  let problems = stored.problems;
  try {
    loadOntology(stored.source);
  } catch (err) {
    if (!(err instanceof OntologyError)) throw err;
    problems = [...problems, ...err.problems];
  }
  if (problems.length > 0) throw refuse(problems);
}

/**
 * After create/save/duplicate/delete of records `ids` of an ontology section: their rows follow
 * them, and the resulting ontology must load. Throws (rolling the caller's transaction back).
 */
export async function afterOntologyWrite(
  tx: SqlQueryable,
  ontology: Ontology,
  sectionTipo: string,
  ids: readonly number[],
  options: { created?: boolean } = {},
): Promise<void> {
  const kind = ontologySectionKind(ontology, sectionTipo);
  if (!kind) return;
  // Ontology writers one at a time (imports too): the check below sees every committed change.
  await tx.query('SELECT pg_advisory_xact_lock($1)', [ONTOLOGY_WRITE_LOCK_KEY]);
  const problems: string[] = [];
  if (kind === 'main') {
    problems.push(...(await syncMainRecords(tx)));
  } else {
    const tld = tldOf(sectionTipo);
    if (options.created && (await nodesExist(tx, tld, ids))) {
      // A node written without its record (SQL straight into dd_ontology) holds this tipo: the
      // TLD's records are brought in step (the new record shows that node, the counter moves
      // past it) instead of the node being overwritten or removed.
      await mirrorTld(tx, tld);
      return;
    }
    for (const id of ids) {
      problems.push(
        ...(await syncNodeRecord(tx, tld, id, {
          rootTipo: ontology.rootTipo,
          modelChoices: choicesOf(ontology, NODE_FIELDS.model),
          dateModeChoices: choicesOf(ontology, NODE_FIELDS.dateMode),
        })),
      );
    }
  }
  if (problems.length > 0) throw refuse(problems);
  await assertOntologyValid(tx);
}

async function nodesExist(tx: SqlQueryable, tld: string, ids: readonly number[]): Promise<boolean> {
  const { rowCount } = await tx.query('SELECT 1 FROM dd_ontology WHERE tipo = ANY($1::text[])', [
    ids.map((id) => `${tld}${id}`),
  ]);
  return rowCount > 0;
}

/** What a delete of ontology records reports (the answer's extensions). */
export interface OntologyDeleteReport {
  /** Component tipo -> records holding values of it (kept, hidden). */
  removed_component_values?: Record<string, number>;
  /** TLDs uninstalled, and per section of each the records kept hidden in storage. */
  uninstalled?: { tld: string; kept_records: Record<string, number> }[];
}

/** Records per section, for the sections of `ontology` in the TLD (virtual ones have none of theirs). */
async function recordsPerSection(
  tx: SqlQueryable,
  ontology: Ontology,
  tld: string,
): Promise<Record<string, number>> {
  const byTable = new Map<MatrixTable, string[]>();
  for (const s of ontology.sections()) {
    if (tldOf(s.tipo) !== tld || ontology.virtualOf(s.tipo)) continue;
    const table = ontology.tableOf(s.tipo)!;
    byTable.set(table, [...(byTable.get(table) ?? []), s.tipo]);
  }
  const counts: Record<string, number> = {};
  for (const [table, sections] of byTable) {
    const { rows } = await tx.query<{ section_tipo: string; n: string }>(
      `SELECT section_tipo, count(*)::text AS n FROM ${checkedTable(table)}
       WHERE section_tipo = ANY($1::text[]) GROUP BY section_tipo`,
      [sections],
    );
    for (const r of rows) counts[r.section_tipo] = Number(r.n);
  }
  return counts;
}

/** The TLDs the server itself needs: its own, the root's, and any holding a system table's section. */
function protectedTlds(ontology: Ontology): Set<string> {
  const tlds = new Set(['dd', ONTOLOGY_TLD, tldOf(ontology.rootTipo)]);
  for (const s of ontology.sections()) {
    if (ontology.virtualOf(s.tipo)) continue;
    if (SYSTEM_TABLES.includes(ontology.tableOf(s.tipo)!)) tlds.add(tldOf(s.tipo));
  }
  return tlds;
}

/**
 * Uninstalls `tld` (its main record is about to be deleted by the caller): refused for the TLDs
 * the server needs (409 ontology.tld_protected) and, unless `confirm`, while records of its
 * sections exist (409 ontology.tld_has_records, details.records per section). Its node records go
 * to history as snapshots, then its nodes, node records and registry row are removed. The records
 * of its sections stay where they are: no loaded section owns them, so no read lists them.
 */
async function uninstallTld(
  tx: SqlQueryable,
  ontology: Ontology,
  tld: string,
  confirm: boolean,
  userId: number,
  now: Date,
): Promise<{ tld: string; kept_records: Record<string, number> }> {
  if (protectedTlds(ontology).has(tld)) {
    throw new WorkError(
      'ontology.tld_protected',
      `The TLD ${tld} cannot be uninstalled: the server itself needs it (its users, profiles, projects, activity or ontology sections)`,
      undefined,
      { tld },
    );
  }
  const records = await recordsPerSection(tx, ontology, tld);
  const total = Object.values(records).reduce((a, b) => a + b, 0);
  if (total > 0 && !confirm) {
    throw new WorkError(
      'ontology.tld_has_records',
      `The TLD ${tld} has ${total} record${total === 1 ? '' : 's'} in its sections: send options.confirm_uninstall: true to uninstall it anyway (the records are kept, hidden)`,
      undefined,
      { tld, records },
    );
  }
  const sectionTipo = ontologySectionOf(tld);
  await tx.query(
    `INSERT INTO matrix_time_machine (kind, section_tipo, section_id, tipo, lang, data, user_id, created_at)
     SELECT 'snapshot', section_tipo, section_id, NULL, NULL,
       jsonb_build_object('string', string, 'relation', relation, 'date', date, 'number', number,
         'media', media, 'misc', misc, 'meta', meta, 'created_at', created_at, 'created_by', created_by,
         'modified_at', modified_at, 'modified_by', modified_by),
       $2, $3::timestamptz
     FROM matrix_ontology WHERE section_tipo = $1`,
    [sectionTipo, userId, now.toISOString()],
  );
  await tx.query('DELETE FROM matrix_ontology WHERE section_tipo = $1', [sectionTipo]);
  await tx.query('DELETE FROM dd_ontology WHERE tld = $1', [tld]);
  await tx.query('DELETE FROM main_dd WHERE tld = $1', [tld]);
  return { tld, kept_records: records };
}

/** Records of `table` holding a value of component `tipo` (any section, any language). */
async function recordsHoldingValues(
  tx: SqlQueryable,
  ontology: Ontology,
  tipo: string,
): Promise<number | undefined> {
  const column = ontology.dataColumnOf(tipo);
  const section = ontology.sectionOf(tipo);
  const table = section && ontology.tableOf(section.tipo);
  if (!column || !table) return undefined;
  const { rows } = await tx.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM ${checkedTable(table)}
     WHERE jsonb_typeof(${checkedColumn(column)} -> $1) = 'array'
       AND jsonb_array_length(${checkedColumn(column)} -> $1) > 0`,
    [tipo],
  );
  return Number(rows[0]!.n);
}

/**
 * Before records `ids` of an ontology section are deleted (delete_record): the report of what
 * goes, and the uninstall of TLDs whose main record goes. Nothing of the data is touched.
 */
export async function beforeOntologyDelete(
  tx: SqlQueryable,
  ontology: Ontology,
  sectionTipo: string,
  ids: readonly number[],
  options: { confirmUninstall: boolean; userId: number; now: Date },
): Promise<OntologyDeleteReport> {
  const kind = ontologySectionKind(ontology, sectionTipo);
  if (!kind) return {};
  await tx.query('SELECT pg_advisory_xact_lock($1)', [ONTOLOGY_WRITE_LOCK_KEY]);
  if (kind === 'node') {
    const removed: Record<string, number> = {};
    const tld = tldOf(sectionTipo);
    for (const id of ids) {
      const count = await recordsHoldingValues(tx, ontology, `${tld}${id}`);
      if (count !== undefined) removed[`${tld}${id}`] = count;
    }
    return Object.keys(removed).length > 0 ? { removed_component_values: removed } : {};
  }
  const uninstalled = [];
  for (const row of await readRecords(tx, 'matrix_ontology_main', sectionTipo, ids)) {
    const item = row.string?.[MAIN_TLD]?.[0] as { value?: unknown } | undefined;
    if (typeof item?.value !== 'string' || item.value === '') continue;
    uninstalled.push(
      await uninstallTld(
        tx,
        ontology,
        item.value.trim(),
        options.confirmUninstall,
        options.userId,
        options.now,
      ),
    );
  }
  return uninstalled.length > 0 ? { uninstalled } : {};
}

/**
 * At start, in one transaction: the `ontology` TLD of the default content added to a database
 * installed before it existed (when its parent is there), the main records mirrored from
 * main_dd, and every TLD without records mirrored from its rows (nothing lost).
 */
export async function ensureOntologyRecords(
  client: SqlClient,
  source: OntologySeed = defaultOntologySource(),
): Promise<void> {
  await client.transaction((tx) => ensureIn(tx, source));
}

async function ensureIn(tx: SqlQueryable, source: OntologySeed): Promise<void> {
  const defaultRows = ontologyRows(source);
  const defaultTld = source.tlds?.find((t) => t.tld === ONTOLOGY_TLD);
  await tx.query('SELECT pg_advisory_xact_lock($1)', [ONTOLOGY_WRITE_LOCK_KEY]);
  const { rowCount: hasTld } = await tx.query('SELECT 1 FROM main_dd WHERE tld = $1', [ONTOLOGY_TLD]);
  const own = defaultRows.filter((r) => tldOf(r.tipo) === ONTOLOGY_TLD);
  const anchor = own.find((r) => r.parent !== null && tldOf(r.parent) !== ONTOLOGY_TLD)?.parent;
  if (hasTld === 0 && defaultTld && anchor) {
    const { rowCount: anchored } = await tx.query('SELECT 1 FROM dd_ontology WHERE tipo = $1', [anchor]);
    if (anchored) {
      await tx.query(`INSERT INTO main_dd (tld, name, source) VALUES ($1, $2, 'default')`, [
        defaultTld.tld,
        defaultTld.name,
      ]);
      await insertOntologyRows(tx, own, 'keep');
    }
  }
  await mirrorMain(tx);
  const { rows } = await tx.query<{ tld: string }>(
    `SELECT m.tld FROM main_dd m
     WHERE NOT EXISTS (SELECT 1 FROM matrix_ontology o WHERE o.section_tipo = m.tld || '0')`,
  );
  for (const { tld } of rows) await mirrorTld(tx, tld);
}
