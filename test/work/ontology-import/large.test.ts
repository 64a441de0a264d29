/**
 * A generated ontology of 20,000 nodes over 40 TLDs, written in the three formats and read back;
 * the parse times are printed (no timing assertion: the machine decides them).
 */
import { describe, expect, it } from 'vitest';
import { exportDdOntology } from '../../../src/work/ontology/import/export-dd-ontology.js';
import type { ImportNode } from '../../../src/work/ontology/import/import-node.js';
import { readOntologyFile } from '../../../src/work/ontology/import/read-ontology-file.js';
import { writeJerDdCopy, writeJerDdSql } from './helpers/jer-dd-writers.js';
import { largeOntology } from './helpers/sample-ontology.js';

const nodes = largeOntology(20_000, 40);
const withoutExtra = (list: ImportNode[]) => list.map(({ extra: _extra, ...n }) => n);

describe('a 20,000-node ontology', () => {
  it('has 20,000 nodes over 40 TLDs', () => {
    expect(nodes).toHaveLength(20_000);
    expect(new Set(nodes.map((n) => n.tld)).size).toBe(40);
  });

  it.each([
    ['jer_dd/sql-insert', () => writeJerDdSql(nodes, { rowsPerInsert: 100 })],
    ['jer_dd/copy', () => writeJerDdCopy(nodes)],
    ['dd_ontology/copy', () => exportDdOntology(nodes)],
  ])('reads as %s', (format, write) => {
    const text = write();
    const start = performance.now();
    const { nodes: back, report } = readOntologyFile(text);
    const ms = performance.now() - start;
    const one = performance.now();
    readOntologyFile(text, { tld: 'gb' });
    const oneMs = performance.now() - one;
    console.log(
      `${format}: ${(text.length / 1e6).toFixed(1)} MB, ${back.length} nodes read in ${ms.toFixed(0)} ms ` +
        `(one TLD selected: ${oneMs.toFixed(0)} ms)`,
    );
    expect(report.format).toBe(format);
    expect(withoutExtra(back)).toEqual(nodes);
    expect(report.problems).toEqual([]);
    expect(Object.keys(report.nodes_per_tld)).toHaveLength(40);
    expect(report.relations_to_missing_tlds.zz).toBeGreaterThan(0);
    expect(Object.keys(report.models_not_implemented).sort()).toEqual([
      'component_3d',
      'component_geolocation',
      'component_iri',
    ]);
  });
});
