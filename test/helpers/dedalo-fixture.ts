/**
 * A small database in Dédalo's standard published shape (the table and column names Dédalo's own
 * publication writes, as docs/publication-v1.md "Our data model" lists them; not our demo's): the
 * transcription in `audiovisual`.`rsc36` with `[TC_..._TC]` points and `[index-n-N-...]` tags,
 * the video path in `video` (Dédalo's `av/404/rsc35_rsc167_<id>.mp4` files), a time-code
 * `duration`, interviews listing their audiovisual records in `audiovisual`, informants, images,
 * the `hierarchy` table and thesaurus tables with `tld`, `parent` (`["ts1_1"]`, the roots under
 * `["hierarchy1_N"]`), `children` locators, `descriptor`, `norder` and rsc167 indexation
 * locators (two tlds in one table, the tld ts1 over two tables and with two top terms). Built on one engine in a database of its own (dropped by `drop`), with a full-text
 * index on `rsc36` (FULLTEXT on MariaDB, the FTS5 table on SQLite).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { MARIADB } from './mariadb-availability.js';
import type { EngineCase } from './publication-server.js';

type Cell = string | number | null;
export interface TableSpec {
  name: string;
  /** Column name -> neutral type. */
  columns: Record<string, 'int' | 'varchar' | 'text'>;
  rows: Record<string, Cell>[];
  fullText?: string[];
}

const fill = (word: string, chars: number) =>
  `${word} `.repeat(Math.ceil(chars / (word.length + 1))).slice(0, chars);
const index = (id: number, label: string) => [
  `[index-n-${id}-${label}-data::data]`,
  `[/index-n-${id}-${label}-data::data]`,
];

export const TIMES = { first: 10, second: 50, third: 60, duration: 100 } as const;

/**
 * Recording 1 (lg-spa): 200 characters after 00:00:10, tag 1 over 100 characters, 200 more up
 * to 00:00:50 (so tag 1 lies far from both time codes: interpolated); tag 2 a few characters
 * after 00:00:50 and before 00:01:00 (both within the 55-character margin); after 00:01:00,
 * 300 characters, tag 3 over 100, 100 more to the end of the 100 s recording.
 */
export function recordingText(words: { filler: string; indexed: string }): string {
  const [o1, c1] = index(1, 'exili');
  const [o2, c2] = index(2, 'frontera');
  const [o3, c3] = index(3, 'retorn');
  return [
    `[TC_00:00:10.000_TC]${fill(words.filler, 200)}`,
    `${o1}${fill(words.indexed, 100)}${c1}`,
    `${fill(words.filler, 200)}[TC_00:00:50.000_TC]`,
    `<p>La ${o2}frontera de Portbou${c2} al febrer.</p>[TC_00:01:00.000_TC]`,
    `<p>${fill(words.filler, 300)}${o3}${fill('retorn', 100)}${c3}${fill(words.filler, 100)}</p>`,
  ].join('');
}

const locator = (tag: number, av: number, interview: number) => ({
  type: 'dd96',
  tag_id: String(tag),
  section_id: String(av),
  section_tipo: 'rsc167',
  component_tipo: 'rsc36',
  section_top_id: String(interview),
  section_top_tipo: 'oh1',
  from_component_tipo: 'hierarchy40',
});
const childLocators = (tipo: string, ids: number[]) =>
  JSON.stringify(ids.map((id) => ({ type: 'dd48', section_id: String(id), section_tipo: tipo })));

export const EXILE_LOCATORS = [locator(1, 1, 1), locator(1, 3, 2)];

type TermSpec = [
  id: number,
  term: string,
  parent: string,
  children: number[],
  norder: number,
  descriptor?: string,
  indexation?: unknown[],
];

/** Thesaurus rows of one tld in both languages (the English term gets ' (en)'). */
function terms(tld: string, tipo: string, specs: TermSpec[]): Record<string, Cell>[] {
  return ['lg-spa', 'lg-eng'].flatMap((lang) =>
    specs.map(([id, term, parent, children, norder, descriptor, indexation]) => ({
      section_id: id,
      lang,
      term_id: `${tld}_${id}`,
      tld,
      term: lang === 'lg-eng' ? `${term} (en)` : term,
      parent: JSON.stringify([parent]),
      children: children.length > 0 ? childLocators(tipo, children) : null,
      descriptor: descriptor ?? 'yes',
      norder,
      indexation: indexation ? JSON.stringify(indexation) : null,
      time: null,
      space: null,
      scope_note: null,
    })),
  );
}

const TS_COLUMNS = {
  section_id: 'int',
  lang: 'varchar',
  term_id: 'varchar',
  tld: 'varchar',
  term: 'varchar',
  parent: 'text',
  children: 'text',
  descriptor: 'varchar',
  norder: 'int',
  indexation: 'text',
  time: 'text',
  space: 'text',
  scope_note: 'text',
} as const;

