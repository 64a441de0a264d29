/**
 * `npm run bench`: load-tests the publication API with autocannon, per engine and fixture, each
 * scenario (bench/scenarios.ts) beside its baseline measured in the same run: the bare driver
 * running the same SQL with the same concurrency and no HTTP, or a bare Fastify server answering
 * 204 (bench/bare-fastify.ts). Prints markdown tables of req/s, p99 and server RSS with the
 * ratios to the baselines and the issue's targets (copied to docs/benchmarks.md).
 *
 *   npm run bench -- [--fixtures small,100k] [--engines sqlite,mariadb] [--scenarios single,page100]
 *                    [--seconds 10] [--warmup 3] [--connections 50] [--port 3190]
 *   npm run bench -- --soak 1000000 [--fixtures small] [--engines ...] [--samples 40]
 *   npm run bench -- --api work [--seconds 5] [--connections 16] [--engines pglite,postgres]
 *     (WORK_BENCH_PART=scenarios|ontology-size|import runs one part; WORK_BENCH_IMPORT_RECORDS
 *     sets the import's size, default 100000)
 *   npm run bench -- --api publish [--interviews 100000] [--targets sqlite,mariadb]
 *
 * Fixtures: `small` (500 interviews, two or three languages each: the database is not the
 * bottleneck) and `100k` (100,000 interviews, ~510k rows). Each is generated once with the demo
 * generator and reused while its size matches. `--soak N` sends N requests of the scenario mix
 * (every selected scenario in turn on each connection) to one server and samples its RSS every
 * N / samples requests: idle, peak and the curve. The server gets the node flags of
 * `npm run start:publication`; BENCH_SERVER_NODE_ARGS adds node flags to the
 * measured server (`--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it).
 *
 * Everything runs on this machine: server, load generator, baselines and MariaDB share its cores,
 * as they would on one VM; the report records the load average.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { writeMariadbDemo, writeSqliteDemo } from '../src/demo/index.js';
import { backtickDialect, doubleQuoteDialect } from '../src/publication/db/sql-builder.js';
import { type LoopResult, mariadbCeiling, sqliteCeiling } from './ceiling.js';
import { cpuMicros } from './process-cpu.js';
import { runPublishBench } from './run-publish-bench.js';
import { runWorkBench, type WorkBenchOptions } from './run-work-bench.js';
import { type BenchScenario, type Fixture, v2Scenarios } from './scenarios.js';
import { V1_BENCH_CODE, v1Scenarios } from './v1-scenarios.js';
import { runImportBench } from './work-import-scenario.js';
import { runOntologySizeBench } from './work-ontology-size.js';

/** Every scenario of the run; another API's table joins here with one import and one spread. */
const ALL_SCENARIOS: BenchScenario[] = [...v2Scenarios, ...v1Scenarios];

const { values: args } = parseArgs({
  options: {
    api: { type: 'string', default: 'publication' },
    fixtures: { type: 'string', default: 'small,100k' },
    engines: { type: 'string' },
    scenarios: { type: 'string', default: '' },
    seconds: { type: 'string' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string' },
    // Requests per second for every load test instead of as many as the server takes.
    rate: { type: 'string' },
    port: { type: 'string', default: '3190' },
    soak: { type: 'string', default: '0' },
    samples: { type: 'string', default: '40' },
    // --api publish: the publishing benchmark's targets and archive size
    targets: { type: 'string', default: 'sqlite,mariadb' },
    interviews: { type: 'string', default: '100000' },
  },
});
const SECONDS = Number(args.seconds ?? '10');
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections ?? '50');
/**
 * `--rate N`: every load test sends N requests/s (autocannon's overallRate) instead of saturating
 * the server. The server then never waits for a core the load generator or the database holds,
 * and its CPU per request is the steady figure to compare two builds by; the req/s ratios mean
 * nothing at a fixed rate, so the report gives the CPU per request against bare Fastify's at the
 * same rate instead.
 */
const RATE = args.rate === undefined ? undefined : Number(args.rate);
const ENGINES = String(args.engines ?? 'sqlite,mariadb').split(',') as Fixture['engine'][];
const PORT = Number(args.port);
const BARE_PORT = PORT + 1;
const SOAK = Number(args.soak);
const SQLITE_DIR = resolve('data/bench');
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
/** The server's default pool size (DB_POOL_MAX); the MariaDB baseline uses as many connections. */
const POOL = 10;
const BASE = '/publication/server_api/v2';
/** The issue's memory targets: RSS 1 s after start, and the peak under every scenario. */
const IDLE_RSS_TARGET_MB = 70;
const PEAK_RSS_TARGET_MB = 150;
/**
 * The server runs with the node flags `npm run start:publication` gives it (package.json, the
 * one place they are set), then any of BENCH_SERVER_NODE_ARGS.
 */
