/**
 * The two profiles a new installation starts with, as security-access (dd774) items computed from
 * the ontology, so a section added to the seed is covered without editing this file.
 * Admin: 3 on everything. Cataloguer: 2 on oral history and resources, 1 on the thesaurus, 0 on
 * maintenance, and nothing (0) on administration: cataloguers do not manage users or profiles.
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

export interface DefaultProfile {
  section_id: number;
  /** dd237 is not translatable: one name, stored as lg-nolan. */
  name: string;
  access: AccessItem[];
}

export function defaultProfiles(ontology: Ontology): DefaultProfile[] {
  return [
    {
      section_id: 1,
      name: 'Admin',
      access: accessItemsUnder(ontology, ontology.rootTipo, 3),
    },
    {
      section_id: 2,
      name: 'Cataloguer',
      access: [
        ...accessItemsUnder(ontology, 'oh9000', 2),
        ...accessItemsUnder(ontology, 'rsc9000', 2),
        ...accessItemsUnder(ontology, 'dd100', 1),
        ...accessItemsUnder(ontology, 'dd88', 0),
      ],
    },
  ];
}