export const DEDALO_TABLES: TableSpec[] = [
  {
    name: 'publication_schema',
    columns: { data: 'text' },
    rows: [
      {
        data: JSON.stringify({
          informant: 'informant',
          image: 'image',
          dd_relations: { oh1: 'interview', rsc167: 'audiovisual', rsc197: 'informant', rsc170: 'image' },
        }),
      },
    ],
  },
  {
    name: 'interview',
    columns: {
      section_id: 'int',
      lang: 'varchar',
      code: 'varchar',
      title: 'varchar',
      abstract: 'text',
      date: 'varchar',
      informant: 'text',
      image: 'text',
      audiovisual: 'text',
      publication: 'varchar',
    },
    rows: ['lg-spa', 'lg-eng'].flatMap((lang) => [
      {
        section_id: 1,
        lang,
        code: 'OH-001',
        title: 'Entrevista a Joan Serra',
        abstract: lang === 'lg-eng' ? 'Exile across the Pyrenees' : 'Exili pels Pirineus',
        date: '1998-05-04',
        informant: '["1"]',
        image: '["1"]',
        audiovisual: '["1","2"]',
        publication: 'si',
      },
      {
        section_id: 2,
        lang,
        code: 'OH-002',
        title: 'Entrevista a Maria Puig',
        abstract: 'Presó',
        date: '2001-10-12',
        informant: '["2"]',
        image: '[]',
        audiovisual: '["3"]',
        publication: 'si',
      },
    ]),
  },
  {
    name: 'audiovisual',
    columns: { section_id: 'int', lang: 'varchar', video: 'varchar', rsc36: 'text', duration: 'varchar' },
    fullText: ['rsc36'],
    rows: [
      {
        section_id: 1,
        lang: 'lg-spa',
        video: '/dedalo/media/av/404/rsc35_rsc167_1.mp4',
        rsc36: recordingText({ filler: 'paraula', indexed: 'exili' }),
        duration: '00:01:40.000',
      },
      {
        section_id: 1,
        lang: 'lg-eng',
        video: '/dedalo/media/av/404/rsc35_rsc167_1.mp4',
        rsc36: recordingText({ filler: 'wording', indexed: 'exile' }),
        duration: '00:01:40.000',
      },
      // No video path: Dédalo's default file name applies.
      {
        section_id: 2,
        lang: 'lg-spa',
        video: null,
        rsc36: '[TC_00:00:00.000_TC]<p>Segona cinta, sense camps.</p>',
        duration: '2',
      },
      // Only in Spanish: an English request has no such record.
      {
        section_id: 3,
        lang: 'lg-spa',
        video: '/dedalo/media/av/404/rsc35_rsc167_3.mp4',
        rsc36: `[TC_00:00:05.000_TC]<p>${index(1, 'exili')[0]}La presó de dones${index(1, 'exili')[1]} i la frontera.</p>`,
        duration: '00:00:30.000',
      },
    ],
  },
  {
    name: 'informant',
    columns: {
      section_id: 'int',
      lang: 'varchar',
      name: 'varchar',
      surname: 'varchar',
      birthdate: 'varchar',
      birthplace: 'varchar',
    },
    rows: ['lg-spa', 'lg-eng'].flatMap((lang) => [
      { section_id: 1, lang, name: 'Joan', surname: 'Serra', birthdate: '1920', birthplace: 'Girona' },
      { section_id: 2, lang, name: 'Maria', surname: 'Puig', birthdate: '1925', birthplace: 'Barcelona' },
    ]),
  },
  {
    name: 'image',
    columns: { section_id: 'int', lang: 'varchar', image: 'varchar', title: 'varchar' },
    rows: ['lg-spa', 'lg-eng'].map((lang) => ({
      section_id: 1,
      lang,
      image: '/dedalo/media/image/1.5MB/0/rsc29_rsc170_1.jpg',
      title: 'Joan Serra',
    })),
  },
  {
    name: 'hierarchy',
    columns: { section_id: 'int', lang: 'varchar', name: 'varchar', tld: 'varchar' },
    rows: ['lg-spa', 'lg-eng'].flatMap((lang) => [
      { section_id: 245, lang, name: lang === 'lg-eng' ? 'Themes' : 'Temes', tld: 'ts1' },
      { section_id: 246, lang, name: lang === 'lg-eng' ? 'Events' : 'Fets', tld: 'ts2' },
      { section_id: 300, lang, name: lang === 'lg-eng' ? 'Places' : 'Llocs', tld: 'on1' },
    ]),
  },
  {
    // Two tlds in one table; rows stored out of norder, so id order is not the answer's order.
    name: 'ts_themes',
    columns: TS_COLUMNS,
    rows: [
      ...terms('ts1', 'ts1', [
        [1, 'Temes', 'hierarchy1_245', [2, 3, 4], 1],
        [2, 'Guerra', 'ts1_1', [5], 3],
        [3, 'Exili', 'ts1_1', [6], 1, 'yes', EXILE_LOCATORS],
        [4, 'Infància', 'ts1_1', [], 2],
        [5, 'Presó', 'ts1_2', [], 1, 'yes', [locator(3, 1, 1)]],
        [6, 'Exiliats', 'ts1_3', [], 1, 'no'],
        // A second top term (no parent): the root list still shows ts1_1's children only.
        [7, 'Sense classificar', '', [], 2],
      ]),
      ...terms('ts2', 'ts2', [
        [1, 'Fets', 'hierarchy1_246', [2], 1],
        [2, 'Retirada', 'ts2_1', [], 1, 'yes', [locator(1, 1, 1), locator(2, 1, 1)]],
      ]),
    ],
  },
  {
    // The tld ts1 also in a second table: a child of ts1_1 stored apart (last by norder).
    name: 'ts_themes_more',
    columns: TS_COLUMNS,
    rows: terms('ts1', 'ts1', [[8, 'Treball', 'ts1_1', [], 4]]),
  },
  {
    name: 'ts_onomastic',
    columns: TS_COLUMNS,
    rows: terms('on1', 'on1', [
      [1, 'Llocs', 'hierarchy1_300', [3, 2], 1],
      [2, 'Portbou', 'on1_1', [], 2, 'yes', [locator(2, 1, 1)]],
      [3, 'Argelers', 'on1_1', [], 1],
    ]),
  },
];