const nodeFlagsOf = (script: string): string[] => {
  const command: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts[script];
  return command.split(' ').filter((a) => a.startsWith('--'));
};
const START_FLAGS = nodeFlagsOf('start:publication');
const SERVER_NODE_ARGS = [
  ...START_FLAGS,
  ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
];
const FIXTURES: Record<string, { db: string; interviews: number }> = {
  // The names change with the generator's table layout, so an older fixture is not reused.
  small: { db: 'bench_small_v2', interviews: 500 },
  '100k': { db: 'bench_archive_v2', interviews: 100_000 },
};

function selectedScenarios(): BenchScenario[] {
  const ids = String(args.scenarios)
    .split(',')
    .filter((s) => s !== '');
  for (const id of ids) {
    if (!ALL_SCENARIOS.some((s) => s.id === id)) {
      throw new Error(`--scenarios: unknown "${id}"; known: ${ALL_SCENARIOS.map((s) => s.id).join(', ')}`);
    }
  }
  return ids.length === 0 ? ALL_SCENARIOS : ALL_SCENARIOS.filter((s) => ids.includes(s.id));
}

function fixtureOf(name: string, engine: Fixture['engine']): Fixture {
  const def = FIXTURES[name];
  if (!def) throw new Error(`--fixtures: unknown "${name}"; known: ${Object.keys(FIXTURES).join(', ')}`);
  return { name, ...def, engine, base: BASE, randomId: () => 1 + Math.floor(Math.random() * def.interviews) };
}

async function ensureArchive(f: Fixture): Promise<void> {
  if (f.engine === 'sqlite') {
    const file = join(SQLITE_DIR, `${f.db}.sqlite`);
    if (existsSync(file)) {
      const db = new Database(file, { readonly: true });
      const max = (db.prepare('SELECT max(section_id) AS n FROM interview').get() as { n: number }).n;
      db.close();
      if (max === f.interviews) return;
    }
    mkdirSync(SQLITE_DIR, { recursive: true });
    console.error(`generating ${f.interviews} interviews into ${file}`);
    await writeSqliteDemo(file, { interviews: f.interviews, seed: 1 }, generationProgress());
  } else {
    const conn = await mysql.createConnection(MARIADB);
    try {
      const [rows] = await conn.query(`SELECT max(section_id) AS n FROM \`${f.db}\`.interview`);
      if ((rows as { n: number }[])[0]?.n === f.interviews) return;
    } catch {
      // not there yet
    } finally {
      await conn.end();
    }
    console.error(`generating ${f.interviews} interviews into MariaDB ${f.db}`);
    await writeMariadbDemo(MARIADB, f.db, { interviews: f.interviews, seed: 1 }, generationProgress());
  }
  process.stderr.write('\n');
}

async function spawnReady(args: string[], env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolveReady, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('listening')) resolveReady();
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return child;
}

/** Rows written so far: rewritten in place on a terminal, a line every tenth of the way in a log. */
function generationProgress(): (done: number, total: number) => void {
  let nextTenth = 0;
  return (done, total) => {
    if (process.stderr.isTTY) process.stderr.write(`\r${done}/${total}`);
    else if (done >= nextTenth) {
      process.stderr.write(`${done}/${total}\n`);
      nextTenth = done + total / 10;
    }
  };
}

/**
 * The publishing bench runs in this process, so it gets the node flags of `npm run publish`
 * (package.json): without them it would measure a publisher nobody runs. When they are missing,
 * the bench starts itself again with them.
 */
async function publishBenchWithCliFlags(): Promise<void> {
  const flags = nodeFlagsOf('publish');
  if (flags.every((f) => process.execArgv.includes(f))) {
    await runPublishBench({ interviews: Number(args.interviews), targets: String(args.targets).split(',') });
    return;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`the publishing bench exited with ${code}`);
}

function startServer(f: Fixture): Promise<ChildProcess> {
  return spawnReady([...SERVER_NODE_ARGS, 'dist/src/publication/main.js'], {
    ...process.env,
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_RPM: '1000000', // the maximum: a load test is one client far above any sane per-client limit
    DB_NAMES: f.db,
    V1_API_CODE: V1_BENCH_CODE, // the v1 scenarios' code (v1 is off without one)
    ...(f.engine === 'sqlite'
      ? { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: SQLITE_DIR }
      : {
          DB_DRIVER: 'mariadb',
          DB_HOST: MARIADB.host,
          DB_USER: MARIADB.user,
          DB_PASSWORD: MARIADB.password,
        }),
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Current (VmRSS) and peak (VmHWM) resident set of a process, in MB. */
function rss(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) =>
    Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { now: mb('VmRSS'), peak: mb('VmHWM') };
}

/** Starts a new peak (VmHWM) measurement for the process (Linux: clear_refs 5). */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not allowed: peaks are then cumulative
  }
}

