/**
 * One cell of a collection file, given the ontology node of its column, becomes the change a save
 * would apply to that component (`set_data` of the whole value, per language), or a refusal that
 * says why. Values are checked with the save path's own validators (component-values.ts), so a
 * file can never hold a value the editor could not have saved. What needs the database (a
 * locator's target exists, a value-list entry) is left to the write path.
 */
import {
  accessItem,
  componentSpec,
  dateValue,
  literalValue,
  locatorValue,
  MAX_ITEMS,
} from '../components/component-values.js';
import { WorkError } from '../dispatch/error-registry.js';
import { isComponentModel, isUnimplementedComponent } from '../ontology/component-models.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import type { DataColumn } from '../store/matrix-tables.js';
import { CellFormatError, cellKindOf, type DecodedCell, decodeCell } from './dedalo-csv-format.js';

/** The whole value of one language of a component, as `set_data` takes it. */
export interface SetDataChange {
  kind: 'set_data';
  tipo: string;
  column: DataColumn;
  lang: string;
  value: unknown[];
}

/** Every language of the component emptied (an empty cell). */
export interface ClearChange {
  kind: 'clear';
  tipo: string;
  column: DataColumn;
}

/**
 * Items kept as they are, replacing the component's: media items (their files come through the
 * upload tools) and components whose model is not implemented here (stored under `misc`).
 */
export interface StoredItemsChange {
  kind: 'stored';
  tipo: string;
  column: DataColumn;
  items: unknown[];
}

export type ComponentChange = SetDataChange | ClearChange | StoredItemsChange;

export type RefusalReason =
  | 'unknown_tipo'
  | 'not_in_section'
  | 'not_importable'
  | 'format'
  | 'invalid_value'
  | 'invalid_date'
  | 'locator_target'
  | 'language'
  | 'limit'
  | 'section_id'
  | 'section_tipo';

/** Why one cell (or a row) cannot be imported; the row it belongs to changes nothing. */
export interface CellRefusal {
  /** 1-based line of the file. */
  line: number;
  /** 1-based column of the file (0: the row as a whole). */
  column: number;
  /** The column's header (a tipo, a name). */
  header: string;
  reason: RefusalReason;
  message: string;
}

/** A refusal of one cell, before it knows its line and column. */
export class CellRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'CellRefused';
  }
}

export interface CellContext {
  ontology: Ontology;
  /** The language plain text of a translatable component is in. */
  lang: string;
}

function reasonOf(error: WorkError): RefusalReason {
  if (error.code === 'validation.invalid_date_format') return 'invalid_date';
  if (error.code === 'validation.locator_target') return 'locator_target';
  return 'invalid_value';
}

/** The project section a component_filter's `{"1": 2}` objects point into. */
const filterSection = (node: OntologyNode) =>
  node.model === 'component_filter' || node.model === 'component_filter_master'
    ? node.target_section_tipo?.[0]
    : undefined;

/** Whether a node can receive imported values at all (a component, not computed). */
export function importableProblem(node: OntologyNode): string | undefined {
  if (isUnimplementedComponent(node.model)) return undefined;
  if (!isComponentModel(node.model)) return `${node.tipo} is a ${node.model}, not a component`;
  if (node.model === 'component_password') return `${node.tipo} is a password: passwords are never imported`;
  if (node.properties?.computed) return `${node.tipo} is computed from other components`;
  return undefined;
}

/** Stored items of a model not implemented (or media): a list of objects, or values per language. */
function storedItems(node: OntologyNode, decoded: Map<string | null, unknown[]>): unknown[] {
  const items: unknown[] = [];
  let id = 0;
  for (const [lang, values] of decoded) {
    for (const value of values) {
      id++;
      if (lang === null && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        items.push(value);
      } else {
        items.push({ id, lang: lang ?? NO_LANG, value });
      }
    }
  }
  if (items.length > MAX_ITEMS)
    throw new CellRefused('limit', `${node.tipo} holds more than ${MAX_ITEMS} items`);
  return items;
}

/** The changes of one decoded cell (see `cellChanges`). */
export function decodedChanges(ctx: CellContext, node: OntologyNode, cell: DecodedCell): ComponentChange[] {
  const problem = importableProblem(node);
  if (problem) throw new CellRefused('not_importable', problem);
  if (!isComponentModel(node.model)) {
    if (cell.empty) return [{ kind: 'clear', tipo: node.tipo, column: 'misc' }];
    return [{ kind: 'stored', tipo: node.tipo, column: 'misc', items: storedItems(node, cell.byLang) }];
  }
  const spec = componentSpec(ctx.ontology, node);
  if (cell.empty) return [{ kind: 'clear', tipo: node.tipo, column: spec.column }];
  if (spec.kind === 'media') {
    return [{ kind: 'stored', tipo: node.tipo, column: 'media', items: storedItems(node, cell.byLang) }];
  }
  const changes: SetDataChange[] = [];
  for (const [given, values] of cell.byLang) {
    let lang: string;
    if (spec.translatable) {
      lang = given ?? ctx.lang;
      if (!ctx.ontology.isLanguage(lang)) {
        throw new CellRefused(
          'language',
          `${node.tipo}: ${lang.slice(0, 32)} is not a language of this archive`,
        );
      }
    } else {
      if (given !== null && given !== NO_LANG) {
        throw new CellRefused(
          'language',
          `${node.tipo} is not translatable: its value has no language (or ${NO_LANG}), not ${given.slice(0, 32)}`,
        );
      }
      lang = NO_LANG;
    }
    if (values.length > MAX_ITEMS) {
      throw new CellRefused('limit', `${node.tipo} holds more than ${MAX_ITEMS} items`);
    }
    if (spec.single && values.length > 1) {
      throw new CellRefused('invalid_value', `${node.tipo} (${spec.model}) holds one value at most`);
    }
    const value = values.map((raw, k) => {
      const path = `value[${k}]`;
      switch (spec.kind) {
        case 'relation':
          return locatorValue(spec, raw, path);
        case 'date':
          return dateValue(spec, raw, path);
        case 'security_access':
          return accessItem(spec, ctx.ontology, raw, path);
        default:
          return literalValue(spec, raw, path);
      }
    });
    const same = changes.find((c) => c.lang === lang);
    if (same) same.value.push(...value);
    else changes.push({ kind: 'set_data', tipo: node.tipo, column: spec.column, lang, value });
  }
  return changes;
}

/**
 * A Dédalo CSV cell's changes: decoded by the shared format rules, then checked. Throws
 * CellRefused, never anything else.
 */
export function cellChanges(ctx: CellContext, node: OntologyNode, text: string): ComponentChange[] {
  try {
    const cell = decodeCell(cellKindOf(node.model), text, { filterSection: filterSection(node) });
    return decodedChanges(ctx, node, cell);
  } catch (error) {
    throw asRefusal(error);
  }
}

/** A validator's error as a refusal; anything unexpected is rethrown. */
export function asRefusal(error: unknown): unknown {
  if (error instanceof CellRefused) return error;
  if (error instanceof CellFormatError) return new CellRefused('format', error.message);
  if (error instanceof WorkError) return new CellRefused(reasonOf(error), error.message);
  return error;
}
