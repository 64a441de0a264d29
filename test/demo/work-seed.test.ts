/**
 * The demo archive's bulk seeding (multi-row batches, one transaction each) writes exactly the
 * records the store path (insertRecord one by one) writes: every stored column of every record,
 * the search side tables the insert triggers fill (and their indexes, which the bulk path
 * rebuilds), and the section counters, compared value by value on each work engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkDemo } from '../../src/demo/work-seed.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

const ontology = loadOntology();
const ARCHIVE = { interviews: 12, seed: 7 };

/** Everything a seed wrote, in a stable order (created_at is the transaction's clock: left out). */
async function stored(db: SqlClient): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of ['matrix', 'matrix_hierarchy']) {
    const { rows } = await db.query(
      `SELECT section_tipo, section_id, string, relation, date, number, media, misc, meta, created_by,
         modified_at, modified_by
       FROM ${table} ORDER BY section_tipo, section_id`,
    );
    out[table] = rows;
  }
  out.numbers = (await db.query('SELECT * FROM matrix_number_search ORDER BY 1, 2, 3, 4')).rows;
  // The bulk path rebuilds the search table's trigram index after the load: the same definitions.
  out.indexes = (
    await db.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'matrix_string_search' ORDER BY indexname",
    )
  ).rows;
  out.counters = (await db.query('SELECT * FROM matrix_counter ORDER BY section_tipo')).rows;
  out.search = (await db.query(`SELECT * FROM matrix_string_search ORDER BY 1, 2, 3, 4, 5`)).rows;
  return out;
}

describe.each(workEngineCases())('demo work seed on $engine', (engineCase) => {
  const fresh: FreshDatabase[] = [];
  const seeded: Record<string, Record<string, unknown[]>> = {};

  beforeAll(async () => {
    for (const path of ['store', 'bulk'] as const) {
      const database = await engineCase.freshDatabase();
      fresh.push(database);
      const db = await database.open();
      await migrateSchema(db);
      // Batches of 10 records: the archive spans several batches of each table.
      await seedWorkDemo(db, ontology, ARCHIVE, { path, batchSize: 10 });
      seeded[path] = await stored(db);
      await db.close();
    }
  });

  afterAll(async () => {
    for (const database of fresh) await database.dispose();
  });

  it('writes the same records, search rows and counters as the store path', () => {
    const store = seeded.store!;
    const bulk = seeded.bulk!;
    expect(store.matrix!.length).toBeGreaterThan(40);
    expect(store.matrix_hierarchy!.length).toBeGreaterThan(10);
    expect(store.search!.length).toBeGreaterThan(0);
    expect(store.counters!.map((c) => (c as { section_tipo: string }).section_tipo)).toEqual(
      expect.arrayContaining(['oh1', 'rsc167', 'rsc170', 'rsc197', 'ts1']),
    );
    expect(bulk).toEqual(store);
  });
});
