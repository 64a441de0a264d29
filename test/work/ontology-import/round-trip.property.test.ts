/**
 * Property: a node list written as dd_ontology COPY text reads back to the same list, whatever the
 * labels and properties hold (tabs, newlines, backslashes, quotes, `\N`, `\.`, unicode).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportDdOntology } from '../../../src/work/ontology/import/export-dd-ontology.js';
import type { ImportNode } from '../../../src/work/ontology/import/import-node.js';
import { readOntologyFile } from '../../../src/work/ontology/import/read-ontology-file.js';

const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\t', '\n', '\r', '\\', "'", '"', '\\N', '\\.', '\u0000', '\b', '\f', '\v', ' ', ';'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom('é', 'ç', 'ñ', 'Ω', '漢', '😀', 'ا'),
  ),
  maxLength: 20,
});
const tld = fc.stringMatching(/^[a-z]{2,6}$/);
const tipo = fc.tuple(tld, fc.integer({ min: 0, max: 99_999 })).map(([t, n]) => `${t}${n}`);
const json = fc
  .jsonValue({ maxDepth: 3, stringUnit: 'binary' })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const langs = fc.constantFrom('lg-spa', 'lg-cat', 'lg-eng', 'lg-ara', 'lg-nolan');

const nodeArb: fc.Arbitrary<ImportNode> = fc.record({
  tipo,
  parent: fc.option(tipo, { nil: null }),
  model: fc.option(fc.constantFrom('section', 'component_input_text', 'component_iri', 'area', 'x_y'), {
    nil: null,
  }),
  is_model: fc.boolean(),
  order: fc.option(fc.integer({ min: -1000, max: 1_000_000 }), { nil: null }),
  tld,
  translatable: fc.boolean(),
  relations: fc.array(tipo, { maxLength: 3 }),
  properties: fc.option(fc.oneof(json, fc.dictionary(tricky, tricky)), { nil: null }),
  term: fc.dictionary(langs, tricky),
});

describe('dd_ontology export', () => {
  it('reads back identically (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(nodeArb, { minLength: 1, maxLength: 25, selector: (n) => n.tipo }),
        (nodes) => {
          const text = exportDdOntology(nodes, 'round trip\nof random nodes');
          const { nodes: back, report } = readOntologyFile(text);
          expect(back).toEqual(nodes);
          expect(report.format).toBe('dd_ontology/copy');
          expect(report.problems.filter((p) => p.kind !== 'parent_missing')).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
