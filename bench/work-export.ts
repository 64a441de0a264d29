/**
 * Exporting a section (src/work/collections/export-section.ts) at size, by hand:
 *
 *   npm run build && node dist/bench/work-export.js [--records 100000] [--engines pglite,postgres]
 *
 * Seeds `records` interviews (bench/work-seed.ts: code, title in two languages, project filter),
 * then writes the whole section in each format to a sink that only counts bytes, as root, in
 * this process. Reported per engine and format: records per second, the file's size, and the
 * process's resident memory (VmRSS) before and at its peak during the export, sampled every
 * 20 ms, and the peak of V8's used heap. Flat memory means the peak does not grow with the number of records (compare a run
 * with --records 10000). Not a test: no assertion, figures go to docs/benchmarks.md.
 */
import { Writable } from 'node:stream';
import { buildUserAccess } from '../src/work/auth/permissions.js';
import type { UserAccessRow } from '../src/work/auth/permissions-store.js';
import { ROOT_USER_ID } from '../src/work/bootstrap/bootstrap-database.js';
import { planExport, type SectionExportFormat, writeExport } from '../src/work/collections/export-section.js';
import { loadStoredOntology } from '../src/work/ontology/ontology-store.js';
import { openSqlClient } from '../src/work/store/open-sql-client.js';
import { setup } from './run-work-bench.js';
import { seedInterviews } from './work-seed.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

const MB = 1024 * 1024;

async function main() {
  const records = Number(arg('--records', '100000'));
  const engines = arg('--engines', 'pglite,postgres').split(',');
  const lines = [
    '| engine | format | records | seconds | records/s | file MB | RSS before, MB | peak RSS, MB | peak heap used, MB |',
  ];
  lines.push('|---|---|---|---|---|---|---|---|---|');
  for (const engine of engines) {
    const env = await setup(engine, 4);
    try {
      // The seed is one big statement: no request's time limit on this busy machine.
      const database =
        env.database.engine === 'postgres'
          ? { ...env.database, timeouts: { statementMs: 600_000, lockMs: 600_000, acquireMs: 60_000 } }
          : env.database;
      await seedInterviews(database, 'bench root password', records);
      const db = await openSqlClient(database);
      try {
        const { ontology } = await loadStoredOntology(db);
        const root = buildUserAccess(ROOT_USER_ID, {} as UserAccessRow);
        for (const format of ['dedalo', 'plain'] as SectionExportFormat[]) {
          global.gc?.();
          const before = process.memoryUsage().rss;
          let peak = before;
          let heap = process.memoryUsage().heapUsed;
          const sample = () => {
            const m = process.memoryUsage();
            peak = Math.max(peak, m.rss);
            heap = Math.max(heap, m.heapUsed);
          };
          const timer = setInterval(sample, 20);
          let bytes = 0;
          const sink = new Writable({
            write(chunk, _encoding, done) {
              bytes += chunk.length;
              done();
            },
          });
          const plan = planExport(ontology, root, { sectionTipo: 'oh1', format, lang: 'lg-spa' });
          const started = performance.now();
          const { records: written } = await writeExport(db, ontology, root, plan, sink);
          const seconds = (performance.now() - started) / 1000;
          clearInterval(timer);
          sample();
          lines.push(
            `| ${engine} | ${format} | ${written} | ${seconds.toFixed(1)} | ${Math.round(written / seconds)} | ${(bytes / MB).toFixed(1)} | ${Math.round(before / MB)} | ${Math.round(peak / MB)} | ${Math.round(heap / MB)} |`,
          );
          console.error(lines.at(-1));
        }
      } finally {
        await db.close();
      }
    } finally {
      await env.dispose();
    }
  }
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
