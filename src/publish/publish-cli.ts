/**
 * `npm run publish -- [--target <name>] [--section <tipo>] [--id <n>] [--since <ISO>|last]
 * [--rebuild] [--print-map]`: publishes from the work database (the same WORK_DB_URL /
 * WORK_DATA_DIR the work server uses) to a target named in PUBLISH_TARGETS. With no run option
 * it publishes what changed since the target's last run (everything, the first time). The
 * ontology is the one stored in that database (dd_ontology), as the work server reads it, and
 * the map is checked against it before anything is written.
 *
 * `--print-map` prints the default map; `--print-map --section <tipo>` prints a starting map for
 * that section made from the stored ontology (starter-map.ts).
 *
 * A progress bar on a terminal (cli-progress), one plain line per tenth otherwise; a summary at
 * the end. Exit status: 0 done; 1 some records failed to map (listed; the watermark stays);
 * 2 bad usage or configuration (map included); 3 the target is unreachable or failed mid-run;
 * 4 another run to the same target did not finish within PUBLISH_LOCK_WAIT_SECONDS.
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { ConfigError } from '../common/config-error.js';
import { loadEnvFile } from '../common/env-file.js';
import { loadWorkConfig } from '../work/config.js';
import { loadOntology, type Ontology, OntologyError } from '../work/ontology/load-ontology.js';
import { loadStoredOntology } from '../work/ontology/ontology-store.js';
import { DataDirLocked } from '../work/store/data-dir-lock.js';
import { migrateSchema } from '../work/store/migrate-schema.js';
import { openSqlClient } from '../work/store/open-sql-client.js';
import type { SqlQueryable } from '../work/store/sql-client.js';
import { DEFAULT_PUBLICATION_MAP } from './default-publication-map.js';
import { loadPublicationMap, PublicationMapError } from './load-publication-map.js';
import { describeTarget, loadPublishConfig, writerFor } from './publish-targets.js';
import { TargetUnavailable } from './publish-writer.js';
import { type PublishProgress, type PublishRequest, PublishRequestError, runPublish } from './run-publish.js';
import { starterMap } from './starter-map.js';
import { TargetBusy } from './target-lock.js';

const USAGE = `usage: npm run publish -- [--target <name>] [--section <tipo> [--id <n>]] [--since <ISO date>|last] [--rebuild] [--print-map]`;

class UsageError extends Error {}

function parseRequest(argv: string[]): { request: PublishRequest; target?: string; printMap: boolean } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        target: { type: 'string' },
        section: { type: 'string' },
        id: { type: 'string' },
        since: { type: 'string' },
        rebuild: { type: 'boolean' },
        'print-map': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) throw new UsageError(USAGE);
  const request: PublishRequest = {};
  if (typeof values.section === 'string') request.sectionTipo = values.section;
  if (typeof values.id === 'string') {
    if (!/^[1-9][0-9]{0,9}$/.test(values.id))
      throw new UsageError(`--id must be a positive integer, got "${values.id}"`);
    request.sectionId = Number(values.id);
  }
  if (typeof values.since === 'string') {
    if (values.since === 'last') request.since = 'last';
    else {
      const at = new Date(values.since);
      if (!/^\d{4}-\d{2}-\d{2}/.test(values.since) || Number.isNaN(at.getTime())) {
        throw new UsageError(
          `--since must be an ISO date (2026-01-31 or 2026-01-31T12:00:00Z) or "last", got "${values.since}"`,
        );
      }
      request.since = at;
    }
  }
  if (values.rebuild) request.rebuild = true;
  return { request, target: values.target as string | undefined, printMap: values['print-map'] === true };
}

/**
 * The ontology stored in the work database, checked. A database no work server has started on
 * yet holds none: its default content is what that server would install, so it is used as is.
 */
async function storedOntology(db: SqlQueryable): Promise<Ontology> {
  const { rowCount } = await db.query('SELECT 1 FROM dd_ontology LIMIT 1');
  if (rowCount === 0) return loadOntology();
  return (await loadStoredOntology(db)).ontology;
}

