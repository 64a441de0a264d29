/**
 * The demo generator writes the archive every other suite and the benchmarks run on, so these
 * tests pin what they rely on: determinism (same seed, same rows), exact row counts, records
 * missing a translation, relations that resolve, indexation locators that point at real index
 * tags, one tag structure across the translations of an interview, and working FTS5 tables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSummary, demoDataset, TABLE_DEFS, writeSqliteDemo } from '../../src/demo/index.js';

const OPTIONS = { interviews: 120, seed: 5 };

type Db = Database.Database;
type Rec = Record<string, unknown>;

let dir: string;
let fileA: string;
let summaryA: DemoSummary;
let dbA: Db;
let dbB: Db;

function allRows(db: Db, table: string): Rec[] {
  const def = TABLE_DEFS.find((t) => t.name === table)!;
  const order = def.primaryKey.map((c) => `"${c}"`).join(', ');
  return db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all() as Rec[];
}

function parseIds(cell: unknown): number[] {
  if (cell === null) return [];
  const value = JSON.parse(String(cell)) as unknown[];
  return value.map((v) => {
    const id = typeof v === 'object' && v !== null ? (v as Rec).section_id : v;
    const n = Number(id);
    expect(Number.isInteger(n) && n > 0, `id ${String(id)}`).toBe(true);
    return n;
  });
}

function idSet(db: Db, table: string): Set<number> {
  return new Set(
    (db.prepare(`SELECT DISTINCT section_id FROM "${table}"`).all() as { section_id: number }[]).map(
      (r) => r.section_id,
    ),
  );
}

/** The tags of a text in order, words removed: identical across translations. */
function tagSkeleton(text: string): string[] {
  return text.match(/\[[^\]]*\]/g) ?? [];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'demo-gen-'));
  fileA = join(dir, 'a.sqlite');
  const fileB = join(dir, 'b.sqlite');
  summaryA = await writeSqliteDemo(fileA, OPTIONS);
  await writeSqliteDemo(fileB, OPTIONS);
  dbA = new Database(fileA, { readonly: true });
  dbB = new Database(fileB, { readonly: true });
});

