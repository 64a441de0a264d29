/**
 * Context entries (`typo: 'ddo'`): what a client needs to render an element, computed for the
 * caller. Every entry carries the caller's `permissions` on it; a section carries its
 * `request_config` (the show / search ddo_maps and sqo the stock client builds its reads from,
 * docs/work-api.md) and its `columns_map`; a portal carries its target sections and
 * the columns it shows of them. Labels are in the data language, falling back to English.
 *
 * Which columns a list shows is decided here, from the ontology: every component but the ones
 * that make no sense in a row (passwords, security access, long texts, json); a portal shows the
 * first two list columns of its target section.
 */
import type { UserAccess } from '../auth/permissions.js';
import { isComputedComponent } from '../components/component-values.js';
import {
  isAreaModel,
  isComponentModel,
  isGrouperModel,
  isUnimplementedComponent,
} from '../ontology/component-models.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import type { ContextEntry, Ddo } from '../read/read-types.js';

export const DEFAULT_LANG = 'lg-eng';

/** Rows per page of a section list, and of a portal's locators, when the client sets none. */
export const LIST_LIMIT = 10;
export const PORTAL_LIMIT = 10;

/** Components never shown as list columns. */
const NOT_IN_LIST = new Set([
  'component_password',
  'component_security_access',
  'component_text_area',
  'component_json',
  'component_filter',
  'component_filter_master',
  'component_relation_index',
]);

/** Components that are never search fields (the search panel's list). */
const NOT_SEARCHABLE = new Set(['component_password', 'component_security_access', 'component_json']);

export const PORTAL_MODELS = new Set(['component_portal']);

/** Models whose data item carries a `datalist` (the options of a value list). */
export const DATALIST_MODELS = new Set(['component_select', 'component_radio_button', 'component_check_box']);

export function labelOf(node: OntologyNode, lang: string): string {
  return node.label[lang] ?? node.label[DEFAULT_LANG] ?? Object.values(node.label)[0] ?? node.tipo;
}

export function elementType(node: OntologyNode): string {
  if (node.model === 'section') return 'section';
  if (isAreaModel(node.model)) return 'area';
  if (isComponentModel(node.model) || isUnimplementedComponent(node.model)) return 'component';
  if (isGrouperModel(node.model)) return 'grouper';
  if (node.model.startsWith('tool_')) return 'tool';
  return node.model;
}

/** The language a component's data is read and written in: lg-nolan unless translatable. */
export function dataLangOf(node: OntologyNode, lang: string): string {
  return node.translatable === true ? lang : NO_LANG;
}

export function isSearchable(node: OntologyNode): boolean {
  return isComponentModel(node.model) && !NOT_SEARCHABLE.has(node.model);
}

/** A section's list columns in ontology order. */
export function listColumns(ontology: Ontology, sectionTipo: string): OntologyNode[] {
  const components = ontology.sectionComponents(sectionTipo).filter((c) => !NOT_IN_LIST.has(c.model));
  // `properties.list_columns` (a virtual section: its real section's) chooses them, in its order.
  const real = ontology.virtualOf(sectionTipo);
  const chosen =
    ontology.node(sectionTipo)?.properties?.list_columns ??
    (real ? ontology.node(real)?.properties?.list_columns : undefined);
  if (!Array.isArray(chosen)) return components;
  const picked = chosen.flatMap((tipo) => components.filter((c) => c.tipo === tipo));
  return picked.length > 0 ? picked : components;
}

/** The columns a portal shows of each target record: the target's first two list columns. */
export function portalColumns(ontology: Ontology, portal: OntologyNode): Ddo[] {
  return (portal.target_section_tipo ?? []).flatMap((target) =>
    listColumns(ontology, target)
      .filter((c) => !PORTAL_MODELS.has(c.model))
      .slice(0, 2)
      .map((c) => ({
        tipo: c.tipo,
        section_tipo: target,
        parent: portal.tipo,
        mode: 'list',
        model: c.model,
      })),
  );
}

