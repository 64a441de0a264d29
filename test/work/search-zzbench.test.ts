import { it } from 'vitest';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { parseSqo } from '../../src/work/search/parse-sqo.js';
import { countRecords, searchRecords } from '../../src/work/search/search-records.js';
import { NO_SCOPE } from '../../src/work/search/sqo-sql.js';
import { openSqlClient } from '../../src/work/store/open-sql-client.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
const ontology = loadOntology();
it('bench', async () => {
  const db = await openSqlClient({ engine: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/sqo_bench', poolMax: 2 } as any);
  await migrateSchema(db);
  let t = Date.now();
  await db.query(`INSERT INTO matrix (section_tipo, section_id, string, relation, date)
   SELECT 'oh1', g, jsonb_build_object('oh14', jsonb_build_array(jsonb_build_object('id',1,'lang','lg-nolan','value', 'code ' || md5(g::text) || CASE WHEN g % 5000 = 0 THEN ' Ñandú' ELSE '' END))),
   jsonb_build_object('oh24', jsonb_build_array(jsonb_build_object('type','dd151','section_tipo','rsc197','section_id', g % 1000,'from_component_tipo','oh24'))),
   jsonb_build_object('oh29', jsonb_build_array(jsonb_build_object('id',1,'lang','lg-nolan','start', jsonb_build_object('year', 1900 + g % 100))))
   FROM generate_series(1,100000) g`);
  console.log('insert 100k', Date.now() - t); await db.query('ANALYZE');
  for (const [name, f] of [
    ['contains', { $and: [{ q: 'nandu', path: [{ component_tipo: 'oh14' }] }] }],
    ['begins', { $and: [{ q: 'code 00*', path: [{ component_tipo: 'oh14' }] }] }],
    ['date year', { $and: [{ q: '1950', path: [{ component_tipo: 'oh29' }] }] }],
    ['relation', { $and: [{ q: { section_tipo: 'rsc197', section_id: 7 }, path: [{ component_tipo: 'oh24' }] }] }],
  ] as const) {
    const sqo = parseSqo({ section_tipo: 'oh1', filter: f, full_count: true, limit: 10 }, ontology);
    t = Date.now(); const r = await searchRecords(db, ontology, sqo, NO_SCOPE);
    console.log(name, r.total, Date.now() - t, 'ms');
  }
  await db.close();
}, 600000);
