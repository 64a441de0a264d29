/**
 * Publishing from a real work database (PGlite, and PostgreSQL when reachable) into real targets
 * (SQLite, and MariaDB when reachable), read back through the real publication API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
import { type PublishRequest, runPublish } from '../../src/publish/run-publish.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';
import { MARIADB } from '../helpers/mariadb-availability.js';
import { startTestServer, type TestServer } from '../helpers/publication-server.js';
import { NO, seedPublishArchive, TRANSCRIPTION_ENG, TRANSCRIPTION_SPA } from '../helpers/publish-fixture.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

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
      'tables[0].columns[1].component: unknown tipo oh999',
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
  let fresh: FreshDatabase;
  let db: SqlClient;

  beforeAll(async () => {
    fresh = await engine.freshDatabase();
    db = await fresh.open();
    await migrateSchema(db);
    await seedPublishArchive(db, ontology);
  });
  afterAll(async () => {
    await fresh?.dispose();
  });

  const publish = (target: PublishTarget, request: PublishRequest, writer?: PublishWriter) =>
    runPublish(
      { db, ontology, map, targetName: target.name, writer: writer ?? writerFor(target), batchSize: 2 },
      request,
    );

  describe.each(targetCases)('into $name', (tc) => {
    const target = tc.target(`${engine.engine}_${tc.name}`);
    let api: TestServer;
    const get = (path: string) => api.get(`/${tc.db(target)}${path}`);

    beforeAll(async () => {
      await tc.drop(target);
      const summary = await publish(target, { rebuild: true });
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
  });
});