/**
 * The default show ddo_map of a section: in list mode its list columns, in edit mode every
 * component in ontology order; each portal followed by its target columns.
 */
export function defaultDdoMap(ontology: Ontology, sectionTipo: string, mode: string): Ddo[] {
  const components =
    mode === 'edit' ? [...ontology.sectionEditComponents(sectionTipo)] : listColumns(ontology, sectionTipo);
  return components.flatMap((c) => {
    const own: Ddo = { tipo: c.tipo, section_tipo: sectionTipo, parent: sectionTipo, mode, model: c.model };
    return PORTAL_MODELS.has(c.model) ? [own, ...portalColumns(ontology, c)] : [own];
  });
}

export interface ContextOptions {
  sectionTipo: string;
  mode: string;
  /** The data language (translatable data; labels too unless `labelLang` is given). */
  lang: string;
  /** The language of labels: the session's application language. */
  labelLang?: string;
  sectionId?: number | string;
  /** The element this one is shown under (a section, or the portal of a column). */
  parent?: string;
}

/**
 * The parts of a context that depend on the ontology and the label language only, never on the
 * caller (request_config, columns_map, target_sections): made once per loaded ontology and
 * shared by every answer, frozen so no answer can change another's. A new ontology version is
 * a new Ontology object, so its parts are made afresh.
 */
const sharedParts = new WeakMap<Ontology, Map<string, unknown>>();

