/**
 * exportSection: the records of one section that a list's search selects, written as CSV to a
 * stream, for the CLI (`npm run work -- export`) and the download route (export-route.ts).
 *
 * Two formats (docs/import-export.md, "Exporting a section"):
 * - `dedalo`: Dédalo's CSV, for a re-import: `;`-separated, a header of `section_id` and the
 *   component tipos in ontology order, each cell the component's stored value encoded by the
 *   shared format module (dedalo-csv-format.ts), so export, import and export again give the
 *   same file;
 * - `plain`: for people: UTF-8 with a BOM, `,`-separated, a header of the components' labels in
 *   the data language and each cell its display value (display-values.ts), formula-looking cells
 *   neutralised (formula-cells.ts).
 *
 * What the user may read and nothing else: level >= 1 on the section and on every section the
 * filter reads, only the components with level >= 1, only the records in their projects (the
 * search's own scope). Passwords are never exported.
 *
 * Consistency: on PostgreSQL the whole file is read in one REPEATABLE READ, READ ONLY
 * transaction (one snapshot, whatever is saved meanwhile). The embedded PGlite runs one
 * transaction at a time for the whole process, so holding one open while a client downloads
 * would stop every other request: there each page is read on its own (each page consistent;
 * a record saved during the export may show its new value in a later page).
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { assertCan, PermissionDenied, type UserAccess } from '../auth/permissions.js';
import { labelOf } from '../context/element-context.js';
import { WorkError } from '../dispatch/error-registry.js';
import { COMPONENT_MODELS, isComponentModel } from '../ontology/component-models.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import { parseSqo, sectionsReadBy } from '../search/parse-sqo.js';
import { scopeFor } from '../search/search-scope.js';
import type { ScopeFn } from '../search/sqo-sql.js';
import type { Sqo } from '../search/sqo-types.js';
import { isMatrixTable } from '../store/matrix-tables.js';
import type { MatrixRow } from '../store/record-rows.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import {
  cellKindOf,
  DEFAULT_SEPARATOR,
  encodeCell,
  headerCell,
  SECTION_ID_COLUMN,
} from './dedalo-csv-format.js';
import { displayValue, targetNames } from './display-values.js';
import { exportPages } from './export-pages.js';
import { neutraliseFormula } from './formula-cells.js';

export const EXPORT_FORMATS = ['dedalo', 'plain'] as const;
export type SectionExportFormat = (typeof EXPORT_FORMATS)[number];

export const isExportFormat = (v: unknown): v is SectionExportFormat =>
  typeof v === 'string' && (EXPORT_FORMATS as readonly string[]).includes(v);

/** Models never exported: a password's stored hash is nobody's business. */
const NEVER_EXPORTED = new Set(['component_password']);
/** Not for people: the plain file leaves out the profiles' permission tables. */
const NOT_IN_PLAIN = new Set(['component_security_access']);

export interface ExportRequest {
  sectionTipo: string;
  format: SectionExportFormat;
  /** The data language of the plain file's labels and texts (the Dédalo file has every language). */
  lang: string;
  /** The list's search (an SQO as the client sends it); absent: every record of the section. */
  sqo?: unknown;
}

/** A checked export: what will be written, decided before the first byte is. */
export interface ExportPlan {
  sectionTipo: string;
  format: SectionExportFormat;
  lang: string;
  sqo: Sqo;
  columns: readonly OntologyNode[];
  scope: ScopeFn;
}

/**
 * Checks the request against the ontology and the user's access; throws WorkError (bad section,
 * language or SQO) or PermissionDenied before anything is written.
 */
