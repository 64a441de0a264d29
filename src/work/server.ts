/**
 * Starts a work server from a configuration: open the database, migrate and bootstrap it, load
 * the ontology, build the app, listen. Used by main.ts and the tests alike.
 */
import type { FastifyInstance } from 'fastify';
import { loadPublishConfig, type PublishConfig } from '../publish/publish-targets.js';
import { createPublisher, type Publisher } from '../publish/publisher.js';
import { workActions } from './actions/registry.js';
import { buildWorkApp } from './app.js';
import { type Clock, systemClock } from './auth/clock.js';
import { PermissionsEngine } from './auth/permissions.js';
import { type BootstrapReport, bootstrapDatabase } from './bootstrap/bootstrap-database.js';
import type { WorkConfig } from './config.js';
import { startSweepTimer } from './maintenance/sweep.js';
import { LiveOntology } from './ontology/ontology-store.js';
import { GuardedSqlClient, WORK_DB } from './store/guarded-sql-client.js';
import { openSqlClient } from './store/open-sql-client.js';
import { PgliteClient } from './store/pglite-client.js';
import { serverSecret } from './store/server-secrets.js';
import type { SqlClient } from './store/sql-client.js';

export interface RunningWorkServer {
  app: FastifyInstance;
  /** The base URL RQOs are posted to. */
  url: string;
  bootstrap: BootstrapReport;
  /** The server's database client (tests inspect rows through it). */
  db: SqlClient;
  /** The ontology as stored in the database: each request takes the latest committed version. */
  ontology: LiveOntology;
  /** The process's permissions engine (one per server; every request gets a scope of it). */
  permissions: PermissionsEngine;
  /**
   * The server's publisher (dd_diffusion_api.diffuse), whose runs the metrics count: a publish run
   * this process starts itself (the demo's first publish) goes through it too. Absent: none.
   */
  publisher?: Publisher;
  close(): Promise<void>;
}

export interface WorkServerOptions {
  /** The time source for sessions and throttling (tests move it instead of sleeping). */
  clock?: Clock;
  /**
   * Tests only: wraps the database client the server uses, so a test can make a statement fail
   * inside a transaction and check that nothing of it was kept.
   */
  wrapDb?: (db: SqlClient) => SqlClient;
  /**
   * Publishing for dd_diffusion_api.diffuse. Default: the targets of PUBLISH_TARGETS (and the map
   * of PUBLICATION_MAP) in the process environment; `null`: no publishing.
   */
  publish?: { config: PublishConfig; onPublished?: Parameters<typeof createPublisher>[2] } | null;
}

export async function startWorkServer(
  config: WorkConfig,
  options: WorkServerOptions = {},
): Promise<RunningWorkServer> {
  const opened = await openSqlClient(config.database);
  const db = options.wrapDb ? options.wrapDb(opened) : opened;
  let app: FastifyInstance | undefined;
  try {
    // Loaded from dd_ontology (installed on first start): a broken ontology stops the start here,
    // every problem listed (OntologyError). Later changes are picked up per request.
    let live: LiveOntology | undefined;
    const bootstrap = await bootstrapDatabase(
      db,
      async (d) => {
        live = await LiveOntology.open(d, (problems, version) =>
          app?.log.error(
            { ontology_version: version, problems },
            'the ontology changed in the database but is broken: the last good version stays in use',
          ),
        );
        return live.latest();
      },
      { rootPassword: config.rootPassword },
    );
    const liveOntology = live!;
    const ontology = liveOntology.latest();
    const permissions = new PermissionsEngine(db, () => liveOntology.latest());
    // The device cookie's key: the operator's, else the one the first start kept in the database.
    const deviceCookieSecret = config.deviceCookieSecret ?? (await serverSecret(db, 'device_cookie'));
    const publish =
      options.publish === undefined ? { config: loadPublishConfig(process.env) } : options.publish;
    // The map is checked here: a bad publication map stops the start, with its problems listed.
    const publisher = publish ? createPublisher(publish.config, ontology, publish.onPublished) : undefined;
    app = await buildWorkApp({
      config,
      db,
      ontology: liveOntology,
      actions: workActions(),
      permissions,
      clock: options.clock ?? systemClock,
      publisher,
      deviceCookieSecret,
      dbStats: {
        pools: () => opened.poolStats?.() ?? [],
        ...(opened instanceof GuardedSqlClient ? { breakers: () => opened.breaker.states([WORK_DB]) } : {}),
      },
    });
    const clock = options.clock ?? systemClock;
    if (opened instanceof PgliteClient && opened.lockTakenOverFrom) {
      const was = opened.lockTakenOverFrom;
      app.log.warn(
        { lock_file: `${(config.database as { dataDir: string }).dataDir}.lock`, previous_holder: was },
        `took over the embedded database's lock left by process ${was.pid} (${was.command}, since ${was.started_at}), which is no longer running`,
      );
    }
    if (ontology.notImplemented.length > 0) {
      const models = [...new Set(ontology.notImplemented.map((n) => n.model))].sort();
      app.log.info(
        { elements: ontology.notImplemented.length, models },
        'ontology elements whose model is not implemented are kept and shown read-only',
      );
    }
    const stopSweep = startSweepTimer(
      { db, dataDir: config.dataDir, clock, log: app.log },
      config.sweepIntervalSeconds * 1000,
    );
    app.addHook('onClose', async () => {
      stopSweep();
      await db.close();
    });
    await app.listen({ port: config.port, host: config.host });
    const port = (app.server.address() as { port: number }).port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const running = app;
    return {
      app,
      url: `http://${host}:${port}${config.basePath}`,
      bootstrap,
      db,
      ontology: liveOntology,
      permissions,
      ...(running.workPublisher ? { publisher: running.workPublisher } : {}),
      close: () => running.close(),
    };
  } catch (err) {
    if (app) await app.close().catch(() => {});
    else await db.close().catch(() => {});
    throw err;
  }
}
