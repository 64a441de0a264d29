/**
 * Migration 4's indexes are usable by the SQL the search builds: over a few thousand records a
 * "contains" filter is planned on the trigram index of matrix_string_search and a relation
 * membership on the relation GIN index (with sequential scans disabled inside a transaction, so
 * the test proves usability rather than the planner's cost choice on a small table). Also checks
 * that the side table follows inserts, updates and deletes, and that the unique check finds the
 * holders of values through the values index of migration 15.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentSpec } from '../../src/work/components/component-values.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { holdersOfValues } from '../../src/work/records/component-rules.js';
import { parseSqo } from '../../src/work/search/parse-sqo.js';
import { buildSearch, countRecords } from '../../src/work/search/search-records.js';
import { NO_SCOPE } from '../../src/work/search/sqo-sql.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

const ontology = loadOntology();
const ROWS = 3000;

describe.each(workEngineCases())('search indexes ($engine)', (engine) => {
  let fresh: FreshDatabase;
  let db: SqlClient;
  beforeAll(async () => {
    fresh = await engine.freshDatabase();
    db = await fresh.open();
    await migrateSchema(db);
    await db.query(
      `INSERT INTO matrix (section_tipo, section_id, string, relation, date)
       SELECT 'oh1', g,
         jsonb_build_object('oh14', jsonb_build_array(jsonb_build_object('id', 1, 'lang', 'lg-nolan',
           'value', CASE WHEN g = 1234 THEN 'Entrevista Ñandú' ELSE 'code ' || md5(g::text) END))),
         jsonb_build_object('oh24', jsonb_build_array(jsonb_build_object('type', 'dd151',
           'section_tipo', 'rsc197', 'section_id', g % 100, 'from_component_tipo', 'oh24'))),
         jsonb_build_object('oh29', jsonb_build_array(jsonb_build_object('id', 1, 'lang', 'lg-nolan',
           'start', jsonb_build_object('year', 1900 + g % 100, 'month', 1 + g % 12))))
       FROM generate_series(1, $1::integer) AS g`,
      [ROWS],
    );
    await db.query('ANALYZE');
  });
  afterAll(async () => {
    await fresh?.dispose();
  });

  const plan = async (rawSqo: Record<string, unknown>) => {
    const sqo = parseSqo(rawSqo, ontology);
    const built = (await buildSearch(db, ontology, sqo, NO_SCOPE, sqo.section_tipo))!;
    return db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<Record<string, string>>(
        `EXPLAIN SELECT count(*) FROM (${built.union}) u`,
        built.builder.params.values,
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
  };

  it('a contains filter is planned on the trigram index', async () => {
    const sqo = {
      section_tipo: 'oh1',
      filter: { $and: [{ q: 'nandu', path: [{ component_tipo: 'oh14' }] }] },
    };
    expect(await plan(sqo)).toContain('matrix_string_search_trgm');
    expect(await countRecords(db, ontology, parseSqo(sqo, ontology), NO_SCOPE)).toBe(1);
    const begins = {
      section_tipo: 'oh1',
      filter: { $and: [{ q: 'entrev*', path: [{ component_tipo: 'oh14' }] }] },
    };
    // A prefix is a range of the btree (migration 16), not a read of every leading trigram's
    // posting list; an equality likewise.
    expect(await plan(begins)).toContain('matrix_string_search_pattern');
    expect(await countRecords(db, ontology, parseSqo(begins, ontology), NO_SCOPE)).toBe(1);
    const exact = {
      section_tipo: 'oh1',
      filter: { $and: [{ q: '==entrevista nandu', path: [{ component_tipo: 'oh14' }] }] },
    };
    expect(await plan(exact)).toContain('matrix_string_search_pattern');
    expect(await countRecords(db, ontology, parseSqo(exact, ontology), NO_SCOPE)).toBe(1);
  });

  it('a relation membership is planned on the relation GIN index', async () => {
    const sqo = {
      section_tipo: 'oh1',
      filter: {
        $and: [{ q: { section_tipo: 'rsc197', section_id: 7 }, path: [{ component_tipo: 'oh24' }] }],
      },
    };
    expect(await plan(sqo)).toContain('matrix_relation_gin');
    expect(await countRecords(db, ontology, parseSqo(sqo, ontology), NO_SCOPE)).toBe(ROWS / 100);
  });

  it('a unique check probes the values index (migration 16, value_key), then compares exactly: case and spaces aside, accents count', async () => {
    const spec = componentSpec(ontology, ontology.node('oh14')!);
    const key = { section_tipo: 'oh1', section_id: 0 };
    const holders = (values: string[]) =>
      db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        let sql = '';
        let params: readonly unknown[] = [];
        const found = await holdersOfValues(
          {
            query: (text, values) => {
              sql = text;
              params = values ?? [];
              return tx.query(text, values);
            },
          },
          'matrix',
          key,
          spec,
          values,
        );
        const { rows } = await tx.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
        return { found, plan: rows.map((r) => Object.values(r)[0]).join('\n') };
      });
    const probe = await holders([
      'ENTREVISTA ÑANDÚ',
      `code ${createHash('md5').update('7').digest('hex')}`,
      'x',
    ]);
    expect(probe.plan).toContain('matrix_string_search_unique');
    expect(probe.found).toEqual([
      { section_id: 7, value: `code ${createHash('md5').update('7').digest('hex')}` },
      { section_id: 1234, value: 'Entrevista Ñandú' },
    ]);
    // The index is only the probe: the rule compares the stored text (unaccented is another value).
    expect((await holders(['Entrevista Nandu'])).found).toEqual([]);
  });

  it('a date or number comparison is planned on the number side table', async () => {
    const year = {
      section_tipo: 'oh1',
      filter: { $and: [{ q: '1950', path: [{ component_tipo: 'oh29' }] }] },
    };
    expect(await plan(year)).toContain('matrix_number_search_value');
    expect(await countRecords(db, ontology, parseSqo(year, ontology), NO_SCOPE)).toBe(ROWS / 100);
    const range = {
      section_tipo: 'oh1',
      filter: {
        $and: [
          { q: { start: { year: 1950, month: 3 } }, q_operator: '<=', path: [{ component_tipo: 'oh29' }] },
        ],
      },
    };
    expect(await plan(range)).toContain('matrix_number_search_value');
    // Years 1900..1949 (50 a year), and 1950 in January to March.
    const march1950 = Array.from({ length: ROWS }, (_, k) => k + 1).filter(
      (g) => 1900 + (g % 100) < 1950 || (1900 + (g % 100) === 1950 && 1 + (g % 12) <= 3),
    ).length;
    expect(await countRecords(db, ontology, parseSqo(range, ontology), NO_SCOPE)).toBe(march1950);
  });

  it('the side table follows inserts, updates, deletes and truncates; passwords never enter it', async () => {
    const side = async (sectionTipo: string, sectionId: number) =>
      (
        await db.query<{ component_tipo: string; lang: string; value_norm: string }>(
          `SELECT component_tipo, lang, value_norm FROM matrix_string_search
           WHERE section_tipo = $1 AND section_id = $2 ORDER BY component_tipo, value_norm`,
          [sectionTipo, sectionId],
        )
      ).rows;
    expect(await side('oh1', 1234)).toEqual([
      { component_tipo: 'oh14', lang: 'lg-nolan', value_norm: 'entrevista nandu' },
    ]);
    await db.query(
      `UPDATE matrix SET string = '{"oh16":[{"id":1,"lang":"lg-spa","value":"Año"},{"id":1,"lang":"lg-eng","value":7}]}'
       WHERE section_tipo = 'oh1' AND section_id = 1234`,
    );
    expect(await side('oh1', 1234)).toEqual([{ component_tipo: 'oh16', lang: 'lg-spa', value_norm: 'ano' }]);
    await db.query(`DELETE FROM matrix WHERE section_tipo = 'oh1' AND section_id = 1234`);
    expect(await side('oh1', 1234)).toEqual([]);
    const numbers = await db.query(
      `SELECT 1 FROM matrix_number_search WHERE section_tipo = 'oh1' AND section_id = 1234`,
    );
    expect(numbers.rowCount).toBe(0);
    await db.query(
      `INSERT INTO matrix_users (section_tipo, section_id, string)
       VALUES ('dd128', 5, '{"dd132":[{"id":1,"lang":"lg-nolan","value":"Ana"}],"dd133":[{"id":1,"lang":"lg-nolan","value":"$argon2id$secret"}]}')`,
    );
    expect(await side('dd128', 5)).toEqual([
      { component_tipo: 'dd132', lang: 'lg-nolan', value_norm: 'ana' },
    ]);
    await db.query('TRUNCATE matrix_users');
    expect(await side('dd128', 5)).toEqual([]);
    expect((await side('oh1', 1)).length).toBe(1);
  });
});
