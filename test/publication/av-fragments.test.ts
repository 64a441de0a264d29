import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import {
  escapeHtml,
  excerptPlain,
  fold,
  referencePlain,
  timecodeTags,
  wordOccurrences,
  wordsOf,
} from './fragments-reference.js';

const MEDIA_BASE = 'https://media.test/archive';

interface InterviewRow {
  section_id: number;
  lang: string;
  transcription: string;
  informant: string | null;
  audiovisual: string | null;
}

interface MediaRow {
  section_id: number;
  video: string;
  image: string;
  duration: number;
}

/** Ids of a relation cell (`[1]`, `["1"]`). */
const idsOf = (cell: string | null) => (cell ? (JSON.parse(cell) as (string | number)[]).map(Number) : []);
const withBase = (v: string) => (/^https?:\/\//.test(v) || v.startsWith('/') ? v : `${MEDIA_BASE}/${v}`);

describe.each(engineCases())('av-fragments on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let interviews: InterviewRow[];
  const avFragments = (id: number | string, query: string, table = 'interview') =>
    s.get(`/${c.db}/tables/${table}/records/${id}/av-fragments${query}`);

  beforeAll(async () => {
    s = await startTestServer(c, { MEDIA_BASE_URL: MEDIA_BASE });
    direct = await c.openDirect();
    interviews = await direct.query<InterviewRow>(
      "SELECT section_id, lang, transcription, informant, audiovisual FROM interview WHERE lang = 'lg-spa' ORDER BY section_id",
    );
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  async function mediaRow(id: number): Promise<MediaRow> {
    const rows = await direct.query<MediaRow>(
      'SELECT section_id, video, image, duration FROM audiovisual WHERE section_id = ?',
      [id],
    );
    return rows[0]!;
  }

  /** The media row a record uses: its audiovisual relation (first id), else its own section_id. */
  async function mediaOf(row: InterviewRow): Promise<MediaRow> {
    return mediaRow(idsOf(row.audiovisual)[0] ?? row.section_id);
  }

  function someWords(row: InterviewRow, count: number): string[] {
    const byFold = new Map<string, string>();
    for (const w of wordsOf(referencePlain(row.transcription)))
      if (w.length >= 5 && !byFold.has(fold(w))) byFold.set(fold(w), w);
    const unique = [...byFold.values()];
    const step = Math.max(1, Math.floor(unique.length / count));
    return unique.filter((_w, i) => i % step === 0).slice(0, count);
  }

  it('finds a word of the stored transcription with its media window, video and poster URLs', async () => {
    for (const row of interviews.filter((r) => r.audiovisual !== null).slice(0, 6)) {
      const media = await mediaOf(row);
      const [word] = someWords(row, 1);
      const res = await avFragments(row.section_id, `?terms=${encodeURIComponent(word!)}&lang=lg-spa`);
      expect(res.status).toBe(200);
      expect(res.json.meta).toMatchObject({ section_id: row.section_id, terms: word });
      expect(res.json.data).toHaveLength(1);
      const [f] = res.json.data;
      expect(f.position).toBe(wordOccurrences(row.transcription, word!)[0]);
      expect(f.transcription).toContain(
        `<mark>${escapeHtml(row.transcription.slice(f.position, f.position + word!.length))}</mark>`,
      );
      expect(referencePlain(row.transcription)).toContain(excerptPlain(f.transcription));
      const { tc_in, tc_out } = f.media;
      expect(f.media.video_url).toBe(`${withBase(media.video)}?vbegin=${tc_in}&vend=${tc_out}`);
      expect(f.media.image_url).toBe(withBase(media.image));
    }
  });

  it('brackets every match with the timecodes around it in the stored text', async () => {
    let ranges = 0;
    let points = 0;
    for (const row of interviews.slice(0, 15)) {
      const media = await mediaOf(row);
      const words = someWords(row, 6);
      const res = await avFragments(
        row.section_id,
        `?terms=${encodeURIComponent(words.join(' '))}&lang=lg-spa`,
      );
      expect(res.json.data).toHaveLength(words.length);
      const tags = timecodeTags(row.transcription);
      for (const f of res.json.data) {
        const before = tags.filter((t) => t.end <= f.position).at(-1);
        const after = tags.find((t) => t.start >= f.position);
        const { tc_in, tc_out } = f.media;
        expect(tc_in).toBeLessThanOrEqual(tc_out);
        if (before?.kind === 'range') {
          expect([tc_in, tc_out]).toEqual([before.tcIn, before.tcOut]);
          ranges++;
        } else {
          const from = before?.tcIn ?? 0;
          const to = after ? after.tcIn : media.duration;
          expect(tc_in).toBeGreaterThanOrEqual(from);
          expect(tc_out).toBeLessThanOrEqual(to);
          // Far-apart points give an interpolated window of about a fifth of the gap.
          const gap = referencePlain(row.transcription.slice(before?.end ?? 0, after?.start)).length;
          if (gap > 600) expect(tc_out - tc_in).toBeLessThanOrEqual(0.2 * (to - from) + 0.002);
          else expect([tc_in, tc_out]).toEqual([from, to]);
          points++;
        }
        expect(new URL(f.media.video_url).searchParams.get('vbegin')).toBe(String(tc_in));
        expect(new URL(f.media.video_url).searchParams.get('vend')).toBe(String(tc_out));
      }
    }
    expect(ranges).toBeGreaterThan(0);
    expect(points).toBeGreaterThan(0);
  });

  it("lists the record's informants from the informant table, then other speakers, once each", async () => {
    for (const row of interviews.slice(0, 10)) {
      const ids = idsOf(row.informant);
      const people = await direct.query<{ section_id: number; name: string; surname: string }>(
        `SELECT section_id, name, surname FROM informant WHERE section_id IN (${ids.map(() => '?').join(',')})`,
        ids,
      );
      const expected = ids.map((id) => {
        const p = people.find((x) => Number(x.section_id) === id)!;
        return { name: `${p.name} ${p.surname}`, role: 'informant' };
      });
      const [word] = someWords(row, 1);
      const res = await avFragments(row.section_id, `?terms=${encodeURIComponent(word!)}&lang=lg-spa`);
      const speakers = res.json.data[0].speakers;
      expect(speakers.filter((x: { role: string }) => x.role === 'informant')).toEqual(expected);
      // The demo's person tags all point at the informants, so nobody is listed twice.
      expect(speakers).toEqual(expected);
    }
  });

  it('takes the media row with the same section_id when the record has no audiovisual relation', async () => {
    const row = interviews.find((r) => r.audiovisual === null)!;
    expect(row).toBeDefined();
    const media = await mediaRow(row.section_id);
    const [word] = someWords(row, 1);
    const res = await avFragments(row.section_id, `?terms=${encodeURIComponent(word!)}&lang=lg-spa`);
    const { video_url, tc_in, tc_out } = res.json.data[0].media;
    expect(video_url).toBe(`${withBase(media.video)}?vbegin=${tc_in}&vend=${tc_out}`);
  });

  it('keeps absolute media URLs as they are', async () => {
    const absolute = await direct.query<MediaRow>(
      "SELECT section_id, video FROM audiovisual WHERE video LIKE 'http%'",
    );
    expect(absolute.length).toBeGreaterThan(0);
    const ids = new Set(absolute.map((m) => Number(m.section_id)));
    const row = interviews.find((r) => ids.has(idsOf(r.audiovisual)[0] ?? r.section_id))!;
    const media = await mediaOf(row);
    const [word] = someWords(row, 1);
    const res = await avFragments(row.section_id, `?terms=${encodeURIComponent(word!)}&lang=lg-spa`);
    expect(res.json.data[0].media.video_url.startsWith(`${media.video}?vbegin=`)).toBe(true);
  });

  it('matches accents loosely and marks the stored spelling', async () => {
    const row = interviews.find((r) =>
      wordsOf(referencePlain(r.transcription)).some((w) => /[áéíóúñ]/.test(w)),
    )!;
    const word = wordsOf(referencePlain(row.transcription)).find((w) => /[áéíóúñ]/.test(w))!;
    const res = await avFragments(
      row.section_id,
      `?terms=${encodeURIComponent(fold(word).toUpperCase())}&lang=lg-spa&max_occurrences=10`,
    );
    expect(res.status).toBe(200);
    const all = wordOccurrences(row.transcription, word);
    expect(res.json.data.map((f: { position: number }) => f.position)).toEqual(all.slice(0, 10));
    expect(res.json.data[0].transcription).toContain(`<mark>${word}</mark>`);
  });

  describe('without lang', () => {
    interface VariantRow {
      section_id: number;
      lang: string;
      transcription: string;
    }
    let variants: VariantRow[];
    beforeAll(async () => {
      variants = await direct.query<VariantRow>(
        'SELECT section_id, lang, transcription FROM interview WHERE section_id <= 30 ORDER BY section_id, lang',
      );
    });
    const langsOf = (res: { json: { data: { lang: string }[] } }) => [
      ...new Set(res.json.data.map((f) => f.lang)),
    ];
    const positionsOf = (res: { json: { data: { position: number }[] } }) =>
      res.json.data.map((f) => f.position);

    /** A record and a word found in at least `min` of its variants (and in `where` of them, if given). */
    function recordWithWord(test: (found: VariantRow[], all: VariantRow[]) => boolean) {
      for (const id of new Set(variants.map((v) => v.section_id))) {
        const all = variants.filter((v) => v.section_id === id);
        if (all.length < 2) continue;
        for (const v of all) {
          for (const word of wordsOf(referencePlain(v.transcription))) {
            if (word.length < 4) continue;
            const found = all.filter((x) => wordOccurrences(x.transcription, word).length > 0);
            if (test(found, all)) return { id, word, found, all };
          }
        }
      }
      return undefined;
    }

    it('reads one language variant, the first in lang order where a term occurs, not every variant', async () => {
      const pick = recordWithWord((found) => found.length >= 2)!;
      expect(pick).toBeDefined();
      const { id, word, found } = pick;
      const res = await avFragments(id, `?terms=${encodeURIComponent(word)}&max_occurrences=10`);
      expect(res.status).toBe(200);
      // Lang order is the SQL order: the first variant holding the word is found[0].
      expect(langsOf(res)).toEqual([found[0]!.lang]);
      expect(positionsOf(res)).toEqual(wordOccurrences(found[0]!.transcription, word).slice(0, 10));
      expect(res.headers['content-language']).toBeUndefined();
      // The same answer as asking for that variant by name.
      const named = await avFragments(
        id,
        `?terms=${encodeURIComponent(word)}&max_occurrences=10&lang=${found[0]!.lang}`,
      );
      expect(named.json.data).toEqual(res.json.data);
    });

    it('reads a later variant when the first ones do not hold the terms', async () => {
      const pick = recordWithWord((found, all) => found.length === 1 && found[0] !== all[0])!;
      expect(pick).toBeDefined();
      const { id, word, found } = pick;
      const res = await avFragments(id, `?terms=${encodeURIComponent(word)}&max_occurrences=10`);
      expect(langsOf(res)).toEqual([found[0]!.lang]);
      expect(positionsOf(res)).toEqual(wordOccurrences(found[0]!.transcription, word).slice(0, 10));
    });
  });

  it('answers an empty list when nothing matches', async () => {
    const res = await avFragments(1, '?terms=zzzyxq');
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([]);
  });

  it('names every bad parameter in a 400', async () => {
    const cases: [string, string][] = [
      ['', 'terms'],
      ['?terms=%20', 'terms'],
      [`?terms=${'a'.repeat(513)}`, 'terms'],
      ['?terms=a&column=transcription', 'column'],
      ['?terms=a&lang=es', 'lang'],
      ['?terms=a&max_characters=5001', 'max_characters'],
      ['?terms=a&max_occurrences=0', 'max_occurrences'],
      ['?terms=a&fields=title', 'fields'],
    ];
    for (const [query, name] of cases) {
      const res = await avFragments(1, query);
      expect(res.status, query).toBe(400);
      expect(
        res.json.errors.map((e: { name: string }) => e.name),
        query,
      ).toEqual([name]);
    }
    const all = await avFragments(1, '?lang=x&max_characters=x&max_occurrences=x&_=1');
    expect(all.json.errors.map((e: { name: string }) => e.name).sort()).toEqual(
      ['lang', 'max_characters', 'max_occurrences', 'terms'].sort(),
    );
    const noTranscription = await avFragments(1, '?terms=a', 'informant');
    expect(noTranscription.status).toBe(400);
    expect(noTranscription.json.errors).toEqual([expect.objectContaining({ name: 'table', in: 'path' })]);
  });

  it('answers 404 for a missing record or language variant', async () => {
    expect((await avFragments(999999, '?terms=a')).status).toBe(404);
    const [untranslated] = await direct.query<{ section_id: number }>(
      "SELECT section_id FROM interview WHERE section_id NOT IN (SELECT section_id FROM interview WHERE lang = 'lg-eng') ORDER BY section_id LIMIT 1",
    );
    expect((await avFragments(untranslated!.section_id, '?terms=a&lang=lg-eng')).status).toBe(404);
  });
});