/** `--print-map --section <tipo>`: a starting map for that section, from the stored ontology. */
async function printStarterMap(sectionTipo: string): Promise<number> {
  const db = await openSqlClient(loadWorkConfig(process.env).database);
  try {
    await migrateSchema(db);
    const ontology = await storedOntology(db);
    let map: ReturnType<typeof starterMap>;
    try {
      map = starterMap(ontology, sectionTipo);
    } catch (err) {
      throw new UsageError(`--section ${sectionTipo}: ${(err as Error).message}`);
    }
    process.stdout.write(`${JSON.stringify(map, null, 2)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

function progressReporter(): { update(p: PublishProgress): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: '  {bar} {percentage}% | {value}/{total} records | {section}',
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: (p) => {
        if (!started) {
          bar.start(p.total, 0, { section: p.section });
          started = true;
        }
        bar.setTotal(p.total);
        bar.update(p.done, { section: p.section });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastTenth = -1;
  return {
    update: (p) => {
      const tenth = p.total > 0 ? Math.floor((p.done / p.total) * 10) : 10;
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      process.stderr.write(
        `  ${p.done}/${p.total} records (${Math.round((p.done / Math.max(1, p.total)) * 100)}%), ${p.section}\n`,
      );
    },
    stop: () => {},
  };
}

async function main(): Promise<number> {
  loadEnvFile();
  const { request, target: targetName, printMap } = parseRequest(process.argv.slice(2));
  if (printMap) {
    if (request.sectionTipo !== undefined) return printStarterMap(request.sectionTipo);
    process.stdout.write(`${JSON.stringify(DEFAULT_PUBLICATION_MAP, null, 2)}\n`);
    return 0;
  }
  const publishConfig = loadPublishConfig(process.env);
  const name = targetName ?? publishConfig.defaultTarget;
  const target = publishConfig.targets.get(name);
  if (!target) {
    throw new UsageError(
      `unknown target "${name}"; PUBLISH_TARGETS names: ${[...publishConfig.targets.keys()].join(', ')}`,
    );
  }
  const workConfig = loadWorkConfig(process.env);
  const db = await openSqlClient(workConfig.database);
  const progress = progressReporter();
  try {
    await migrateSchema(db);
    // The archive's own ontology, and the map checked against it before anything is written.
    const ontology = await storedOntology(db);
    const map = loadPublicationMap(ontology, publishConfig.mapPath);
    const what = request.rebuild
      ? 'full rebuild'
      : request.sectionTipo
        ? `section ${request.sectionTipo}${request.sectionId !== undefined ? ` record ${request.sectionId}` : ''}`
        : `changes since ${request.since instanceof Date ? request.since.toISOString() : 'the last run'}`;
    console.log(`Publishing to ${describeTarget(target)}: ${what}`);
    const summary = await runPublish(
      {
        db,
        ontology,
        map,
        targetName: target.name,
        writer: writerFor(target),
        onProgress: (p) => progress.update(p),
        lockWaitMs: publishConfig.lockWaitMs,
      },
      request,
    );
    progress.stop();
    const rate = summary.seconds > 0 ? Math.round(summary.rows / summary.seconds) : summary.rows;
    console.log(
      `Done: ${summary.records} records read, ${summary.published} published, ${summary.removed} removed, ` +
        `${summary.rows} rows in ${summary.seconds.toFixed(1)} s (${rate} rows/s).`,
    );
    if (summary.refreshed > 0) {
      console.log(`Refreshed the dd_relations of ${summary.refreshed} record(s) these point or pointed at.`);
    }
    if (summary.failures.length > 0) {
      console.error(
        `${summary.failures.length} record(s) could not be mapped (their published rows are unchanged):`,
      );
      for (const f of summary.failures.slice(0, 50)) console.error(`  ${f.message}`);
      console.error('The watermark was not moved: the next run tries them again.');
      return 1;
    }
    if (summary.watermark) console.log(`Watermark of ${target.name}: ${summary.watermark.toISOString()}`);
    return 0;
  } finally {
    progress.stop();
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof TargetUnavailable) {
      console.error(
        `${err.message}\nNothing of the failed batch was kept; run again when the target is back.`,
      );
      process.exit(3);
    }
    if (err instanceof TargetBusy || err instanceof DataDirLocked) {
      console.error(err.message);
      process.exit(4);
    }
    if (
      err instanceof UsageError ||
      err instanceof PublishRequestError ||
      err instanceof ConfigError ||
      err instanceof PublicationMapError ||
      err instanceof OntologyError
    ) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
