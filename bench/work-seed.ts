/**
 * The work benchmark's archive: a bootstrapped database holding `count` oral-history interviews
 * (oh1), written before the server starts so every scenario reads and saves realistic rows.
 *
 * One `INSERT ... SELECT ... FROM generate_series` builds the JSONB columns in the database (a
 * row per interview, no round trip per record): the code oh14 `INT-000123`, the translatable
 * title oh16 in lg-eng and lg-spa from small word lists, the project filter oh22 pointing at the
 * default project dd153/1, and `meta` holding each component's last item id (so a save's
 * `update` of item 1 and any later `insert` mint ids the way the API does). The migration-4
 * trigger fills the trigram search side table as the rows go in, exactly as API writes would.
 * The oh1 counter is then set to `count`, so a record created later gets `count + 1`.
 */
import { bootstrapDatabase } from '../src/work/bootstrap/bootstrap-database.js';
import type { WorkDatabase } from '../src/work/config.js';
import { loadOntology } from '../src/work/ontology/load-ontology.js';
import { setCounter } from '../src/work/store/counters.js';
import { openSqlClient } from '../src/work/store/open-sql-client.js';

export const INTERVIEW_SECTION = 'oh1';

const ENG_WORDS = ['Memories', 'Voices', 'Stories', 'Letters', 'Songs', 'Echoes', 'Roads'];
const ENG_PLACES = ['the harbour', 'the mine', 'the valley', 'the mill', 'the school', 'the war', 'exile'];
const SPA_WORDS = ['Memorias', 'Voces', 'Historias', 'Cartas', 'Canciones', 'Ecos', 'Caminos'];
const SPA_PLACES = ['el puerto', 'la mina', 'el valle', 'el molino', 'la escuela', 'la guerra', 'el exilio'];

/** The code every seeded interview `id` carries in oh14 (the list filter searches these). */
export const interviewCode = (id: number) => `INT-${String(id).padStart(6, '0')}`;

/**
 * Bootstraps `database` (schema, ontology records, root with `rootPassword`) and inserts
 * interviews 1..count. Answers the seconds the insert took.
 */
export async function seedInterviews(
  database: WorkDatabase,
  rootPassword: string,
  count: number,
): Promise<number> {
  const ontology = loadOntology();
  const table = ontology.tableOf(INTERVIEW_SECTION);
  if (!table) throw new Error(`${INTERVIEW_SECTION} has no matrix table`);
  const db = await openSqlClient(database);
  try {
    await bootstrapDatabase(db, ontology, { rootPassword });
    const started = performance.now();
    await db.transaction(
      async (tx) => {
        // Word lists are bound arrays; (g % 7) and (g / 7 % 7) give 49 distinct titles per language.
        await tx.query(
          `INSERT INTO ${table} (section_tipo, section_id, string, relation, meta, created_by)
         SELECT $1::text, g,
           jsonb_build_object(
             'oh14', jsonb_build_array(jsonb_build_object(
               'id', 1, 'lang', 'lg-nolan', 'value', 'INT-' || lpad(g::text, 6, '0'))),
             'oh16', jsonb_build_array(
               jsonb_build_object('id', 1, 'lang', 'lg-eng',
                 'value', ($3::text[])[1 + g % 7] || ' of ' || ($4::text[])[1 + (g / 7) % 7]),
               jsonb_build_object('id', 2, 'lang', 'lg-spa',
                 'value', ($5::text[])[1 + g % 7] || ' de ' || ($6::text[])[1 + (g / 7) % 7]))),
           jsonb_build_object('oh22', jsonb_build_array(jsonb_build_object(
             'type', 'dd675', 'section_tipo', 'dd153', 'section_id', 1, 'from_component_tipo', 'oh22'))),
           jsonb_build_object('oh14', 1, 'oh16', 2),
           -1
         FROM generate_series(1, $2::integer) AS g`,
          [INTERVIEW_SECTION, count, ENG_WORDS, ENG_PLACES, SPA_WORDS, SPA_PLACES],
        );
        await setCounter(tx, INTERVIEW_SECTION, count);
        // 100k rows and their side-table rows outlast a request's statement_timeout on a busy VM.
      },
      { unlimited: true },
    );
    const seconds = (performance.now() - started) / 1000;
    // Fresh statistics, so the planner sees 100k rows and uses the trigram index at once, and
    // the visibility map autovacuum would set soon after such an insert: index-only scans then
    // read no heap pages, as on a database in service, and autovacuum does not start in the
    // middle of a measurement.
    for (const t of [table, 'matrix_string_search', 'matrix_sort_key']) await db.query(`VACUUM ANALYZE ${t}`);
    return seconds;
  } finally {
    await db.close();
  }
}
