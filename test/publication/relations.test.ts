import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  type HttpResult,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

type Row = Record<string, unknown>;

/** The reference decoding: a text cell holding a JSON array or object comes back parsed. */
function decoded(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    let value = v;
    if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
      try {
        value = JSON.parse(v);
      } catch {}
    }
    out[k] = value;
  }
  return out;
}

/** Ids of a stored relation cell: numbers, numeric strings or locators, as the conventions allow. */
function storedIds(cell: unknown): number[] {
  if (cell === null) return [];
  const value = typeof cell === 'string' ? JSON.parse(cell) : cell;
  return (Array.isArray(value) ? value : [value]).map((e: unknown) =>
    Number(typeof e === 'object' && e !== null ? (e as Row).section_id : e),
  );
}

const rel = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

describe.each(engineCases())('relation resolution on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  const records = (table: string, query: string) => s.get(`/${c.db}/tables/${table}/records${query}`);

  /** Every variant of `ids` in `table`, in the cell's order, each record's variants by lang. */
  async function expectedRows(table: string, ids: number[], lang?: string): Promise<Row[]> {
    const out: Row[] = [];
    for (const id of ids) {
      const langWhere = lang ? ` AND ${direct.q('lang')} = ?` : '';
      const hasLang = (await direct.query(`SELECT * FROM ${direct.q(table)} LIMIT 1`))[0]!.lang !== undefined;
      const rows = await direct.query(
        `SELECT * FROM ${direct.q(table)} WHERE section_id = ?${hasLang ? langWhere : ''}${hasLang ? ' ORDER BY lang' : ''}`,
        hasLang && lang ? [id, lang] : [id],
      );
      out.push(...rows.map(decoded));
    }
    return out;
  }

  async function storedRow(table: string, id: number, lang?: string): Promise<Row> {
    const rows = await direct.query(
      `SELECT * FROM ${direct.q(table)} WHERE section_id = ?${lang ? ` AND lang = ?` : ''}`,
      lang ? [id, lang] : [id],
    );
    return rows[0]!;
  }

  function ok(res: HttpResult): Row[] {
    expect(res.status, res.text).toBe(200);
    return res.json.data;
  }

  it('replaces informant ids with informant rows in the stored order', async () => {
    const rows = ok(
      await records(
        'interview',
        `?lang=lg-spa&limit=40&resolve_relations=${rel({ informant: 'informant' })}`,
      ),
    );
    expect(rows.length).toBe(40);
    let twoInformants = 0;
    for (const row of rows) {
      const stored = await storedRow('interview', row.section_id as number, 'lg-spa');
      const ids = storedIds(stored.informant);
      if (ids.length > 1) twoInformants++;
      expect(row.informant).toEqual(await expectedRows('informant', ids));
      expect((row.informant as Row[]).map((r) => r.section_id)).toEqual(ids);
      // Other relation columns are left as stored (parsed).
      expect(row.image).toEqual(decoded(stored).image);
    }
    expect(twoInformants).toBeGreaterThan(0);
  });

  it('matches a table.column target against that column', async () => {
    const rows = ok(
      await records(
        'interview',
        `?lang=lg-spa&limit=20&resolve_relations=${rel({ image: 'image.section_id' })}`,
      ),
    );
    for (const row of rows) {
      const stored = await storedRow('interview', row.section_id as number, 'lg-spa');
      expect(row.image).toEqual(await expectedRows('image', storedIds(stored.image)));
    }
    // A text column: thesaurus parents are term_ids, stored as plain text or a JSON array.
    const terms = ok(
      await records(
        'ts_themes',
        `?lang=lg-eng&limit=60&resolve_relations=${rel({ parent: 'ts_themes.term_id' })}`,
      ),
    );
    let plain = 0;
    let arrays = 0;
    for (const term of terms) {
      const stored = await storedRow('ts_themes', term.section_id as number, 'lg-eng');
      if (stored.parent === null) {
        expect(term.parent).toBeNull();
        continue;
      }
      const parents: string[] = String(stored.parent).startsWith('[')
        ? JSON.parse(String(stored.parent))
        : [stored.parent];
      if (String(stored.parent).startsWith('[')) arrays++;
      else plain++;
      const expected: Row[] = [];
      for (const termId of parents) {
        const found = await direct.query('SELECT * FROM ts_themes WHERE term_id = ? AND lang = ?', [
          termId,
          'lg-eng',
        ]);
        expected.push(...found.map(decoded));
      }
      expect(term.parent).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
    expect(plain).toBeGreaterThan(0);
    expect(arrays).toBeGreaterThan(0);
  });

  it('keeps a cell holding no id as it is (a file path is not a relation)', async () => {
    const stored = await direct.query<{ section_id: number; image: string }>(
      `SELECT section_id, image FROM ${direct.q('image')} ORDER BY section_id LIMIT 5`,
    );
    expect(stored.every((r) => /\.\w+$/.test(r.image))).toBe(true);
    const rows = ok(await records('image', `?limit=5&resolve_relations=${rel({ image: 'interview' })}`));
    expect(rows.map((r) => [r.section_id, r.image])).toEqual(stored.map((r) => [r.section_id, r.image]));
  });

  it('follows link cells stored as JSON text with auto, leaving NULL cells NULL', async () => {
    for (const param of [rel({ link: 'auto' }), 'auto']) {
      const rows = ok(await records('interview', `?lang=lg-spa&limit=60&resolve_relations=${param}`));
      let linked = 0;
      let empty = 0;
      for (const row of rows) {
        const stored = await storedRow('interview', row.section_id as number, 'lg-spa');
        if (stored.link === null) {
          expect(row.link).toBeNull();
          empty++;
          continue;
        }
        const link = JSON.parse(String(stored.link)) as { table: string; section_id: number };
        expect(row.link).toEqual(await expectedRows(link.table, [Number(link.section_id)]));
        expect((row.link as Row[]).length).toBe(1);
        linked++;
        if (param === 'auto') {
          // Bare auto touches link columns only: plain id arrays stay ids.
          expect(row.informant).toEqual(decoded(stored).informant);
        }
      }
      expect(linked).toBeGreaterThan(0);
      expect(empty).toBeGreaterThan(0);
    }
  });

  it('resolves nested keys two levels deep', async () => {
    const query = rel({ informant: 'informant', 'informant.image': 'image' });
    const rows = ok(await records('interview', `?lang=lg-spa&limit=30&resolve_relations=${query}`));
    let nested = 0;
    for (const row of rows) {
      const stored = await storedRow('interview', row.section_id as number, 'lg-spa');
      const informants = row.informant as Row[];
      expect(informants.map((r) => r.section_id)).toEqual(storedIds(stored.informant));
      for (const informant of informants) {
        const storedInformant = await storedRow('informant', informant.section_id as number);
        if (storedInformant.image === null) {
          expect(informant.image).toBeNull();
          continue;
        }
        const images = await expectedRows('image', storedIds(storedInformant.image));
        expect(informant.image).toEqual(images);
        expect(images.length).toBeGreaterThan(0);
        nested++;
      }
    }
    expect(nested).toBeGreaterThan(0);
  });

  it('resolves nested keys three levels deep', async () => {
    const query = rel({
      informant: 'informant',
      'informant.dd_relations': 'interview',
      'informant.dd_relations.image': 'image',
    });
    const rows = ok(await records('interview', `?lang=lg-spa&limit=10&resolve_relations=${query}`));
    let third = 0;
    for (const row of rows) {
      for (const informant of row.informant as Row[]) {
        const storedInformant = await storedRow('informant', informant.section_id as number);
        const interviews = informant.dd_relations as Row[];
        // lang narrows the nested multilingual target too.
        expect(interviews.every((i) => i.lang === 'lg-spa')).toBe(true);
        expect(interviews.map((i) => i.section_id)).toEqual(storedIds(storedInformant.dd_relations));
        for (const interview of interviews) {
          const storedInterview = await storedRow('interview', interview.section_id as number, 'lg-spa');
          expect(interview.image).toEqual(await expectedRows('image', storedIds(storedInterview.image)));
          expect(interview.informant).toEqual(decoded(storedInterview).informant);
          third += (interview.image as Row[]).length;
        }
      }
    }
    expect(third).toBeGreaterThan(0);
  });

  it('narrows multilingual targets to the request lang, and returns every variant without it', async () => {
    const query = rel({ informant: 'informant', 'informant.dd_relations': 'interview' });
    // Record 1 exists in three languages; find its informant's interviews.
    const withLang = ok(
      await s.get(`/${c.db}/tables/interview/records/1?lang=lg-eng&resolve_relations=${query}`),
    );
    const all = ok(await s.get(`/${c.db}/tables/interview/records/1?resolve_relations=${query}`));
    expect(withLang).toHaveLength(1);
    expect(all.map((r) => r.lang)).toEqual(['lg-cat', 'lg-eng', 'lg-spa']);
    const informant = (withLang[0]!.informant as Row[])[0]!;
    const ids = storedIds((await storedRow('informant', informant.section_id as number)).dd_relations);
    expect(informant.dd_relations).toEqual(await expectedRows('interview', ids, 'lg-eng'));
    const everyVariant = await expectedRows('interview', ids);
    expect(everyVariant.length).toBeGreaterThan(ids.length);
    for (const variant of all) {
      expect((variant.informant as Row[])[0]!.dd_relations).toEqual(everyVariant);
    }
  });

  it('resolves dd_relations with true through publication_schema', async () => {
    const informants = ok(await records('informant', '?limit=30&resolve_inverse_relations=true'));
    let count = 0;
    for (const row of informants) {
      const stored = await storedRow('informant', row.section_id as number);
      const ids = storedIds(stored.dd_relations);
      // oh1 -> interview (multilingual): every variant, ordered by lang.
      expect(row.dd_relations).toEqual(await expectedRows('interview', ids));
      count += ids.length;
    }
    expect(count).toBeGreaterThan(0);
    // Interview 15 points at an audiovisual asset (rsc35 -> audiovisual).
    const [stored] = await direct.query(
      'SELECT section_id, dd_relations FROM interview WHERE dd_relations IS NOT NULL ORDER BY section_id LIMIT 1',
    );
    const one = ok(
      await s.get(
        `/${c.db}/tables/interview/records/${stored!.section_id}?resolve_inverse_relations=1&fields=section_id,dd_relations`,
      ),
    );
    for (const variant of one) {
      expect(variant.dd_relations).toEqual(
        await expectedRows('audiovisual', storedIds(stored!.dd_relations)),
      );
      expect((variant.dd_relations as Row[]).length).toBeGreaterThan(0);
    }
  });

  it('resolves dd_relations with a JSON object keyed by section_tipo or by column', async () => {
    for (const map of [{ oh1: 'interview' }, { dd_relations: 'interview' }]) {
      const rows = ok(await records('image', `?limit=20&resolve_inverse_relations=${rel(map)}`));
      for (const row of rows) {
        const stored = await storedRow('image', row.section_id as number);
        expect(row.dd_relations).toEqual(await expectedRows('interview', storedIds(stored.dd_relations)));
      }
    }
    // A section_tipo the cells do not use resolves nothing: the cells become empty lists.
    const rows = ok(
      await records('image', `?limit=5&resolve_inverse_relations=${rel({ rsc197: 'informant' })}`),
    );
    for (const row of rows) expect(row.dd_relations).toEqual([]);
  });

  it('combines forward and inverse resolution with lang and fields', async () => {
    const res = await records(
      'interview',
      `?lang=lg-eng&fields=section_id,informant,dd_relations&limit=100&resolve_relations=${rel({ informant: 'informant' })}&resolve_inverse_relations=true`,
    );
    const rows = ok(res);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['dd_relations', 'informant', 'section_id']);
      const stored = await storedRow('interview', row.section_id as number, 'lg-eng');
      expect((row.informant as Row[]).map((r) => r.section_id)).toEqual(storedIds(stored.informant));
      if (stored.dd_relations === null) expect(row.dd_relations).toBeNull();
      else
        expect(row.dd_relations).toEqual(await expectedRows('audiovisual', storedIds(stored.dd_relations)));
    }
  });

  it('keeps ETag caching working on resolved pages', async () => {
    const path = `/${c.db}/tables/interview/records?limit=5&resolve_relations=auto`;
    const first = await s.get(path);
    expect(first.status).toBe(200);
    const again = await s.get(path, { 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });
});
