/**
 * Importing a Dédalo CSV file (src/work/collections/import-records.ts) at size, by hand:
 *
 *   npm run build && node dist/bench/work-import.js [--records 100000] [--engines postgres,pglite] [--bulk false] [--json]
 *
 * `npm run bench -- --api work` runs it too, once per engine in a child process of its own (so
 * each peak RSS is that engine's alone) with `--json`: one JSON line per engine on stdout
 * (bench/work-import-scenario.ts builds the report with the targets from those).
 *
 * Writes a Dédalo CSV of `records` interviews (8 components: code, title and abstract in two
 * languages, informants and audiovisual as locators, date, projects, publishable), imports it
 * into a fresh database as root (every row through the save path: history, versions, activity,
 * import id), and reports records per second and the process's peak resident memory. The
 * baseline (PostgreSQL): the same rows, as the import stored them, loaded again with `COPY` into
 * the same table and indexes in the same run (server-side COPY of a file the server writes).
 * Not a test: no assertion, figures go to docs/benchmarks.md.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUserAccess } from '../src/work/auth/permissions.js';
import type { UserAccessRow } from '../src/work/auth/permissions-store.js';
import { bootstrapDatabase, ROOT_USER_ID } from '../src/work/bootstrap/bootstrap-database.js';
import { importRecords } from '../src/work/collections/import-records.js';
import { fileSource } from '../src/work/collections/import-source.js';
import { loadOntology } from '../src/work/ontology/load-ontology.js';
import { loadStoredOntology } from '../src/work/ontology/ontology-store.js';
import { openSqlClient } from '../src/work/store/open-sql-client.js';
import { setup } from './run-work-bench.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

const MB = 1024 * 1024;
const TARGETS = 200;
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

async function writeFile(path: string, records: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (line: string) =>
    out.write(line) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()));
  await write('section_id;oh14;oh16;oh23;oh24;oh25;oh29;oh22;oh32\n');
  for (let i = 1; i <= records; i++) {
    const title = { 'lg-spa': [`Memorias ${i}`], 'lg-eng': [`Memories ${i}`] };
    const abstract = {
      'lg-spa': [`Resumen de la entrevista ${i}`],
      'lg-eng': [`Abstract of interview ${i}`],
    };
    const informants = [
      { section_tipo: 'rsc197', section_id: String(1 + (i % TARGETS)) },
      { section_tipo: 'rsc197', section_id: String(1 + ((i * 7) % TARGETS)) },
    ];
    const av = [{ section_tipo: 'rsc167', section_id: String(1 + (i % TARGETS)) }];
    const day = `19${String(30 + (i % 60)).padStart(2, '0')}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    await write(
      `${i};INT-${String(i).padStart(6, '0')};${q(JSON.stringify(title))};${q(JSON.stringify(abstract))};${q(JSON.stringify(informants))};${q(JSON.stringify(av))};${day};${q('[{"section_tipo":"dd153","section_id":"1"}]')};${q('[{"section_tipo":"dd64","section_id":"1"}]')}\n`,
    );
  }
  await new Promise<void>((r) => out.end(() => r()));
}

async function main() {
  const records = Number(arg('--records', '100000'));
  const engines = arg('--engines', 'postgres,pglite').split(',');
  // `--bulk false`: every row through the per-row path (the figures before the bulk path).
  const bulk = arg('--bulk', 'true') !== 'false';
  const json = process.argv.includes('--json');
  const dir = mkdtempSync(join(tmpdir(), 'workbench-import-'));
  await chmod(dir, 0o777);
  const file = join(dir, 'oh1.csv');
  await writeFile(file, records);
  const lines = [
    '| engine | records | seconds | records/s | COPY baseline records/s | ratio | peak RSS, MB |',
    '|---|---|---|---|---|---|---|',
  ];
  try {
    for (const engine of engines) {
      const env = await setup(engine, 4);
      try {
        const database =
          env.database.engine === 'postgres'
            ? { ...env.database, timeouts: { statementMs: 600_000, lockMs: 600_000, acquireMs: 60_000 } }
            : env.database;
        const db = await openSqlClient(database);
        try {
          await bootstrapDatabase(db, loadOntology(), { rootPassword: 'bench root password' });
          // The link targets: informants and audiovisual records.
          for (const [table, section] of [
            ['matrix', 'rsc197'],
            ['matrix', 'rsc167'],
          ]) {
            await db.query(
              `INSERT INTO ${table} (section_tipo, section_id, created_by)
               SELECT $1, g, -1 FROM generate_series(1, $2::integer) AS g ON CONFLICT DO NOTHING`,
              [section, TARGETS],
            );
          }
          const { ontology } = await loadStoredOntology(db);
          const root = buildUserAccess(ROOT_USER_ID, {} as UserAccessRow);
          global.gc?.();
          const rssBefore = process.memoryUsage().rss;
          let peak = rssBefore;
          const timer = setInterval(() => {
            peak = Math.max(peak, process.memoryUsage().rss);
          }, 20);
          const started = performance.now();
          // Statements per row, by kind (the profile: where the time goes).
          // Statements by kind: how many, and the milliseconds spent waiting for them.
          const statements = new Map<string, number>();
          const waited = new Map<string, number>();
          const timed = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
            const kind = sql.trim().replace(/\s+/g, ' ').slice(0, 48);
            statements.set(kind, (statements.get(kind) ?? 0) + 1);
            const t0 = performance.now();
            try {
              return await run();
            } finally {
              waited.set(kind, (waited.get(kind) ?? 0) + performance.now() - t0);
            }
          };
          const counted: typeof db = {
            engine: db.engine,
            query: (sql, params) => timed(sql, () => db.query(sql, params)),
            close: () => db.close(),
            transaction: (fn, options) =>
              db.transaction(
                (tx) => fn({ query: (sql, params) => timed(sql, () => tx.query(sql, params)) }),
                options,
              ),
          };
          const report = await importRecords(
            { db: counted, ontology, access: root, now: () => new Date() },
            {
              source: fileSource(file),
              fileName: 'oh1.csv',
              via: 'cli',
              bulk,
              onProgress: (p) => {
                if (p.rows % 5000 === 0) console.error(`${engine}: ${p.rows} rows`);
              },
            },
          );
          const seconds = (performance.now() - started) / 1000;
          clearInterval(timer);
          if (report.counts.refused > 0 || report.failure) {
            console.error(JSON.stringify(report.refusals.slice(0, 3)), report.failure);
          }
          const total = [...statements.values()].reduce((a, b) => a + b, 0);
          console.error(`${engine}: ${(total / records).toFixed(2)} statements per row`);
          console.error('  per row\tms total\tstatement');
          const profile = [...waited].sort((a, b) => b[1] - a[1]).slice(0, 14);
          for (const [kind, ms] of profile) {
            console.error(
              `  ${((statements.get(kind) ?? 0) / records).toFixed(3)}\t${Math.round(ms)}\t${kind}`,
            );
          }
          const rate = report.counts.created / seconds;
          let baseline = 'n/a';
          let ratio = 'n/a';
          let copyRate: number | null = null;
          if (engine === 'postgres') {
            // The rows as imported, written by the server, removed, and loaded again with COPY.
            const dump = join(dir, 'oh1.copy');
            const cols =
              'section_tipo, section_id, string, relation, date, number, media, misc, meta, versions, created_at, created_by, modified_at, modified_by';
            await db.query(`COPY (SELECT ${cols} FROM matrix WHERE section_tipo = 'oh1') TO '${dump}'`);
            await db.query(`DELETE FROM matrix WHERE section_tipo = 'oh1'`);
            const copyStarted = performance.now();
            await db.query(`COPY matrix (${cols}) FROM '${dump}'`);
            copyRate = report.counts.created / ((performance.now() - copyStarted) / 1000);
            baseline = String(Math.round(copyRate));
            ratio = (rate / copyRate).toFixed(2);
          }
          lines.push(
            `| ${engine} | ${report.counts.created} | ${seconds.toFixed(1)} | ${Math.round(rate)} | ${baseline} | ${ratio} | ${Math.round(peak / MB)} |`,
          );
          console.error(lines.at(-1));
          if (json) {
            // The kernel's high-water mark of this process (VmHWM): sampling can miss a peak.
            const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
            console.log(
              JSON.stringify({
                engine,
                records,
                created: report.counts.created,
                refused: report.counts.refused,
                failure: report.failure?.message ?? null,
                seconds,
                rate,
                copyRate,
                rssBeforeMb: rssBefore / MB,
                peakRssMb: Math.max(peak, hwm ? Number(hwm[1]) * 1024 : 0) / MB,
                statementsPerRow: total / records,
                profile: profile.map(([kind, ms]) => ({ kind, ms, count: statements.get(kind) ?? 0 })),
              }),
            );
          }
        } finally {
          await db.close();
        }
      } finally {
        await env.dispose();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!json) console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
