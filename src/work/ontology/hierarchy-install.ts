/**
 * Installing a thesaurus TLD the way Dédalo's hierarchy installer does: `<tld>1` (terms) and
 * `<tld>2` (models) as thesaurus sections, registered as a hierarchy, so that a thesaurus package
 * (`<tld>.copy`) of a TLD the ontology lacks can be imported in one command
 * (docs/ontology.md, "Thesaurus TLDs").
 *
 * What is written, in one transaction under the ontology write lock:
 *
 * - `<tld>1` and `<tld>2`: sections virtual of the thesaurus term section (`ts1`, or Dédalo's
 *   `hierarchy20` in an ontology that has it instead), under the thesaurus area, so they take its
 *   components (term, parent, children, indexations ...) and its table (matrix_hierarchy) and show
 *   in the menu there. Dédalo makes its term and model sections virtual of hierarchy20 the same
 *   way.
 * - The relations of the term section that point into the term section itself (its parent and
 *   children, hierarchy36 and hierarchy49) gain the two new sections as targets: a term of `ad1`
 *   points to its parent in `ad1`. Dédalo resolves these targets per hierarchy at run time; here a
 *   relation's targets are data in its row, so they are written there (and read back by
 *   everything that reads targets: value checks, pickers, search, children).
 * - The TLD in the registry (main_dd, `source` "thesaurus install"), which is what registers it
 *   as a hierarchy: this ontology has no hierarchy registry section (Dédalo's hierarchy1 in
 *   matrix_hierarchy_main). Its `<tld>0` ontology section and main record follow (writeTld).
 *
 * The whole ontology is loaded and checked inside the transaction before it commits; the commit
 * moves ontology_version, so every instance serves the new sections from its next request.
 * Calling it again when everything is in place writes nothing (`created: false`). Callers keep
 * the ontology to global administrators (pass `actor` to have it checked here).
 */

import { assertGlobalAdmin, type UserAccess } from '../auth/permissions.js';
import { WorkError } from '../dispatch/error-registry.js';
import { logActivity } from '../store/activity.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import { writeTld } from './import/import-tld.js';
import type { TldRow } from './import/tld-rows.js';
import type { Ontology } from './load-ontology.js';
import { OntologyError } from './load-ontology.js';
import { ONTOLOGY_WRITE_LOCK_KEY } from './ontology-records.js';
import { LANG_PATTERN, TLD_PATTERN, tldOf } from './ontology-schema.js';
import { loadStoredOntology } from './ontology-store.js';

export interface HierarchyTldOptions {
  userId: number;
  now: Date;
  via: 'cli' | 'api';
  /** The thesaurus' name per language (`{"lg-spa": "Andorra"}`); the TLD when absent. */
  labels?: Record<string, string>;
  /** When given, refused (403 perm.global_admin_required) unless a global administrator. */
  actor?: UserAccess;
}

export interface HierarchyTldInstall {
  tld: string;
  /**
   * False when the TLD's sections already existed: nothing was written, unless the parent and
   * children relations had lost them from their targets (then only those were written back).
   */
  created: boolean;
  termSection: string;
  modelSection: string;
}

/** The term section thesaurus sections are virtual of: ours, then Dédalo's. */
const TERM_SECTIONS = ['ts1', 'hierarchy20'] as const;

/** Written in main_dd's `source`: the mark of a TLD installed as a thesaurus. */
export const HIERARCHY_SOURCE = 'thesaurus install';

/** The activity log's "where" for ontology changes: the maintenance area (as TLD imports). */
const ONTOLOGY_ACTIVITY_WHERE = 'dd88';

/** The longest name a thesaurus may be given in one language. */
const MAX_LABEL = 200;

/** "models" per language for the model section's label; English for the others. */
const MODELS_WORD: Record<string, string> = {
  'lg-eng': 'models',
  'lg-spa': 'modelos',
  'lg-cat': 'models',
  'lg-fra': 'modèles',
  'lg-por': 'modelos',
  'lg-ita': 'modelli',
  'lg-deu': 'Modelle',
  'lg-glg': 'modelos',
  'lg-eus': 'ereduak',
};

const invalid = (tld: string, problems: string[]) =>
  new WorkError(
    'ontology.hierarchy_tld_invalid',
    `The TLD ${tld.slice(0, 40)} cannot be installed as a thesaurus: ${problems.join('; ')}`,
    undefined,
    { tld: tld.slice(0, 40), problems },
  );

