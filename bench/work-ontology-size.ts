/**
 * The work API's cost of a large ontology (part of `npm run bench -- --api work`): the same
 * archive (bench/work-seed.ts, WORK_BENCH_ONTOLOGY_INTERVIEWS interviews, default 10,000) with
 * the default ontology, then with the generated 20,000 nodes over 40 TLDs added
 * (bench/large-ontology.ts), on each engine:
 *
 * - start: process spawn to "listening" (median of WORK_BENCH_STARTS starts, default 3) and the
 *   server's resident memory (VmRSS) just after, with no request served;
 * - throughput with one root session (16 connections): start with the menu (oh1 + the menu,
 *   which lists every section), a list read (a page of 50 of 100 matches) and the save of the main scenarios.
 *
 * Default and 20k run in turn, WORK_BENCH_ONTOLOGY_ROUNDS times (default 2), and each figure is
 * the best of its rounds, so a burst of load from elsewhere on a shared machine counts less.
 * Reported per engine as the two figures and their ratio (20k / default), throughput also as the
 * server process's CPU time per request (with PGlite the database's work included; with
 * PostgreSQL only the server's); targets: start within
 * +2 s and +60 MB, and no drop in list read and save.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { openSqlClient } from '../src/work/store/open-sql-client.js';
import { installLargeOntology, largeOntology } from './large-ontology.js';
import {
  loadTest,
  loginOnce,
  type Measured,
  ROOT_PASSWORD,
  rotation,
  type Session,
  START_BODY,
  saveBody,
  setup,
  startServer,
  stopServer,
  type WorkBenchOptions,
} from './run-work-bench.js';
import { seedInterviews } from './work-seed.js';

const INTERVIEWS = Number(process.env.WORK_BENCH_ONTOLOGY_INTERVIEWS ?? 10_000);
const STARTS = Number(process.env.WORK_BENCH_STARTS ?? 3);
/** Rounds of (default, 20k) in turn; each figure is the best of its rounds (a shared machine's noise only slows). */
const ROUNDS = Number(process.env.WORK_BENCH_ONTOLOGY_ROUNDS ?? 2);

/** A measurement and the server process's CPU per request (user + system), the figure a busy machine disturbs least. */
interface Timed extends Measured {
  cpuMs: number;
}

interface VariantResult {
  startMs: number;
  rssMb: number;
  start: Timed;
  list: Timed;
  save: Timed;
}

/** The process's CPU time so far in ms: utime and stime, fields 14 and 15 of stat (100 ticks per second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The main scenarios' list read on this smaller archive: oh14 contains "INT-0012" (100 matches), a page of 50. */
const LIST_BODY = JSON.stringify({
  action: 'read',
  source: { section_tipo: 'oh1', tipo: 'oh1', mode: 'list', lang: 'lg-eng' },
  sqo: {
    section_tipo: ['oh1'],
    limit: 50,
    offset: 0,
    filter: { $and: [{ q: 'INT-0012', path: [{ section_tipo: 'oh1', component_tipo: 'oh14' }] }] },
  },
});

const rssNow = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function runVariant(engine: string, large: boolean, opts: WorkBenchOptions): Promise<VariantResult> {
  const db = await setup(engine, opts.connections);
  let server: ChildProcess | undefined;
  try {
    await seedInterviews(db.database, ROOT_PASSWORD, INTERVIEWS);
    if (large) {
      const client = await openSqlClient(db.database);
      try {
        await installLargeOntology(client, largeOntology());
      } finally {
        await client.close();
      }
    }
    const starts: number[] = [];
    const rss: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const t = performance.now();
      const child = await startServer(db.env);
      starts.push(performance.now() - t);
      rss.push(rssNow(child.pid!));
      await stopServer(child);
    }
    server = await startServer(db.env);
    const session: Session = await loginOnce();
    const headers = { cookie: session.cookie, 'x-dedalo-csrf-token': session.csrfToken };
    const pid = server.pid!;
    const measure = async (source: Parameters<typeof loadTest>[0]): Promise<Timed> => {
      await loadTest(source, opts, Math.min(2, opts.seconds));
      const before = cpuMs(pid);
      const measured = await loadTest(source, opts);
      const requests = Math.max(1, measured.requestsPerSec * opts.seconds);
      return { ...measured, cpuMs: (cpuMs(pid) - before) / requests };
    };
    const start = await measure({ body: START_BODY, headers });
    const list = await measure({ body: LIST_BODY, headers });
    const ids = rotation(Math.min(10_000, INTERVIEWS));
    let edit = 0;
    const save = await measure(() => ({ body: saveBody(ids(), `size ${++edit}`), headers }));
    return { startMs: median(starts), rssMb: median(rss), start, list, save };
  } finally {
    if (server) await stopServer(server);
    await db.dispose();
  }
}

