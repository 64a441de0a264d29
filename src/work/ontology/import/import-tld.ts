/**
 * Imports one TLD of a Dédalo ontology file (jer_dd INSERT or COPY, dd_ontology COPY) into the
 * work database: the one operation behind `npm run work -- ontology import` and the API's
 * `dd_ontology_api` `import_ontology`.
 *
 * One transaction: the TLD's stored rows are compared with the file's (added, changed, removed,
 * unchanged by tipo, every stored column compared), written (writeTld), the TLD registered in
 * main_dd, and then the WHOLE resulting ontology is loaded with the loader's checks inside the
 * transaction: a broken result rolls everything back and every problem is reported. Records are
 * never read or written. Importing the same file again changes nothing (0 added, 0 changed,
 * 0 removed). The version trigger of migration 12 makes every running server load it on its
 * next request.
 */
import { basename } from 'node:path';
import { logActivity } from '../../store/activity.js';
import type { SqlClient, SqlQueryable } from '../../store/sql-client.js';
import { insertOntologyRows } from '../insert-ontology-rows.js';
import { OntologyError } from '../load-ontology.js';
import { mirrorTld, ONTOLOGY_WRITE_LOCK_KEY } from '../ontology-records.js';
import { tldOf } from '../ontology-schema.js';
import { loadStoredOntology } from '../ontology-store.js';
import type { ImportNode, ImportResult, ProblemKind } from './import-node.js';
import { OntologyParseError } from './parse-error.js';
import { readOntologyFile } from './read-ontology-file.js';
import { type TldImportReport, tipoList } from './tld-report.js';
import { type TldRow, tldRows } from './tld-rows.js';

/** The tipo the activity log names for ontology changes: the maintenance area. */
const ONTOLOGY_ACTIVITY_WHERE = 'dd88';

/** Problems that would lose data if the rows were written anyway. */
const BLOCKING: ReadonlySet<ProblemKind> = new Set(['bad_json', 'bad_value', 'model_unresolved']);

export type ImportRefusal = 'bad_file' | 'tld_required' | 'broken';

