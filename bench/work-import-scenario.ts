/**
 * The `import` scenario of `npm run bench -- --api work` (issue 24's measure): importing
 * 100,000 interviews (8 components, two languages, relations) from a Dédalo CSV, records per
 * second beside a `COPY` of the same rows into the same table and indexes in the same run, and
 * the peak RSS, on each engine. The import runs in bench/work-import.ts, one child process per
 * engine, so each peak RSS is that import's alone (not the load tests' before it).
 *
 * WORK_BENCH_IMPORT_RECORDS (default 100000) changes the number of records for quick runs.
 * Targets: >= 2,000 records/s and >= 0.5 of the COPY baseline on PostgreSQL; peak RSS under
 * 300 MB. PGlite has no COPY baseline here (a server-side COPY of a file it cannot read).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const TARGET_RATE = 2000;
const TARGET_RATIO = 0.5;
const TARGET_RSS_MB = 300;

interface ImportResult {
  engine: string;
  records: number;
  created: number;
  refused: number;
  failure: string | null;
  seconds: number;
  rate: number;
  copyRate: number | null;
  rssBeforeMb: number;
  peakRssMb: number;
  statementsPerRow: number;
  profile: { kind: string; ms: number; count: number }[];
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Runs bench/work-import.js for one engine in a child process; answers its JSON line. */
function runChild(engine: string, records: number): Promise<ImportResult> {
  const script = fileURLToPath(new URL('./work-import.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [script, '--records', String(records), '--engines', engine, '--json'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) {
        reject(new Error(`the ${engine} import bench exited with ${code}: ${out.slice(-500)}`));
        return;
      }
      resolve(JSON.parse(line) as ImportResult);
    });
  });
}

const met = (ok: boolean) => (ok ? 'met' : '**not met**');

/** The scenario's report (markdown lines): the table, the targets, each engine's profile. */
export async function runImportBench(engines: readonly string[]): Promise<string[]> {
  const records = Number(process.env.WORK_BENCH_IMPORT_RECORDS ?? 100_000);
  const lines = [
    `### Import: ${records.toLocaleString('en')} interviews from a Dédalo CSV (${new Date().toISOString()})`,
    '',
    '| engine | records | seconds | records/s | COPY baseline records/s | ratio | peak RSS, MB | load average after |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const results: ImportResult[] = [];
  // PostgreSQL first: the targets are its figures; PGlite beside.
  const ordered = [...engines].sort((a, b) => (a === 'postgres' ? -1 : b === 'postgres' ? 1 : 0));
  for (const engine of ordered) {
    console.error(`import bench (${engine}, ${records} records) ...`);
    const r = await runChild(engine, records);
    results.push(r);
    const ratio = r.copyRate ? (r.rate / r.copyRate).toFixed(2) : 'n/a';
    lines.push(
      `| ${engine} | ${r.created} | ${r.seconds.toFixed(1)} | ${Math.round(r.rate)} | ${r.copyRate ? Math.round(r.copyRate) : 'n/a'} | ${ratio} | ${Math.round(r.peakRssMb)} | ${load()} |`,
    );
    if (r.refused > 0 || r.failure)
      lines.push(`| ${engine}: ${r.refused} rows refused; ${r.failure ?? ''} |`);
  }
  const pg = results.find((r) => r.engine === 'postgres');
  lines.push('', 'Targets (PostgreSQL):', '');
  if (pg) {
    const ratio = pg.copyRate ? pg.rate / pg.copyRate : 0;
    lines.push(
      `- >= ${TARGET_RATE.toLocaleString('en')} records/s: ${Math.round(pg.rate)}, ${met(pg.rate >= TARGET_RATE)}`,
      `- >= ${TARGET_RATIO} of the COPY baseline: ${ratio.toFixed(2)}, ${met(ratio >= TARGET_RATIO)}`,
      `- peak RSS < ${TARGET_RSS_MB} MB: ${Math.round(pg.peakRssMb)}, ${met(pg.peakRssMb < TARGET_RSS_MB)}`,
    );
  } else {
    lines.push('- not measured (PostgreSQL was not among the engines)');
  }
  for (const r of results) {
    lines.push(
      '',
      `Where ${r.engine}'s import waited (${r.statementsPerRow.toFixed(3)} statements per record; RSS before the import ${Math.round(r.rssBeforeMb)} MB):`,
      '',
      '| statement | count | ms waited |',
      '|---|---|---|',
      ...r.profile.map((p) => `| \`${p.kind.replace(/\|/g, '\\|')}\` | ${p.count} | ${Math.round(p.ms)} |`),
    );
  }
  return lines;
}
