import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { escapeHtml, referencePlain, timecodeTags } from './fragments-reference.js';

interface TermRow {
  table: string;
  section_id: number;
  lang: string | null;
  term_id: string;
  term: string;
  indexation: string | null;
}

interface Locator {
  section_id: string | number;
  section_tipo?: string;
  tag_id?: string | number;
  component_tipo?: string;
}

interface Variant {
  section_id: number;
  lang: string;
  transcription: string;
  informant: string;
}

describe.each(engineCases())('av-indexation-fragment on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let terms: TermRow[];
  const fragment = (query: string) => s.get(`/${c.db}/av-indexation-fragment${query}`);

  beforeAll(async () => {
    s = await startTestServer(c, { MEDIA_BASE_URL: '/media' });
    direct = await c.openDirect();
    const t = direct.q('table');
    const themes = await direct.query<TermRow>(
      `SELECT 'ts_themes' AS ${t}, section_id, lang, term_id, term, indexation FROM ts_themes ORDER BY section_id, lang`,
    );
    const onomastic = await direct.query<TermRow>(
      `SELECT 'ts_onomastic' AS ${t}, section_id, NULL AS lang, term_id, term, indexation FROM ts_onomastic ORDER BY section_id`,
    );
    terms = [...onomastic, ...themes];
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  const locatorsOf = (row: TermRow): Locator[] => (row.indexation ? JSON.parse(row.indexation) : []);

  /** Reference: term ids of every thesaurus row with a locator naming this record (and tag). */
  function expectedTerms(sectionId: number, tagId: number | undefined, lang?: string, component?: string) {
    const out: { term_id: string; term: string }[] = [];
    for (const table of ['ts_onomastic', 'ts_themes']) {
      const rows = terms.filter((t) => t.table === table);
      for (const id of [...new Set(rows.map((r) => Number(r.section_id)))]) {
        const variants = rows.filter((r) => Number(r.section_id) === id);
        const hit = variants.some((v) =>
          locatorsOf(v).some(
            (l) =>
              Number(l.section_id) === sectionId &&
              (l.section_tipo === undefined || l.section_tipo === 'oh1') &&
              (tagId === undefined || Number(l.tag_id) === tagId) &&
              (component === undefined || l.component_tipo === component),
          ),
        );
        if (!hit) continue;
        const chosen = variants.find((v) => v.lang === lang) ?? variants[0]!;
        out.push({ term_id: chosen.term_id, term: chosen.term });
      }
    }
    return out;
  }

  async function variantsOf(sectionId: number): Promise<Variant[]> {
    return direct.query<Variant>(
      'SELECT section_id, lang, transcription, informant FROM interview WHERE section_id = ? ORDER BY lang',
      [sectionId],
    );
  }

  /** The stored text between [index-n-T] and [/index-n-T], tags removed, escaped. */
  function indexedText(stored: string, tagId: number): string {
    const open = stored.indexOf(`[index-n-${tagId}]`);
    const close = stored.indexOf(`[/index-n-${tagId}]`, open);
    expect(open).toBeGreaterThanOrEqual(0);
    return escapeHtml(referencePlain(stored.slice(open + `[index-n-${tagId}]`.length, close)));
  }

  /** Locators taken from the thesaurus: [section_id, tag_id] of the first locator of some rows. */
  function sampleLocators(count: number): [number, number][] {
    const seen = new Set<string>();
    const out: [number, number][] = [];
    for (const row of terms) {
      for (const l of locatorsOf(row)) {
        const key = `${l.section_id}/${l.tag_id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push([Number(l.section_id), Number(l.tag_id)]);
        break;
      }
      if (out.length === count) break;
    }
    return out;
  }

  it('returns the passage an indexation locator points at, with the terms that index it', async () => {
    const samples = sampleLocators(6);
    expect(samples.length).toBe(6);
    for (const [sectionId, tagId] of samples) {
      const res = await fragment(`?section_id=${sectionId}&tag_id=${tagId}`);
      expect(res.status).toBe(200);
      const variants = await variantsOf(sectionId);
      const variant = variants.find((v) => v.transcription.includes(`[index-n-${tagId}]`))!;
      expect(res.json.meta).toMatchObject({ section_id: sectionId, passage: 'index', lang: variant.lang });
      expect(res.json.data.transcription).toBe(indexedText(variant.transcription, tagId));
      expect(res.json.data.terms).toEqual(expectedTerms(sectionId, tagId));
      expect(res.json.data.terms.length).toBeGreaterThan(0);
      const { locator, media } = res.json.data;
      expect(locator).toMatchObject({ section_id: sectionId, tag_id: tagId });
      expect(locator.tc_in).toBeLessThanOrEqual(locator.tc_out);
      expect(media).toMatchObject({ tc_in: locator.tc_in, tc_out: locator.tc_out });
      expect(media.video_url).toMatch(new RegExp(`\\?vbegin=${locator.tc_in}&vend=${locator.tc_out}$`));
      // The window starts no earlier than the last timecode before the passage.
      const open = variant.transcription.indexOf(`[index-n-${tagId}]`);
      const before = timecodeTags(variant.transcription)
        .filter((t) => t.end <= open)
        .at(-1);
      expect(locator.tc_in).toBeGreaterThanOrEqual(before?.tcIn ?? 0);
      const informants = JSON.parse(variant.informant).map(Number) as number[];
      const people = await direct.query<{ section_id: number; name: string; surname: string }>(
        `SELECT section_id, name, surname FROM informant WHERE section_id IN (${informants.map(() => '?').join(',')})`,
        informants,
      );
      expect(res.json.data.speakers.slice(0, informants.length)).toEqual(
        informants.map((id) => {
          const p = people.find((x) => Number(x.section_id) === id)!;
          return { name: `${p.name} ${p.surname}`, role: 'informant' };
        }),
      );
    }
  });

  it('lists each term in the requested language, else in its first language', async () => {
    const row = terms.find((t) => t.table === 'ts_themes' && t.indexation)!;
    const [l] = locatorsOf(row);
    const sectionId = Number(l!.section_id);
    const tagId = Number(l!.tag_id);
    for (const lang of [undefined, 'lg-spa', 'lg-eng']) {
      const res = await fragment(`?section_id=${sectionId}&tag_id=${tagId}${lang ? `&lang=${lang}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.json.data.terms).toEqual(expectedTerms(sectionId, tagId, lang));
      const own = terms.find(
        (t) => t.table === 'ts_themes' && t.section_id === row.section_id && t.lang === (lang ?? 'lg-eng'),
      )!;
      expect(res.json.data.terms).toContainEqual({ term_id: own.term_id, term: own.term });
      if (lang) {
        const variants = await variantsOf(sectionId);
        const v = variants.find((x) => x.lang === lang);
        if (v) expect(res.json.data.transcription).toBe(indexedText(v.transcription, tagId));
      }
    }
  });

  it('narrows terms by section_tipo and component_tipo, and lists all tags of the record without tag_id', async () => {
    const [[sectionId, tagId]] = sampleLocators(1) as [[number, number]];
    const plain = await fragment(`?section_id=${sectionId}&tag_id=${tagId}`);
    const typed = await fragment(
      `?section_id=${sectionId}&tag_id=${tagId}&section_tipo=oh1&component_tipo=rsc36`,
    );
    expect(typed.json.data).toEqual(plain.json.data);
    const other = await fragment(`?section_id=${sectionId}&tag_id=${tagId}&component_tipo=rsc999`);
    expect(other.json.data.terms).toEqual([]);
    expect(other.json.data.transcription).toBe(plain.json.data.transcription);
    const whole = await fragment(`?section_id=${sectionId}`);
    expect(whole.json.data.terms).toEqual(expectedTerms(sectionId, undefined));
    expect(whole.json.data.locator.tag_id).toBeNull();
  });

  it('cuts the passage by timecodes when no tag is given', async () => {
    const rows = await direct.query<Variant>(
      "SELECT section_id, lang, transcription, informant FROM interview WHERE lang = 'lg-spa' ORDER BY section_id",
    );
    let checked = 0;
    for (const row of rows) {
      const tags = timecodeTags(row.transcription);
      const i = tags.findIndex((t) => t.kind === 'range' && t.tcOut! > t.tcIn);
      if (i < 0) continue;
      const range = tags[i]!;
      const res = await fragment(
        `?section_id=${row.section_id}&tc_in=${range.tcIn}&tc_out=${range.tcOut}&lang=lg-spa`,
      );
      expect(res.status).toBe(200);
      expect(res.json.meta.passage).toBe('timecodes');
      const segment = row.transcription.slice(range.start, tags[i + 1]?.start ?? row.transcription.length);
      expect(res.json.data.transcription).toBe(escapeHtml(referencePlain(segment)));
      expect(res.json.data.locator).toMatchObject({ tc_in: range.tcIn, tc_out: range.tcOut, tag_id: null });
      if (++checked === 5) break;
    }
    expect(checked).toBe(5);
  });

  it('serves the whole transcription when neither a known tag nor a window is given', async () => {
    const [v] = await variantsOf(1);
    for (const query of ['?section_id=1', '?section_id=1&tag_id=999']) {
      const res = await fragment(query);
      expect(res.status).toBe(200);
      expect(res.json.meta.passage).toBe('whole');
      expect(res.json.data.transcription).toBe(escapeHtml(referencePlain(v!.transcription)));
      expect(res.json.data.transcription).not.toMatch(/\[|<(?!\/?mark>)/);
    }
  });

  it('names every bad parameter in a 400', async () => {
    const cases: [string, string[]][] = [
      ['', ['section_id']],
      ['?section_id=0', ['section_id']],
      ['?section_id=abc', ['section_id']],
      ['?section_id=1.5', ['section_id']],
      ['?section_id=1&section_id=2', ['section_id']],
      ['?section_id=1&tag_id=0', ['tag_id']],
      ['?section_id=1&tag_id=x', ['tag_id']],
      ['?section_id=1&tc_in=-1', ['tc_in']],
      ['?section_id=1&tc_in=abc', ['tc_in']],
      ['?section_id=1&tc_out=1e3', ['tc_out']],
      ['?section_id=1&tc_in=5&tc_out=2', ['tc_in', 'tc_out']],
      ['?section_id=1&section_tipo=bad%20tipo', ['section_tipo']],
      ['?section_id=1&section_tipo=zz9', ['section_tipo']],
      ['?section_id=1&section_tipo=rsc35', ['section_tipo']],
      ['?section_id=1&component_tipo=%3Cx%3E', ['component_tipo']],
      ['?section_id=1&lang=spa', ['lang']],
      ['?section_id=1&limit=1', ['limit']],
    ];
    for (const [query, names] of cases) {
      const res = await fragment(query);
      expect(res.status, query).toBe(400);
      expect(res.json.errors.map((e: { name: string }) => e.name).sort(), query).toEqual(names);
    }
    const all = await fragment('?tag_id=0&tc_in=x&tc_out=-2&lang=q&foo=1&_=2');
    expect(all.json.errors.map((e: { name: string }) => e.name).sort()).toEqual(
      ['foo', 'lang', 'section_id', 'tag_id', 'tc_in', 'tc_out'].sort(),
    );
  });

  it('answers 404 for a missing record or database', async () => {
    const res = await fragment('?section_id=999999');
    expect(res.status).toBe(404);
    expect(res.json.type).toMatch(/\/not-found$/);
    expect((await s.get('/nodb/av-indexation-fragment?section_id=1')).status).toBe(404);
  });
});