/** The import did not happen; `problems` says why, `report` what it would have done when known. */
export class OntologyImportRefused extends Error {
  constructor(
    readonly reason: ImportRefusal,
    readonly problems: string[],
    readonly report?: TldImportReport,
  ) {
    super(
      `${reason === 'broken' ? 'The ontology would be broken' : 'The file cannot be imported'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'OntologyImportRefused';
  }
}

export interface ImportTldOptions {
  text: string;
  /** Reported and recorded in main_dd's `source` as `import <file name>`. */
  fileName: string;
  /** The TLD to import; omitted, the file must hold exactly one TLD with elements. */
  tld?: string | null;
  dryRun?: boolean;
  userId: number;
  via: 'cli' | 'api';
  now: Date;
}

/** TLDs of the file that hold elements (not only model nodes). */
export function elementTlds(nodes: readonly ImportNode[]): string[] {
  return [...new Set(nodes.filter((n) => !n.is_model).map((n) => n.tld))].sort();
}

function read(text: string, tld?: string): ImportResult {
  try {
    return readOntologyFile(text, { tld });
  } catch (err) {
    if (err instanceof OntologyParseError) throw new OntologyImportRefused('bad_file', [err.message]);
    throw err;
  }
}

/** Which TLD the file's import is about: the one asked for, or the file's only one. */
export function chooseTld(whole: ImportResult, asked: string | null | undefined): string {
  const tlds = elementTlds(whole.nodes);
  if (asked) return asked;
  if (tlds.length === 1) return tlds[0]!;
  throw new OntologyImportRefused('tld_required', [
    `the file holds the TLDs ${tlds.join(', ')}: say which one to import with --tld (options.tld in the API); each TLD is imported on its own`,
  ]);
}

/** Key-order independent JSON, so a jsonb read back compares equal to what was written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

async function storedTldRows(tx: SqlQueryable, tld: string): Promise<Map<string, TldRow>> {
  const { rows } = await tx.query<{ row: TldRow }>(
    `SELECT jsonb_build_object('tipo', tipo, 'parent', parent, 'term', term, 'model', model,
       'order_number', order_number, 'relations', relations, 'tld', tld, 'properties', properties,
       'model_tipo', model_tipo, 'is_model', is_model, 'is_translatable', is_translatable) AS row
     FROM dd_ontology WHERE tld = $1`,
    [tld],
  );
  return new Map(rows.map((r) => [r.row.tipo, r.row]));
}

export interface TldWrite {
  tld: string;
  name: string;
  source: string;
  /** Added and changed rows of the TLD. */
  upsert: TldRow[];
  removed: string[];
  /** Model nodes of other TLDs: stored when their tipo is free, never replaced. */
  modelRows: TldRow[];
}

/**
 * Writes one TLD's change inside the caller's transaction; returns how many model nodes it
 * stored. The one place a TLD is written, so whatever must follow such a write (records that
 * mirror the ontology) is called from here.
 */
export async function writeTld(tx: SqlQueryable, w: TldWrite): Promise<number> {
  if (w.removed.length > 0) {
    await tx.query('DELETE FROM dd_ontology WHERE tld = $1 AND tipo = ANY($2::text[])', [w.tld, w.removed]);
  }
  await insertOntologyRows(tx, w.upsert, 'replace');
  const modelNodes = await insertOntologyRows(tx, w.modelRows, 'keep');
  await tx.query(
    `INSERT INTO main_dd (tld, name, source) VALUES ($1, $2, $3)
     ON CONFLICT (tld) DO UPDATE SET name = EXCLUDED.name, source = EXCLUDED.source
     WHERE main_dd.name IS DISTINCT FROM EXCLUDED.name OR main_dd.source IS DISTINCT FROM EXCLUDED.source`,
    [w.tld, w.name, w.source],
  );
  // The TLD's records (its `<tld>0` section, its main record) follow the rows.
  await mirrorTld(tx, w.tld);
  return modelNodes;
}

/** A dry run's way out of its transaction: everything it did is rolled back. */
class DryRunDone extends Error {
  constructor(readonly report: TldImportReport) {
    super('dry run');
  }
}

export async function importOntologyTld(db: SqlClient, o: ImportTldOptions): Promise<TldImportReport> {
  const whole = read(o.text);
  const tld = chooseTld(whole, o.tld);
  const { nodes, report: readReport } = read(o.text, tld);
  const file = basename(o.fileName);
  const blocking = readReport.problems.filter((p) => BLOCKING.has(p.kind));

  try {
    return await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ONTOLOGY_WRITE_LOCK_KEY]);
      const { ontology } = await loadStoredOntology(tx);
      const others = await tx.query<{ tipo: string }>(
        'SELECT tipo FROM dd_ontology WHERE tld <> $1 AND NOT is_model',
        [tld],
      );
      const plan = tldRows(nodes, whole.nodes, {
        rootTipo: ontology.rootTipo,
        elementTipos: new Set(others.rows.map((r) => r.tipo)),
        languages: new Set(ontology.languages.map((l) => l.code)),
      });
      const stored = await storedTldRows(tx, tld);
      const fileTipos = new Set(plan.rows.map((r) => r.tipo));
      const added = plan.rows.filter((r) => !stored.has(r.tipo));
      const changed = plan.rows.filter(
        (r) => stored.has(r.tipo) && canonical(stored.get(r.tipo)) !== canonical(r),
      );
      const removed = [...stored.keys()].filter((t) => !fileTipos.has(t)).sort();
      // Elements of other TLDs hanging from a node this import removes move under the root.
      const rootAfter = plan.rows.find((r) => !r.is_model && r.parent === null)?.tipo ?? ontology.rootTipo;
      const { rows: orphans } = await tx.query<{ tipo: string; parent: string; tld: string }>(
        `SELECT tipo, parent, tld FROM dd_ontology
         WHERE tld <> $1 AND NOT is_model AND parent = ANY($2::text[]) ORDER BY tipo`,
        [tld, removed],
      );
      const root = plan.rows.find((r) => !r.is_model && plan.attachedToRoot.some((a) => a.tipo === r.tipo));
      const name =
        (root && (root.term['lg-eng'] ?? root.term['lg-spa'] ?? Object.values(root.term)[0])) || tld;
      const { rows: registered } = await tx.query<{ tld: string }>('SELECT tld FROM main_dd');
      const installedTlds = new Set([...registered.map((r) => r.tld), tld]);
      const missing: Record<string, number> = {};
      for (const r of plan.rows) {
        if (r.is_model) continue;
        for (const { tipo } of r.relations ?? []) {
          const t = tldOf(tipo);
          if (!installedTlds.has(t)) missing[t] = (missing[t] ?? 0) + 1;
        }
      }
      const refused = [
        ...blocking.map((p) => `line ${p.line}: ${p.message}`),
        ...plan.withoutModel.map((t) => `${t} has no model`),
      ];
      const report: TldImportReport = {
        file,
        format: readReport.format,
        tld,
        name,
        dry_run: o.dryRun === true,
        written: false,
        added: tipoList(added.map((r) => r.tipo)),
        changed: tipoList(changed.map((r) => r.tipo)),
        removed: tipoList(removed),
        unchanged: plan.rows.length - added.length - changed.length,
        model_nodes_added: 0,
        models_not_implemented: readReport.models_not_implemented,
        relations_to_tlds_not_installed: missing,
        unresolved_models: readReport.unresolved_models,
        attached_to_root: plan.attachedToRoot,
        reattached_to_root: orphans.map((o) => ({ tipo: o.tipo, parent: o.parent })),
        labels_in_languages_not_offered: plan.languagesNotOffered,
        notes: plan.matrixTableNotes,
        problems: readReport.problems,
        refused: [],
      };
      if (refused.length > 0) throw new OntologyImportRefused('bad_file', refused, { ...report, refused });

      report.model_nodes_added = await writeTld(tx, {
        tld,
        name,
        source: `import ${file}`,
        upsert: [...added, ...changed],
        removed,
        modelRows: plan.modelRows,
      });
      if (orphans.length > 0) {
        await tx.query('UPDATE dd_ontology SET parent = $1 WHERE tipo = ANY($2::text[])', [
          rootAfter,
          orphans.map((o) => o.tipo),
        ]);
        for (const other of new Set(orphans.map((o) => o.tld))) await mirrorTld(tx, other);
      }
      try {
        await loadStoredOntology(tx);
      } catch (err) {
        if (!(err instanceof OntologyError)) throw err;
        throw new OntologyImportRefused('broken', err.problems, { ...report, refused: err.problems });
      }
      if (report.dry_run) throw new DryRunDone(report);
      await logActivity(tx, {
        userId: o.userId,
        what: 'ontology_import',
        where: ONTOLOGY_ACTIVITY_WHERE,
        when: o.now,
        data: {
          tld,
          file,
          format: report.format,
          added: report.added.count,
          changed: report.changed.count,
          removed: report.removed.count,
          via: o.via,
        },
      });
      return { ...report, written: true };
    });
  } catch (err) {
    if (err instanceof DryRunDone) return err.report;
    throw err;
  }
}
