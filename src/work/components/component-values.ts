/**
 * What a component's stored items look like, per model, and the checks a client value must pass
 * before anything is written (docs/ontology.md, docs/work-api.md).
 * A refusal is a 400 that names the component. Pure functions: the checks that need the database
 * (a locator's target exists, a select value is in its datalist) are done by the save in one
 * query over every locator these functions produce.
 */
import { WorkError } from '../dispatch/error-registry.js';
import { COMPONENT_MODELS, type ComponentModelName, isComponentModel } from '../ontology/component-models.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import type { DataColumn } from '../store/matrix-tables.js';
import { parseDateValue } from './date-time.js';

/** How a model's items are shaped, which decides how each change action treats them. */
export type ValueKind =
  | 'text'
  | 'number'
  | 'date'
  | 'password'
  | 'json'
  | 'relation'
  | 'security_access'
  | 'media';

export interface ComponentSpec {
  tipo: string;
  sectionTipo: string;
  model: ComponentModelName;
  column: DataColumn;
  kind: ValueKind;
  translatable: boolean;
  /** Relations: the sections locators may point into. */
  targets: readonly string[];
  /** Relations: the relation type stored on every locator. */
  relationType?: string;
  /** At most one item (select, radio button, password). */
  single: boolean;
  /** Selects and radio buttons: the value must be a record of the value list (its datalist). */
  datalist: boolean;
  /** Text components: the longest value accepted. */
  maxLength: number;
  /** `properties.computed`: the component is derived from others and is not saved directly. */
  computed?: ComputedRule;
}

export interface ComputedRule {
  from: readonly string[];
  join: string;
}

/** A stored literal item. Dates keep their parts on the item (`start`, `end`) instead of `value`. */
export interface ValueItem {
  id: number;
  lang: string;
  value?: unknown;
  [extra: string]: unknown;
}

/** A locator as a client value becomes: `section_id` is always an integer here. */
export interface LocatorFields {
  type: string;
  section_tipo: string;
  section_id: number;
  from_component_tipo: string;
  tag_id?: string;
  tag_component_tipo?: string;
  component_tipo?: string;
  section_top_tipo?: string;
  /** The record holding the indexed one (the interview of a recording), beside section_top_tipo. */
  section_top_id?: number;
}

/** A stored locator: the fields plus the item id minted for it. */
export interface Locator extends LocatorFields {
  id?: number;
}

/** A dd774 item: the level on (section_tipo, tipo). Keyed by that pair, so it carries no id. */
export interface AccessItem {
  tipo: string;
  section_tipo: string;
  value: 0 | 1 | 2 | 3;
}

const KIND_OF: Record<ComponentModelName, ValueKind> = {
  component_input_text: 'text',
  component_text_area: 'text',
  component_email: 'text',
  component_password: 'password',
  component_number: 'number',
  component_date: 'date',
  component_av: 'media',
  component_image: 'media',
  component_pdf: 'media',
  component_security_access: 'security_access',
  component_json: 'json',
  component_portal: 'relation',
  component_select: 'relation',
  component_radio_button: 'relation',
  component_check_box: 'relation',
  component_filter: 'relation',
  component_filter_master: 'relation',
  component_relation_parent: 'relation',
  component_relation_children: 'relation',
  component_relation_index: 'relation',
};

/** How a model's items are shaped (the collection file readers and writers encode cells by it). */
export const valueKindOf = (model: ComponentModelName): ValueKind => KIND_OF[model];

/** Relation types by model (4.4): link, parent, children, index, project filter. */
const RELATION_TYPE: Partial<Record<ComponentModelName, string>> = {
  component_filter: 'dd675',
  component_filter_master: 'dd675',
  component_relation_parent: 'dd47',
  component_relation_children: 'dd48',
  component_relation_index: 'dd96',
};

const MAX_LENGTH: Partial<Record<ComponentModelName, number>> = {
  component_input_text: 10_000,
  component_email: 320,
  // Transcriptions are long; the request body limit bounds them first.
  component_text_area: 5_000_000,
};

/** The largest record id a matrix table holds (an SQL integer). */
export const MAX_SECTION_ID = 2_147_483_647;

/** Most items one component may hold after a save. */
export const MAX_ITEMS = 10_000;

