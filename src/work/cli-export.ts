/**
 * `npm run work -- export --section TIPO [--format dedalo|plain] [--lang lg-xxx] [--out FILE]`
 * (docs/import-export.md, "Exporting a section"): every record of a section as CSV, written as
 * it is read (flat memory), to FILE or to stdout. It runs as root (every component, every
 * record) and changes nothing. With PostgreSQL it runs beside the servers.
 */
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { buildUserAccess } from './auth/permissions.js';
import type { UserAccessRow } from './auth/permissions-store.js';
import { ROOT_USER_ID } from './bootstrap/bootstrap-database.js';
import type { CliResult } from './cli-result.js';
import {
  EXPORT_FORMATS,
  isExportFormat,
  planExport,
  type SectionExportFormat,
  writeExport,
} from './collections/export-section.js';
import { WorkError } from './dispatch/error-registry.js';
import { installDefaultOntology, loadStoredOntology } from './ontology/ontology-store.js';
import type { SqlClient } from './store/sql-client.js';

export const EXPORT_USAGE = `       npm run work -- export --section TIPO [--format ${EXPORT_FORMATS.join('|')}] [--lang lg-xxx] [--out FILE]`;

export interface ExportCommand {
  section: string;
  format: SectionExportFormat;
  lang: string;
  out: string | null;
}

const usage = `usage:\n${EXPORT_USAGE}`;

/** The command, or the usage text when the arguments are wrong. */
export function parseExportCommand(argv: readonly string[]): ExportCommand | string {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if (!['--section', '--format', '--lang', '--out'].includes(arg) || flags.has(arg)) return usage;
    if (value === undefined || value.startsWith('--')) return usage;
    flags.set(arg, value);
    i += 1;
  }
  const section = flags.get('--section');
  const format = flags.get('--format') ?? 'dedalo';
  if (!section || !isExportFormat(format)) return usage;
  return { section, format, lang: flags.get('--lang') ?? 'lg-eng', out: flags.get('--out') ?? null };
}

/** stdout as a stream that a pipeline may end without closing the process's descriptor. */
function stdoutSink(): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      process.stdout.write(chunk, () => done());
    },
  });
}

export async function runExportCommand(
  db: SqlClient,
  c: ExportCommand,
  sink: () => Writable = stdoutSink,
): Promise<CliResult> {
  // A database no server has started yet gets the default ontology first, as a start would.
  await installDefaultOntology(db);
  const { ontology } = await loadStoredOntology(db);
  // Root passes every check whatever its stored row holds (auth/permissions.ts).
  const root = buildUserAccess(ROOT_USER_ID, {} as UserAccessRow);
  let plan: ReturnType<typeof planExport>;
  try {
    plan = planExport(ontology, root, { sectionTipo: c.section, format: c.format, lang: c.lang });
  } catch (err) {
    if (err instanceof WorkError) return { exitCode: 1, output: err.message };
    throw err;
  }
  const out = c.out === null ? sink() : createWriteStream(c.out);
  const { records } = await writeExport(db, ontology, root, plan, out);
  if (c.out === null) return { exitCode: 0, output: '' };
  return { exitCode: 0, output: `${records} records of ${c.section} written to ${c.out} (${c.format}).` };
}
