/**
 * The ontology in the work database (migration 12): the `dd_ontology` table in Dédalo's shape
 * (one row per element: tipo, parent, term per language, model, order_number, relations, tld,
 * properties, is_translatable, ...), the TLD registry `main_dd`, the language allowlist
 * `dd_ontology_languages`, and `ontology_version`, bumped by a statement trigger on any write to
 * those three tables (from the API or from an operator's SQL).
 *
 * - installDefaultOntology: on first start, an empty table receives default-ontology.json.
 * - loadStoredOntology: reads all of it in one statement (one snapshot, tagged with its version)
 *   and builds the Ontology; a broken one is refused whole, with every problem listed.
 * - LiveOntology: what a server holds. Each request compares the committed version (read by its
 *   first statement, beside the session: `at(version)`; or `current()`, one tiny query), and a
 *   change committed by any instance is loaded before the request goes on. The request then
 *   keeps that Ontology object to its end, whatever changes meanwhile.
 */

import { isMatrixTable } from '../store/matrix-tables.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import { COMPONENT_MODELS, isComponentModel } from './component-models.js';
import { defaultOntologySource } from './default-ontology.js';
import { insertOntologyRows } from './insert-ontology-rows.js';
import { isImplementedModel, loadOntology, type Ontology, OntologyError } from './load-ontology.js';
import { type OntologyNode, type OntologySeed, tldOf } from './ontology-schema.js';

/** Arbitrary constant shared by every instance: "the default ontology is being installed". */
const INSTALL_LOCK_KEY = 7_314_200_503;

/** Keys of `properties` that hold our section settings (the seed's matrix_table and read_only). */
const SECTION_SETTINGS = ['matrix_table', 'read_only'] as const;

/** A `dd_ontology` row as this module writes and reads it. */
export interface OntologyRow {
  tipo: string;
  parent: string | null;
  term: Record<string, string>;
  model: string;
  order_number: number;
  /** `[{tipo}]`: a relation component's target sections. */
  relations: { tipo: string }[] | null;
  tld: string;
  properties: Record<string, unknown> | null;
  is_translatable: boolean;
  is_model: boolean;
}

/** The rows of a source: siblings numbered 1, 2, ... in their order in the list. */
export function ontologyRows(source: OntologySeed): OntologyRow[] {
  const siblings = new Map<string | null, number>();
  return source.nodes.map((n) => {
    const order = (siblings.get(n.parent) ?? 0) + 1;
    siblings.set(n.parent, order);
    const settings: Record<string, unknown> = {};
    if (n.matrix_table !== undefined) settings.matrix_table = n.matrix_table;
    if (n.read_only !== undefined) settings.read_only = n.read_only;
    const properties = { ...n.properties, ...settings };
    return {
      tipo: n.tipo,
      parent: n.parent,
      term: n.label,
      model: n.model,
      order_number: order,
      relations: n.target_section_tipo ? n.target_section_tipo.map((tipo) => ({ tipo })) : null,
      tld: tldOf(n.tipo),
      properties: Object.keys(properties).length > 0 ? properties : null,
      is_translatable: n.translatable === true,
      is_model: false,
    };
  });
}

/**
 * Installs the default content when `dd_ontology` is empty (first start, or a database from
 * before the table existed). Under a lock: two instances starting at once install it once.
 * Returns whether this call installed it.
 */
export async function installDefaultOntology(
  client: SqlClient,
  source: OntologySeed = defaultOntologySource(),
): Promise<boolean> {
  const empty = async (db: SqlQueryable) =>
    (await db.query('SELECT 1 FROM dd_ontology LIMIT 1')).rowCount === 0;
  if (!(await empty(client))) return false;
  return client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [INSTALL_LOCK_KEY]);
    if (!(await empty(tx))) return false;
    await tx.query(
      `INSERT INTO main_dd (tld, name, source)
       SELECT tld, name, 'default' FROM jsonb_to_recordset($1::text::jsonb) AS r(tld text, name text)
       ON CONFLICT (tld) DO NOTHING`,
      [JSON.stringify(source.tlds ?? [])],
    );
    await tx.query(
      `INSERT INTO dd_ontology_languages (code, label, order_number)
       SELECT code, label, order_number
       FROM jsonb_to_recordset($1::text::jsonb) AS r(code text, label text, order_number integer)
       ON CONFLICT (code) DO NOTHING`,
      [JSON.stringify(source.languages.map((l, i) => ({ ...l, order_number: i + 1 })))],
    );
    await insertOntologyRows(tx, ontologyRows(source), 'error');
    return true;
  });
}