interface Measured extends LoopResult {
  errors: number;
  requests: number;
}

/** The local MariaDB server's process, when it runs on this machine (its CPU joins the SQL cost). */
function mariadbPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/**
 * The best req/s ratio any HTTP server could reach on this machine for a scenario: the cores
 * divided by what a request costs without our server's own work (the load generator reading the
 * answer, the bare SQL of the request, and a bare Fastify 204's per-request CPU as the HTTP
 * floor), against the SQL baseline's req/s. A target above it cannot be met here, however lean
 * the server: the load generator and the database share the cores with it.
 */
function boundRatio(costs: { loadgenUs: number; sqlUs?: number; floorUs?: number }, baselineRps: number) {
  if (costs.sqlUs === undefined || costs.floorUs === undefined) return Number.NaN;
  const bestRps = (availableParallelism() * 1e6) / (costs.loadgenUs + costs.sqlUs + costs.floorUs);
  return bestRps / baselineRps;
}

/** One autocannon request of a scenario: a new path (and body) for every request sent. */
function requestOf(sc: BenchScenario, f: Fixture): autocannon.Request {
  return {
    method: sc.method ?? 'GET',
    headers: sc.body ? { 'content-type': 'application/json' } : {},
    setupRequest: (req) => ({ ...req, path: sc.path(f), ...(sc.body ? { body: sc.body(f) } : {}) }),
  };
}

/**
 * One request of the scenario before it is measured: a refusal (or a batch whose queries are
 * refused, which still answers 200) would otherwise be measured as a fast success.
 */
