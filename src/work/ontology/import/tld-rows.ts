/**
 * The `dd_ontology` rows one imported TLD becomes, decided before anything is written: parents
 * outside the installed ontology attached under the root area, a section's matrix table read from
 * its Dédalo link to a `matrix_table` node, labels kept in every language (empty ones dropped),
 * the model node each element names. Pure: the caller gives what the database holds.
 */
import { MATRIX_TABLES } from '../../store/matrix-tables.js';
import type { ImportNode } from './import-node.js';

/** A `dd_ontology` row as an import writes and compares it (every stored column but is_main). */
export interface TldRow {
  tipo: string;
  parent: string | null;
  term: Record<string, string>;
  /** '' for a model node, which names a model and has none. */
  model: string;
  order_number: number;
  relations: { tipo: string }[] | null;
  tld: string;
  properties: unknown;
  model_tipo: string | null;
  is_model: boolean;
  is_translatable: boolean;
}

/** What the database holds outside the imported TLD, for the decisions below. */
export interface InstalledView {
  rootTipo: string;
  /** Element tipos (not model nodes) of every other TLD. */
  elementTipos: ReadonlySet<string>;
  languages: ReadonlySet<string>;
}

export interface TldRowsResult {
  rows: TldRow[];
  /** Model nodes of other TLDs in the file that the TLD's elements name (kept, never removed). */
  modelRows: TldRow[];
  attachedToRoot: { tipo: string; parent: string | null }[];
  /** Notes on sections whose Dédalo matrix table is not one of this archive's. */
  matrixTableNotes: string[];
  languagesNotOffered: string[];
  /** Elements without a model (neither a model name nor a model node reference). */
  withoutModel: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A model node's name: its label (Spanish first, as Dédalo writes them). */
export const modelNodeName = (n: Pick<ImportNode, 'term'>): string | undefined =>
  n.term['lg-spa'] ?? n.term['lg-eng'] ?? Object.values(n.term)[0];

/**
 * `selected`: the TLD's nodes; `all`: every node of the file (model nodes and matrix table
 * nodes of other TLDs are looked up there).
 */
export function tldRows(
  selected: readonly ImportNode[],
  all: readonly ImportNode[],
  installed: InstalledView,
): TldRowsResult {
  const byTipo = new Map(all.map((n) => [n.tipo, n]));
  const modelTipo = new Map<string, string>();
  for (const n of all) {
    const name = n.is_model ? modelNodeName(n) : undefined;
    if (name !== undefined && !modelTipo.has(name)) modelTipo.set(name, n.tipo);
  }
  const selectedTipos = new Set(selected.map((n) => n.tipo));
  const attachedToRoot: TldRowsResult['attachedToRoot'] = [];
  const matrixTableNotes: string[] = [];
  const notOffered = new Set<string>();
  const withoutModel: string[] = [];
  const usedModels = new Set<string>();
  const siblings = new Map<string | null, number>();

  const rows = selected.map((n): TldRow => {
    let parent = n.parent;
    const isRoot = parent === null && n.tipo === installed.rootTipo;
    if (!isRoot && (parent === null || !(selectedTipos.has(parent) || installed.elementTipos.has(parent)))) {
      // A TLD's own root (or a node whose parent is in a TLD that is not installed) hangs under
      // the root area, so a TLD imported alone is browsable.
      if (!n.is_model) attachedToRoot.push({ tipo: n.tipo, parent });
      parent = n.is_model ? parent : installed.rootTipo;
    }
    const position = (siblings.get(parent) ?? 0) + 1;
    siblings.set(parent, position);
    const term: Record<string, string> = {};
    for (const [lang, label] of Object.entries(n.term)) {
      if (label.trim() === '') continue;
      term[lang] = label;
      if (lang !== 'lg-nolan' && !installed.languages.has(lang)) notOffered.add(lang);
    }
    let properties = n.properties;
    if (n.model === 'section' && !(isObject(properties) && 'matrix_table' in properties)) {
      const table = n.relations.map((t) => byTipo.get(t)).find((t) => t?.model === 'matrix_table');
      const name = table && modelNodeName(table);
      if (name !== undefined && name !== 'matrix') {
        if ((MATRIX_TABLES as readonly string[]).includes(name)) {
          properties = { ...(isObject(properties) ? properties : {}), matrix_table: name };
        } else {
          matrixTableNotes.push(
            `${n.tipo}: Dédalo's table ${name} is not one of this archive's; records go to matrix`,
          );
        }
      }
    }
    if (n.model === null && !n.is_model) withoutModel.push(n.tipo);
    if (n.model !== null && !n.is_model) usedModels.add(n.model);
    return {
      tipo: n.tipo,
      parent,
      term,
      model: n.model ?? '',
      order_number: n.order !== null && Number.isInteger(n.order) ? n.order : position,
      relations: n.relations.length > 0 ? n.relations.map((tipo) => ({ tipo })) : null,
      tld: n.tld,
      properties,
      model_tipo: n.model === null ? null : (modelTipo.get(n.model) ?? null),
      is_model: n.is_model,
      is_translatable: n.translatable,
    };
  });

  const modelRows: TldRow[] = [];
  for (const name of usedModels) {
    const tipo = modelTipo.get(name);
    const node = tipo === undefined ? undefined : byTipo.get(tipo);
    if (!node || selectedTipos.has(node.tipo)) continue;
    modelRows.push({
      tipo: node.tipo,
      parent: node.parent,
      term: node.term,
      model: node.model ?? '',
      order_number: node.order !== null && Number.isInteger(node.order) ? node.order : 0,
      relations: null,
      tld: node.tld,
      properties: node.properties,
      model_tipo: null,
      is_model: true,
      is_translatable: false,
    });
  }
  modelRows.sort((a, b) => (a.tipo < b.tipo ? -1 : a.tipo > b.tipo ? 1 : 0));
  return {
    rows,
    modelRows,
    attachedToRoot,
    matrixTableNotes,
    languagesNotOffered: [...notOffered].sort(),
    withoutModel,
  };
}
