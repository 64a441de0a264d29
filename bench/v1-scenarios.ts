/**
 * The legacy v1 API's benchmark scenarios, each beside its v2 equivalent in `npm run bench`:
 * records with resolve_portal (v2: a page resolving a relation), free_search (v2: search),
 * thesaurus_term (v2: single record) and combi of 10 records (v2: batch of 10). Each ceiling is
 * the same statements the v1 action runs, issued without HTTP (bench/ceiling.ts).
 */
import { TABLE_DEFS } from '../src/demo/index.js';
import {
  mariadbSearch,
  mariadbSearchCount,
  sqliteSearch,
  sqliteSearchCount,
} from '../src/publication/db/search-sql.js';
import { buildSelect } from '../src/publication/db/sql-builder.js';
import type { Dialect } from '../src/publication/db/types.js';
import { parseSearchQuery } from '../src/publication/text/search-query.js';
import type { RequestPlan } from './ceiling.js';
import { type BenchScenario, type Fixture, SEARCH_WORD, stableOrder } from './scenarios.js';

/** The code the bench server is started with (V1_API_CODE). */
export const V1_BENCH_CODE = 'bench-v1-code';
export const V1_BASE = '/publication/server_api/v1';

interface V1Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: () => string;
  body?: () => string;
  plan: (d: Dialect, engine: string) => RequestPlan;
}

const columnsOf = (table: string) => TABLE_DEFS.find((t) => t.name === table)!.columns.map((c) => c.name);

function v1ScenarioList(db: string, randomId: () => number, interviews: number): V1Scenario[] {
  const url = (action: string, params: Record<string, string>) =>
    `${V1_BASE}/json/${action}?${new URLSearchParams({ code: V1_BENCH_CODE, db_name: db, ...params })}`;
  const interview = columnsOf('interview');
  const single = (d: Dialect) =>
    buildSelect(d, {
      table: 'interview',
      columns: interview,
      where: [{ column: 'section_id', op: 'in', value: [randomId()] }],
      orderBy: [{ column: 'section_id', desc: false }],
    });
  return [
    {
      name: 'v1 records, 20 rows with resolve_portal',
      path: () =>
        url('records', {
          table: 'interview',
          lang: 'lg-eng',
          limit: '20',
          offset: String(randomId() % 1000),
          resolve_portal: 'true',
        }),
      plan: (d) => ({
        statements: () => {
          const offset = randomId() % 1000;
          const ids = Array.from({ length: 30 }, (_, i) => 1 + ((offset * 2 + i) % Math.max(1, interviews)));
          const byIds = (table: string) =>
            buildSelect(d, {
              table,
              columns: columnsOf(table),
              where: [{ column: 'section_id', op: 'in', value: ids }],
              orderBy: [],
            });
          return [
            buildSelect(d, {
              table: 'interview',
              columns: interview,
              where: [{ column: 'lang', op: 'eq', value: 'lg-eng' }],
              orderBy: [{ column: 'section_id', desc: false }],
              limit: 20,
              offset,
            }),
            buildSelect(d, {
              table: 'publication_schema',
              columns: ['data'],
              where: [{ column: 'id', op: 'eq', value: 1 }],
              orderBy: [],
              limit: 1,
            }),
            byIds('informant'),
            byIds('image'),
            byIds('audiovisual'),
          ];
        },
      }),
    },
    {
      name: `v1 free_search "${SEARCH_WORD}", 10 rows`,
      path: () => url('free_search', { q: SEARCH_WORD, lang: 'lg-spa', rows_per_page: '10' }),
      // The statements free_search runs: v2's capped search and its count (db/search-sql.ts).
      plan: (d) => ({
        statements: () => {
          const query = {
            table: 'interview',
            column: 'transcription',
            search: parseSearchQuery(SEARCH_WORD),
            where: [{ column: 'lang', op: 'eq' as const, value: 'lg-spa' }],
            maxCandidates: 1000, // the server's default SEARCH_MAX_CANDIDATES
          };
          const page = {
            ...query,
            columns: interview,
            orderBy: stableOrder,
            rowKey: ['section_id', 'lang'], // the interview table's primary key
            limit: 10,
            offset: 0,
          };
          return d.engine === 'sqlite'
            ? [sqliteSearch(d, page), sqliteSearchCount(d, query)]
            : [mariadbSearch(d, page), mariadbSearchCount(d, query)];
        },
        parallel: true,
      }),
    },
    {
      name: 'v1 thesaurus_term',
      path: () => url('thesaurus_term', { ar_term_id: `ts1_${1 + (randomId() % 50)}`, lang: 'lg-eng' }),
      plan: (d) => ({
        statements: () => {
          const id = `ts1_${1 + (randomId() % 50)}`;
          const terms = columnsOf('ts_themes');
          return [
            buildSelect(d, {
              table: 'ts_themes',
              columns: terms,
              where: [
                { column: 'term_id', op: 'eq', value: id },
                { column: 'lang', op: 'eq', value: 'lg-eng' },
              ],
              orderBy: [],
            }),
            buildSelect(d, {
              table: 'ts_themes',
              columns: terms,
              where: [
                { column: 'parent', op: 'in', value: [id, JSON.stringify([id])] },
                { column: 'lang', op: 'eq', value: 'lg-eng' },
                { column: 'descriptor', op: 'eq', value: 'yes' },
              ],
              orderBy: [{ column: 'norder', desc: false }],
            }),
          ];
        },
      }),
    },
    {
      name: 'v1 combi of 10 single records',
      path: () =>
        url('combi', {
          ar_calls: JSON.stringify(
            Array.from({ length: 10 }, (_, i) => ({
              id: `q${i}`,
              options: { dedalo_get: 'records', table: 'interview', section_id: String(randomId()) },
            })),
          ),
        }),
      plan: (d) => ({ statements: () => Array.from({ length: 10 }, () => single(d)), parallel: true }),
    },
  ];
}

/** Short ids of the v1 scenarios for `--scenarios`, in the order of v1ScenarioList. */
const IDS = ['v1-records-portal', 'v1-free-search', 'v1-thesaurus-term', 'v1-combi10'] as const;
const ofFixture = new WeakMap<Fixture, V1Scenario[]>();
/** The scenario list built for one fixture (its database, size and random ids). */
function listFor(f: Fixture): V1Scenario[] {
  let list = ofFixture.get(f);
  if (!list) {
    list = v1ScenarioList(f.db, f.randomId, f.interviews);
    ofFixture.set(f, list);
  }
  return list;
}
/** Names, methods and whether a body is sent do not depend on the fixture. */
const shapes = v1ScenarioList('db', () => 1, 1);

/** The v1 scenarios as rows of the bench's scenario table (bench/scenarios.ts). */
export const v1Scenarios: BenchScenario[] = IDS.map((id, i) => {
  const at = (f: Fixture) => listFor(f)[i]!;
  return {
    id,
    label: shapes[i]!.name,
    method: shapes[i]!.method,
    path: (f) => at(f).path(),
    body: shapes[i]!.body ? (f) => at(f).body!() : undefined,
    baseline: { sql: (d, f) => at(f).plan(d, f.engine) },
    // As v2's search: on 100k the word is in two thirds of the transcriptions, and 50 searches at
    // once only queue behind each other.
    connections: id === 'v1-free-search' ? (f) => (f.interviews > 10_000 ? 4 : undefined) : undefined,
  };
});
