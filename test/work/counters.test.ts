import { afterEach, describe, expect, it } from 'vitest';
import { allocateSectionId, readCounter, setCounter } from '../../src/work/store/counters.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

describe.each(workEngineCases())('section id counters ($engine)', ({ freshDatabase }) => {
  let fresh: FreshDatabase | undefined;
  afterEach(async () => {
    await fresh?.dispose();
    fresh = undefined;
  });

  it('concurrent allocations get distinct consecutive ids', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await migrateSchema(db);
    const n = 40;
    // Half inside their own transactions, as record creation does, half bare.
    const ids = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        i % 2 === 0
          ? db.transaction((tx) => allocateSectionId(tx, 'matrix', 'oh1'))
          : allocateSectionId(db, 'matrix', 'oh1'),
      ),
    );
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(await readCounter(db, 'oh1')).toBe(n);
    expect(await allocateSectionId(db, 'matrix', 'rsc197')).toBe(1); // counters are per section
  });

  it('an allocation rolled back with its transaction is not consumed', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await migrateSchema(db);
    await setCounter(db, 'oh1', 7);
    await expect(
      db.transaction(async (tx) => {
        expect(await allocateSectionId(tx, 'matrix', 'oh1')).toBe(8);
        throw new Error('insert failed');
      }),
    ).rejects.toThrow('insert failed');
    expect(await allocateSectionId(db, 'matrix', 'oh1')).toBe(8);
  });
  it('a section without a counter row starts after the highest id already stored', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await migrateSchema(db);
    await db.query(
      "INSERT INTO matrix (section_tipo, section_id) VALUES ('oh1', 41), ('oh1', -5), ('rsc197', 90)",
    );
    expect(await allocateSectionId(db, 'matrix', 'oh1')).toBe(42);
    expect(await allocateSectionId(db, 'matrix', 'oh1')).toBe(43);
  });
});