function shared<T>(ontology: Ontology, key: string, make: () => T): T {
  let parts = sharedParts.get(ontology);
  if (!parts) {
    parts = new Map();
    sharedParts.set(ontology, parts);
  }
  let part = parts.get(key) as T | undefined;
  if (part === undefined) {
    part = deepFreeze(make());
    parts.set(key, part);
  }
  return part;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const withLabels = (ontology: Ontology, tipos: readonly string[], lang: string) =>
  tipos.map((tipo) => {
    const node = ontology.node(tipo);
    return { tipo, label: node ? labelOf(node, lang) : tipo };
  });

function columnsMap(ontology: Ontology, ddoMap: readonly Ddo[], parent: string, lang: string) {
  return ddoMap
    .filter((d) => d.parent === parent)
    .map((d) => {
      const node = ontology.node(d.tipo);
      return { id: d.tipo, tipo: d.tipo, label: node ? labelOf(node, lang) : d.tipo };
    });
}

function sectionRequestConfig(
  ontology: Ontology,
  section: OntologyNode,
  mode: string,
  lang: string,
  limit: number,
) {
  const show = defaultDdoMap(ontology, section.tipo, mode).map((d) => {
    const node = ontology.node(d.tipo);
    return { ...d, label: node ? labelOf(node, lang) : d.tipo };
  });
  const search = ontology
    .sectionComponents(section.tipo)
    .filter(isSearchable)
    .map((c) => ({
      tipo: c.tipo,
      section_tipo: section.tipo,
      parent: section.tipo,
      mode: 'search',
      model: c.model,
    }));
  return [
    {
      api_engine: 'dedalo',
      type: 'main',
      sqo: { section_tipo: withLabels(ontology, [section.tipo], lang), limit, offset: 0 },
      show: { ddo_map: show, sqo_config: { operator: '$and', limit, offset: 0, full_count: false } },
      search: { ddo_map: search, sqo_config: { operator: '$and' } },
    },
  ];
}

function portalRequestConfig(ontology: Ontology, portal: OntologyNode, lang: string) {
  const targets = portal.target_section_tipo ?? [];
  const columns = portalColumns(ontology, portal);
  return [
    {
      api_engine: 'dedalo',
      type: 'main',
      sqo: { section_tipo: withLabels(ontology, targets, lang), limit: PORTAL_LIMIT, offset: 0 },
      show: { ddo_map: columns, sqo_config: { limit: PORTAL_LIMIT, offset: 0 } },
      search: { ddo_map: columns.map((c) => ({ ...c, mode: 'search' })), sqo_config: { operator: '$or' } },
      choose: { ddo_map: columns, sqo_config: { operator: '$or', limit: 25 } },
    },
  ];
}

/**
 * The context entry of `node` for the caller. `permissions` is the caller's level on
 * (sectionTipo, node.tipo).
 */
export function elementContext(
  ontology: Ontology,
  access: UserAccess,
  node: OntologyNode,
  options: ContextOptions,
): ContextEntry {
  const { sectionTipo, mode, lang } = options;
  // Labels are interface text: the reader's application language, not the data language.
  const labels = options.labelLang ?? lang;
  const type = elementType(node);
  const base: ContextEntry = {
    typo: 'ddo',
    type,
    tipo: node.tipo,
    section_tipo: sectionTipo,
    model: node.model,
    label: labelOf(node, labels),
    mode,
    lang: isComponentModel(node.model) ? dataLangOf(node, lang) : lang,
    permissions: access.level(sectionTipo, node.tipo),
    parent: options.parent ?? node.parent,
    parent_grouper: node.parent,
    properties: node.properties ?? {},
    view: 'default',
    tools: [],
    ...(options.sectionId !== undefined ? { section_id: options.sectionId } : {}),
  };
  if (node.model === 'section') {
    const limit = mode === 'edit' ? 1 : LIST_LIMIT;
    const key = `section\u0000${node.tipo}\u0000${mode}\u0000${labels}`;
    return {
      ...base,
      parent: node.parent,
      matrix_table: ontology.tableOf(node.tipo),
      read_only: node.read_only === true,
      request_config: shared(ontology, `${key}\u0000request_config`, () =>
        sectionRequestConfig(ontology, node, mode, labels, limit),
      ),
      columns_map: shared(ontology, `${key}\u0000columns_map`, () =>
        columnsMap(ontology, defaultDdoMap(ontology, node.tipo, mode), node.tipo, labels),
      ),
      sqo_session: null,
    };
  }
  if (isUnimplementedComponent(node.model)) {
    // Shown with its label and stored value, never edited: at most read access, and a flag the
    // client shows a note for.
    return {
      ...base,
      lang: NO_LANG,
      permissions: Math.min(base.permissions as number, 1),
      translatable: false,
      sortable: false,
      model_not_implemented: true,
    };
  }
  if (isComponentModel(node.model)) {
    const entry: ContextEntry = {
      ...base,
      // A computed component (a full name made of name and surname) is written by the server
      // alone, which refuses a save of it: offered as read-only, never as a field to type in.
      ...(isComputedComponent(node) ? { permissions: Math.min(base.permissions as number, 1) } : {}),
      translatable: node.translatable === true,
      sortable: !NOT_IN_LIST.has(node.model),
    };
    const key = `component\u0000${node.tipo}\u0000${labels}`;
    const targets = node.target_section_tipo;
    if (targets) {
      entry.target_sections = shared(ontology, `${key}\u0000target_sections`, () =>
        withLabels(ontology, targets, labels),
      );
    }
    if (PORTAL_MODELS.has(node.model)) {
      entry.request_config = shared(ontology, `${key}\u0000request_config`, () =>
        portalRequestConfig(ontology, node, labels),
      );
      entry.columns_map = shared(ontology, `${key}\u0000columns_map`, () =>
        columnsMap(ontology, portalColumns(ontology, node), node.tipo, labels),
      );
    }
    return entry;
  }
  return base;
}

/** The context entry of a ddo (a column of a read), with its parent as the ddo says. */
export function ddoContext(
  ontology: Ontology,
  access: UserAccess,
  ddo: Ddo,
  options: { mode: string; lang: string; labelLang?: string },
): ContextEntry | undefined {
  const node = ontology.node(ddo.tipo);
  if (!node) return undefined;
  return elementContext(ontology, access, node, {
    sectionTipo: ddo.section_tipo,
    mode: ddo.mode ?? options.mode,
    lang: options.lang,
    ...(options.labelLang ? { labelLang: options.labelLang } : {}),
    parent: ddo.parent,
  });
}
