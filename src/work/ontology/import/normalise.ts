/**
 * Turns the rows of a jer_dd or dd_ontology table into the normalised node list: model tipos
 * resolved to model names through the model nodes, relations to target tipos, JSON cells parsed,
 * and a report of what the archive should know before importing (models it does not implement,
 * relations into TLDs that are not in the file, problems with their line).
 */
import { COMPONENT_MODELS, ELEMENT_MODELS } from '../component-models.js';
import { TIPO_PATTERN } from '../ontology-schema.js';
import type { ImportNode, ImportProblem, ImportReport, ImportResult, ProblemKind } from './import-node.js';
import { OntologyParseError } from './parse-error.js';
import type { RawRow, RawTable } from './raw-table.js';

/** Column names (lower case) of each table, by the field they fill. */
const COLUMNS = {
  jer_dd: {
    tipo: 'terminoid',
    parent: 'parent',
    model: null,
    model_tipo: 'modelo',
    is_model: 'esmodelo',
    order: 'norden',
    tld: 'tld',
    translatable: 'traducible',
    relations: 'relaciones',
    properties: 'properties',
    properties_legacy: 'propiedades',
    term: 'term',
  },
  dd_ontology: {
    tipo: 'tipo',
    parent: 'parent',
    model: 'model',
    model_tipo: 'model_tipo',
    is_model: 'is_model',
    order: 'order_number',
    tld: 'tld',
    translatable: 'is_translatable',
    relations: 'relations',
    properties: 'properties',
    properties_legacy: null,
    term: 'term',
  },
} as const;

/** Columns that carry nothing across installations (serial ids): not kept in `extra`. */
const DROPPED = new Set(['id']);

const IMPLEMENTED = new Set<string>([...Object.keys(COMPONENT_MODELS), ...ELEMENT_MODELS]);

/** Model names are lower-case words with underscores (`component_input_text`, `section`). */
const MODEL_NAME = /^[a-z][a-z0-9_]*$/;

export function tldOfTipo(tipo: string): string {
  return /^[a-z]+/.exec(tipo)?.[0] ?? '';
}

interface Row {
  line: number;
  get(column: string | null): string | null;
  columns: string[];
  cells: Record<string, string | null>;
}

function wrap(raw: RawRow): Row {
  const lower = new Map<string, string | null>();
  for (const [k, v] of Object.entries(raw.cells)) lower.set(k.toLowerCase(), v);
  return {
    line: raw.line,
    cells: raw.cells,
    columns: Object.keys(raw.cells),
    get: (column) => (column === null ? null : (lower.get(column) ?? null)),
  };
}

export interface NormaliseOptions {
  /** Keep only the nodes of this TLD (model names are still resolved through every TLD). */
  tld?: string | null;
}

