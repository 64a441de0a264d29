/**
 * The ontology the collection reader tests read files against: the default one, plus components
 * of models the interviews lack (a number, a JSON value, a geolocation this archive does not
 * implement, an image) and, for thesaurus packages, the terms' descriptor flag and geolocation and
 * a TLD `ad` whose section `ad1` is a virtual of the thesaurus term section (as Dédalo's hierarchy
 * installer makes one per country).
 */
import { defaultOntologySource } from '../../../../src/work/ontology/default-ontology.js';
import { loadOntology, type Ontology } from '../../../../src/work/ontology/load-ontology.js';

export function collectionOntology(): Ontology {
  const seed = defaultOntologySource();
  seed.tlds = [...(seed.tlds ?? []), { tld: 'ad', name: 'Andorra' }];
  seed.nodes.push(
    { tipo: 'oh90001', parent: 'oh1', model: 'component_number', label: { 'lg-eng': 'Duration (min)' } },
    { tipo: 'oh90002', parent: 'oh1', model: 'component_json', label: { 'lg-eng': 'Technical notes' } },
    {
      tipo: 'oh90003',
      parent: 'oh1',
      model: 'component_geolocation',
      label: { 'lg-eng': 'Place', 'lg-spa': 'Lugar' },
    },
    { tipo: 'oh90004', parent: 'oh1', model: 'component_image', label: { 'lg-eng': 'Cover' } },
    { tipo: 'oh90005', parent: 'oh1', model: 'component_email', label: { 'lg-eng': 'Contact' } },
    {
      tipo: 'hierarchy23',
      parent: 'ts1',
      model: 'component_radio_button',
      label: { 'lg-eng': 'Descriptor' },
      target_section_tipo: ['dd64'],
    },
    {
      tipo: 'hierarchy31',
      parent: 'ts1',
      model: 'component_geolocation',
      label: { 'lg-eng': 'Geolocation' },
    },
    {
      tipo: 'ad1',
      parent: 'dd100',
      model: 'section',
      label: { 'lg-eng': 'Andorra', 'lg-cat': 'Andorra' },
      target_section_tipo: ['ts1'],
      matrix_table: 'matrix_hierarchy',
    },
  );
  return loadOntology(seed);
}
