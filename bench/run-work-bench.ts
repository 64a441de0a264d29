/**
 * `npm run bench -- --api work`: load-tests the work API's `login` and `start` (with a session,
 * menu included) with autocannon, on embedded PGlite and on PostgreSQL, each beside a baseline
 * measured in the same run with the same concurrency and no HTTP:
 *
 * - login: a bare Argon2id verify loop of root's stored hash (the cost no login can avoid);
 * - start: a bare loop of the session lookup statement every request with a session runs
 *   (`touchLiveSession`, the store's own function, on the server's database).
 *
 *   npm run bench -- --api work [--seconds 5] [--connections 16] [--engines pglite,postgres]
 *
 * The server is the compiled one (`node dist/src/work/main.js`, LOG_LEVEL=warn) as a child
 * process on a fresh database: a temporary PGlite directory, or a PostgreSQL database
 * `workbench_<pid>` created on the server of TEST_PG_URL and dropped at the end. PGlite is a
 * single-process database, so its session-lookup baseline runs after the server has stopped, on
 * the same data directory. Prints a markdown table and writes it to bench/results/work-latest.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { verifyPassword } from '../src/work/auth/password-hash.js';
import type { WorkDatabase } from '../src/work/config.js';
import { openSqlClient } from '../src/work/store/open-sql-client.js';
import { touchLiveSession } from '../src/work/store/sessions.js';
import type { SqlClient } from '../src/work/store/sql-client.js';
import type { LoopResult } from './ceiling.js';

export interface WorkBenchOptions {
  seconds: number;
  connections: number;
  engines: string[];
}

const PORT = 3191;
const BASE = '/dedalo/core/api/v1/json';
const URL_BASE = `http://127.0.0.1:${PORT}${BASE}`;
const ROOT_PASSWORD = 'bench root password';
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOGIN_BODY = JSON.stringify({
  dd_api: 'dd_utils_api',
  action: 'login',
  options: { username: 'root', auth: ROOT_PASSWORD },
});
const START_BODY = JSON.stringify({ action: 'start', options: { search_obj: { t: 'oh1' }, menu: true } });

interface Measured extends LoopResult {
  errors: number;
}

function summarise(latencies: number[], seconds: number): LoopResult {
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
  return { requestsPerSec: latencies.length / seconds, p99Ms: p99 };
}

/** `concurrency` workers each running `op` back to back for `seconds`. */
async function loop(op: () => Promise<unknown>, concurrency: number, seconds: number): Promise<LoopResult> {
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return summarise(latencies, seconds);
}

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/src/work/main.js'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      DEDALO_ROOT_PASSWORD: ROOT_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolveReady, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('listening')) resolveReady();
    });
    child.on('exit', (code) => reject(new Error(`work server exited with ${code}`)));
  });
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function loadTest(
  body: string,
  headers: Record<string, string>,
  opts: WorkBenchOptions,
  seconds = opts.seconds,
): Promise<Measured> {
  const result = await autocannon({
    url: URL_BASE,
    connections: opts.connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    requestsPerSec: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Logs in once; answers the cookie header to send and the session token's SHA-256. */
async function loginOnce(): Promise<{ cookie: string; tokenSha256: string }> {
  const res = await fetch(URL_BASE, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: LOGIN_BODY,
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const pair = (res.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const token = pair.slice(pair.indexOf('=') + 1);
  return { cookie: pair, tokenSha256: createHash('sha256').update(token, 'utf8').digest('hex') };
}

async function rootHash(db: SqlClient): Promise<string> {
  const { rows } = await db.query<{ hash: string }>(
    `SELECT string->'dd133'->0->>'value' AS hash FROM matrix_users WHERE section_tipo = 'dd128' AND section_id = -1`,
  );
  const hash = rows[0]?.hash;
  if (!hash) throw new Error("root's password hash not found");
  return hash;
}

/** The session lookup every request with a cookie runs, in a bare loop. */
const sessionLookup = (db: SqlClient, tokenSha256: string) => () => {
  const now = new Date();
  return touchLiveSession(db, tokenSha256, now, new Date(now.getTime() - 60 * 60 * 1000));
};

interface EngineSetup {
  env: Record<string, string>;
  database: WorkDatabase;
  dispose(): Promise<void>;
}

async function setup(engine: string, connections: number): Promise<EngineSetup> {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'workbench-'));
    return {
      env: { WORK_DATA_DIR: dir },
      database: { engine: 'pglite', dataDir: join(dir, 'pglite') },
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `workbench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { WORK_DB_URL: url.toString(), WORK_DB_POOL_MAX: String(connections) },
    database: { engine: 'postgres', url: url.toString(), poolMax: connections },
    dispose: async () => {
      const drop = new pg.Client({ connectionString: PG_ADMIN_URL });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await drop.end();
    },
  };
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

function row(
  engine: string,
  scenario: string,
  baselineName: string,
  api: Measured,
  base: LoopResult,
  rss: number,
) {
  return `| ${engine} | ${scenario} | ${fmt(api.requestsPerSec)} | ${fmt(api.p99Ms, 1)} | ${baselineName} | ${fmt(base.requestsPerSec)} | ${fmt(base.p99Ms, 1)} | ${fmt(api.requestsPerSec / base.requestsPerSec, 2)} | ${fmt(api.p99Ms / Math.max(base.p99Ms, 0.01), 2)} | ${rss} | ${api.errors} |`;
}

export async function runWorkBench(opts: WorkBenchOptions): Promise<void> {
  const lines = [
    `Work API; ${opts.seconds}s per measurement; ${opts.connections} connections; ${new Date().toISOString()}`,
    '',
    '| engine | scenario | API req/s | API p99 ms | baseline | baseline req/s | baseline p99 ms | req/s ratio | p99 ratio | server peak RSS MB | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const warmSeconds = Math.min(2, opts.seconds);
  for (const engine of opts.engines) {
    const db = await setup(engine, opts.connections);
    let server: ChildProcess | undefined;
    try {
      server = await startServer(db.env);
      // login: the whole action (throttle check, user lookup, Argon2id verify, new session,
      // activity row) against the verify alone.
      await loadTest(LOGIN_BODY, {}, opts, warmSeconds);
      const login = await loadTest(LOGIN_BODY, {}, opts);
      const loginRss = rssMb(server.pid!);
      // start with a session (root: no permission reads), menu included.
      const session = await loginOnce();
      await loadTest(START_BODY, { cookie: session.cookie }, opts, warmSeconds);
      const start = await loadTest(START_BODY, { cookie: session.cookie }, opts);
      const startRss = rssMb(server.pid!);
      if (engine === 'pglite') {
        await stopServer(server);
        server = undefined;
      }
      const client = await openSqlClient(db.database);
      try {
        const hash = await rootHash(client);
        const verifyBase = await loop(
          () => verifyPassword(hash, ROOT_PASSWORD),
          opts.connections,
          opts.seconds,
        );
        const lookupBase = await loop(
          sessionLookup(client, session.tokenSha256),
          opts.connections,
          opts.seconds,
        );
        for (const r of [
          row(engine, 'login (root)', 'Argon2id verify loop', login, verifyBase, loginRss),
          row(
            engine,
            'start with a session (oh1 + menu)',
            'session lookup SQL loop',
            start,
            lookupBase,
            startRss,
          ),
        ]) {
          console.log(r);
          lines.push(r);
        }
      } finally {
        await client.close();
      }
    } finally {
      if (server) await stopServer(server);
      await db.dispose();
    }
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/work-latest.md', `${lines.join('\n')}\n`);
  console.log(`\n${lines.join('\n')}`);
}