async function checkAnswers(port: number, sc: BenchScenario, f: Fixture): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}${sc.path(f)}`, {
    method: sc.method ?? 'GET',
    headers: sc.body ? { 'content-type': 'application/json' } : {},
    body: sc.body?.(f),
  });
  const text = await res.text();
  const results = res.headers.get('content-type')?.includes('json')
    ? (JSON.parse(text) as { results?: { status: number }[] }).results
    : undefined;
  if (res.status >= 300 || results?.some((r) => r.status >= 300)) {
    throw new Error(`scenario ${sc.id} answers ${res.status}: ${text.slice(0, 500)}`);
  }
}

async function loadTest(port: number, sc: BenchScenario, f: Fixture, seconds: number): Promise<Measured> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: sc.connections?.(f) ?? CONNECTIONS,
    duration: seconds,
    timeout: 30, // the server's own time-out (REQUEST_TIMEOUT_MS, 15 s) answers 504 first
    requests: [requestOf(sc, f)],
    ...(RATE !== undefined ? { overallRate: RATE } : {}),
  });
  return {
    requestsPerSec: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    requests: result.requests.total,
  };
}

/**
 * The SQL baseline of a scenario, with its CPU per request: this process's (the driver and, for
 * SQLite, the engine itself) plus the MariaDB server's when it runs here (undefined when it
 * does not: the cost is then unknown).
 */
async function sqlBaseline(sc: BenchScenario, f: Fixture): Promise<LoopResult & { cpuUs?: number }> {
  if (sc.baseline === 'bare-fastify') throw new Error('not an SQL baseline');
  const engine = f.engine === 'mariadb' ? mariadbPid() : undefined;
  const cpu = () => cpuMicros(process.pid) + (engine ? cpuMicros(engine) : 0);
  const before = cpu();
  const result =
    f.engine === 'sqlite'
      ? sqliteCeiling(join(SQLITE_DIR, `${f.db}.sqlite`), sc.baseline.sql(doubleQuoteDialect, f), SECONDS)
      : await mariadbCeiling(
          { ...MARIADB, database: f.db },
          sc.baseline.sql(backtickDialect, f),
          sc.connections?.(f) ?? CONNECTIONS,
          SECONDS,
          POOL,
        );
  const requests = Math.max(1, result.requestsPerSec * SECONDS);
  const known = f.engine === 'sqlite' || engine !== undefined;
  return { ...result, cpuUs: known ? (cpu() - before) / requests : undefined };
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Bare Fastify answering 204 on one route: req/s, p99, peak RSS and server CPU per request. */
async function measureBareFastify(f: Fixture): Promise<Measured & { peakMb: number; cpuUs: number }> {
  const child = await spawnReady(['dist/bench/bare-fastify.js', String(BARE_PORT)], process.env);
  try {
    const favicon: BenchScenario = {
      id: 'bare',
      label: '',
      path: () => '/favicon.ico',
      baseline: 'bare-fastify',
    };
    await loadTest(BARE_PORT, favicon, f, WARMUP);
    resetPeak(child.pid!);
    const before = cpuMicros(child.pid!);
    const measured = await loadTest(BARE_PORT, favicon, f, SECONDS);
    const cpuUs = (cpuMicros(child.pid!) - before) / Math.max(1, measured.requests);
    return { ...measured, peakMb: rss(child.pid!).peak, cpuUs };
  } finally {
    await stop(child);
  }
}

/** One engine and fixture: bare Fastify first, then the server with every scenario. */
async function runBlock(f: Fixture, scenarios: BenchScenario[], lines: string[]): Promise<void> {
  await ensureArchive(f);
  const out = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  // Bare Fastify is the 204 scenarios' baseline and the HTTP floor of the bound (boundRatio).
  const bare = await measureBareFastify(f);
  const server = await startServer(f);
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const idle = rss(server.pid!).now;
    let peak = idle;
    for (const sc of scenarios) {
      await checkAnswers(PORT, sc, f);
      if (WARMUP > 0) await loadTest(PORT, sc, f, WARMUP); // schema cache, prepared statements, page cache
      resetPeak(server.pid!);
      const cpuBefore = cpuMicros(server.pid!);
      const loadgenBefore = cpuMicros(process.pid);
      const api = await loadTest(PORT, sc, f, SECONDS);
      const cpuPerRequest = (cpuMicros(server.pid!) - cpuBefore) / Math.max(1, api.requests);
      const loadgenUs = (cpuMicros(process.pid) - loadgenBefore) / Math.max(1, api.requests);
      const mem = rss(server.pid!);
      peak = Math.max(peak, mem.peak);
      const base = sc.baseline === 'bare-fastify' ? bare : await sqlBaseline(sc, f);
      const ratio = api.requestsPerSec / base.requestsPerSec;
      const bound =
        sc.baseline === 'bare-fastify'
          ? Number.NaN
          : boundRatio(
              { loadgenUs, sqlUs: (base as { cpuUs?: number }).cpuUs, floorUs: bare.cpuUs },
              base.requestsPerSec,
            );
      const cpuRatio = cpuPerRequest / bare.cpuUs;
      const verdict =
        RATE !== undefined
          ? `fixed rate: CPU ${fmt(cpuRatio, 2)}x bare`
          : sc.cpuTarget !== undefined
            ? `CPU ${fmt(cpuRatio, 2)}x bare (<= ${sc.cpuTarget}) ${cpuRatio <= sc.cpuTarget ? 'met' : 'MISSED'}`
            : sc.target === undefined
              ? ''
              : `${sc.target} ${ratio >= sc.target ? 'met' : bound < sc.target ? 'MISSED, above the bound' : 'MISSED'}`;
      const baseName = sc.baseline === 'bare-fastify' ? 'bare Fastify 204' : 'SQL';
      out(
        `| ${f.engine} | ${f.name} | ${sc.id} | ${fmt(api.requestsPerSec)} | ${fmt(api.p99Ms, 1)} | ${baseName} | ${fmt(base.requestsPerSec)} | ${fmt(base.p99Ms, 1)} | ${fmt(ratio, 2)} | ${verdict} | ${fmt(bound, 2)} | ${fmt(api.p99Ms / Math.max(base.p99Ms, 0.01), 2)} | ${fmt(cpuPerRequest)} | ${fmt(loadgenUs)} | ${mem.peak} | ${api.errors} |`,
      );
    }
    peak = Math.max(peak, rss(server.pid!).peak);
    const within = (mb: number, most: number) => `${mb} (<= ${most} ${mb <= most ? 'met' : 'MISSED'})`;
    out(
      `| ${f.engine} | ${f.name} | server RSS MB: idle ${within(idle, IDLE_RSS_TARGET_MB)}, peak ${within(peak, PEAK_RSS_TARGET_MB)}; bare Fastify peak ${bare.peakMb} (peak ratio ${fmt(peak / bare.peakMb, 1)}), CPU ${fmt(bare.cpuUs)} us/request | | | | | | | | | | | | | |`,
    );
  } finally {
    await stop(server);
  }
}

async function bench(): Promise<void> {
  const scenarios = selectedScenarios();
  const lines = [
    `${new Date().toISOString()}; ${SECONDS}s per measurement after ${WARMUP}s of warm-up; ${CONNECTIONS} connections${RATE !== undefined ? `; a fixed ${RATE} requests/s` : ''}; load average at start ${load()}`,
    '',
    '| engine | fixture | scenario | API req/s | API p99 ms | baseline | baseline req/s | baseline p99 ms | req/s ratio | target | bound | p99 ratio | server CPU us/request | load generator CPU us/request | server peak RSS MB | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const engine of ENGINES) {
    for (const name of String(args.fixtures).split(',')) {
      await runBlock(fixtureOf(name, engine), scenarios, lines);
    }
  }
  lines.push('', `Load average at the end: ${load()}`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.md', `${lines.join('\n')}\n`);
  console.log(`\n${lines.join('\n')}`);
}

/** `--soak N`: N requests of the mix against one server per engine; the RSS curve. */
async function soak(): Promise<void> {
  const scenarios = selectedScenarios();
  const samples = Number(args.samples);
  const every = Math.max(1, Math.floor(SOAK / samples));
  const lines = [
    `Soak: ${SOAK} requests of the mix (${scenarios.map((s) => s.id).join(', ')}), ${CONNECTIONS} connections; ${new Date().toISOString()}; load average ${load()}`,
  ];
  for (const engine of ENGINES) {
    for (const name of String(args.fixtures).split(',')) {
      const f = fixtureOf(name, engine);
      await ensureArchive(f);
      const server = await startServer(f);
      try {
        await new Promise((r) => setTimeout(r, 1000));
        const idle = rss(server.pid!).now;
        for (const sc of scenarios) await checkAnswers(PORT, sc, f);
        const curve: string[] = [];
        let done = 0;
        const started = Date.now();
        const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
          const instance = autocannon(
            {
              url: `http://127.0.0.1:${PORT}`,
              connections: CONNECTIONS,
              amount: SOAK,
              timeout: 30,
              requests: scenarios.map((sc) => requestOf(sc, f)),
            },
            (err, res) => (err ? reject(err) : resolveRun(res)),
          );
          instance.on('response', () => {
            done++;
            if (done % every !== 0) return;
            curve.push(`${done}:${rss(server.pid!).now}`);
            console.error(
              `soak ${engine} ${name}: ${curve.at(-1)} MB after ${fmt((Date.now() - started) / 1000)} s`,
            );
          });
        });
        const mem = rss(server.pid!);
        const seconds = (Date.now() - started) / 1000;
        const line = `${engine} ${name}: idle ${idle} MB, peak ${mem.peak} MB, end ${mem.now} MB; ${result.requests.total} requests in ${fmt(seconds)} s, errors ${result.errors + result.non2xx + result.timeouts}; RSS MB every ${every} requests: ${curve.join(' ')}`;
        console.log(line);
        lines.push('', line);
      } finally {
        await stop(server);
      }
    }
  }
  lines.push('', `Load average at the end: ${load()}`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/soak-latest.md', `${lines.join('\n')}\n`);
}

