import { describe, expect, it } from 'vitest';
import { defaultOntologySource } from '../../src/work/ontology/default-ontology.js';
import { loadOntology, OntologyError } from '../../src/work/ontology/load-ontology.js';
import type { OntologySeed } from '../../src/work/ontology/ontology-schema.js';

const DEFAULT_ONTOLOGY = defaultOntologySource();
const ontology = loadOntology();
const tipos = (nodes: readonly { tipo: string }[]) => nodes.map((n) => n.tipo);

describe('ontology seed', () => {
  it("lists oh1's components in ontology order, through its groupers", () => {
    expect(tipos(ontology.sectionComponents('oh1'))).toEqual([
      'oh14',
      'oh16',
      'oh23',
      'oh24',
      'oh25',
      'oh17',
      'oh29',
      'oh22',
      'oh32',
    ]);
    expect(ontology.node('oh16')).toMatchObject({ model: 'component_input_text', translatable: true });
    expect(ontology.node('oh23')).toMatchObject({ model: 'component_text_area', translatable: true });
    expect(ontology.sectionOf('oh24')?.tipo).toBe('oh1');
  });

  it('carries the portal targets the ontology seed names', () => {
    expect(ontology.node('oh24')?.target_section_tipo).toEqual(['rsc197']);
    expect(ontology.node('oh25')?.target_section_tipo).toEqual(['rsc167']);
    expect(ontology.node('oh17')?.target_section_tipo).toEqual(['rsc170']);
    expect(ontology.node('dd1725')?.target_section_tipo).toEqual(['dd234']);
    expect(ontology.node('dd170')?.target_section_tipo).toEqual(['dd153']);
    expect(ontology.node('dd244')?.target_section_tipo).toEqual(['dd64']);
    expect(ontology.node('dd131')?.target_section_tipo).toEqual(['dd64']);
  });

  it('has the system and resource sections with their components and tables', () => {
    const expected: Record<string, string[]> = {
      dd128: ['dd132', 'dd133', 'dd452', 'dd134', 'dd1725', 'dd170', 'dd244', 'dd131'],
      dd234: ['dd237', 'dd774'],
      dd153: ['dd156'],
      rsc197: ['rsc85', 'rsc86', 'rsc89', 'rsc9001'],
      rsc167: ['rsc35', 'rsc36', 'rsc54'],
      rsc170: ['rsc29'],
      ts1: ['hierarchy25', 'hierarchy36', 'hierarchy49', 'hierarchy40'],
    };
    for (const [section, components] of Object.entries(expected)) {
      expect(tipos(ontology.sectionComponents(section)), section).toEqual(components);
    }
    expect(ontology.node('dd133')?.model).toBe('component_password');
    expect(ontology.node('dd774')?.model).toBe('component_security_access');
    expect(ontology.tableOf('dd128')).toBe('matrix_users');
    expect(ontology.tableOf('dd234')).toBe('matrix_profiles');
    expect(ontology.tableOf('dd153')).toBe('matrix_projects');
    expect(ontology.tableOf('dd542')).toBe('matrix_activity');
    expect(ontology.tableOf('ts1')).toBe('matrix_hierarchy');
    expect(ontology.tableOf('oh1')).toBe('matrix');
    expect(ontology.tableOf('oh14')).toBeUndefined();
    expect(ontology.node('dd542')?.read_only).toBe(true);
    for (const tipo of ['dd88', 'dd100', 'dd85', 'dd229', 'dd64'])
      expect(ontology.node(tipo), tipo).toBeDefined();
    expect(ontology.dataColumnOf('oh24')).toBe('relation');
    expect(ontology.dataColumnOf('oh14')).toBe('string');
    expect(ontology.dataColumnOf('dd774')).toBe('misc');
    expect(ontology.dataColumnOf('oh1')).toBeUndefined();
  });

  it('allows the listed languages and lg-nolan, nothing else', () => {
    for (const code of ['lg-eng', 'lg-spa', 'lg-cat', 'lg-fra', 'lg-nolan']) {
      expect(ontology.isLanguage(code), code).toBe(true);
    }
    expect(ontology.isLanguage('lg-xxx')).toBe(false);
    expect(ontology.isLanguage('constructor')).toBe(false);
  });

  it('refuses a seed with a broken reference, naming every problem', () => {
    const broken: OntologySeed = {
      ...DEFAULT_ONTOLOGY,
      nodes: [
        ...DEFAULT_ONTOLOGY.nodes,
        { tipo: 'oh99', parent: 'oh1', model: 'component_portal', label: { 'lg-eng': 'x' } },
        { tipo: 'oh98', parent: 'zz1', model: 'component input text', label: { 'lg-eng': 'y' } },
        {
          tipo: 'oh97',
          parent: 'oh1',
          model: 'component_select',
          target_section_tipo: ['oh14'],
          label: { 'lg-eng': 'z' },
        },
      ],
    };
    const error = (() => {
      try {
        loadOntology(broken);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(OntologyError);
    expect((error as OntologyError).problems).toEqual([
      'oh99 (component_portal) needs target_section_tipo',
      'oh98 has a model "component input text" that is not a model name',
      'oh98 has a missing parent zz1',
      'oh97 targets oh14, not a section',
    ]);
  });

  it('keeps elements whose model is not implemented, with their relations, and lists them', () => {
    const ontology = loadOntology({
      ...DEFAULT_ONTOLOGY,
      nodes: [
        ...DEFAULT_ONTOLOGY.nodes,
        { tipo: 'oh95', parent: 'oh1', model: 'component_geolocation', label: { 'lg-eng': 'Place' } },
        {
          tipo: 'oh94',
          parent: 'oh1',
          model: 'section_list',
          target_section_tipo: ['oh14', 'oh16'],
          label: { 'lg-eng': 'List' },
        },
      ],
    });
    expect(ontology.notImplemented.map((n) => [n.tipo, n.model])).toEqual([
      ['oh95', 'component_geolocation'],
      ['oh94', 'section_list'],
    ]);
    expect(ontology.node('oh94')?.target_section_tipo).toEqual(['oh14', 'oh16']);
    // Not a component the engine reads or writes: forms and searches never meet it as one.
    expect(ontology.sectionComponents('oh1').map((c) => c.tipo)).not.toContain('oh95');
    expect(ontology.sectionOf('oh95')?.tipo).toBe('oh1');
  });
});
