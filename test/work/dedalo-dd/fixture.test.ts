/**
 * The Dédalo-shaped `dd` fixture (test/fixtures/dedalo-dd): the committed jer_dd dump is the one
 * the builder writes (UPDATE_FIXTURES=1 rewrites it), the project's reader reads it without a
 * problem, and it has the shapes the archive must cope with.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readOntologyFile } from '../../../src/work/ontology/import/read-ontology-file.js';
import { dedaloDdNodes } from '../../fixtures/dedalo-dd/dedalo-dd-nodes.js';
import { writeJerDdSql } from '../ontology-import/helpers/jer-dd-writers.js';

const FILE = new URL('../../fixtures/dedalo-dd/dd.jer_dd.sql', import.meta.url);

describe('the Dédalo dd fixture', () => {
  const written = writeJerDdSql(dedaloDdNodes(), { rowsPerInsert: 50 });
  if (process.env.UPDATE_FIXTURES === '1') writeFileSync(FILE, written);
  const text = readFileSync(FILE, 'utf8');

  it('is the dump the builder writes', () => {
    expect(text).toBe(written);
  });

  it('reads without problems, with Dédalo shapes', () => {
    const { nodes, report } = readOntologyFile(text, { tld: 'dd' });
    expect(report.problems).toEqual([]);
    expect(report.unresolved_models).toEqual([]);
    const elements = nodes.filter((n) => !n.is_model);
    expect(elements.length).toBeGreaterThan(300);
    expect(elements.length).toBeLessThan(1700);
    const byTipo = new Map(nodes.map((n) => [n.tipo, n]));
    // Components sit in groupers, never directly under their section.
    expect(byTipo.get(byTipo.get('dd132')!.parent!)!.model).toBe('section_group');
    expect(byTipo.get(byTipo.get('dd130')!.parent!)!.model).toBe('section_tab');
    // Yes/no flags are radio buttons into dd64, whose value is not dd62.
    for (const flag of ['dd131', 'dd244', 'dd515']) {
      expect(byTipo.get(flag)).toMatchObject({ model: 'component_radio_button', relations: ['dd64'] });
    }
    expect(byTipo.has('dd62')).toBe(false);
    // Sections name their matrix table by a relation.
    expect(byTipo.get(byTipo.get('dd128')!.relations[0]!)).toMatchObject({
      model: 'matrix_table',
      term: { 'lg-spa': 'matrix_users' },
    });
    expect(Object.keys(report.models_not_implemented)).toEqual(
      expect.arrayContaining([
        'section_list',
        'button_new',
        'button_delete',
        'component_section_id',
        'component_info',
        'component_inverse',
        'component_filter_records',
        'widget',
        'diffusion_element',
        'tool_export',
      ]),
    );
  });
});
