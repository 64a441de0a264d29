/**
 * `npm run work -- import ...` (docs/import-export.md, "Importing"):
 *
 *   import FILE [--section TIPO] [--mapping M.json] [--lang lg-xxx] [--dry-run] [--all-or-nothing]
 *               [--refused-out FILE] [--json]
 *   import list [--json]
 *   import undo ID [--force] [--json]
 *
 * The same operations as the API's dd_import_api (collections/import-records.ts,
 * import-undo.ts), run as root (every right), `via: cli`. A progress bar goes to a terminal's
 * stderr; the report to stdout. Refused rows are written, with a `reason` column, to
 * `<FILE>.refused.csv` (or --refused-out) to fix and import again. Exit code 0 when every row
 * was taken, 1 when rows were refused or the file could not be imported, 2 for wrong arguments.
 */
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import cliProgress from 'cli-progress';
import { buildUserAccess } from './auth/permissions.js';
import type { UserAccessRow } from './auth/permissions-store.js';
import { ROOT_USER_ID } from './bootstrap/bootstrap-database.js';
import type { CliResult } from './cli-result.js';
import { ImportFileRefused, importRecords } from './collections/import-records.js';
import { listImports } from './collections/import-register.js';
import type { ImportReport } from './collections/import-report.js';
import { fileSource } from './collections/import-source.js';
import { undoImport } from './collections/import-undo.js';
import { WorkError } from './dispatch/error-registry.js';
import { installDefaultOntology, loadStoredOntology } from './ontology/ontology-store.js';
import type { SqlClient } from './store/sql-client.js';

export const IMPORT_USAGE = `       npm run work -- import FILE [--section TIPO] [--mapping M.json] [--lang lg-xxx] [--dry-run] [--all-or-nothing] [--refused-out FILE] [--json]
       npm run work -- import list [--json]
       npm run work -- import undo ID [--force] [--json]`;

export type ImportCommand =
  | {
      kind: 'import';
      file: string;
      section: string | null;
      mapping: string | null;
      lang: string | null;
      dryRun: boolean;
      allOrNothing: boolean;
      refusedOut: string | null;
      json: boolean;
    }
  | { kind: 'list'; json: boolean }
  | { kind: 'undo'; id: number; force: boolean; json: boolean };

const usage = `usage:\n${IMPORT_USAGE}`;

/** The command, or the usage text when the arguments are wrong. */
export function parseImportCommand(argv: readonly string[]): ImportCommand | string {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  const valued = new Set(['--section', '--mapping', '--lang', '--refused-out']);
  const switches = new Set(['--dry-run', '--all-or-nothing', '--json', '--force']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (flags.has(arg)) return usage;
    if (valued.has(arg)) {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) return usage;
      flags.set(arg, value);
    } else if (switches.has(arg)) flags.set(arg, true);
    else if (arg.startsWith('--')) return usage;
    else positional.push(arg);
  }
  const str = (name: string) => {
    const v = flags.get(name);
    return typeof v === 'string' ? v : null;
  };
  const json = flags.has('--json');
  const only = (...allowed: string[]) => [...flags.keys()].every((f) => allowed.includes(f));
  if (positional[0] === 'list' && positional.length === 1) {
    return only('--json') ? { kind: 'list', json } : usage;
  }
  if (positional[0] === 'undo' && positional.length === 2) {
    const id = /^\d{1,15}$/.test(positional[1]!) ? Number(positional[1]) : 0;
    if (id < 1 || !only('--json', '--force')) return usage;
    return { kind: 'undo', id, force: flags.has('--force'), json };
  }
  if (positional.length !== 1 || flags.has('--force')) return usage;
  return {
    kind: 'import',
    file: positional[0]!,
    section: str('--section'),
    mapping: str('--mapping'),
    lang: str('--lang'),
    dryRun: flags.has('--dry-run'),
    allOrNothing: flags.has('--all-or-nothing'),
    refusedOut: str('--refused-out'),
    json,
  };
}

/** Lines of the file (a row may span several: the bar's total is an upper bound). */
async function countLines(path: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(path)) {
    for (const byte of chunk as Buffer) if (byte === 10) lines++;
  }
  return lines;
}

const KIND_NAMES = { dedalo_csv: 'Dédalo CSV', mapped_csv: 'spreadsheet CSV', matrix_copy: 'Dédalo records' };