/**
 * The work scenarios, the ontology-size comparison (bench/work-ontology-size.ts), then the
 * import (bench/work-import-scenario.ts); WORK_BENCH_PART=scenarios, =ontology-size or =import
 * runs one of them.
 */
async function workBenchWithOntologySize(opts: WorkBenchOptions): Promise<void> {
  const part = process.env.WORK_BENCH_PART ?? 'all';
  const runs = (name: string) => part === 'all' || part === name;
  mkdirSync('bench/results', { recursive: true });
  if (runs('scenarios')) await runWorkBench(opts);
  if (runs('ontology-size')) {
    const lines = await runOntologySizeBench(opts);
    writeFileSync('bench/results/work-ontology-size-latest.md', `${lines.join('\n')}\n`);
    console.log(`\n${lines.join('\n')}`);
  }
  if (runs('import')) {
    const lines = await runImportBench(opts.engines);
    writeFileSync('bench/results/work-import-latest.md', `${lines.join('\n')}\n`);
    console.log(`\n${lines.join('\n')}`);
  }
}

const run =
  args.api === 'work'
    ? () =>
        workBenchWithOntologySize({
          seconds: Number(args.seconds ?? '5'),
          connections: Number(args.connections ?? '16'),
          engines: String(args.engines ?? 'pglite,postgres').split(','),
        })
    : args.api === 'publish'
      ? () => publishBenchWithCliFlags()
      : args.api === 'publication'
        ? SOAK > 0
          ? soak
          : bench
        : () => Promise.reject(new Error(`--api must be publication, work or publish, got ${args.api}`));

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
