/**
 * The three fixture files (written by the helpers from the `mus` sample; UPDATE_FIXTURES=1
 * rewrites them) read back to the same node list, with the report the sample implies.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPONENT_MODELS } from '../../../src/work/ontology/component-models.js';
import { exportDdOntology } from '../../../src/work/ontology/import/export-dd-ontology.js';
import type { ImportNode } from '../../../src/work/ontology/import/import-node.js';
import { readOntologyFile } from '../../../src/work/ontology/import/read-ontology-file.js';
import { writeJerDdCopy, writeJerDdSql } from './helpers/jer-dd-writers.js';
import { museumOntology, UNIMPLEMENTED_IN_FIXTURE } from './helpers/sample-ontology.js';

const dir = join(import.meta.dirname, 'fixtures');
const sample = museumOntology();
const FIXTURES = {
  'mus.jer_dd.sql': () => writeJerDdSql(sample, { rowsPerInsert: 7 }),
  'mus.jer_dd.copy.sql': () => writeJerDdCopy(sample),
  'mus.dd_ontology.copy.sql': () =>
    exportDdOntology(sample, 'dd_ontology of the test TLD mus (written for the tests)'),
} as const;

if (process.env.UPDATE_FIXTURES === '1') {
  for (const [name, write] of Object.entries(FIXTURES)) writeFileSync(join(dir, name), write());
}

const withoutExtra = (nodes: ImportNode[]) => nodes.map(({ extra: _extra, ...n }) => n);
const read = (name: string, tld?: string) => readOntologyFile(readFileSync(join(dir, name), 'utf8'), { tld });

describe('ontology fixtures', () => {
  it.each(Object.keys(FIXTURES))('%s is what the sample writes', (name) => {
    expect(readFileSync(join(dir, name), 'utf8')).toBe(FIXTURES[name as keyof typeof FIXTURES]());
  });

  it.each([
    ['mus.jer_dd.sql', 'jer_dd/sql-insert'],
    ['mus.jer_dd.copy.sql', 'jer_dd/copy'],
    ['mus.dd_ontology.copy.sql', 'dd_ontology/copy'],
  ])('%s reads as %s to the sample node list, without problems', (name, format) => {
    const { nodes, report } = read(name);
    expect(report.format).toBe(format);
    expect(withoutExtra(nodes)).toEqual(sample);
    expect(report.problems).toEqual([]);
    expect(report.unresolved_models).toEqual([]);
    expect(report.nodes_per_tld).toEqual({ dd: sample.filter((n) => n.tld === 'dd').length, mus: 47 });
  });

  it('keeps the jer_dd columns it does not map (not the serial id)', () => {
    const { nodes } = read('mus.jer_dd.sql');
    expect(nodes[0]!.extra).toEqual({ esdescriptor: 'si', visible: 'si' });
    const copy = read('mus.jer_dd.copy.sql');
    expect(copy.nodes[0]!.extra).toEqual({ esdescriptor: 'si', visible: 'si' });
  });

  it('selects one TLD and still resolves the models of another', () => {
    const { nodes, report } = read('mus.jer_dd.sql', 'mus');
    expect(nodes).toHaveLength(47);
    expect(nodes.every((n) => n.tld === 'mus' && n.model !== null)).toBe(true);
    expect(report.tld).toBe('mus');
    for (const model of Object.keys(COMPONENT_MODELS)) expect(report.models_used[model]).toBeGreaterThan(0);
    expect(Object.keys(report.models_not_implemented).sort()).toEqual(
      UNIMPLEMENTED_IN_FIXTURE.filter((m) => m !== 'matrix_table').sort(),
    );
    expect(report.relations_to_missing_tlds).toEqual({ rsc: 1, ts: 1, numisdata: 2 });
    expect(nodes.find((n) => n.tipo === 'mus4')).toMatchObject({
      model: 'component_input_text',
      properties: { mandatory: true, unique: true },
      term: {
        'lg-spa': 'Número de inventario',
        'lg-cat': "Número d'inventari",
        'lg-eng': 'Inventory number',
        'lg-fra': "Numéro d'inventaire",
        'lg-ita': 'Numero di inventario',
      },
    });
    expect(nodes.find((n) => n.tipo === 'mus6')?.properties).toMatchObject({
      note: 'línea 1\nlínea 2\tcon tab, \\ barra y \'comillas\' "dobles"',
    });
    expect(nodes.find((n) => n.tipo === 'mus29')?.relations).toEqual(['mus4', 'mus5', 'mus13']);
  });

  it('refuses a TLD the file does not hold, naming the TLDs it does', () => {
    expect(() => read('mus.dd_ontology.copy.sql', 'oh')).toThrow(
      'the file holds no node of TLD oh; its TLDs are dd, mus',
    );
  });
});