/** The term section of this ontology and the area its hierarchies hang from. */
export function thesaurusOf(ontology: Ontology): { termSection: string; area: string } | undefined {
  for (const tipo of TERM_SECTIONS) {
    const node = ontology.node(tipo);
    if (node?.model !== 'section' || ontology.virtualOf(tipo) || node.parent === null) continue;
    // Under the term section's own area when it is the thesaurus area, else under the first one.
    const area =
      ontology.node(node.parent)?.model === 'area_thesaurus'
        ? node.parent
        : (findThesaurusArea(ontology) ?? node.parent);
    return { termSection: tipo, area };
  }
  return undefined;
}

function findThesaurusArea(ontology: Ontology): string | undefined {
  const walk = (tipo: string): string | undefined => {
    for (const child of ontology.children(tipo)) {
      if (child.model === 'area_thesaurus') return child.tipo;
      const found = child.model.startsWith('area') ? walk(child.tipo) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return walk(ontology.rootTipo);
}

/**
 * The TLDs installed as thesauri: those whose `<tld>1` is a section virtual of the term section
 * (whatever installed it: this installer, an ontology import, an edit).
 */
export function hierarchyTlds(ontology: Ontology): string[] {
  const thesaurus = thesaurusOf(ontology);
  if (!thesaurus) return [];
  return ontology
    .sections()
    .filter((s) => /^[a-z]+1$/.test(s.tipo) && ontology.virtualOf(s.tipo) === thesaurus.termSection)
    .map((s) => tldOf(s.tipo));
}

/** What an element that is not a thesaurus section is, for the refusal. */
function whatItIs(ontology: Ontology, tipo: string): string {
  const node = ontology.node(tipo)!;
  if (node.model !== 'section') return `it is a ${node.model}`;
  const real = ontology.virtualOf(tipo);
  return real ? `it is a section virtual of ${real}` : 'it is a section with components of its own';
}

/** The labels asked for, checked: language codes and non-empty names (trimmed). */
function checkedLabels(tld: string, labels: Record<string, string> | undefined): Record<string, string> {
  if (labels === undefined) return {};
  if (labels === null || typeof labels !== 'object' || Array.isArray(labels))
    throw invalid(tld, ['labels must be an object of language code -> name']);
  const problems: string[] = [];
  const out: Record<string, string> = {};
  for (const [lang, name] of Object.entries(labels)) {
    if (!LANG_PATTERN.test(lang)) problems.push(`"${lang.slice(0, 20)}" is not a language code like lg-spa`);
    else if (typeof name !== 'string' || name.trim() === '') problems.push(`the ${lang} name is empty`);
    else if (name.length > MAX_LABEL)
      problems.push(`the ${lang} name is longer than ${MAX_LABEL} characters`);
    else out[lang] = name.trim();
  }
  if (problems.length > 0) throw invalid(tld, problems);
  return out;
}

/** The name in the registry: English, Spanish, any, else the TLD. */
const registryName = (tld: string, labels: Record<string, string>) =>
  labels['lg-eng'] ?? labels['lg-spa'] ?? Object.values(labels)[0] ?? tld;

function sectionRow(
  tipo: string,
  area: string,
  termSection: string,
  term: Record<string, string>,
  order: number,
): TldRow {
  return {
    tipo,
    parent: area,
    term,
    model: 'section',
    order_number: order,
    // A section's relation to one real section makes it a virtual section of it.
    relations: [{ tipo: termSection }],
    tld: tldOf(tipo),
    properties: null,
    model_tipo: null,
    is_model: false,
    is_translatable: false,
  };
}

interface StoredRow {
  tipo: string;
  tld: string;
  parent: string | null;
  term: Record<string, string>;
  model: string;
  order_number: number;
  relations: { tipo: string }[] | null;
  properties: unknown;
  model_tipo: string | null;
  is_translatable: boolean;
}

async function storedRows(tx: SqlQueryable, tipos: readonly string[]): Promise<StoredRow[]> {
  const { rows } = await tx.query<StoredRow>(
    `SELECT tipo, tld, parent, term, model, order_number, relations, properties, model_tipo, is_translatable
     FROM dd_ontology WHERE tipo = ANY($1::text[]) AND NOT is_model ORDER BY tipo`,
    [tipos],
  );
  return rows;
}

const targetsOf = (row: StoredRow): string[] =>
  Array.isArray(row.relations) ? row.relations.map((r) => String(r?.tipo)) : [];

/**
 * Makes sure `<tld>1` and `<tld>2` exist; in its own transaction, idempotent; the ontology every
 * instance serves follows after it returns. An invalid TLD or name, or a TLD whose `<tld>1` or
 * `<tld>2` is something else, is refused (400 ontology.hierarchy_tld_invalid) with nothing written.
 */
export async function ensureHierarchyTld(
  db: SqlClient,
  tld: string,
  options: HierarchyTldOptions,
): Promise<HierarchyTldInstall> {
  if (options.actor) assertGlobalAdmin(options.actor);
  if (typeof tld !== 'string' || !TLD_PATTERN.test(tld))
    throw invalid(String(tld), ['a TLD is 2 to 32 lower-case letters (a to z), like "ad" or "es"']);
  const labels = checkedLabels(tld, options.labels);
  const termTipo = `${tld}1`;
  const modelTipo = `${tld}2`;
  const result = (created: boolean): HierarchyTldInstall => ({
    tld,
    created,
    termSection: termTipo,
    modelSection: modelTipo,
  });

  return db.transaction(async (tx) => {
    // Ontology writers one at a time: what is read below is what this change applies to.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [ONTOLOGY_WRITE_LOCK_KEY]);
    const { ontology } = await loadStoredOntology(tx);
    const thesaurus = thesaurusOf(ontology);
    if (!thesaurus)
      throw invalid(tld, [`the ontology has no thesaurus term section (${TERM_SECTIONS.join(' or ')})`]);
    const { termSection, area } = thesaurus;

    const problems: string[] = [];
    for (const tipo of [termTipo, modelTipo]) {
      const node = ontology.node(tipo);
      if (node && !(node.model === 'section' && ontology.virtualOf(tipo) === termSection))
        problems.push(`${tipo} already exists and is not a thesaurus section: ${whatItIs(ontology, tipo)}`);
    }
    if (tld === tldOf(termSection)) problems.push(`${tld} is the TLD of the thesaurus term section itself`);
    if (problems.length > 0) throw invalid(tld, problems);

    const missing = [termTipo, modelTipo].filter((t) => !ontology.node(t));
    const { rows: registry } = await tx.query<{ name: string; source: string | null }>(
      'SELECT name, source FROM main_dd WHERE tld = $1',
      [tld],
    );

    // The term section's relations into itself (parent, children): the new sections join them.
    const selfRelations = ontology
      .sectionComponents(termSection)
      .filter((c) => (c.target_section_tipo ?? []).includes(termSection))
      .map((c) => c.tipo);
    const relationRows = await storedRows(tx, selfRelations);
    const widened = relationRows
      .map((row) => {
        const targets = targetsOf(row);
        const add = [termTipo, modelTipo].filter((t) => !targets.includes(t));
        return add.length === 0
          ? undefined
          : { ...row, relations: [...targets, ...add].map((tipo) => ({ tipo })) };
      })
      .filter((r) => r !== undefined);

    if (missing.length === 0 && widened.length === 0 && registry.length > 0) return result(false);

    // The new TLD: its two sections (the missing ones) and its registry row.
    const name = registryName(tld, labels);
    const termLabel = Object.keys(labels).length > 0 ? labels : { 'lg-eng': tld };
    const modelLabel = Object.fromEntries(
      Object.entries(termLabel).map(([lang, label]) => [lang, `${label}: ${MODELS_WORD[lang] ?? 'models'}`]),
    );
    const siblings = ontology.children(area).length;
    const upsert = [
      sectionRow(termTipo, area, termSection, termLabel, siblings + 1),
      sectionRow(modelTipo, area, termSection, modelLabel, siblings + 2),
    ].filter((r) => missing.includes(r.tipo));
    await writeTld(tx, {
      tld,
      // An installed TLD keeps its name when only its targets are brought in step.
      name: missing.length === 0 && registry[0] ? registry[0].name : name,
      source:
        missing.length === 0 && registry[0] ? (registry[0].source ?? HIERARCHY_SOURCE) : HIERARCHY_SOURCE,
      upsert,
      removed: [],
      modelRows: [],
    });

    // The widened relations, written as their own TLD's change (its registry row unchanged).
    for (const relTld of new Set(widened.map((r) => r.tld))) {
      const { rows: reg } = await tx.query<{ name: string; source: string | null }>(
        'SELECT name, source FROM main_dd WHERE tld = $1',
        [relTld],
      );
      await writeTld(tx, {
        tld: relTld,
        name: reg[0]?.name ?? relTld,
        source: reg[0]?.source ?? 'default',
        upsert: widened.filter((r) => r.tld === relTld).map((r) => ({ ...r, is_model: false })),
        removed: [],
        modelRows: [],
      });
    }

    try {
      await loadStoredOntology(tx);
    } catch (err) {
      if (!(err instanceof OntologyError)) throw err;
      throw invalid(tld, err.problems);
    }
    await logActivity(tx, {
      userId: options.userId,
      what: 'thesaurus_install',
      where: ONTOLOGY_ACTIVITY_WHERE,
      when: options.now,
      data: {
        tld,
        created: missing,
        targets_added_to: widened.map((r) => r.tipo),
        via: options.via,
      },
    });
    return result(missing.length > 0);
  });
}
