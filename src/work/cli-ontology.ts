/**
 * `npm run work -- ontology ...` (docs/ontology.md, "Importing and exporting"):
 *
 *   ontology import FILE [--tld X] [--dry-run] [--json]
 *   ontology export --tld X [--format dd_ontology|jer_dd] [--out FILE]
 *
 * The same operations as the API's dd_ontology_api (import-tld.ts, export-tld.ts); an import is
 * logged as root's, `via: cli`. With PostgreSQL it runs beside the servers, which load the new
 * ontology on their next request.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { ROOT_USER_ID } from './bootstrap/bootstrap-database.js';
import type { CliResult } from './cli-result.js';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportTld,
  TldNotInstalled,
} from './ontology/import/export-tld.js';
import { importOntologyTld, OntologyImportRefused } from './ontology/import/import-tld.js';
import { formatTldReport } from './ontology/import/tld-report.js';
import { installDefaultOntology } from './ontology/ontology-store.js';
import type { SqlClient } from './store/sql-client.js';

export const ONTOLOGY_USAGE = `       npm run work -- ontology import FILE [--tld X] [--dry-run] [--json]
       npm run work -- ontology export --tld X [--format ${EXPORT_FORMATS.join('|')}] [--out FILE]`;

export type OntologyCommand =
  | { kind: 'import'; file: string; tld: string | null; dryRun: boolean; json: boolean }
  | { kind: 'export'; tld: string; format: ExportFormat; out: string | null };

const usage = `usage:\n${ONTOLOGY_USAGE}`;

/** The command, or the usage text when the arguments are wrong. */
export function parseOntologyCommand(argv: readonly string[]): OntologyCommand | string {
  const [command, ...rest] = argv;
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  const valued = new Set(['--tld', '--format', '--out']);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (valued.has(arg)) {
      const value = rest[++i];
      if (value === undefined || value.startsWith('--')) return usage;
      flags.set(arg, value);
    } else if (arg === '--dry-run' || arg === '--json') flags.set(arg, true);
    else if (arg.startsWith('--')) return usage;
    else positional.push(arg);
  }
  const str = (name: string) => {
    const v = flags.get(name);
    return typeof v === 'string' ? v : null;
  };
  if (command === 'import') {
    if (positional.length !== 1 || flags.has('--format') || flags.has('--out')) return usage;
    return {
      kind: 'import',
      file: positional[0]!,
      tld: str('--tld'),
      dryRun: flags.has('--dry-run'),
      json: flags.has('--json'),
    };
  }
  if (command === 'export') {
    const tld = str('--tld');
    const format = str('--format') ?? 'dd_ontology';
    if (positional.length > 0 || !tld || flags.has('--dry-run') || flags.has('--json')) return usage;
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return usage;
    return { kind: 'export', tld, format: format as ExportFormat, out: str('--out') };
  }
  return usage;
}

export async function runOntologyCommand(db: SqlClient, c: OntologyCommand, now: Date): Promise<CliResult> {
  // A database no server has started yet gets the default ontology first, as a start would.
  await installDefaultOntology(db);
  if (c.kind === 'export') {
    try {
      const text = await exportTld(db, c.tld, c.format);
      if (c.out === null) return { exitCode: 0, output: '', raw: text };
      await writeFile(c.out, text);
      return { exitCode: 0, output: `TLD ${c.tld} written to ${c.out} (${c.format}).` };
    } catch (err) {
      if (err instanceof TldNotInstalled) return { exitCode: 1, output: err.message };
      throw err;
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8').decode(await readFile(c.file));
  } catch (err) {
    return { exitCode: 1, output: `cannot read ${c.file}: ${(err as Error).message}` };
  }
  try {
    const report = await importOntologyTld(db, {
      text,
      fileName: c.file,
      tld: c.tld,
      dryRun: c.dryRun,
      userId: ROOT_USER_ID,
      via: 'cli',
      now,
    });
    return { exitCode: 0, output: c.json ? JSON.stringify(report, null, 2) : formatTldReport(report) };
  } catch (err) {
    if (!(err instanceof OntologyImportRefused)) throw err;
    if (c.json) {
      return {
        exitCode: 1,
        output: JSON.stringify(err.report ?? { refused: err.problems, reason: err.reason }, null, 2),
      };
    }
    return { exitCode: 1, output: err.report ? formatTldReport(err.report) : err.message };
  }
}
