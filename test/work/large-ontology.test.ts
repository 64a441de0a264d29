/**
 * The generated 20,000-node ontology (bench/large-ontology.ts) loads beside the default content:
 * every check passes, the indexes see its 40 TLDs, sections, components through their groupers
 * and the models it does not implement; the load time is printed (no timing assertion).
 */
import { describe, expect, it } from 'vitest';
import { largeOntology } from '../../bench/large-ontology.js';
import { defaultOntologySource } from '../../src/work/ontology/default-ontology.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';

describe('a 20,000-node generated ontology', () => {
  const large = largeOntology();

  it('is the same every time, 20,000 nodes over 40 TLDs', () => {
    expect(large.nodes).toHaveLength(20_000);
    expect(new Set(large.nodes.map((n) => n.tipo.replace(/[0-9]+$/, ''))).size).toBe(40);
    expect(largeOntology()).toEqual(large);
  });

  it('loads with the default content, every implemented component model in use', () => {
    const base = defaultOntologySource();
    const started = performance.now();
    const ontology = loadOntology({
      languages: base.languages,
      tlds: [...(base.tlds ?? []), ...large.tlds],
      nodes: [...base.nodes, ...large.nodes],
    });
    console.log(
      `20,000 generated nodes loaded with the default content in ${(performance.now() - started).toFixed(0)} ms`,
    );
    const generated = new Set(large.tlds.map((t) => t.tld));
    const sections = ontology.sections().filter((s) => generated.has(s.tipo.replace(/[0-9]+$/, '')));
    // 19 sections per generated TLD, and its ontology section `<tld>0` (virtual, synthesized).
    expect(sections).toHaveLength(40 * 19 + 40);
    expect(sections.filter((s) => /^[a-z]+0$/.test(s.tipo))).toHaveLength(40);
    const section = sections.find((s) => !/^[a-z]+0$/.test(s.tipo))!;
    expect(ontology.sectionComponents(section.tipo)).toHaveLength(
      large.nodes.filter(
        (n) =>
          n.parent !== null &&
          ontology.sectionOf(n.tipo)?.tipo === section.tipo &&
          ontology.dataColumnOf(n.tipo),
      ).length,
    );
    expect(ontology.children(ontology.sectionComponents(section.tipo)[0]!.parent!)[0]!.model).toBe(
      'component_input_text',
    );
    const used = new Set(large.nodes.map((n) => n.model));
    for (const model of [
      'component_portal',
      'component_date',
      'component_relation_index',
      'component_security_access',
    ])
      expect(used).toContain(model);
    expect(ontology.notImplemented.map((n) => n.model)).toEqual(
      expect.arrayContaining(['section_list', 'button_new', 'component_iri', 'widget']),
    );
  });
});