afterAll(() => {
  dbA?.close();
  dbB?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('demo generator (SQLite)', () => {
  it('writes identical contents for the same options', () => {
    for (const def of TABLE_DEFS) {
      expect(allRows(dbA, def.name), def.name).toEqual(allRows(dbB, def.name));
    }
  });

  it('writes different contents for another seed', () => {
    const other = demoDataset({ ...OPTIONS, seed: 6 }).find((t) => t.def.name === 'interview')!;
    const first = other.rows().next().value;
    expect(first).not.toEqual(Object.values(allRows(dbA, 'interview')[0]!));
  });

  it('reports the row counts that are in the file', () => {
    expect(Object.keys(summaryA.tables).sort()).toEqual(TABLE_DEFS.map((t) => t.name).sort());
    const expected = Object.fromEntries(demoDataset(OPTIONS).map((t) => [t.def.name, t.rowCount]));
    for (const [table, count] of Object.entries(summaryA.tables)) {
      const row = dbA.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number };
      expect(row.n, table).toBe(count);
      expect(count, table).toBe(expected[table]);
    }
    expect(summaryA.tables.interview).toBeGreaterThan(OPTIONS.interviews);
    expect(summaryA.tables.image).toBe(OPTIONS.interviews);
    expect(summaryA.tables.publications).toBeGreaterThanOrEqual(6);
    expect(summaryA.tables.ts_themes).toBe(2 * 60);
    expect(summaryA.tables.ts_onomastic).toBe(12);
  });

  it('has every interview in lg-spa and some missing lg-eng or lg-cat', () => {
    const langs = new Map<number, Set<string>>();
    for (const r of dbA.prepare('SELECT section_id, lang FROM interview').all() as Rec[]) {
      const id = r.section_id as number;
      if (!langs.has(id)) langs.set(id, new Set());
      langs.get(id)!.add(r.lang as string);
    }
    expect(langs.size).toBe(OPTIONS.interviews);
    const sets = [...langs.values()];
    expect(sets.every((s) => s.has('lg-spa'))).toBe(true);
    expect(sets.some((s) => !s.has('lg-eng'))).toBe(true);
    expect(sets.some((s) => s.has('lg-eng'))).toBe(true);
    expect(sets.some((s) => s.has('lg-cat'))).toBe(true);
    expect(sets.some((s) => !s.has('lg-cat'))).toBe(true);
  });

  it('only references rows that exist', () => {
    const interviews = idSet(dbA, 'interview');
    const informants = idSet(dbA, 'informant');
    const images = idSet(dbA, 'image');
    const av = idSet(dbA, 'audiovisual');
    const interviewRows = allRows(dbA, 'interview');
    let nullAv = 0;
    let stringIds = 0;
    for (const r of interviewRows) {
      for (const id of parseIds(r.informant)) expect(informants.has(id), `informant ${id}`).toBe(true);
      for (const id of parseIds(r.image)) expect(images.has(id), `image ${id}`).toBe(true);
      for (const id of parseIds(r.audiovisual)) expect(id).toBe(r.section_id);
      for (const id of parseIds(r.dd_relations)) expect(av.has(id)).toBe(true);
      if (r.audiovisual === null) nullAv++;
      if (String(r.informant).includes('"')) stringIds++;
      if (r.link !== null) {
        const link = JSON.parse(String(r.link)) as { table: string; section_id: number };
        expect(link.table).toBe('informant');
        expect(informants.has(link.section_id)).toBe(true);
      }
      expect(av.has(r.section_id as number)).toBe(true);
    }
    expect(nullAv).toBeGreaterThan(0);
    expect(stringIds).toBeGreaterThan(0);
    expect(stringIds).toBeLessThan(interviewRows.length);

    // Inverse relations list exactly the interviews that reference the row.
    const spa = interviewRows.filter((r) => r.lang === 'lg-spa');
    for (const r of allRows(dbA, 'informant')) {
      const referencing = spa.filter((i) => parseIds(i.informant).includes(r.section_id as number));
      expect(parseIds(r.dd_relations), `informant ${r.section_id}`).toEqual(
        referencing.map((i) => i.section_id),
      );
      for (const id of parseIds(r.image)) expect(images.has(id)).toBe(true);
    }
    for (const r of allRows(dbA, 'image')) {
      const referencing = spa.filter((i) => parseIds(i.image).includes(r.section_id as number));
      expect(parseIds(r.dd_relations), `image ${r.section_id}`).toEqual(referencing.map((i) => i.section_id));
    }
    for (const id of interviews) expect(images.has(id) && av.has(id)).toBe(true);

    const schema = dbA.prepare('SELECT data FROM publication_schema WHERE id = 1').get() as { data: string };
    const map = (JSON.parse(schema.data) as { dd_relations: Record<string, string> }).dd_relations;
    for (const table of Object.values(map)) expect(TABLE_DEFS.some((t) => t.name === table)).toBe(true);
  });

  it('points every thesaurus indexation locator at an index tag of that interview', () => {
    const transcriptions = new Map<number, string[]>();
    for (const r of dbA.prepare('SELECT section_id, transcription FROM interview').all() as Rec[]) {
      const id = r.section_id as number;
      transcriptions.set(id, [...(transcriptions.get(id) ?? []), r.transcription as string]);
    }
    let locators = 0;
    for (const table of ['ts_themes', 'ts_onomastic']) {
      const terms = allRows(dbA, table);
      const termIds = new Set(terms.map((t) => t.term_id));
      for (const term of terms) {
        if (term.parent !== null) {
          const parent = String(term.parent);
          const parents = parent.startsWith('[') ? (JSON.parse(parent) as string[]) : [parent];
          for (const p of parents) expect(termIds.has(p), `${table} parent ${p}`).toBe(true);
        }
        const tld = table === 'ts_themes' ? 'ts1' : 'on1';
        for (const id of parseIds(term.children)) expect(termIds.has(`${tld}_${id}`)).toBe(true);
        if (term.indexation === null) continue;
        for (const loc of JSON.parse(String(term.indexation)) as Rec[]) {
          locators++;
          const texts = transcriptions.get(Number(loc.section_id));
          expect(texts, `interview ${String(loc.section_id)}`).toBeDefined();
          for (const text of texts!) {
            expect(text).toContain(`[index-n-${String(loc.tag_id)}]`);
            expect(text).toContain(`[/index-n-${String(loc.tag_id)}]`);
          }
        }
      }
    }
    expect(locators).toBeGreaterThan(20);
  });

  it('writes transcriptions in the tag grammar, one structure across languages', () => {
    const byId = new Map<number, string[]>();
    for (const r of allRows(dbA, 'interview')) {
      const text = r.transcription as string;
      expect(text.length).toBeGreaterThanOrEqual(400);
      expect(text.length).toBeLessThanOrEqual(2500);
      expect(text.startsWith('[TC_00:00:00.000_TC]')).toBe(true);
      expect(text).toMatch(
        /\[person-n-\d+-[^-\]]+-data:\{"section_tipo":"rsc197","section_id":"\d+"\}:data\]/,
      );
      // Times never go back: ranges and points in reading order.
      const times: number[] = [];
      for (const m of text.matchAll(
        /\[tc-([\d.]+)-([\d.]+)\]|\[TC_(\d\d):(\d\d):(\d\d)(?:\.(\d{3}))?_TC\]/g,
      )) {
        if (m[1] !== undefined) {
          times.push(Number(m[1]), Number(m[2]));
        } else {
          times.push(Number(m[3]) * 3600 + Number(m[4]) * 60 + Number(m[5]) + Number(m[6] ?? 0) / 1000);
        }
      }
      for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
      expect(times.at(-1)).toBeCloseTo(r.duration as number, 6);
      const id = r.section_id as number;
      byId.set(id, [...(byId.get(id) ?? []), text]);
    }
    for (const [id, texts] of byId) {
      const skeleton = tagSkeleton(texts[0]!);
      for (const text of texts) expect(tagSkeleton(text), `interview ${id}`).toEqual(skeleton);
    }
    const all = [...byId.values()].flat().join('\n');
    expect(all).toMatch(/\[tc-\d+\.\d-/);
    expect(all).toMatch(/\[note-n-\d+-data:/);
    expect(all).toMatch(/R&D|a<b|b>a|& /);
    expect(all).toMatch(/canción|memòria|época|niño|café/);
  });

  it('writes publications with page markers, one of them labelled', () => {
    const texts = allRows(dbA, 'publications').map((r) => r.text as string);
    expect(texts.every((t) => /^\[page-n-\d+(-label-data:[^\]]*:data)?\]/.test(t))).toBe(true);
    expect(texts.some((t) => /\[page-n-\d+-label-data:[^\]]+:data\]/.test(t))).toBe(true);
  });

  it('answers full-text queries through the FTS5 tables', () => {
    const row = dbA
      .prepare("SELECT rowid, transcription FROM interview WHERE section_id = 1 AND lang = 'lg-spa'")
      .get() as { rowid: number; transcription: string };
    const plain = row.transcription.replace(/\[[^\]]*\]|<[^>]*>/g, ' ');
    const word = plain
      .split(/[^\p{L}]+/u)
      .filter((w) => w.length >= 5)
      .sort((a, b) => b.length - a.length)[0]!;
    const hits = dbA
      .prepare('SELECT rowid FROM fts_interview_transcription WHERE fts_interview_transcription MATCH ?')
      .all(`"${word}"`) as { rowid: number }[];
    expect(hits.map((h) => h.rowid)).toContain(row.rowid);

    // remove_diacritics: an unaccented query finds the accented word.
    const accented = dbA
      .prepare(
        "SELECT COUNT(*) AS n FROM fts_interview_transcription WHERE fts_interview_transcription MATCH 'cancion'",
      )
      .get() as { n: number };
    expect(accented.n).toBeGreaterThan(0);
    const pubs = dbA
      .prepare('SELECT COUNT(*) AS n FROM fts_publications_text WHERE fts_publications_text MATCH ?')
      .get('memoria OR memory') as { n: number };
    expect(pubs.n).toBeGreaterThan(0);
  });

  it('leaves a plain rollback-journal file with statistics', () => {
    expect(dbA.pragma('journal_mode', { simple: true })).toBe('delete');
    const stat = dbA.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'audiovisual'").get() as {
      stat: string;
    };
    expect(stat.stat.split(' ')[0]).toBe(String(OPTIONS.interviews));
    // Content tables keep their rowid: the FTS5 tables use it as content_rowid.
    for (const def of TABLE_DEFS) {
      const sql = dbA.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(def.name) as {
        sql: string;
      };
      expect(sql.sql, def.name).not.toMatch(/WITHOUT ROWID/i);
    }
  });
});
