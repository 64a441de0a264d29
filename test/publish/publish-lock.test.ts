/**
 * Two publish runs to one target never interleave (target-lock.ts): while a first run is paused
 * inside its writer, a second run to the same target waits and, past its wait, fails with
 * TargetBusy; a third one that waits long enough starts writing only after the first has
 * finished; a run to another target is not held. On PostgreSQL the competing runs use a second
 * client (another "instance": only the advisory lock in the database can stop them), and the
 * compiled CLI, a separate process, exits 4 with the message. Real work engines, SQLite targets.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPublicationMap } from '../../src/publish/load-publication-map.js';
import { type PublishTarget, writerFor } from '../../src/publish/publish-targets.js';
import type { PublishWriter } from '../../src/publish/publish-writer.js';
import { runPublish } from '../../src/publish/run-publish.js';
import { TargetBusy, withTargetLock } from '../../src/publish/target-lock.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';
import { seedPublishArchive } from '../helpers/publish-fixture.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

const ontology = loadOntology();
const map = loadPublicationMap(ontology);
const CLI = resolve('dist/src/publish/publish-cli.js');

/** A writer that records what it does under `label`, and can be paused at its first batch. */
function tracedWriter(target: PublishTarget, label: string, events: string[], pause?: Promise<void>) {
  const inner = writerFor(target);
  let paused = false;
  let reached!: () => void;
  const atPause = new Promise<void>((r) => {
    reached = r;
  });
  const writer: PublishWriter = {
    dialect: inner.dialect,
    open: async (defs, mode) => {
      events.push(`${label} open`);
      await inner.open(defs, mode);
    },
    writeBatch: async (records, removals) => {
      if (pause && !paused) {
        paused = true;
        reached();
        await pause;
      }
      return inner.writeBatch(records, removals);
    },
    tableDone: (def) => inner.tableDone?.(def),
    finish: async () => {
      await inner.finish();
      events.push(`${label} finished`);
    },
    abort: () => inner.abort(),
    close: () => inner.close(),
  };
  return { writer, atPause };
}

describe.each(workEngineCases())('publish runs to one target, from $engine', (engineCase) => {
  let fresh: FreshDatabase;
  let db: SqlClient;
  /** The competing runs' client: another instance on PostgreSQL; PGlite allows one per directory. */
  let other: SqlClient;
  const tmp = mkdtempSync(join(tmpdir(), 'publish-lock-'));
  const target: PublishTarget = { name: 'site', dialect: 'sqlite', file: join(tmp, 'site.sqlite') };
  const elsewhere: PublishTarget = { name: 'mirror', dialect: 'sqlite', file: join(tmp, 'mirror.sqlite') };

  beforeAll(async () => {
    fresh = await engineCase.freshDatabase();
    db = await fresh.open();
    await migrateSchema(db);
    await seedPublishArchive(db, ontology);
    other = engineCase.engine === 'postgres' ? await fresh.open() : db;
  });
  afterAll(async () => {
    await fresh?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A rebuild of `t` from the competing client, its writer traced under `label`. */
  const rebuildFromOther = (t: PublishTarget, label: string, events: string[], lockWaitMs?: number) =>
    runPublish(
      {
        db: other,
        ontology,
        map,
        targetName: t.name,
        writer: tracedWriter(t, label, events).writer,
        lockWaitMs,
      },
      { rebuild: true },
    );

  it('a second run waits for the first, or fails as busy past its wait; other targets are free', async () => {
    const events: string[] = [];
    let resume!: () => void;
    const pause = new Promise<void>((r) => {
      resume = r;
    });
    const first = tracedWriter(target, 'first', events, pause);
    const firstRun = runPublish(
      { db, ontology, map, targetName: target.name, writer: first.writer },
      { rebuild: true },
    );
    await first.atPause;

    const busy = rebuildFromOther(target, 'busy', events, 200);
    await expect(busy).rejects.toThrow(TargetBusy);
    await expect(busy).rejects.toThrow('publication target "site" is busy');

    const mirror = await rebuildFromOther(elsewhere, 'mirror', events);
    expect(mirror.published).toBeGreaterThan(0);

    const patientRun = rebuildFromOther(target, 'patient', events, 60_000);
    // Give the patient run every chance to start early if the lock did not hold it.
    await new Promise((r) => setTimeout(r, 300));
    resume();
    const [a, b] = await Promise.all([firstRun, patientRun]);
    expect(a.published).toBe(b.published);
    expect(events).toEqual([
      'first open',
      'mirror open',
      'mirror finished',
      'first finished',
      'patient open',
      'patient finished',
    ]);
  });

  it.runIf(engineCase.engine === 'postgres' && existsSync(CLI))(
    'the CLI exits 4 with the message while another instance holds the target',
    async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let holding!: () => void;
      const held = new Promise<void>((r) => {
        holding = r;
      });
      const holder = withTargetLock(db, target.name, 5_000, async () => {
        holding();
        await gate;
      });
      await held;
      const out = await new Promise<ReturnType<typeof spawnSync>>((done) => {
        // spawnSync would block this process's event loop (and the lock holder with it): fine here,
        // the holder only waits; run it on the next tick so `held` is settled first.
        setImmediate(() =>
          done(
            spawnSync(process.execPath, [CLI, '--rebuild'], {
              env: {
                PATH: process.env.PATH,
                ...fresh.env,
                PUBLISH_TARGETS: `site=sqlite:${target.file}`,
                PUBLISH_LOCK_WAIT_SECONDS: '0.5',
              },
              encoding: 'utf8',
              timeout: 120_000,
            }),
          ),
        );
      });
      release();
      await holder;
      expect(out.status).toBe(4);
      expect(String(out.stderr)).toMatch(/^publication target "site" is busy: /);
    },
  );
});