export function formatImportReport(report: ImportReport, refusedFile: string | null): string {
  const c = report.counts;
  const head = report.dry_run
    ? `Dry run of ${report.file_name} (nothing was written)`
    : `Import ${report.import_id} of ${report.file_name}`;
  const lines = [
    `${head}: ${KIND_NAMES[report.kind]}${report.section_tipo ? ` into ${report.section_tipo}` : ''}, ${report.rows} rows.`,
    `  ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.refused} refused.`,
  ];
  if (report.all_or_nothing && c.refused > 0)
    lines.push('  All or nothing: rows were refused, so nothing was written.');
  if (report.installed_tlds.length > 0)
    lines.push(`  Thesaurus installed first: ${report.installed_tlds.join(', ')}.`);
  if (report.ignored_columns.length > 0)
    lines.push(`  Columns not imported: ${report.ignored_columns.join(', ')}.`);
  for (const r of report.refusals.slice(0, 50)) {
    lines.push(
      `  line ${r.line}${r.column ? `, column ${r.column}` : ''}${r.header ? ` (${r.header})` : ''}: ${r.reason}: ${r.message}`,
    );
  }
  if (report.refusals.length > 50 || report.refusals_truncated) lines.push('  …');
  if (refusedFile)
    lines.push(
      `  Refused rows, with their reason, written to ${refusedFile}: fix them and import that file.`,
    );
  if (report.failure) lines.push(`  Stopped at line ${report.failure.line}: ${report.failure.message}`);
  if (report.import_id !== null && report.written) {
    lines.push(`  Undo with: npm run work -- import undo ${report.import_id}`);
  }
  return lines.join('\n');
}

function refusedPath(c: { file: string; refusedOut: string | null }): string {
  if (c.refusedOut) return c.refusedOut;
  return `${c.file.replace(/\.[^./\\]*$/, '')}.refused.csv`;
}

export async function runImportCommand(
  db: SqlClient,
  c: ImportCommand,
  now: () => Date = () => new Date(),
): Promise<CliResult> {
  await installDefaultOntology(db);
  const { ontology } = await loadStoredOntology(db);
  // Root passes every check whatever its stored row holds (auth/permissions.ts).
  const root = buildUserAccess(ROOT_USER_ID, {} as UserAccessRow);
  if (c.kind === 'list') {
    const list = await listImports(db, { limit: 100, offset: 0 });
    if (c.json) return { exitCode: 0, output: JSON.stringify(list, null, 2) };
    if (list.length === 0) return { exitCode: 0, output: 'No imports yet.' };
    return {
      exitCode: 0,
      output: list
        .map(
          (i) =>
            `${i.id}\t${i.started_at}\t${i.username ?? `user ${i.user_id}`}\t${i.file_name}\t${i.section_tipo ?? '-'}\t` +
            `${i.counts.created} created, ${i.counts.updated} updated, ${i.counts.unchanged} unchanged, ${i.counts.refused} refused` +
            `${i.status === 'failed' ? '\tFAILED' : ''}${i.undone_at ? `\tundone ${i.undone_at}` : ''}`,
        )
        .join('\n'),
    };
  }
  if (c.kind === 'undo') {
    try {
      const result = await undoImport(db, ontology, root, c.id, { force: c.force, now: now() });
      if (c.json) return { exitCode: 0, output: JSON.stringify(result, null, 2) };
      return {
        exitCode: 0,
        output: `Import ${c.id} undone: ${result.restored} records put back, ${result.removed} removed${
          result.overwritten.length > 0
            ? ` (${result.overwritten.length} changed since were overwritten)`
            : ''
        }.`,
      };
    } catch (err) {
      if (err instanceof WorkError) return { exitCode: 1, output: err.message };
      throw err;
    }
  }
  let mapping: unknown;
  if (c.mapping) mapping = await readFile(c.mapping, 'utf8');
  const bar =
    process.stderr.isTTY && !c.json
      ? new cliProgress.SingleBar(
          {
            format:
              'importing [{bar}] {percentage}% | line {value}/{total} | {created} created, {updated} updated, {refused} refused',
            stream: process.stderr,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  if (bar) bar.start(await countLines(c.file), 0, { created: 0, updated: 0, refused: 0 });
  let report: ImportReport;
  try {
    report = await importRecords(
      { db, ontology, access: root, now },
      {
        source: fileSource(c.file),
        fileName: basename(c.file),
        ...(c.section ? { sectionTipo: c.section } : {}),
        ...(mapping !== undefined ? { mapping } : {}),
        ...(c.lang ? { lang: c.lang } : {}),
        dryRun: c.dryRun,
        allOrNothing: c.allOrNothing,
        via: 'cli',
        ...(bar ? { onProgress: (p) => bar.update(p.line, { ...p.counts }) } : {}),
      },
    );
  } catch (err) {
    if (err instanceof ImportFileRefused || err instanceof WorkError) {
      return { exitCode: 1, output: `${c.file}: ${err.message}\nNothing was written.` };
    }
    throw err;
  } finally {
    bar?.stop();
  }
  let refusedFile: string | null = null;
  if (report.refused_csv !== null) {
    refusedFile = refusedPath(c);
    await writeFile(refusedFile, report.refused_csv);
  }
  const exitCode = report.counts.refused > 0 || report.failure ? 1 : 0;
  if (c.json)
    return {
      exitCode,
      output: JSON.stringify({ ...report, refused_csv: undefined, refused_file: refusedFile }, null, 2),
    };
  return { exitCode, output: formatImportReport(report, refusedFile) };
}
