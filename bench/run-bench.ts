/**
 * `npm run bench`: load-tests the publication API with autocannon on a large generated archive,
 * per engine, beside a bare-driver ceiling running the same SQL in the same run, and prints a
 * markdown table of req/s, p99, server RSS and the API/ceiling ratios (copied to BENCHMARKS.md).
 *
 *   npm run bench -- [--interviews 100000] [--seconds 10] [--connections 16] [--engines sqlite,mariadb]
 *   npm run bench -- --api work [--seconds 5] [--connections 16] [--engines pglite,postgres]
 *
 * `--api work` runs the work API's benchmark instead (bench/run-work-bench.ts); `--api publish`
 * the publishing benchmark (bench/run-publish-bench.ts, `--targets sqlite,mariadb`).
 *
 * The archive is generated once and reused while its size matches. Everything runs on this
 * machine: server, load generator and ceiling loop share its cores, as they would on one VM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { TABLE_DEFS, writeMariadbDemo, writeSqliteDemo } from '../src/demo/index.js';
import { mariadbSearch, sqliteSearch } from '../src/publication/db/search-sql.js';
import {
  backtickDialect,
  buildCount,
  buildSelect,
  type Dialect,
  doubleQuoteDialect,
} from '../src/publication/db/sql-builder.js';
import { parseSearchQuery } from '../src/publication/text/search-query.js';
import { type LoopResult, mariadbCeiling, type RequestPlan, sqliteCeiling } from './ceiling.js';
import { runPublishBench } from './run-publish-bench.js';
import { runWorkBench } from './run-work-bench.js';

const { values: args } = parseArgs({
  options: {
    api: { type: 'string', default: 'publication' },
    only: { type: 'string', default: '' },
    interviews: { type: 'string', default: '100000' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '16' },
    engines: { type: 'string' },
    targets: { type: 'string', default: 'sqlite,mariadb' },
  },
});
const INTERVIEWS = Number(args.interviews);
const SECONDS = Number(args.seconds ?? '10');
const CONNECTIONS = Number(args.connections);
const ENGINES = String(args.engines ?? 'sqlite,mariadb').split(',');
const DB = 'bench_archive';
const SQLITE_DIR = resolve('data/bench');
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const PORT = 3190;
const BASE = '/publication/server_api/v2';

interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: () => string;
  body?: () => string;
  plan: (d: Dialect, engine: string) => RequestPlan;
}

const randomId = () => 1 + Math.floor(Math.random() * INTERVIEWS);
const interviewColumns = TABLE_DEFS.find((t) => t.name === 'interview')!.columns.map((c) => c.name);
const pageWhere = [{ column: 'lang', op: 'eq' as const, value: 'lg-eng' }];
const stableOrder = [
  { column: 'section_id', desc: false },
  { column: 'lang', desc: false },
];
const single = (d: Dialect) =>
  buildSelect(d, {
    table: 'interview',
    columns: interviewColumns,
    where: [{ column: 'section_id', op: 'eq', value: randomId() }],
    orderBy: [{ column: 'lang', desc: false }],
    limit: 1000,
  });
const SEARCH_WORD = 'memoria';
const searchSql = (d: Dialect, engine: string) => {
  const q = {
    table: 'interview',
    column: 'transcription',
    columns: interviewColumns,
    search: parseSearchQuery(SEARCH_WORD),
    where: [{ column: 'lang', op: 'eq' as const, value: 'lg-spa' }],
    orderBy: stableOrder,
    limit: 21,
    offset: 0,
    // The server's default SEARCH_MAX_CANDIDATES, so the ceiling runs the statement the API runs.
    maxCandidates: 1000,
  };
  return engine === 'sqlite' ? sqliteSearch(d, q) : mariadbSearch(d, q);
};

const SCENARIOS: Scenario[] = [
  {
    name: 'page of 100, filter + sort',
    path: () => `${BASE}/${DB}/tables/interview/records?limit=100&filter%5Blang%5D=lg-eng&sort=-section_id`,
    plan: (d) => ({
      statements: () => [
        buildSelect(d, {
          table: 'interview',
          columns: interviewColumns,
          where: pageWhere,
          orderBy: [{ column: 'section_id', desc: true }, stableOrder[1]!],
          limit: 101,
        }),
      ],
    }),
  },
  {
    name: 'single record',
    path: () => `${BASE}/${DB}/tables/interview/records/${randomId()}`,
    plan: (d) => ({ statements: () => [single(d)] }),
  },
  {
    name: 'count (limit=0&count=true)',
    path: () => `${BASE}/${DB}/tables/interview/records?limit=0&count=true&filter%5Blang%5D=lg-eng`,
    plan: (d) => ({ statements: () => [buildCount(d, { table: 'interview', where: pageWhere })] }),
  },
  {
    name: `search "${SEARCH_WORD}", 20 rows with highlighting`,
    path: () => `${BASE}/${DB}/tables/interview/search?q=${SEARCH_WORD}&lang=lg-spa&limit=20`,
    plan: (d, engine) => ({ statements: () => [searchSql(d, engine)] }),
  },
  {
    name: 'page of 100 resolving one relation column',
    path: () =>
      `${BASE}/${DB}/tables/interview/records?limit=100&lang=lg-eng&offset=${randomId() % 1000}&resolve_relations=${encodeURIComponent('{"informant":"informant"}')}`,
    plan: (d) => ({
      statements: () => {
        const offset = randomId() % 1000;
        const ids = Array.from(
          { length: 150 },
          (_, i) => 1 + ((offset * 2 + i) % Math.max(1, Math.floor(INTERVIEWS * 0.8))),
        );
        return [
          buildSelect(d, {
            table: 'interview',
            columns: interviewColumns,
            where: pageWhere,
            orderBy: stableOrder,
            limit: 101,
            offset,
          }),
          buildSelect(d, {
            table: 'informant',
            columns: TABLE_DEFS.find((t) => t.name === 'informant')!.columns.map((c) => c.name),
            where: [{ column: 'section_id', op: 'in', value: ids }],
            orderBy: [],
          }),
        ];
      },
    }),
  },
  {
    name: 'batch of 10 single records',
    method: 'POST',
    path: () => `${BASE}/batch`,
    body: () =>
      JSON.stringify({
        queries: Array.from({ length: 10 }, (_, i) => ({
          id: `q${i}`,
          path: `/${DB}/tables/interview/records/${randomId()}`,
        })),
      }),
    plan: (d) => ({ statements: () => Array.from({ length: 10 }, () => single(d)), parallel: true }),
  },
];

async function ensureArchive(engine: string): Promise<void> {
  if (engine === 'sqlite') {
    const file = join(SQLITE_DIR, `${DB}.sqlite`);
    if (existsSync(file)) {
      const db = new Database(file, { readonly: true });
      const max = (db.prepare('SELECT max(section_id) AS n FROM interview').get() as { n: number }).n;
      db.close();
      if (max === INTERVIEWS) return;
    }
    mkdirSync(SQLITE_DIR, { recursive: true });
    console.error(`generating ${INTERVIEWS} interviews into ${file}`);
    await writeSqliteDemo(file, { interviews: INTERVIEWS, seed: 1 }, (d, t) =>
      process.stderr.write(`\r${d}/${t}`),
    );
  } else {
    const conn = await mysql.createConnection(MARIADB);
    try {
      const [rows] = await conn.query(`SELECT max(section_id) AS n FROM \`${DB}\`.interview`);
      if ((rows as { n: number }[])[0]?.n === INTERVIEWS) return;
    } catch {
      // not there yet
    } finally {
      await conn.end();
    }
    console.error(`generating ${INTERVIEWS} interviews into MariaDB ${DB}`);
    await writeMariadbDemo(MARIADB, DB, { interviews: INTERVIEWS, seed: 1 }, (d, t) =>
      process.stderr.write(`\r${d}/${t}`),
    );
  }
  process.stderr.write('\n');
}

async function startServer(engine: string): Promise<ChildProcess> {
  const env = {
    ...process.env,
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_RPM: '1000000', // a load test is one client far above any sane per-client limit
    DB_NAMES: DB,
    ...(engine === 'sqlite'
      ? { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: SQLITE_DIR }
      : {
          DB_DRIVER: 'mariadb',
          DB_HOST: MARIADB.host,
          DB_USER: MARIADB.user,
          DB_PASSWORD: MARIADB.password,
          DB_POOL_MAX: '16',
        }),
  };
  const child = spawn(process.execPath, ['dist/src/publication/main.js'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolveReady, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('listening')) resolveReady();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return child;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function loadTest(
  sc: Pick<Scenario, 'path' | 'method' | 'body'>,
): Promise<LoopResult & { errors: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: sc.method ?? 'GET',
        headers: sc.body ? { 'content-type': 'application/json' } : {},
        setupRequest: (req) => ({ ...req, path: sc.path(), ...(sc.body ? { body: sc.body() } : {}) }),
      },
    ],
  });
  return {
    requestsPerSec: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function main(): Promise<void> {
  const lines = [
    `Archive: ${INTERVIEWS} interviews; ${SECONDS}s per measurement; ${CONNECTIONS} connections; ${new Date().toISOString()}`,
    '',
    '| engine | scenario | API req/s | API p99 ms | ceiling req/s | ceiling p99 ms | req/s ratio | p99 ratio | server peak RSS MB | errors |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const engine of ENGINES) {
    await ensureArchive(engine);
    const server = await startServer(engine);
    try {
      // The HTTP floor: what this machine serves with no database work at all (204 favicon).
      const floor = await loadTest({ path: () => `${BASE}/favicon.ico` });
      const floorRow = `| ${engine} | HTTP floor (204, no database) | ${floor.requestsPerSec.toFixed(0)} | ${floor.p99Ms.toFixed(1)} | | | | | ${rssMb(server.pid!)} | ${floor.errors} |`;
      console.log(floorRow);
      lines.push(floorRow);
      for (const sc of SCENARIOS.filter((x) => !args.only || x.name.includes(String(args.only)))) {
        await loadTest(sc); // warm-up: schema cache, prepared statements, page cache
        const api = await loadTest(sc);
        const rss = rssMb(server.pid!);
        const ceiling =
          engine === 'sqlite'
            ? sqliteCeiling(join(SQLITE_DIR, `${DB}.sqlite`), sc.plan(doubleQuoteDialect, engine), SECONDS)
            : await mariadbCeiling(
                { ...MARIADB, database: DB },
                sc.plan(backtickDialect, engine),
                CONNECTIONS,
                SECONDS,
              );
        const row = `| ${engine} | ${sc.name} | ${api.requestsPerSec.toFixed(0)} | ${api.p99Ms.toFixed(1)} | ${ceiling.requestsPerSec.toFixed(0)} | ${ceiling.p99Ms.toFixed(1)} | ${(api.requestsPerSec / ceiling.requestsPerSec).toFixed(2)} | ${(api.p99Ms / Math.max(ceiling.p99Ms, 0.01)).toFixed(2)} | ${rss} | ${api.errors} |`;
        console.log(row);
        lines.push(row);
      }
    } finally {
      server.kill('SIGTERM');
    }
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.md', `${lines.join('\n')}\n`);
  console.log(`\n${lines.join('\n')}`);
}

const run =
  args.api === 'work'
    ? () =>
        runWorkBench({
          seconds: Number(args.seconds ?? '5'),
          connections: CONNECTIONS,
          engines: String(args.engines ?? 'pglite,postgres').split(','),
        })
    : args.api === 'publish'
      ? () => runPublishBench({ interviews: INTERVIEWS, targets: String(args.targets).split(',') })
      : args.api === 'publication'
        ? main
        : () => Promise.reject(new Error(`--api must be publication, work or publish, got ${args.api}`));

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
