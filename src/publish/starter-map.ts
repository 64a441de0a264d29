/**
 * A starting publication map for one section, made from the ontology (`npm run publish --
 * --print-map --section <tipo>`): one table named after the section, one column per component
 * that has something to publish, each with the value kind and column type its model needs. It is
 * a start an operator edits (names, full text, columns read through a relation), checked like any
 * map before it is printed, so what is printed is a map the publisher accepts as it is.
 */
import { componentSpec } from '../work/components/component-values.js';
import type { Ontology } from '../work/ontology/load-ontology.js';
import type { OntologyNode } from '../work/ontology/ontology-schema.js';
import { checkPublicationMap } from './load-publication-map.js';
import type { ColumnMap, PublicationMap, TableMap } from './publication-map-schema.js';

/** The yes/no value list a `publishable` component points into (1 yes, 2 no). */
const YES_NO_SECTION = 'dd64';

/** Column names the writer adds itself (load-publication-map.ts refuses them in a map). */
const RESERVED = new Set(['section_id', 'lang', 'dd_relations']);

/** Models never published: secrets, access grids, raw JSON and the internal project filters. */
const NOT_PUBLISHED = new Set([
  'component_password',
  'component_security_access',
  'component_json',
  'component_filter',
  'component_filter_master',
]);

/** An identifier from a label: lower case ASCII words joined by `_` (`Date of birth` -> `date_of_birth`). */
export function identifierOf(label: string, fallback: string): string {
  const words = label
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const name = words.join('_').slice(0, 48);
  return /^[a-z_]/.test(name) ? name : fallback;
}

const englishLabel = (node: OntologyNode) =>
  node.label['lg-eng'] ?? Object.values(node.label)[0] ?? node.tipo;

/** The column of one component, or undefined when its model has nothing to publish. */
function columnOf(ontology: Ontology, node: OntologyNode): Omit<ColumnMap, 'name'> | undefined {
  if (NOT_PUBLISHED.has(node.model)) return undefined;
  const spec = componentSpec(ontology, node);
  const base = { component: node.tipo, full_text: false };
  switch (spec.kind) {
    case 'text': {
      const long = node.model === 'component_text_area';
      return { ...base, value: 'text', type: long ? 'text' : 'varchar', full_text: long };
    }
    case 'number':
      return { ...base, value: 'number', type: 'real' };
    case 'date':
      return { ...base, value: 'date', type: 'date' };
    case 'media':
      return { ...base, value: 'media', type: 'varchar' };
    case 'relation':
      if (node.model === 'component_relation_index') return { ...base, value: 'indexation', type: 'text' };
      if (node.model === 'component_relation_parent') return { ...base, value: 'term_ids', type: 'varchar' };
      if (node.model === 'component_relation_children') return { ...base, value: 'locators', type: 'text' };
      return { ...base, value: 'ids', type: 'text' };
    default:
      return undefined;
  }
}

/** The starting map of `sectionTipo`; throws an Error naming the problem for a tipo that is no section. */
export function starterMap(ontology: Ontology, sectionTipo: string): PublicationMap {
  const section = ontology.node(sectionTipo);
  if (section?.model !== 'section') {
    throw new Error(
      section
        ? `${sectionTipo} is a ${section.model}, not a section`
        : `the ontology has no element ${sectionTipo}`,
    );
  }
  const components = ontology.sectionComponents(sectionTipo);
  // A yes/no radio button gates publication ("publishable"), as the interviews' oh32 does.
  const publishable = components.find(
    (c) => c.model === 'component_radio_button' && (c.target_section_tipo ?? []).includes(YES_NO_SECTION),
  );
  const used = new Set(RESERVED);
  const columns: ColumnMap[] = [];
  for (const node of components) {
    if (node === publishable) continue;
    let name = identifierOf(englishLabel(node), node.tipo);
    if (used.has(name)) name = `${name}_${node.tipo}`;
    const column = columnOf(ontology, node);
    if (!column) continue;
    used.add(name);
    columns.push({ name, ...column } as ColumnMap);
  }
  if (columns.length === 0) {
    throw new Error(`${sectionTipo} has no component with something to publish`);
  }
  const table: TableMap = {
    section_tipo: sectionTipo,
    table: identifierOf(englishLabel(section), sectionTipo),
    translatable: components.some((c) => c.translatable === true),
    ...(publishable ? { publishable: publishable.tipo } : {}),
    dd_relations: true,
    columns,
  };
  const languages = ontology.languages.map((l) => l.code).filter((code) => code !== 'lg-nolan');
  const map: PublicationMap = { version: 1, languages, fallback: 'first', tables: [table] };
  // What is printed must be a map the publisher accepts.
  checkPublicationMap(map, ontology, `starting map of ${sectionTipo}`);
  return map;
}