function computedRule(node: OntologyNode): ComputedRule | undefined {
  const rule = node.properties?.computed as { from?: unknown; join?: unknown } | undefined;
  if (!rule || !Array.isArray(rule.from)) return undefined;
  return {
    from: rule.from.filter((t): t is string => typeof t === 'string'),
    join: typeof rule.join === 'string' ? rule.join : ' ',
  };
}

/** Whether the server computes `node` from others (and so refuses a save of it). */
export function isComputedComponent(node: OntologyNode): boolean {
  return computedRule(node) !== undefined;
}

export function componentSpec(ontology: Ontology, node: OntologyNode): ComponentSpec {
  if (!isComponentModel(node.model)) throw new Error(`${node.tipo} is not a component`);
  const model = node.model;
  const kind = KIND_OF[model];
  return {
    tipo: node.tipo,
    sectionTipo: ontology.sectionOf(node.tipo)?.tipo ?? '',
    model,
    column: COMPONENT_MODELS[model].column,
    kind,
    // Only literal text can be translatable; everything else is stored as lg-nolan.
    translatable: kind === 'text' && node.translatable === true,
    targets: node.target_section_tipo ?? [],
    relationType: kind === 'relation' ? (RELATION_TYPE[model] ?? 'dd151') : undefined,
    single: ['component_select', 'component_radio_button', 'component_password'].includes(model),
    datalist: ['component_select', 'component_radio_button', 'component_check_box'].includes(model),
    maxLength: MAX_LENGTH[model] ?? 10_000,
    computed: computedRule(node),
  };
}

export function invalidValue(spec: ComponentSpec, message: string): WorkError {
  return new WorkError('validation.invalid_value', `${spec.tipo} (${spec.model}): ${message}`);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The `value` of a literal item from what a client sent: `{id, lang, value}` or, from older
 * clients, the bare value. Text (input_text, text_area, email) is a string or null (an empty item
 * is kept, as upstream does); an email must look like one; a number is finite.
 */
export function literalValue(spec: ComponentSpec, raw: unknown, path: string): unknown {
  const value = isObject(raw) && Object.hasOwn(raw, 'value') ? raw.value : raw;
  switch (spec.kind) {
    case 'text':
    case 'password': {
      if (value === null) return null;
      if (typeof value !== 'string') throw invalidValue(spec, `${path} must be a string`);
      if (value.length > spec.maxLength) {
        throw invalidValue(spec, `${path} is longer than ${spec.maxLength} characters`);
      }
      if (spec.model === 'component_email' && value !== '' && !EMAIL.test(value)) {
        throw invalidValue(spec, `${path} "${value.slice(0, 64)}" is not an email address`);
      }
      return value;
    }
    case 'number': {
      if (value === null) return null;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw invalidValue(spec, `${path} must be a finite number`);
      }
      return value;
    }
    case 'json': {
      if (value === undefined) throw invalidValue(spec, `${path} is missing`);
      return value;
    }
    default:
      throw new Error(`literalValue: ${spec.kind} is not a literal`);
  }
}

/** A date item's parts (`start`, `end`) from `{start, end}` or `{value: {start, end}}`. */
export function dateValue(spec: ComponentSpec, raw: unknown, path: string) {
  const source = isObject(raw) && !Object.hasOwn(raw, 'start') && isObject(raw.value) ? raw.value : raw;
  return parseDateValue(source, spec.tipo, path);
}

/** The extra locator fields kept (indexation points); anything else a client sends is dropped. */
const LOCATOR_EXTRAS = ['tag_id', 'tag_component_tipo', 'component_tipo', 'section_top_tipo'] as const;

/**
 * A locator from a client value: its section must be one of the component's targets, its
 * section_id an integer (a canonical numeric string is accepted, as PHP wrote them). The type
 * and from_component_tipo are the component's own; a different type is refused.
 */
