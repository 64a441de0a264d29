/**
 * Publishing from a real work database (PGlite, and PostgreSQL when reachable) into real targets
 * (SQLite, and MariaDB when reachable), read back through the real publication API.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_PUBLICATION_MAP } from '../../src/publish/default-publication-map.js';
import {
  checkPublicationMap,
  loadPublicationMap,
  PublicationMapError,
} from '../../src/publish/load-publication-map.js';
import { type PublishTarget, writerFor } from '../../src/publish/publish-targets.js';
import { readWatermark } from '../../src/publish/publish-watermark.js';
import { type PublishWriter, TargetUnavailable } from '../../src/publish/publish-writer.js';
import { type PublishDeps, type PublishRequest, runPublish } from '../../src/publish/run-publish.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';
import { MARIADB } from '../helpers/mariadb-availability.js';
import { startTestServer, type TestServer } from '../helpers/publication-server.js';
import { NO, seedPublishArchive, TRANSCRIPTION_ENG, TRANSCRIPTION_SPA } from '../helpers/publish-fixture.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import { locator, text } from '../helpers/work-records.js';

const ontology = loadOntology();
const map = loadPublicationMap(ontology);

interface TargetCase {
  name: 'sqlite' | 'mariadb';
  target(suffix: string): PublishTarget;
  serverEnv(target: PublishTarget): Record<string, string>;
  db(target: PublishTarget): string;
  drop(target: PublishTarget): Promise<void>;
}

const tmp = mkdtempSync(join(tmpdir(), 'publish-test-'));
const targetCases: TargetCase[] = [
  {
    name: 'sqlite',
    target: (suffix) => ({ name: `t_${suffix}`, dialect: 'sqlite', file: join(tmp, `pub_${suffix}.sqlite`) }),
    serverEnv: (t) => ({
      DB_DRIVER: 'sqlite',
      DB_SQLITE_DIR: tmp,
      DB_NAMES: (t as { file: string }).file.replace(/^.*\/|\.sqlite$/g, ''),
    }),
    db: (t) => (t as { file: string }).file.replace(/^.*\/|\.sqlite$/g, ''),
    drop: async () => {},
  },
];
if (inject('mariadbDb')) {
  const dbName = (suffix: string) => `pubrun_${process.pid}_${suffix}`;
  targetCases.push({
    name: 'mariadb',
    target: (suffix) => ({
      name: `t_${suffix}`,
      dialect: 'mariadb',
      url: `mysql://${MARIADB.user}:${MARIADB.password}@${MARIADB.host}:${MARIADB.port}/${dbName(suffix)}`,
    }),
    serverEnv: (t) => ({
      DB_DRIVER: 'mariadb',
      DB_HOST: MARIADB.host,
      DB_PORT: String(MARIADB.port),
      DB_USER: MARIADB.user,
      DB_PASSWORD: MARIADB.password,
      DB_NAMES: new URL((t as { url: string }).url).pathname.slice(1),
    }),
    db: (t) => new URL((t as { url: string }).url).pathname.slice(1),
    drop: async (t) => {
      const conn = await mysql.createConnection(MARIADB);
      const name = new URL((t as { url: string }).url).pathname.slice(1);
      for (const db of [name, `${name}__pubnew`, `${name}__pubold`])
        await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
      await conn.end();
    },
  });
}

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('publication map', () => {
  it('accepts the default map and derives publication_schema from it', () => {
    expect(map.publicationSchema).toEqual({
      informant: 'informant',
      audiovisual: 'audiovisual',
      image: 'image',
      children: 'ts_themes',
      dd_relations: {
        oh1: 'interview',
        rsc197: 'informant',
        rsc167: 'audiovisual',
        rsc170: 'image',
        ts1: 'ts_themes',
      },
    });
  });

  it('names every bad entry of a map, shape and ontology alike', () => {
    const bad = structuredClone(DEFAULT_PUBLICATION_MAP) as unknown as { tables: Record<string, unknown>[] };
    (bad.tables[0]!.columns as Record<string, unknown>[])[1]!.component = 'oh999';
    (bad.tables[1]!.columns as Record<string, unknown>[])[0]!.value = 'ids';
    (bad.tables[2]!.columns as Record<string, unknown>[])[0]!.name = 'bad name';
    let error: unknown;
    try {
      checkPublicationMap(bad, ontology, 'my-map.json');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PublicationMapError);
    expect((error as Error).message).toContain('publication map my-map.json is invalid');
    expect((error as PublicationMapError).problems).toEqual([
      'tables[2].columns[0].name: must match ^[A-Za-z_][A-Za-z0-9_]*$',
    ]);
    (bad.tables[2]!.columns as Record<string, unknown>[])[0]!.name = 'video';
    try {
      checkPublicationMap(bad, ontology, 'my-map.json');
    } catch (err) {
      error = err;
    }
    expect((error as PublicationMapError).problems).toEqual([
      'tables[0].columns[1].component: oh999 is not in the ontology',
      'tables[1].columns[0].value: "ids" cannot be read from rsc85 (component_input_text)',
    ]);
  });

  it('refuses a section that is not a section and a map file that is not JSON', () => {
    const bad = structuredClone(DEFAULT_PUBLICATION_MAP);
    bad.tables[0]!.section_tipo = 'oh14';
    expect(() => checkPublicationMap(bad, ontology)).toThrow('tables[0].section_tipo: oh14 is not a section');
    expect(() => loadPublicationMap(ontology, join(tmp, 'missing.json'))).toThrow(
      /missing\.json is invalid:\n {2}cannot read it as JSON/,
    );
  });
});

describe.each(workEngineCases())('publishing from $engine', (engine) => {
  describe.each(targetCases)('into $name', (tc) => {
    const target = tc.target(`${engine.engine}_${tc.name}`);
    let fresh: FreshDatabase;
    let db: SqlClient;
    let api: TestServer;
    const get = (path: string) => api.get(`/${tc.db(target)}${path}`);
    const publish = (request: PublishRequest, options: Partial<PublishDeps> = {}) =>
      runPublish(
        { db, ontology, map, targetName: target.name, writer: writerFor(target), batchSize: 2, ...options },
        request,
      );
    /** Saves a component's items the way a save leaves the row: new items, new modified_at. */
    const setComponent = (sectionTipo: string, id: number, tipo: string, items: unknown[]) => {
      const column = ontology.dataColumnOf(tipo)!;
      return db.query(
        `UPDATE ${ontology.tableOf(sectionTipo)} SET ${column} = jsonb_set(${column}, $1::text[], $2::jsonb),
           modified_at = now() WHERE section_tipo = $3 AND section_id = $4`,
        [[tipo], JSON.stringify(items), sectionTipo, id],
      );
    };

    beforeAll(async () => {
      fresh = await engine.freshDatabase();
      db = await fresh.open();
      await migrateSchema(db);
      await seedPublishArchive(db, ontology);
      await tc.drop(target);
      const summary = await publish({ rebuild: true });
      expect(summary).toMatchObject({ mode: 'rebuild', failures: [], published: 8 });
      api = await startTestServer({
        engine: tc.name,
        db: tc.db(target),
        env: tc.serverEnv(target),
        openDirect: async () => {
          throw new Error('unused');
        },
      });
    });
    afterAll(async () => {
      await api?.close();
      await fresh?.dispose();
      await tc.drop(target);
    });

    it('writes one row per language with untranslatable values repeated and fallbacks filled', async () => {
      const res = await get('/tables/interview/records/1');
      expect(res.status).toBe(200);
      const [eng, spa] = res.json.data;
      expect(eng).toMatchObject({
        section_id: 1,
        lang: 'lg-eng',
        code: 'OH-1',
        title: 'Title one',
        // No English abstract: the Spanish one (first language of the map with a value).
        abstract: 'Resumen de la cosecha',
        transcription: TRANSCRIPTION_ENG,
        informant: [1, 2],
        audiovisual: [1],
        image: [1],
        duration: 1234.5,
      });
      expect(String(eng.date)).toMatch(/^1990-05-04/);
      expect(spa).toMatchObject({
        lang: 'lg-spa',
        code: 'OH-1',
        title: 'Título uno',
        transcription: TRANSCRIPTION_SPA,
      });
      expect(eng.dd_relations).toEqual([{ section_tipo: 'ts1', section_id: 1 }]);
      const two = await get('/tables/interview/records/2');
      expect(two.json.data.map((r: { lang: string }) => r.lang)).toEqual(['lg-spa']);
    });

    it('publishes only records marked publishable', async () => {
      const res = await get('/tables/interview/records/3');
      expect(res.status).toBe(404);
      const list = await get('/tables/interview/records?lang=lg-spa');
      expect(list.json.data.map((r: { section_id: number }) => r.section_id)).toEqual([1, 2]);
    });

    it('writes people, media, thesaurus and publication_schema in the conventions’ shapes', async () => {
      const person = await get('/tables/informant/records/1');
      expect(person.json.data[0]).toMatchObject({
        name: 'Ana',
        surname: 'García López',
        birth_date: expect.stringMatching(/^1931-02-03/),
      });
      expect(person.json.data[0].dd_relations).toEqual([
        { section_tipo: 'oh1', section_id: 1 },
        { section_tipo: 'oh1', section_id: 2 },
      ]);
      const av = await get('/tables/audiovisual/records/1?lang=lg-spa');
      expect(av.json.data[0]).toMatchObject({
        video: 'av/1.mp4',
        duration: 1234.5,
        transcription: TRANSCRIPTION_SPA,
      });
      const image = await get('/tables/image/records/1');
      expect(image.json.data[0]).toMatchObject({
        image: 'images/1.jpg',
        dd_relations: [{ section_tipo: 'oh1', section_id: 1 }],
      });
      const term = await get('/tables/ts_themes/records/1?lang=lg-eng');
      expect(term.json.data[0]).toMatchObject({
        term_id: 'ts1_1',
        term: 'War',
        children: [{ section_tipo: 'ts1', section_id: 2 }],
        indexation: [
          { type: 'dd96', tag_id: '1', section_tipo: 'oh1', section_id: 1, component_tipo: 'rsc36' },
        ],
      });
      const child = await get('/tables/ts_themes/records/2?lang=lg-eng');
      // Only a Spanish term: the English row does not exist, the Spanish one has the parent.
      expect(child.status).toBe(404);
      const spa = await get('/tables/ts_themes/records/2?lang=lg-spa');
      expect(spa.json.data[0]).toMatchObject({ term: 'Exilio', parent: 'ts1_1' });
      const inverse = await get('/tables/informant/records/1?resolve_inverse_relations=true');
      expect(inverse.status).toBe(200);
    });

    it('finds published text through the full-text search', async () => {
      const res = await get('/tables/interview/search?q=harvest&column=transcription');
      expect(res.status).toBe(200);
      expect(
        res.json.data.map((r: { section_id: number; lang: string }) => `${r.section_id}/${r.lang}`),
      ).toEqual(['1/lg-eng']);
    });

    it('an incremental run publishes a saved title, visible at once in records and search', async () => {
      await setComponent('oh1', 1, 'oh16', [
        text('Título uno', 'lg-spa', 1),
        text('Harvest stories', 'lg-eng', 2),
      ]);
      const summary = await publish({});
      expect(summary.mode).toBe('incremental');
      expect(summary.failures).toEqual([]);
      expect(summary.published).toBeGreaterThanOrEqual(1);
      const res = await get('/tables/interview/records/1?lang=lg-eng');
      expect(res.json.data[0].title).toBe('Harvest stories');
      const found = await get('/tables/interview/search?q=stories&column=title');
      expect(
        found.json.data.map((r: { section_id: number; lang: string }) => `${r.section_id}/${r.lang}`),
      ).toEqual(['1/lg-eng']);
      expect(await readWatermark(db, target.name)).toEqual(summary.watermark);
    });

    it('publishing one record that is no longer publishable removes its rows', async () => {
      await setComponent('oh1', 2, 'oh32', NO('oh32'));
      const summary = await publish({ sectionTipo: 'oh1', sectionId: 2 });
      expect(summary).toMatchObject({ records: 1, published: 0, removed: 1, failures: [] });
      expect((await get('/tables/interview/records/2')).status).toBe(404);
      expect((await get('/tables/interview/records/1')).status).toBe(200);
    });

    it('a relation removed from a record leaves the dd_relations of its former target (record and incremental runs)', async () => {
      const imageRelations = async () =>
        ((await get('/tables/image/records/1')).json.data[0].dd_relations ?? []) as unknown[];
      const image = [{ ...locator('oh17', 'rsc170', 1), id: 1 }];
      expect(await imageRelations()).toEqual([{ section_tipo: 'oh1', section_id: 1 }]);
      // Publishing the record alone: the image it no longer points at is refreshed with it.
      await setComponent('oh1', 1, 'oh17', []);
      const one = await publish({ sectionTipo: 'oh1', sectionId: 1 });
      expect(one).toMatchObject({ records: 1, published: 1, failures: [] });
      expect(one.refreshed).toBeGreaterThanOrEqual(1);
      expect(await imageRelations()).toEqual([]);
      // Pointing at it again: publishing the record refreshes its current targets too.
      await setComponent('oh1', 1, 'oh17', image);
      await publish({ sectionTipo: 'oh1', sectionId: 1 });
      expect(await imageRelations()).toEqual([{ section_tipo: 'oh1', section_id: 1 }]);
      // An incremental run does the same for the records saved since the last run.
      await publish({ since: 'last' });
      await setComponent('oh1', 1, 'oh17', []);
      const changes = await publish({ since: 'last' });
      expect(changes.failures).toEqual([]);
      expect(await imageRelations()).toEqual([]);
      await setComponent('oh1', 1, 'oh17', image);
      await publish({ since: 'last' });
      expect(await imageRelations()).toEqual([{ section_tipo: 'oh1', section_id: 1 }]);
    });

    it('finds the published records that list a source alike for a few sources (LIKE) and for many (a read of the column)', async () => {
      const writer = writerFor(target);
      const imageDef = map.tableDefs.find((d) => d.name === 'image')!;
      const source = { section_tipo: 'oh1', section_id: 1 };
      const strangers = Array.from({ length: 25 }, (_, i) => ({ section_tipo: 'oh1', section_id: 9000 + i }));
      await writer.open(map.tableDefs, 'incremental');
      try {
        expect(await writer.listedIn!(imageDef, [source])).toEqual([1]);
        expect(await writer.listedIn!(imageDef, [...strangers, source])).toEqual([1]);
        expect(await writer.listedIn!(imageDef, strangers)).toEqual([]);
        expect(await writer.listedIn!(imageDef, [])).toEqual([]);
      } finally {
        await writer.close();
      }
    });

    it('a deleted record disappears at the next incremental run, and so do the links to it', async () => {
      const snapshot = await db.query<{ relation: unknown }>(
        "SELECT relation FROM matrix WHERE section_tipo = 'rsc197' AND section_id = 2",
      );
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO matrix_time_machine (kind, section_tipo, section_id, data) VALUES ('snapshot', 'rsc197', 2, $1::jsonb)`,
          [JSON.stringify({ relation: snapshot.rows[0]!.relation })],
        );
        await tx.query("DELETE FROM matrix WHERE section_tipo = 'rsc197' AND section_id = 2");
      });
      await setComponent('oh1', 1, 'oh24', [{ ...locator('oh24', 'rsc197', 1), id: 1 }]);
      const summary = await publish({ since: 'last' });
      expect(summary.failures).toEqual([]);
      expect((await get('/tables/informant/records/2')).status).toBe(404);
      const interview = await get('/tables/interview/records/1?lang=lg-spa');
      expect(interview.json.data[0].informant).toEqual([1]);
    });

    it('a record that fails to map is reported, the others are published and the watermark stays', async () => {
      const before = await readWatermark(db, target.name);
      await setComponent('oh1', 1, 'oh14', [text('OH-1b')]);
      await setComponent('rsc197', 1, 'rsc85', [text('Anna')]);
      const summary = await publish(
        {},
        {
          mapRecord: (mapper, table, row, inputs) => {
            if (row.section_tipo === 'oh1' && row.section_id === 1)
              throw new Error('injected mapping failure');
            return mapper.mapRecord(table, map.tableDefs[map.tables.indexOf(table) + 1]!, row, inputs);
          },
        },
      );
      expect(summary.failures).toEqual([
        { section_tipo: 'oh1', section_id: 1, message: 'oh1 1: injected mapping failure' },
      ]);
      expect(summary.watermark).toBeUndefined();
      expect(await readWatermark(db, target.name)).toEqual(before);
      expect((await get('/tables/informant/records/1')).json.data[0].name).toBe('Anna');
      // The failed record keeps its previous rows.
      expect((await get('/tables/interview/records/1?lang=lg-spa')).json.data[0].code).toBe('OH-1');
    });

    it('a target failing in the middle of a rebuild leaves the live database as it was', async () => {
      const real = writerFor(target);
      let batches = 0;
      const failing: PublishWriter = {
        dialect: real.dialect,
        open: (defs, mode) => real.open(defs, mode),
        writeBatch: async (records, removals) => {
          batches++;
          if (batches === 3) throw new TargetUnavailable(target.name, new Error('connection lost'));
          return real.writeBatch(records, removals);
        },
        finish: () => real.finish(),
        abort: () => real.abort(),
        close: () => real.close(),
      };
      await expect(publish({ rebuild: true }, { writer: failing })).rejects.toThrow(
        `publication target "${target.name}" is unavailable: connection lost`,
      );
      const res = await get('/tables/interview/records/1?lang=lg-spa');
      expect(res.json.data[0]).toMatchObject({ code: 'OH-1', title: 'Título uno' });
      expect((await get('/tables/interview/records/2')).status).toBe(404);
      if (tc.name === 'sqlite') {
        expect(readdirSync(tmp).filter((f) => f.includes('.rebuild-'))).toEqual([]);
      }
      // And a clean rebuild afterwards publishes the record that failed before.
      const summary = await publish({ rebuild: true });
      expect(summary.failures).toEqual([]);
      expect((await get('/tables/interview/records/1?lang=lg-spa')).json.data[0].code).toBe('OH-1b');
    });

    it('an unreachable target stops the run with a message naming it', async () => {
      writeFileSync(join(tmp, 'plain-file'), 'not a directory');
      const down: PublishTarget =
        tc.name === 'sqlite'
          ? // A path under a plain file: no directory can be made there.
            { name: 'down', dialect: 'sqlite', file: join(tmp, 'plain-file', 'down.sqlite') }
          : { name: 'down', dialect: 'mariadb', url: 'mysql://root@127.0.0.1:1/down_db' };
      await expect(
        runPublish({ db, ontology, map, targetName: 'down', writer: writerFor(down) }, {}),
      ).rejects.toThrow(/^publication target "down" is unavailable: /);
      expect(await readWatermark(db, 'down')).toBeUndefined();
    });
  });
});
