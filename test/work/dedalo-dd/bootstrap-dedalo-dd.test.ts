/**
 * A new archive whose `dd` is Dédalo's before its first records are written (the default content
 * installed, `dd` replaced, then the first start's records): root, the profiles and the yes/no
 * list are created on Dédalo's definitions, the yes/no labels in dd64's own text component.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bootstrapDatabase } from '../../../src/work/bootstrap/bootstrap-database.js';
import { installDefaultOntology, loadStoredOntology } from '../../../src/work/ontology/ontology-store.js';
import { migrateSchema } from '../../../src/work/store/migrate-schema.js';
import { DEDALO_YES_NO_VALUE } from '../../fixtures/dedalo-dd/dedalo-dd-nodes.js';
import { replaceTld } from '../../helpers/replace-tld.js';
import { workEngineCases } from '../../helpers/work-engines.js';

const DUMP = readFileSync(new URL('../../fixtures/dedalo-dd/dd.jer_dd.sql', import.meta.url), 'utf8');

describe.each(workEngineCases())("first start on Dédalo's dd ($engine)", (engine) => {
  it('creates root, the profiles and a labelled yes/no list on the replaced definitions', async () => {
    const fresh = await engine.freshDatabase();
    try {
      const db = await fresh.open();
      await migrateSchema(db);
      await installDefaultOntology(db);
      await replaceTld(db, DUMP, 'dd');
      const report = await bootstrapDatabase(db, async (c) => (await loadStoredOntology(c)).ontology, {
        rootPassword: 'a root password',
      });
      expect(report.created).toBe(true);
      const { rows } = await db.query<{ section_id: number; labels: unknown }>(
        `SELECT section_id, string -> $1::text AS labels FROM matrix WHERE section_tipo = 'dd64' ORDER BY section_id`,
        [DEDALO_YES_NO_VALUE],
      );
      expect(rows.map((r) => r.section_id)).toEqual([1, 2]);
      expect(rows[0]!.labels).toEqual(expect.arrayContaining([expect.objectContaining({ value: 'Yes' })]));
      const root = await db.query<{ active: unknown }>(
        `SELECT relation -> 'dd131' AS active FROM matrix_users WHERE section_tipo = 'dd128' AND section_id = -1`,
      );
      expect(root.rows[0]!.active).toEqual([
        expect.objectContaining({ section_tipo: 'dd64', section_id: 1 }),
      ]);
      // The Admin profile covers Dédalo's sections the default content never had.
      const admin = await db.query<{ access: { tipo: string }[] }>(
        `SELECT misc -> 'dd774' AS access FROM matrix_profiles WHERE section_tipo = 'dd234' AND section_id = 1`,
      );
      expect(admin.rows[0]!.access.map((a) => a.tipo)).toEqual(expect.arrayContaining(['dd1324', 'dd1326']));
    } finally {
      await fresh.dispose();
    }
  });
});