export async function readOntologyVersion(db: SqlQueryable): Promise<number> {
  const { rows } = await db.query<{ version: string }>(
    'SELECT version::text AS version FROM ontology_version WHERE id = 1',
  );
  if (!rows[0]) throw new Error('ontology: the ontology_version row is missing (migration 12)');
  return Number(rows[0].version);
}

interface StoredOntology {
  version: number;
  source: OntologySeed;
  /** What is wrong in the rows themselves (before the ontology's own checks). */
  problems: string[];
}

const takesTargets = (model: string) =>
  model === 'section' ||
  (isComponentModel(model) ? COMPONENT_MODELS[model].relation : !isImplementedModel(model));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rows back into a source: siblings in order_number order (then tipo), the whole list in
 * tree order from the root, so sections and components keep their ontology order. Rows the walk
 * from the root does not reach (a missing parent, a cycle) are appended, so the checks name them.
 */
function sourceFromRows(
  rows: OntologyRow[],
  languages: { code: string; label: string }[],
  tlds: { tld: string; name: string }[],
): { source: OntologySeed; problems: string[] } {
  const problems: string[] = [];
  const nodes = new Map<string, OntologyNode>();
  const rowByTipo = new Map(rows.map((r) => [r.tipo, r]));
  for (const row of rows) {
    if (row.is_model) continue; // model definitions (Dédalo 6 imports) are not elements
    if (row.tld !== tldOf(row.tipo))
      problems.push(`${row.tipo} has tld "${row.tld}", not ${tldOf(row.tipo)}`);
    const properties = isObject(row.properties) ? { ...row.properties } : undefined;
    if (row.properties !== null && !isObject(row.properties))
      problems.push(`${row.tipo}: properties is not an object`);
    const settings: Partial<Pick<OntologyNode, 'matrix_table' | 'read_only'>> = {};
    for (const key of SECTION_SETTINGS) {
      if (properties && key in properties) {
        (settings as Record<string, unknown>)[key] = properties[key];
        delete properties[key];
      }
    }
    let targets: string[] | undefined;
    // Dédalo gives relations other meanings on other models (a section's link to its matrix
    // table node, a list's columns): only a relation component's relations are its targets.
    if (row.relations !== null && takesTargets(row.model)) {
      if (!Array.isArray(row.relations)) problems.push(`${row.tipo}: relations is not a list`);
      else targets = row.relations.map((r) => (isObject(r) ? String(r.tipo) : String(r)));
      if (targets?.length === 0) targets = undefined;
    }
    if (row.model === 'section' && targets) {
      // A section's relations: its table (Dédalo's matrix_table link) and, for a virtual
      // section, its real section.
      targets = dedaloSectionTable(targets, rowByTipo, settings);
    }
    nodes.set(row.tipo, {
      tipo: row.tipo,
      parent: row.parent,
      model: row.model,
      label: row.term,
      ...(row.is_translatable ? { translatable: true } : {}),
      ...(targets ? { target_section_tipo: targets } : {}),
      ...settings,
      ...(properties && Object.keys(properties).length > 0 ? { properties } : {}),
    } as OntologyNode);
  }
  const order = new Map(rows.map((r) => [r.tipo, r.order_number]));
  const childrenOf = new Map<string | null, string[]>();
  for (const tipo of nodes.keys()) {
    const parent = nodes.get(tipo)!.parent;
    const siblings = childrenOf.get(parent);
    if (siblings) siblings.push(tipo);
    else childrenOf.set(parent, [tipo]);
  }
  for (const list of childrenOf.values()) {
    list.sort((a, b) => order.get(a)! - order.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  }
  const ordered: OntologyNode[] = [];
  const placed = new Set<string>();
  const walk = (parent: string | null) => {
    for (const tipo of childrenOf.get(parent) ?? []) {
      if (placed.has(tipo)) continue;
      placed.add(tipo);
      ordered.push(nodes.get(tipo)!);
      walk(tipo);
    }
  };
  walk(null);
  for (const [tipo, node] of nodes) if (!placed.has(tipo)) ordered.push(node);
  return { source: { languages, tlds, nodes: ordered }, problems };
}

/**
 * A Dédalo section names the table its records live in by a relation to a `matrix_table` element
 * whose label is the table's name (an imported ontology has no `matrix_table` setting). That
 * relation becomes the section's table when its properties name none; a table this archive does
 * not have (matrix_dd, matrix_list, matrix_tools, ...: value lists and registers) is `matrix`,
 * where records of every other section live. A section in `matrix_activity` is the activity log,
 * written by the server only: read-only unless its properties say otherwise. Returns the
 * relations that are not tables.
 */
function dedaloSectionTable(
  targets: string[],
  rowByTipo: ReadonlyMap<string, OntologyRow>,
  settings: Partial<Pick<OntologyNode, 'matrix_table' | 'read_only'>>,
): string[] | undefined {
  const tables = targets.filter((t) => rowByTipo.get(t)?.model === 'matrix_table');
  const first = tables[0] && rowByTipo.get(tables[0]);
  if (first && settings.matrix_table === undefined) {
    const name = Object.values(first.term ?? {})[0]?.trim() ?? '';
    settings.matrix_table = isMatrixTable(name) ? name : 'matrix';
  }
  if (settings.matrix_table === 'matrix_activity' && settings.read_only === undefined)
    settings.read_only = true;
  // What remains is the real section of a virtual one; Dédalo's other links of a section (to
  // models, lists, tools) stay stored and are not targets.
  const rest = targets.filter((t) => !tables.includes(t) && rowByTipo.get(t)?.model === 'section');
  return rest.length > 0 ? rest : undefined;
}

/**
 * Everything, in one statement: one snapshot, tagged with the version it had. One row per
 * element, language and TLD, each a single JSON text (`[kind, ...fields]`) parsed here: an
 * aggregate of 20,000 elements in one value grew the embedded database's memory by about 100 MB
 * for good, and ten columns per row cost the embedded driver two to three times the time of one.
 */
export async function readStoredOntology(db: SqlQueryable): Promise<StoredOntology> {
  const { rows } = await db.query<{ r: string }>(
    `SELECT json_build_array('v', v.version::text)::text AS r FROM ontology_version v WHERE v.id = 1
     UNION ALL
     SELECT json_build_array('n', o.tipo, o.parent, o.term, o.model, o.order_number, o.relations,
       o.tld, o.properties, o.is_translatable, o.is_model)::text
     FROM dd_ontology o
     UNION ALL
     SELECT json_build_array('l', l.code, l.label, l.order_number)::text FROM dd_ontology_languages l
     UNION ALL
     SELECT json_build_array('t', t.tld, t.name)::text FROM main_dd t`,
  );
  let version: string | undefined;
  const nodes: OntologyRow[] = [];
  const languages: { code: string; label: string; order: number }[] = [];
  const tlds: { tld: string; name: string }[] = [];
  for (const { r } of rows) {
    const row = JSON.parse(r) as unknown[];
    if (row[0] === 'n') {
      const [
        ,
        tipo,
        parent,
        term,
        model,
        order_number,
        relations,
        tld,
        properties,
        is_translatable,
        is_model,
      ] = row as [
        string,
        string,
        string | null,
        Record<string, string>,
        string,
        number,
        OntologyRow['relations'],
        string,
        OntologyRow['properties'],
        boolean,
        boolean,
      ];
      nodes.push({
        tipo,
        parent,
        term,
        model,
        order_number,
        relations,
        tld,
        properties,
        is_translatable,
        is_model,
      });
    } else if (row[0] === 'l') {
      languages.push({ code: String(row[1]), label: String(row[2]), order: Number(row[3]) });
    } else if (row[0] === 't') tlds.push({ tld: String(row[1]), name: String(row[2]) });
    else if (row[0] === 'v') version = String(row[1]);
  }
  if (version === undefined) throw new Error('ontology: the ontology_version row is missing (migration 12)');
  languages.sort((a, b) => a.order - b.order || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  tlds.sort((a, b) => (a.tld < b.tld ? -1 : a.tld > b.tld ? 1 : 0));
  const { source, problems } = sourceFromRows(
    nodes,
    languages.map(({ code, label }) => ({ code, label })),
    tlds,
  );
  return { version: Number(version), source, problems };
}

/** The stored ontology, checked; OntologyError (every problem listed) when it is broken. */
export async function loadStoredOntology(db: SqlQueryable): Promise<{ ontology: Ontology; version: number }> {
  const stored = await readStoredOntology(db);
  return { ontology: checkStored(stored), version: stored.version };
}

function checkStored(stored: StoredOntology): Ontology {
  if (stored.source.nodes.length === 0) {
    throw new OntologyError(['the dd_ontology table is empty']);
  }
  let ontology: Ontology | undefined;
  let problems = stored.problems;
  try {
    ontology = loadOntology(stored.source);
  } catch (err) {
    if (!(err instanceof OntologyError)) throw err;
    problems = [...problems, ...err.problems];
  }
  if (problems.length > 0 || !ontology) throw new OntologyError(problems);
  return ontology;
}

/** What the app and the request context read the ontology through. */
export interface OntologyProvider {
  /** The ontology for a request starting now: the latest committed version (one tiny query). */
  current(): Promise<Ontology>;
  /**
   * The ontology of a committed version the caller has just read (the request's first
   * statement reads it beside the session): the one held, or the stored one loaded first.
   */
  at(version: number): Promise<Ontology>;
  /** The last one loaded, without asking the database. */
  latest(): Ontology;
}

/** The server's ontology: loaded at start, reloaded when the version in the database moves. */
export class LiveOntology implements OntologyProvider {
  private refreshing: Promise<Ontology> | undefined;
  /** A version that failed its checks: not retried until the version moves again. */
  private refusedVersion: number | undefined;

  private constructor(
    private readonly db: SqlQueryable,
    private loaded: { ontology: Ontology; version: number },
    private readonly onRefused: (problems: string[], version: number) => void,
  ) {}

  /** Loads the stored ontology; rejects with OntologyError when it is broken (nothing half-loads). */
  static async open(
    db: SqlQueryable,
    onRefused: (problems: string[], version: number) => void = () => {},
  ): Promise<LiveOntology> {
    return new LiveOntology(db, await loadStoredOntology(db), onRefused);
  }

  /** The version of the loaded ontology. */
  get version(): number {
    return this.loaded.version;
  }

  latest(): Ontology {
    return this.loaded.ontology;
  }

  async current(): Promise<Ontology> {
    return this.at(await readOntologyVersion(this.db));
  }

  async at(version: number): Promise<Ontology> {
    if (version <= this.loaded.version || version === this.refusedVersion) return this.loaded.ontology;
    this.refreshing ??= this.reload().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async reload(): Promise<Ontology> {
    const stored = await readStoredOntology(this.db);
    if (stored.version <= this.loaded.version) return this.loaded.ontology;
    try {
      this.loaded = { ontology: checkStored(stored), version: stored.version };
    } catch (err) {
      if (!(err instanceof OntologyError)) throw err;
      // A broken change does not replace a working ontology: the last good one stays in use.
      this.refusedVersion = stored.version;
      this.onRefused(err.problems, stored.version);
    }
    return this.loaded.ontology;
  }
}