export function normalise(raw: RawTable, options: NormaliseOptions = {}): ImportResult {
  const cols = COLUMNS[raw.table];
  const known = new Set<string>(
    (Object.values(cols) as (string | null)[]).filter((c): c is string => c !== null),
  );
  const problems: (ImportProblem & { tld: string | null })[] = [];
  const problem = (kind: ProblemKind, row: Row, tipo: string | null, message: string) =>
    problems.push({ kind, line: row.line, tipo, message, tld: tipo ? tldOfTipo(tipo) : null });

  const parseJson = (row: Row, tipo: string, column: string, text: string | null): unknown => {
    if (text === null || text.trim() === '') return null;
    try {
      return JSON.parse(text);
    } catch (e) {
      problem('bad_json', row, tipo, `${column} of ${tipo} is not JSON (${(e as Error).message})`);
      return null;
    }
  };
  const parseBool = (row: Row, tipo: string, column: string | null, text: string | null): boolean => {
    if (text === null || column === null) return false;
    const t = text.trim().toLowerCase();
    if (['si', 'sí', 'yes', 'true', 't', '1', 'y'].includes(t)) return true;
    if (['no', 'false', 'f', '0', 'n', ''].includes(t)) return false;
    problem(
      'bad_value',
      row,
      tipo,
      `${column} of ${tipo} is ${JSON.stringify(text)}, not si/no or true/false`,
    );
    return false;
  };

  // Rows with a usable tipo, first occurrence wins.
  const rows: { row: Row; tipo: string }[] = [];
  const byTipo = new Map<string, Row>();
  for (const rawRow of raw.rows) {
    const row = wrap(rawRow);
    const tipo = row.get(cols.tipo)?.trim() ?? null;
    if (tipo === null || !TIPO_PATTERN.test(tipo)) {
      problem(
        'bad_tipo',
        row,
        null,
        `${cols.tipo} ${JSON.stringify(tipo)} is not a tipo (letters then digits)`,
      );
      continue;
    }
    const first = byTipo.get(tipo);
    if (first) {
      problem(
        'duplicate_tipo',
        row,
        tipo,
        `${tipo} is already defined on line ${first.line}; this row is ignored`,
      );
      continue;
    }
    byTipo.set(tipo, row);
    rows.push({ row, tipo });
  }

  // Model nodes: their label is the model name.
  const terms = new Map<string, Record<string, string>>();
  for (const { row, tipo } of rows) {
    const parsed = parseJson(row, tipo, cols.term, row.get(cols.term));
    const term: Record<string, string> = {};
    if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
      problem('bad_json', row, tipo, `${cols.term} of ${tipo} is not an object of labels by language`);
    } else if (parsed !== null) {
      for (const [lang, label] of Object.entries(parsed)) {
        if (typeof label === 'string') term[lang] = label;
        else problem('bad_value', row, tipo, `the ${lang} label of ${tipo} is not a string`);
      }
    }
    terms.set(tipo, term);
  }
  const modelNames = new Map<string, string>();
  const isModel = new Map<string, boolean>();
  for (const { row, tipo } of rows) {
    const flag = parseBool(row, tipo, cols.is_model, row.get(cols.is_model));
    isModel.set(tipo, flag);
    if (!flag) continue;
    const term = terms.get(tipo)!;
    const name = term['lg-spa'] ?? term['lg-eng'] ?? Object.values(term)[0];
    if (name !== undefined) modelNames.set(tipo, name.trim());
  }

  const unresolved = new Map<string, string[]>();
  const nodes: ImportNode[] = [];
  for (const { row, tipo } of rows) {
    let model: string | null = row.get(cols.model)?.trim() || null;
    if (model === null) {
      const ref = row.get(cols.model_tipo)?.trim() || null;
      if (ref !== null) {
        model = modelNames.get(ref) ?? (!TIPO_PATTERN.test(ref) && MODEL_NAME.test(ref) ? ref : null);
        if (model === null) {
          problem(
            'model_unresolved',
            row,
            tipo,
            `the model ${ref} of ${tipo} is not a model node of the file`,
          );
          unresolved.set(ref, [...(unresolved.get(ref) ?? []), tipo]);
        }
      }
    }

    const orderText = row.get(cols.order);
    let order: number | null = null;
    if (orderText !== null && orderText.trim() !== '') {
      const n = Number(orderText);
      if (Number.isFinite(n)) order = n;
      else
        problem(
          'bad_value',
          row,
          tipo,
          `${cols.order} of ${tipo} is not a number: ${JSON.stringify(orderText)}`,
        );
    }

    const relations: string[] = [];
    const rel = parseJson(row, tipo, cols.relations, row.get(cols.relations));
    if (rel !== null) {
      const items = Array.isArray(rel) ? rel : [rel];
      for (const item of items) {
        const targets =
          typeof item === 'string'
            ? [item]
            : item && typeof item === 'object' && !Array.isArray(item)
              ? typeof (item as { tipo?: unknown }).tipo === 'string'
                ? [(item as { tipo: string }).tipo]
                : Object.values(item)
              : [item];
        for (const target of targets) {
          if (typeof target === 'string' && TIPO_PATTERN.test(target)) relations.push(target);
          else
            problem('bad_value', row, tipo, `a relation of ${tipo} names no tipo: ${JSON.stringify(item)}`);
        }
      }
    }

    let properties = parseJson(row, tipo, cols.properties, row.get(cols.properties));
    if (properties === null && cols.properties_legacy) {
      properties = parseJson(row, tipo, cols.properties_legacy, row.get(cols.properties_legacy));
    }

    const parent = row.get(cols.parent)?.trim() || null;
    const tld = row.get(cols.tld)?.trim() || tldOfTipo(tipo);
    const node: ImportNode = {
      tipo,
      parent,
      model,
      is_model: isModel.get(tipo)!,
      order,
      tld,
      translatable: parseBool(row, tipo, cols.translatable, row.get(cols.translatable)),
      relations,
      properties,
      term: terms.get(tipo)!,
    };
    const extra: Record<string, string | null> = {};
    for (const column of row.columns) {
      const key = column.toLowerCase();
      if (!known.has(key) && !DROPPED.has(key)) extra[column] = row.cells[column] ?? null;
    }
    if (Object.keys(extra).length > 0) node.extra = extra;
    nodes.push(node);
  }

  for (const node of nodes) {
    if (node.parent !== null && !byTipo.has(node.parent)) {
      problem(
        'parent_missing',
        byTipo.get(node.tipo)!,
        node.tipo,
        `the parent ${node.parent} of ${node.tipo} is not in the file`,
      );
    }
  }

  const nodesPerTld: Record<string, number> = {};
  for (const node of nodes) nodesPerTld[node.tld] = (nodesPerTld[node.tld] ?? 0) + 1;

  const tld = options.tld ?? null;
  const selected = tld === null ? nodes : nodes.filter((n) => n.tld === tld);
  if (tld !== null && selected.length === 0) {
    throw new OntologyParseError(
      `the file holds no node of TLD ${tld}; its TLDs are ${Object.keys(nodesPerTld).sort().join(', ')}`,
    );
  }

  const modelsUsed: Record<string, number> = {};
  const notImplemented: Record<string, number> = {};
  const missingTlds: Record<string, number> = {};
  const selectedTipos = new Set(selected.map((n) => n.tipo));
  for (const node of selected) {
    if (!node.is_model && node.model !== null) {
      modelsUsed[node.model] = (modelsUsed[node.model] ?? 0) + 1;
      if (!IMPLEMENTED.has(node.model)) notImplemented[node.model] = (notImplemented[node.model] ?? 0) + 1;
    }
    for (const target of node.relations) {
      const t = tldOfTipo(target);
      if (!(t in nodesPerTld)) missingTlds[t] = (missingTlds[t] ?? 0) + 1;
    }
  }

  const report: ImportReport = {
    format: `${raw.table}/${raw.syntax}`,
    tld,
    nodes_per_tld: nodesPerTld,
    models_used: modelsUsed,
    models_not_implemented: notImplemented,
    unresolved_models: [...unresolved]
      .map(([model_tipo, tipos]) => ({ model_tipo, tipos: tipos.filter((t) => selectedTipos.has(t)) }))
      .filter((u) => u.tipos.length > 0),
    relations_to_missing_tlds: missingTlds,
    problems: problems
      .filter((p) => tld === null || p.tld === null || p.tld === tld)
      .sort((a, b) => a.line - b.line)
      .map(({ tld: _tld, ...p }) => p),
  };
  return { nodes: selected, report };
}