export interface BuiltDb {
  /** The engine case's environment pointed at the new database. */
  env: Record<string, string>;
  name: string;
  drop(): Promise<void>;
}

const SQLITE_TYPES = { int: 'INTEGER', varchar: 'TEXT', text: 'TEXT' };
const MARIADB_TYPES = { int: 'INT', varchar: 'VARCHAR(255)', text: 'MEDIUMTEXT' };

/** Writes DEDALO_TABLES to a new database on `c`'s engine. */
export function buildDedaloDb(c: EngineCase): Promise<BuiltDb> {
  return buildTablesDb(c, DEDALO_TABLES, 'dedalo');
}

/** Writes `tables` to a new database on `c`'s engine, named from `prefix`. */
export async function buildTablesDb(c: EngineCase, tables: TableSpec[], prefix: string): Promise<BuiltDb> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  if (c.engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    const db = new Database(join(dir, `${name}.sqlite`));
    for (const t of tables) {
      const cols = Object.entries(t.columns).map(([n, type]) => `"${n}" ${SQLITE_TYPES[type]}`);
      db.exec(`CREATE TABLE "${t.name}" (id INTEGER PRIMARY KEY, ${cols.join(', ')})`);
      const names = Object.keys(t.columns);
      const insert = db.prepare(
        `INSERT INTO "${t.name}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      );
      for (const row of t.rows) insert.run(...names.map((n) => row[n] ?? null));
      for (const column of t.fullText ?? []) {
        const fts = `fts_${t.name}_${column}`;
        db.exec(
          `CREATE VIRTUAL TABLE ${fts} USING fts5(${column}, content='${t.name}', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
        );
        db.exec(`INSERT INTO ${fts}(${fts}) VALUES('rebuild')`);
      }
    }
    db.close();
    return {
      name,
      env: { ...c.env, DB_SQLITE_DIR: dir, DB_NAMES: name },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const conn = await mysql.createConnection(MARIADB);
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.query(`USE \`${name}\``);
  for (const t of tables) {
    const cols = Object.entries(t.columns).map(([n, type]) => `\`${n}\` ${MARIADB_TYPES[type]}`);
    const ft = (t.fullText ?? []).map((c) => `, FULLTEXT (\`${c}\`)`).join('');
    await conn.query(
      `CREATE TABLE \`${t.name}\` (id INT AUTO_INCREMENT PRIMARY KEY, ${cols.join(', ')}${ft}) ENGINE=InnoDB`,
    );
    const names = Object.keys(t.columns);
    for (const row of t.rows) {
      await conn.query(
        `INSERT INTO \`${t.name}\` (${names.map((n) => `\`${n}\``).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        names.map((n) => row[n] ?? null),
      );
    }
  }
  await conn.end();
  return {
    name,
    env: { ...c.env, DB_NAMES: name },
    drop: async () => {
      const again = await mysql.createConnection(MARIADB);
      await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await again.end();
    },
  };
}
