/**
 * The publication benchmark's scenarios, as data: one object per request shape, with the
 * baseline it is measured against and, where the issue sets one, the target ratio.
 *
 * Another API's scenarios (for example the legacy v1 API) live in their own file exporting a
 * `BenchScenario[]` and join the run with one import in run-bench.ts (see ALL_SCENARIOS there).
 * A scenario only needs a name, a path (and a body for POST) and a baseline: `{ sql }` to compare
 * with the bare driver running the same statements, or `'bare-fastify'` to compare with a bare
 * Fastify 204 route.
 */
import { TABLE_DEFS } from '../src/demo/index.js';
import { ftsTableOf } from '../src/publication/db/expr.js';
import { buildSelect } from '../src/publication/db/sql-builder.js';
import type { Dialect } from '../src/publication/db/types.js';
import { parseSearchQuery, toFts5Match, toMariadbBoolean } from '../src/publication/text/search-query.js';
import type { RequestPlan, Statement } from './ceiling.js';

/** The archive a scenario runs against (one database of one engine). */
export interface Fixture {
  /** Label in the report: `small` or `100k`. */
  name: string;
  /** Database name, the `{db}` of the API paths. */
  db: string;
  interviews: number;
  engine: 'sqlite' | 'mariadb';
  /** The API's base path, e.g. /publication/server_api/v2 (v1 scenarios build their own). */
  base: string;
  /** A random existing interview section_id. */
  randomId(): number;
}

export type Baseline =
  /** The same statements on the bare driver; `parallel` when the API runs them concurrently. */
  | { sql: (d: Dialect, f: Fixture) => RequestPlan }
  /** A bare Fastify server answering 204 on one route, measured in the same run. */
  | 'bare-fastify';

export interface BenchScenario {
  /** Short unique id, used by `--scenarios` and in the report. */
  id: string;
  /** What the request does, in words. */
  label: string;
  method?: 'GET' | 'POST';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => string;
  baseline: Baseline;
  /** The target for API req/s / baseline req/s, when it sets one. */
  target?: number;
  /**
   * For the bare-Fastify scenarios: the most server CPU per request may be, as a multiple of
   * bare Fastify's CPU per 204 measured in the same run (the fixed per-request cost).
   */
  cpuTarget?: number;
  /** Concurrent requests on this fixture when not the run's `--connections` (API and baseline alike). */
  connections?: (f: Fixture) => number | undefined;
}

const interviewColumns = TABLE_DEFS.find((t) => t.name === 'interview')!.columns.map((c) => c.name);
const informantColumns = TABLE_DEFS.find((t) => t.name === 'informant')!.columns.map((c) => c.name);
const eng = [{ column: 'lang', op: 'eq' as const, value: 'lg-eng' }];
/** The API's tie-breakers after a sort (query/sort-and-fields.ts withStableOrder). */
export const stableOrder = [
  { column: 'section_id', desc: false },
  { column: 'lang', desc: false },
];
/** The word both search scenarios look for (v2 search, v1 free_search). */
export const SEARCH_WORD = 'memoria';
/** Offsets of the list scenarios stay inside the English rows of the smallest fixture. */
const offsetIn = (f: Fixture) => f.randomId() % Math.min(1000, Math.floor(f.interviews * 0.5));
const listOf10 = (f: Fixture) => ({
  path: `/${f.db}/tables/interview/records`,
  params: { limit: 10, offset: offsetIn(f), 'filter[lang]': 'lg-eng', sort: 'section_id' },
});

/** The bare ranked search of issue 27's target, on `interview.transcription`. */
function bareSearch(d: Dialect, word: string, lang: string, limit: number): Statement {
  const t = d.quote('interview');
  if (d.engine === 'mariadb') {
    const match = `MATCH(${d.quote('transcription')}) AGAINST(? IN BOOLEAN MODE)`;
    return {
      sql: `SELECT *, ${match} AS relevance FROM ${t} WHERE ${match} AND ${d.quote('lang')} = ? ORDER BY relevance DESC LIMIT ${limit}`,
      params: [toMariadbBoolean(parseSearchQuery(word)), toMariadbBoolean(parseSearchQuery(word)), lang],
    };
  }
  const fts = d.quote(ftsTableOf('interview', 'transcription'));
  return {
    sql: `SELECT ${t}.*, -bm25(${fts}) AS relevance FROM ${fts} JOIN ${t} ON ${t}.rowid = ${fts}.rowid WHERE ${fts} MATCH ? AND ${t}.${d.quote('lang')} = ? ORDER BY relevance DESC LIMIT ${limit}`,
    params: [toFts5Match(parseSearchQuery(word)), lang],
  };
}

