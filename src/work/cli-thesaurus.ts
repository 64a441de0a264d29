/**
 * `npm run work -- thesaurus install TLD [--label lg-spa=Andorra ...]` (docs/ontology.md,
 * "Thesaurus TLDs"): the thesaurus sections of a TLD (`<tld>1` terms, `<tld>2` models), as the
 * collection importer creates them for a thesaurus package; the same operation
 * (hierarchy-install.ts), logged as root's, `via: cli`. Running it again changes nothing.
 */
import { ROOT_USER_ID } from './bootstrap/bootstrap-database.js';
import type { CliResult } from './cli-result.js';
import { WorkError } from './dispatch/error-registry.js';
import { ensureHierarchyTld } from './ontology/hierarchy-install.js';
import { installDefaultOntology } from './ontology/ontology-store.js';
import type { SqlClient } from './store/sql-client.js';

export const THESAURUS_USAGE = '       npm run work -- thesaurus install TLD [--label lg-spa=Name ...]';

export interface ThesaurusCommand {
  kind: 'install';
  tld: string;
  labels: Record<string, string>;
}

const usage = `usage:\n${THESAURUS_USAGE}`;

/** The command, or the usage text when the arguments are wrong. */
export function parseThesaurusCommand(argv: readonly string[]): ThesaurusCommand | string {
  const [command, ...rest] = argv;
  if (command !== 'install') return usage;
  const positional: string[] = [];
  const labels: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--label') {
      const value = rest[++i];
      const eq = value?.indexOf('=') ?? -1;
      if (value === undefined || eq <= 0) return usage;
      labels[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (arg.startsWith('--')) return usage;
    else positional.push(arg);
  }
  if (positional.length !== 1) return usage;
  return { kind: 'install', tld: positional[0]!, labels };
}

export async function runThesaurusCommand(db: SqlClient, c: ThesaurusCommand, now: Date): Promise<CliResult> {
  // A database no server has started yet gets the default ontology first, as a start would.
  await installDefaultOntology(db);
  try {
    const r = await ensureHierarchyTld(db, c.tld, {
      userId: ROOT_USER_ID,
      now,
      via: 'cli',
      ...(Object.keys(c.labels).length > 0 ? { labels: c.labels } : {}),
    });
    return {
      exitCode: 0,
      output: r.created
        ? `Thesaurus ${r.tld} installed: sections ${r.termSection} (terms) and ${r.modelSection} (models) under the thesaurus area. Give a profile access to them for users who are not global administrators.`
        : `Thesaurus ${r.tld} is already installed (${r.termSection}, ${r.modelSection}): nothing to do.`,
    };
  } catch (err) {
    if (err instanceof WorkError && err.code === 'ontology.hierarchy_tld_invalid')
      return { exitCode: 1, output: err.message };
    throw err;
  }
}
