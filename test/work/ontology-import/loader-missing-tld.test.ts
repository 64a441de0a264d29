/**
 * The loader and relations into TLDs that are not installed: a relation target whose TLD is not
 * registered is ignored (left out of the loaded node), not refused; a target in a registered TLD
 * that is not a section is still refused; a section's stored relations (Dédalo's link to its
 * matrix table node) are not targets.
 */
import { describe, expect, it } from 'vitest';
import { defaultOntologySource } from '../../../src/work/ontology/default-ontology.js';
import { loadOntology, OntologyError } from '../../../src/work/ontology/load-ontology.js';
import type { OntologyNode } from '../../../src/work/ontology/ontology-schema.js';

const withNodes = (...nodes: OntologyNode[]) => {
  const source = defaultOntologySource();
  return { ...source, nodes: [...source.nodes, ...nodes] };
};
const portal = (targets: string[]): OntologyNode => ({
  tipo: 'oh9990',
  parent: 'oh2',
  model: 'component_portal',
  label: { 'lg-eng': 'Coins' },
  target_section_tipo: targets,
});

describe('relations into TLDs that are not installed', () => {
  it('ignores a target whose TLD is not registered and keeps the others', () => {
    const ontology = loadOntology(withNodes(portal(['numisdata1', 'rsc197'])));
    expect(ontology.node('oh9990')?.target_section_tipo).toEqual(['rsc197']);
    expect(
      loadOntology(withNodes(portal(['numisdata1']))).node('oh9990')?.target_section_tipo,
    ).toBeUndefined();
  });

  it('still refuses a target in a registered TLD that is not a section', () => {
    expect(() => loadOntology(withNodes(portal(['oh14'])))).toThrow(OntologyError);
    expect(() => loadOntology(withNodes(portal(['oh99999'])))).toThrow(
      /oh9990 targets oh99999, not a section/,
    );
  });
});
