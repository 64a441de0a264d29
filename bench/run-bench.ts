/**
 * `npm run bench`: load-tests the publication API with autocannon on a large generated archive,
 * per engine, beside a bare-driver ceiling running the same SQL in the same run, and prints a
 * markdown table of req/s, p99, server RSS and the API/ceiling ratios (copied to BENCHMARKS.md).
 *
 *   npm run bench -- [--interviews 100000] [--seconds 10] [--connections 16] [--engines sqlite,mariadb]
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
import { writeMariadbDemo, writeSqliteDemo } from '../src/demo/index.js';
import {
  backtickDialect,
  buildCount,
  buildSelect,
  type Dialect,
  doubleQuoteDialect,
} from '../src/publication/db/sql-builder.js';
import { type LoopResult, mariadbCeiling, type SqlMaker, sqliteCeiling } from './ceiling.js';

const { values: args } = parseArgs({
  options: {
    interviews: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    engines: { type: 'string', default: 'sqlite,mariadb' },
  },
});
const INTERVIEWS = Number(args.interviews);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const ENGINES = String(args.engines).split(',');
const DB = 'bench_archive';
const SQLITE_DIR = resolve('data/bench');
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const PORT = 3190;
const BASE = '/publication/server_api/v2';

interface Scenario {
  name: string;
  path: () => string;
  sql: (d: Dialect) => SqlMaker;
}

const randomId = () => 1 + Math.floor(Math.random() * INTERVIEWS);
const pageWhere = [{ column: 'lang', op: 'eq' as const, value: 'lg-eng' }];
const SCENARIOS: Scenario[] = [
  {
    name: 'page of 100, filter + sort',
    path: () => `${BASE}/${DB}/tables/interview/records?limit=100&filter%5Blang%5D=lg-eng&sort=-section_id`,
    sql: (d) => () =>
      buildSelect(d, {
        table: 'interview',
        columns: [
          'section_id',
          'lang',
          'code',
          'title',
          'abstract',
          'transcription',
          'informant',
          'audiovisual',
          'image',
          'link',
          'date',
          'place',
          'duration',
          'dd_relations',
        ],
        where: pageWhere,
        orderBy: [
          { column: 'section_id', desc: true },
          { column: 'lang', desc: false },
        ],
        limit: 101,
      }),
  },
  {
    name: 'single record',
    path: () => `${BASE}/${DB}/tables/interview/records/${randomId()}`,
    sql: (d) => () =>
      buildSelect(d, {
        table: 'interview',
        columns: [
          'section_id',
          'lang',
          'code',
          'title',
          'abstract',
          'transcription',
          'informant',
          'audiovisual',
          'image',
          'link',
          'date',
          'place',
          'duration',
          'dd_relations',
        ],
        where: [{ column: 'section_id', op: 'eq', value: randomId() }],
        orderBy: [{ column: 'lang', desc: false }],
        limit: 1000,
      }),
  },
  {
    name: 'count (limit=0&count=true)',
    path: () => `${BASE}/${DB}/tables/interview/records?limit=0&count=true&filter%5Blang%5D=lg-eng`,
    sql: (d) => () => buildCount(d, { table: 'interview', where: pageWhere }),
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

async function loadTest(path: () => string): Promise<LoopResult & { errors: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }],
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
      const floor = await loadTest(() => `${BASE}/favicon.ico`);
      const floorRow = `| ${engine} | HTTP floor (204, no database) | ${floor.requestsPerSec.toFixed(0)} | ${floor.p99Ms.toFixed(1)} | | | | | ${rssMb(server.pid!)} | ${floor.errors} |`;
      console.log(floorRow);
      lines.push(floorRow);
      for (const sc of SCENARIOS) {
        await loadTest(sc.path); // warm-up: schema cache, prepared statements, page cache
        const api = await loadTest(sc.path);
        const rss = rssMb(server.pid!);
        const ceiling =
          engine === 'sqlite'
            ? sqliteCeiling(join(SQLITE_DIR, `${DB}.sqlite`), sc.sql(doubleQuoteDialect), SECONDS)
            : await mariadbCeiling(
                { ...MARIADB, database: DB },
                sc.sql(backtickDialect),
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

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
