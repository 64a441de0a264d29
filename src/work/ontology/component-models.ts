/**
 * The element models the ontology may use, and for each component model the typed JSONB column
 * its data is stored in (docs/ontology.md). A model that is not listed here is refused
 * when the ontology loads, so a typo in the seed fails at start instead of on a save.
 */
import type { DataColumn } from '../store/matrix-tables.js';

export interface ComponentModel {
  column: DataColumn;
  /** Data items are locators (`{type, section_tipo, section_id, from_component_tipo}`). */
  relation: boolean;
}

export const COMPONENT_MODELS = {
  component_input_text: { column: 'string', relation: false },
  component_text_area: { column: 'string', relation: false },
  component_email: { column: 'string', relation: false },
  component_password: { column: 'string', relation: false },
  component_number: { column: 'number', relation: false },
  component_date: { column: 'date', relation: false },
  component_av: { column: 'media', relation: false },
  component_image: { column: 'media', relation: false },
  component_pdf: { column: 'media', relation: false },
  component_security_access: { column: 'misc', relation: false },
  component_json: { column: 'misc', relation: false },
  component_portal: { column: 'relation', relation: true },
  component_select: { column: 'relation', relation: true },
  component_radio_button: { column: 'relation', relation: true },
  component_check_box: { column: 'relation', relation: true },
  component_filter: { column: 'relation', relation: true },
  component_filter_master: { column: 'relation', relation: true },
  component_relation_parent: { column: 'relation', relation: true },
  component_relation_children: { column: 'relation', relation: true },
  component_relation_index: { column: 'relation', relation: true },
} as const satisfies Record<string, ComponentModel>;

export type ComponentModelName = keyof typeof COMPONENT_MODELS;

/** Models that are not components: containers and page elements. */
export const ELEMENT_MODELS = [
  'area_root',
  'area',
  'area_admin',
  'area_maintenance',
  'area_ontology',
  'area_thesaurus',
  'area_resource',
  'section',
  'section_group',
  'section_tab',
  'menu',
  'login',
] as const;

export type ElementModelName = (typeof ELEMENT_MODELS)[number];

export function isComponentModel(model: string): model is ComponentModelName {
  return Object.hasOwn(COMPONENT_MODELS, model);
}

/** Groupers: the boxes a section's components are arranged in (Dédalo nests groups in tabs). */
export function isGrouperModel(model: string): boolean {
  return model === 'section_group' || model === 'section_tab';
}

export function isAreaModel(model: string): boolean {
  return model === 'area' || model.startsWith('area_');
}

/**
 * A `component_*` element whose model is not implemented here (component_geolocation,
 * component_iri, ... of an imported ontology): a section read shows it read-only, with its
 * stored value (the `misc` column under its tipo); saves to it are refused.
 */
export function isUnimplementedComponent(model: string): boolean {
  return model.startsWith('component_') && !isComponentModel(model);
}
