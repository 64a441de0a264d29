/**
 * The two profiles a new installation starts with, as security-access (dd774) items computed from
 * the ontology, so a section added to the seed is covered without editing this file.
 * Admin: 3 on everything (3 on a section also lets a profile publish its records,
 * auth/publish-rights.ts). Cataloguer: 2 on oral history and resources (edit, not publish), 1 on
 * the thesaurus, 0 on maintenance, nothing on administration (cataloguers do not manage users or
 * profiles) except read (1) on the value lists their fields point into (the yes/no list behind
 * Publishable, the projects behind the project filter), so those fields show names and can be set,
 * and write (2) on the terms' indexation component (hierarchy40), so indexing a transcription with
 * thesaurus terms, which writes the term's locator, is theirs too (the terms stay read-only).
 */
import { isAreaModel, isComponentModel } from '../ontology/component-models.js';
import type { Ontology } from '../ontology/load-ontology.js';

export type AccessLevel = 0 | 1 | 2 | 3;

/** One dd774 item: the level on (section_tipo, tipo); for a section or area both are its tipo. */
export interface AccessItem {
  tipo: string;
  section_tipo: string;
  value: AccessLevel;
}

/** Every area, section and component under `rootTipo` (itself included) at `value`. */
export function accessItemsUnder(ontology: Ontology, rootTipo: string, value: AccessLevel): AccessItem[] {
  const items: AccessItem[] = [];
  const walk = (tipo: string) => {
    const node = ontology.node(tipo);
    if (!node) return;
    if (isAreaModel(node.model) || node.model === 'section') {
      items.push({ tipo, section_tipo: tipo, value });
    }
    if (node.model === 'section') {
      for (const c of ontology.sectionComponents(tipo))
        items.push({ tipo: c.tipo, section_tipo: tipo, value });
      return;
    }
    if (!isComponentModel(node.model)) for (const child of ontology.children(tipo)) walk(child.tipo);
  };
  walk(rootTipo);
  return items;
}

/** Models whose value is chosen from the records of another section (a value list). */
const VALUE_LIST_MODELS = new Set([
  'component_select',
  'component_radio_button',
  'component_check_box',
  'component_filter',
]);

/**
 * Read (1) on every section that a value-list component under `areas` points into, and on its
 * components, when that section is not itself under `areas`: what a profile that edits `areas`
 * needs to show and set those fields (dd64 behind Publishable, dd153 behind Projects).
 */
export function valueListReadItems(ontology: Ontology, areas: readonly string[]): AccessItem[] {
  const inAreas = new Set(areas.flatMap((a) => accessItemsUnder(ontology, a, 0).map((i) => i.section_tipo)));
  const lists = new Set<string>();
  for (const section of inAreas) {
    for (const c of ontology.sectionComponents(section)) {
      if (!VALUE_LIST_MODELS.has(c.model)) continue;
      for (const target of c.target_section_tipo ?? []) if (!inAreas.has(target)) lists.add(target);
    }
  }
  return [...lists].sort().flatMap((list) => accessItemsUnder(ontology, list, 1));
}

const CATALOGUER_AREAS = ['oh9000', 'rsc9000'];

export interface DefaultProfile {
  section_id: number;
  /** dd237 is not translatable: one name, stored as lg-nolan. */
  name: string;
  access: AccessItem[];
}

/** The default Cataloguer's section id and name (a profile still so named and never saved is "untouched"). */
export const CATALOGUER_PROFILE = { section_id: 2, name: 'Cataloguer' } as const;

/** The thesaurus area: its term sections' indexation component is what indexing writes. */
const THESAURUS_AREA = 'dd100';
const INDEXATION = 'hierarchy40';

/** Write (2) on the indexation component of every term section under the thesaurus area. */
export function indexationWriteItems(ontology: Ontology): AccessItem[] {
  return accessItemsUnder(ontology, THESAURUS_AREA, 2).filter((i) => i.tipo === INDEXATION);
}

/**
 * The rights the Cataloguer gained after its first release (profile-top-up.ts): read on its value
 * lists, write on the terms' indexations.
 */
export function cataloguerAdditions(ontology: Ontology): AccessItem[] {
  return [...valueListReadItems(ontology, CATALOGUER_AREAS), ...indexationWriteItems(ontology)];
}

/** One item per (section, element): a later item replaces an earlier one. */
function byElement(items: readonly AccessItem[]): AccessItem[] {
  return [...new Map(items.map((i) => [`${i.section_tipo}\u0000${i.tipo}`, i])).values()];
}

export function defaultProfiles(ontology: Ontology): DefaultProfile[] {
  return [
    {
      section_id: 1,
      name: 'Admin',
      access: accessItemsUnder(ontology, ontology.rootTipo, 3),
    },
    {
      ...CATALOGUER_PROFILE,
      access: byElement([
        ...CATALOGUER_AREAS.flatMap((area) => accessItemsUnder(ontology, area, 2)),
        ...accessItemsUnder(ontology, THESAURUS_AREA, 1),
        ...accessItemsUnder(ontology, 'dd88', 0),
        ...cataloguerAdditions(ontology),
      ]),
    },
  ];
}
