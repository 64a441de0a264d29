/**
 * `npm run work -- <command>`: administration without a session, for when nobody can log in.
 *
 *   unlock-user <username> [--address <address>]   lift login throttling of a username
 *   unlock-address <address>                       lift the cross-username lock of an address
 *   ontology import|export ...                     Dédalo ontologies in and out (cli-ontology.ts)
 *   export --section TIPO ...                      a section's records as CSV (cli-export.ts)
 *   thesaurus install TLD [--label lg-spa=Name]    a thesaurus TLD's sections (cli-thesaurus.ts)
 *   import FILE ... | import list | import undo ID   collection files in (cli-import.ts)
 *
 * It reads the same environment (and `.env`) as the server and opens the same database. With the
 * embedded PGlite database, stop the server first: one process at a time may open it, and while
 * the server holds the directory's lock (store/data-dir-lock.ts) the command refuses, exit code 3,
 * naming the process. With PostgreSQL it runs beside the server. Each change is logged in the activity log as root's,
 * marked `via: cli`.
 */
import { unlockLogin } from './auth/login-throttle.js';
import { ROOT_USER_ID } from './bootstrap/bootstrap-database.js';
import { EXPORT_USAGE, parseExportCommand, runExportCommand } from './cli-export.js';
import { IMPORT_USAGE, parseImportCommand, runImportCommand } from './cli-import.js';
import { ONTOLOGY_USAGE, parseOntologyCommand, runOntologyCommand } from './cli-ontology.js';
import type { CliResult } from './cli-result.js';
import { parseThesaurusCommand, runThesaurusCommand, THESAURUS_USAGE } from './cli-thesaurus.js';
import { loadWorkConfig } from './config.js';
import { MAINTENANCE_AREA } from './maintenance/access.js';
import { logActivity } from './store/activity.js';
import { DataDirLocked } from './store/data-dir-lock.js';
import { migrateSchema } from './store/migrate-schema.js';
import { openSqlClient } from './store/open-sql-client.js';
import { PgliteClient } from './store/pglite-client.js';
import type { SqlClient } from './store/sql-client.js';

const USAGE = `usage: npm run work -- unlock-user <username> [--address <address>]
       npm run work -- unlock-address <address>
${ONTOLOGY_USAGE}
${EXPORT_USAGE}
${THESAURUS_USAGE}
${IMPORT_USAGE}`;

export type { CliResult };

function parse(argv: readonly string[]): { username?: string; address?: string } | string {
  const [command, ...rest] = argv;
  if (command === 'unlock-user') {
    const [username, flag, address, ...extra] = rest;
    if (!username || username.startsWith('--') || extra.length > 0) return USAGE;
    if (flag === undefined) return { username };
    if (flag !== '--address' || !address) return USAGE;
    return { username, address };
  }
  if (command === 'unlock-address') {
    const [address, ...extra] = rest;
    if (!address || extra.length > 0) return USAGE;
    return { address };
  }
  return USAGE;
}

/** Runs one command against the database the environment names. */
export async function runWorkCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  now: Date = new Date(),
): Promise<CliResult> {
  if (argv[0] === 'ontology') {
    const command = parseOntologyCommand(argv.slice(1));
    if (typeof command === 'string') return { exitCode: 2, output: command };
    return withDatabase(env, (db) => runOntologyCommand(db, command, now));
  }
  if (argv[0] === 'export') {
    const command = parseExportCommand(argv.slice(1));
    if (typeof command === 'string') return { exitCode: 2, output: command };
    return withDatabase(env, (db) => runExportCommand(db, command));
  }
  if (argv[0] === 'thesaurus') {
    const command = parseThesaurusCommand(argv.slice(1));
    if (typeof command === 'string') return { exitCode: 2, output: command };
    return withDatabase(env, (db) => runThesaurusCommand(db, command, now));
  }
  if (argv[0] === 'import') {
    const command = parseImportCommand(argv.slice(1));
    if (typeof command === 'string') return { exitCode: 2, output: command };
    return withDatabase(env, (db) => runImportCommand(db, command));
  }
  const target = parse(argv);
  if (typeof target === 'string') return { exitCode: 2, output: target };
  return withDatabase(env, (db) => unlock(db, target, now));
}

/** Opens (and migrates) the environment's database for one command, and closes it after. */
async function withDatabase(
  env: Record<string, string | undefined>,
  run: (db: SqlClient) => Promise<CliResult>,
): Promise<CliResult> {
  const config = loadWorkConfig(env);
  let db: Awaited<ReturnType<typeof openSqlClient>>;
  try {
    db = await openSqlClient(config.database);
  } catch (err) {
    // The server (or another command) has the embedded database open: nothing was changed.
    if (err instanceof DataDirLocked) {
      return {
        exitCode: 3,
        output: `${err.message}\nNothing was changed. Run this command again once that process has stopped.`,
      };
    }
    throw err;
  }
  const tookOver = db instanceof PgliteClient ? db.lockTakenOverFrom : undefined;
  const note = tookOver
    ? `(Took over the database lock left by process ${tookOver.pid}, ${tookOver.command}, which is no longer running.)\n`
    : '';
  try {
    await migrateSchema(db);
    const result = await run(db);
    return note ? { ...result, output: note + result.output } : result;
  } finally {
    await db.close();
  }
}

async function unlock(
  db: SqlClient,
  target: { username?: string; address?: string },
  now: Date,
): Promise<CliResult> {
  const removed = await db.transaction(async (tx) => {
    const n = await unlockLogin(tx, target);
    await logActivity(tx, {
      userId: ROOT_USER_ID,
      what: 'unlock_login',
      where: MAINTENANCE_AREA,
      when: now,
      data: { username: target.username ?? null, address: target.address ?? null, removed: n, via: 'cli' },
    });
    return n;
  });
  const who = [target.username && `user "${target.username}"`, target.address && `address ${target.address}`]
    .filter(Boolean)
    .join(' from ');
  return {
    exitCode: 0,
    output:
      removed > 0
        ? `Login unlocked for ${who} (${removed} throttle rows removed).`
        : `Nothing was locked for ${who}.`,
  };
}