export const v2Scenarios: BenchScenario[] = [
  {
    id: 'single',
    label: 'single record (every language)',
    path: (f) => `${f.base}/${f.db}/tables/interview/records/${f.randomId()}`,
    baseline: {
      sql: (d, f) => ({
        statements: () => [
          buildSelect(d, {
            table: 'interview',
            columns: interviewColumns,
            where: [{ column: 'section_id', op: 'eq', value: f.randomId() }],
            orderBy: [{ column: 'lang', desc: false }],
            limit: 1000,
          }),
        ],
      }),
    },
    target: 0.5,
  },
  {
    id: 'page100',
    label: 'page of 100, filter + sort',
    path: (f) =>
      `${f.base}/${f.db}/tables/interview/records?limit=100&filter%5Blang%5D=lg-eng&sort=-section_id`,
    // Issue 27: the bare statement of such a page, every column, one row more than the page.
    baseline: {
      sql: (d) => ({
        statements: () => [
          {
            sql: `SELECT * FROM ${d.quote('interview')} WHERE ${d.quote('lang')} = ? ORDER BY ${d.quote('section_id')} DESC LIMIT 101`,
            params: ['lg-eng'],
          },
        ],
      }),
    },
    target: 0.16,
  },
  {
    id: 'search',
    label: `search "${SEARCH_WORD}", 20 rows with highlighted fragments`,
    path: (f) => `${f.base}/${f.db}/tables/interview/search?q=${SEARCH_WORD}&lang=lg-spa&limit=20`,
    // Issue 27: the bare ranked statement, `SELECT *, <relevance> ... ORDER BY relevance DESC
    // LIMIT 20` (MariaDB MATCH ... AGAINST in boolean mode; SQLite the FTS5 equivalent, -bm25),
    // with no candidate cap, no tie-breakers and no count.
    baseline: { sql: (d) => ({ statements: () => [bareSearch(d, SEARCH_WORD, 'lg-spa', 20)] }) },
    target: 0.9,
    // On 100k interviews the word is in two thirds of the transcriptions: one statement takes
    // seconds on the bare driver already, and 50 at once only queue behind each other.
    connections: (f) => (f.interviews > 10_000 ? 4 : undefined),
  },
  {
    id: 'search-count',
    label: `search "${SEARCH_WORD}" with count=true (the exact total beside the page)`,
    path: (f) => `${f.base}/${f.db}/tables/interview/search?q=${SEARCH_WORD}&lang=lg-spa&limit=20&count=true`,
    // The same baseline as `search`: the ratio between the two rows is what the count costs.
    baseline: { sql: (d) => ({ statements: () => [bareSearch(d, SEARCH_WORD, 'lg-spa', 20)] }) },
    connections: (f) => (f.interviews > 10_000 ? 4 : undefined),
  },
  {
    id: 'relation',
    label: 'page of 100 resolving one relation column',
    path: (f) =>
      `${f.base}/${f.db}/tables/interview/records?limit=100&lang=lg-eng&offset=${offsetIn(f)}&resolve_relations=${encodeURIComponent('{"informant":"informant"}')}`,
    baseline: {
      sql: (d, f) => ({
        statements: () => {
          const offset = offsetIn(f);
          // About the informants a page of 100 interviews points at (1.5 per interview).
          const ids = Array.from(
            { length: 150 },
            (_, i) => 1 + ((offset * 2 + i) % Math.floor(f.interviews * 0.8)),
          );
          return [
            buildSelect(d, {
              table: 'interview',
              columns: interviewColumns,
              where: eng,
              orderBy: stableOrder,
              limit: 101,
              offset,
            }),
            buildSelect(d, {
              table: 'informant',
              columns: informantColumns,
              where: [{ column: 'section_id', op: 'in', value: ids }],
              orderBy: [],
            }),
          ];
        },
      }),
    },
  },
  {
    id: 'batch10',
    label: 'batch of 10 list queries (10 rows each)',
    method: 'POST',
    path: (f) => `${f.base}/batch`,
    body: (f) =>
      JSON.stringify({
        queries: Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, ...listOf10(f) })),
      }),
    baseline: {
      sql: (d, f) => ({
        statements: () =>
          Array.from({ length: 10 }, () =>
            buildSelect(d, {
              table: 'interview',
              columns: interviewColumns,
              where: eng,
              orderBy: stableOrder,
              limit: 11,
              offset: offsetIn(f),
            }),
          ),
        parallel: true,
      }),
    },
    target: 0.7,
  },
  {
    id: 'index',
    label: 'index `/`',
    path: (f) => `${f.base}/`,
    baseline: 'bare-fastify',
    cpuTarget: 2.5,
  },
  {
    id: 'health',
    label: '/health (pings the database)',
    path: (f) => `${f.base}/health`,
    baseline: 'bare-fastify',
  },
  {
    id: 'favicon',
    label: 'a 204 route (favicon)',
    path: (f) => `${f.base}/favicon.ico`,
    baseline: 'bare-fastify',
    cpuTarget: 1.5,
  },
];