const f = (n: number, d = 0) => n.toFixed(d);
const signed = (n: number) => (n < 0 ? f(n) : `+${f(n)}`);

/** The best of several runs: the lowest start time and memory, the highest throughput. */
function best(runs: VariantResult[]): VariantResult {
  const top = (pick: (v: VariantResult) => Timed): Timed => {
    const all = runs.map(pick);
    const fastest = all.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a));
    return { ...fastest, cpuMs: Math.min(...all.map((m) => m.cpuMs)) };
  };
  return {
    startMs: Math.min(...runs.map((v) => v.startMs)),
    rssMb: Math.min(...runs.map((v) => v.rssMb)),
    start: top((v) => v.start),
    list: top((v) => v.list),
    save: top((v) => v.save),
  };
}

/** Runs both variants on every engine; answers the report's lines (a markdown table). */
export async function runOntologySizeBench(opts: WorkBenchOptions): Promise<string[]> {
  const lines = [
    `Ontology size: default vs + 20,000 generated nodes (40 TLDs); ${INTERVIEWS} interviews; start = median of ${STARTS} starts; best of ${ROUNDS} rounds; ${opts.seconds}s per measurement; ${opts.connections} connections, 1 root session; ${new Date().toISOString()}`,
    '',
    '| engine | measure | default | 20k nodes | 20k / default |',
    '|---|---|---|---|---|',
  ];
  for (const engine of opts.engines) {
    const bases: VariantResult[] = [];
    const bigs: VariantResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      bases.push(await runVariant(engine, false, opts));
      bigs.push(await runVariant(engine, true, opts));
    }
    const base = best(bases);
    const big = best(bigs);
    const rows: [string, number, number, number][] = [
      ['start (spawn to listening), ms', base.startMs, big.startMs, 0],
      ['RSS after start, MB', base.rssMb, big.rssMb, 0],
      ['start with menu, req/s', base.start.requestsPerSec, big.start.requestsPerSec, 0],
      ['start with menu, server CPU ms per request', base.start.cpuMs, big.start.cpuMs, 2],
      ['list read, req/s', base.list.requestsPerSec, big.list.requestsPerSec, 0],
      ['list read, server CPU ms per request', base.list.cpuMs, big.list.cpuMs, 2],
      ['save, req/s', base.save.requestsPerSec, big.save.requestsPerSec, 0],
      ['save, server CPU ms per request', base.save.cpuMs, big.save.cpuMs, 2],
    ];
    for (const [name, a, b, digits] of rows) {
      const line = `| ${engine} | ${name} | ${f(a, digits)} | ${f(b, digits)} | ${f(b / Math.max(a, 1e-9), 2)} |`;
      console.log(line);
      lines.push(line);
    }
    const errors = [base, big].reduce((n, v) => n + v.start.errors + v.list.errors + v.save.errors, 0);
    lines.push(
      `| ${engine} | differences | ${signed(big.startMs - base.startMs)} ms | ${signed(big.rssMb - base.rssMb)} MB | errors: ${errors} |`,
    );
  }
  return lines;
}