export function locatorValue(spec: ComponentSpec, raw: unknown, path: string): LocatorFields {
  if (!isObject(raw)) throw invalidValue(spec, `${path} must be a locator {section_tipo, section_id}`);
  const { section_tipo: sectionTipo, section_id: rawId, type } = raw;
  if (typeof sectionTipo !== 'string' || sectionTipo === '') {
    throw invalidValue(spec, `${path}.section_tipo is required`);
  }
  // Up to ten digits: every id up to MAX_SECTION_ID (checked next) has a string form.
  const id = typeof rawId === 'string' && /^-?[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : rawId;
  // Record ids are 32-bit integers in the matrix tables: a larger one can address nothing.
  if (typeof id !== 'number' || !Number.isInteger(id) || Math.abs(id) > MAX_SECTION_ID) {
    throw invalidValue(spec, `${path}.section_id must be an integer record id`);
  }
  if (!spec.targets.includes(sectionTipo)) {
    throw new WorkError(
      'validation.locator_target',
      `${spec.tipo} (${spec.model}): ${path} points into ${sectionTipo.slice(0, 64)}, but ${spec.tipo} links only to ${spec.targets.join(', ')}`,
    );
  }
  if (type !== undefined && type !== null && type !== spec.relationType) {
    throw invalidValue(spec, `${path}.type must be ${spec.relationType} for ${spec.model}`);
  }
  const locator: LocatorFields = {
    type: spec.relationType!,
    section_tipo: sectionTipo,
    section_id: id,
    from_component_tipo: spec.tipo,
  };
  for (const extra of LOCATOR_EXTRAS) {
    const v = raw[extra];
    if (typeof v === 'string' && v.length <= 64) locator[extra] = v;
  }
  const top = typeof raw.section_top_id === 'string' ? Number(raw.section_top_id) : raw.section_top_id;
  if (
    locator.section_top_tipo !== undefined &&
    typeof top === 'number' &&
    Number.isInteger(top) &&
    Math.abs(top) <= MAX_SECTION_ID
  )
    locator.section_top_id = top;
  return locator;
}

/**
 * A security-access item: a level 0..3 on (section_tipo, tipo), where section_tipo is a section
 * or an area of the ontology and tipo is that same element or a component of that section.
 */
export function accessItem(spec: ComponentSpec, ontology: Ontology, raw: unknown, path: string): AccessItem {
  if (!isObject(raw)) throw invalidValue(spec, `${path} must be {tipo, section_tipo, value}`);
  const { tipo, section_tipo: sectionTipo, value } = raw;
  if (typeof tipo !== 'string' || typeof sectionTipo !== 'string') {
    throw invalidValue(spec, `${path}.tipo and ${path}.section_tipo must be strings`);
  }
  if (value !== 0 && value !== 1 && value !== 2 && value !== 3) {
    throw invalidValue(spec, `${path}.value must be a level 0, 1, 2 or 3`);
  }
  const section = ontology.node(sectionTipo);
  const element = ontology.node(tipo);
  const isContainer =
    section !== undefined && (section.model === 'section' || section.model.startsWith('area'));
  const fits =
    isContainer &&
    element !== undefined &&
    (tipo === sectionTipo || (section.model === 'section' && ontology.isComponentOf(tipo, sectionTipo)));
  if (!fits) {
    throw invalidValue(
      spec,
      `${path} names ${tipo.slice(0, 64)} in ${sectionTipo.slice(0, 64)}, which is not an element of the ontology`,
    );
  }
  return { tipo, section_tipo: sectionTipo, value };
}

/** The language an item of this component is stored under. */
export const itemLang = (spec: ComponentSpec, sourceLang: string) =>
  spec.translatable ? sourceLang : NO_LANG;

/** A locator's target as a record key string, for sets and comparisons. */
export const targetKey = (l: { section_tipo: unknown; section_id: unknown }) =>
  `${String(l.section_tipo)}\u0000${String(l.section_id)}`;

/**
 * What makes two locators of one component the same item: the target record and, for an
 * indexation, the tagged passage (a term indexes many passages of one transcription, each its own
 * locator with its own tag_id). Locators without a tag are the same as `targetKey`.
 */
export const locatorIdentity = (l: {
  section_tipo: unknown;
  section_id: unknown;
  tag_id?: unknown;
  tag_component_tipo?: unknown;
  component_tipo?: unknown;
}) =>
  l.tag_id === undefined || l.tag_id === null
    ? targetKey(l)
    : `${targetKey(l)}\u0000${String(l.tag_component_tipo ?? l.component_tipo ?? '')}\u0000${String(l.tag_id)}`;