export function planExport(ontology: Ontology, access: UserAccess, request: ExportRequest): ExportPlan {
  const { sectionTipo } = request;
  const section = ontology.node(sectionTipo);
  const table = ontology.tableOf(sectionTipo);
  if (section?.model !== 'section' || !table || !isMatrixTable(table)) {
    throw new WorkError(
      'element.unknown_tipo',
      `${sectionTipo.slice(0, 64)} is not a section of the ontology`,
    );
  }
  if (!isExportFormat(request.format)) {
    throw new WorkError('export.invalid_format', `format must be one of ${EXPORT_FORMATS.join(', ')}`);
  }
  if (request.lang === NO_LANG || !ontology.isLanguage(request.lang)) {
    throw new WorkError('lang.not_allowed', `${request.lang.slice(0, 16)} is not a data language`);
  }
  const raw = request.sqo ?? {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new WorkError('search.invalid_sqo', 'sqo must be an object');
  }
  const given = (raw as { section_tipo?: unknown }).section_tipo;
  const names = given === undefined ? [sectionTipo] : Array.isArray(given) ? given : [given];
  if (names.length !== 1 || names[0] !== sectionTipo) {
    throw new WorkError('search.invalid_sqo', `sqo.section_tipo must be the exported section ${sectionTipo}`);
  }
  const sqo = parseSqo({ ...raw, section_tipo: [sectionTipo] }, ontology, { lang: request.lang });
  if (sqo.mode !== 'search') throw new WorkError('search.invalid_sqo', 'sqo.mode must be search');
  if (!access.active) throw new PermissionDenied(access.userId, 'inactive');
  for (const st of new Set([sectionTipo, ...sectionsReadBy(sqo)])) assertCan(access, 'read', st);
  const columns = ontology
    .sectionComponents(sectionTipo)
    .filter(
      (c) =>
        isComponentModel(c.model) &&
        !NEVER_EXPORTED.has(c.model) &&
        !(request.format === 'plain' && NOT_IN_PLAIN.has(c.model)) &&
        access.level(sectionTipo, c.tipo) >= 1,
    );
  return {
    sectionTipo,
    format: request.format,
    lang: request.lang,
    sqo,
    columns,
    scope: scopeFor(ontology, access),
  };
}

/** The file name a download offers: `<section>.csv`, `<section>-plain-<lang>.csv`. */
export function exportFileName(plan: ExportPlan): string {
  return plan.format === 'dedalo'
    ? `${plan.sectionTipo}.csv`
    : `${plan.sectionTipo}-plain-${plan.lang.replace(/^lg-/, '')}.csv`;
}

async function* csvRows(
  db: SqlQueryable,
  ontology: Ontology,
  access: UserAccess,
  plan: ExportPlan,
  counted: { records: number },
): AsyncGenerator<string[]> {
  const { columns, lang } = plan;
  if (plan.format === 'dedalo') {
    yield [SECTION_ID_COLUMN, ...columns.map((c) => headerCell(c.tipo))];
  } else {
    yield [SECTION_ID_COLUMN, ...columns.map((c) => labelOf(c, lang))].map(neutraliseFormula);
  }
  const relations = columns.filter((c) => isComponentModel(c.model) && COMPONENT_MODELS[c.model].relation);
  for await (const page of exportPages(db, ontology, plan.sqo, plan.scope)) {
    const names =
      plan.format === 'plain'
        ? await targetNames(db, ontology, access, page, relations, lang)
        : new Map<string, string>();
    for (const row of page) {
      counted.records += 1;
      yield plan.format === 'dedalo'
        ? [String(row.section_id), ...columns.map((c) => encodeCell(cellKindOf(c.model), cellItems(c, row)))]
        : [
            String(row.section_id),
            ...columns.map((c) => neutraliseFormula(displayValue(c, row, lang, names))),
          ];
    }
  }
}

/** A component's stored items in a row. */
function cellItems(node: OntologyNode, row: MatrixRow): unknown[] {
  if (!isComponentModel(node.model)) return [];
  const value = row[COMPONENT_MODELS[node.model].column]?.[node.tipo];
  return Array.isArray(value) ? value : [];
}

/**
 * Writes the planned export to `out` (ended when done), with the stream's backpressure: rows are
 * read only as fast as `out` takes them. Rejects, with `out` destroyed, when reading or writing
 * fails (a client gone, a database error): the file is cut short, never silently incomplete.
 */
export async function writeExport(
  db: SqlClient,
  ontology: Ontology,
  access: UserAccess,
  plan: ExportPlan,
  out: Writable,
): Promise<{ records: number }> {
  const counted = { records: 0 };
  // A line break of either kind inside a cell is quoted (csv-stringify alone quotes only the
  // record delimiter), so no spreadsheet splits a record in two.
  const quoted_match = /[\r\n]/;
  const csv = () =>
    stringify(
      plan.format === 'dedalo'
        ? { delimiter: DEFAULT_SEPARATOR, record_delimiter: '\n', quoted_match }
        : { delimiter: ',', bom: true, record_delimiter: '\r\n', quoted_match },
    );
  const run = (q: SqlQueryable) =>
    pipeline(Readable.from(csvRows(q, ontology, access, plan, counted)), csv(), out);
  if (db.engine === 'postgres') {
    await db.transaction(
      async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        await run(tx);
      },
      // A download lasts as long as the client reads: no statement or idle limit cuts it.
      { unlimited: true },
    );
  } else {
    await run(db);
  }
  return counted;
}
