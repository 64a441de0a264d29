/**
 * The browse pages as a catalogue, in Chromium, on each engine, as a member of the public uses
 * them: a record shows its related records by name and its images as pictures, its recording in a
 * player whose transcript timecodes seek it (the media served from MEDIA_DIR, which answers byte
 * ranges), a search looks in every full-text column by default and highlights what it found, a
 * record with no version in the reader's language says which one it shows, the interface speaks
 * en/es/ca (from `ui=` or Accept-Language), every page fits a 390 px phone and has no axe-core
 * finding of any impact, and a browser with JavaScript off reads a record's transcript and related
 * names and a search's results. Screenshots at 1366x800, 1024x768 and 390x844 in each language.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeDemoMedia } from '../../src/demo/demo-media.js';
import { allViolations, haveChromium, launchChromium, screenshot } from '../helpers/client-browser.js';
import { FIXTURE_DB } from '../helpers/global-setup.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { normalizeWord, plainWords } from '../helpers/text-oracle.js';

if (!haveChromium) console.warn('\n[skip] no Chromium: the catalogue browser tests are skipped.\n');

const load = async (page: Page, url: string) => {
  const res = await page.goto(url);
  expect(res?.status(), url).toBe(200);
};
const idsOf = (cell: unknown): number[] =>
  (typeof cell === 'string' ? (JSON.parse(cell) as unknown[]) : ((cell as unknown[]) ?? [])).map(Number);

describe.runIf(haveChromium).each(engineCases())('the browse catalogue in Chromium on $engine', (c) => {
  let s: TestServer;
  let browser: Browser;
  let mediaDir: string;
  /** An interview whose recording is a file of MEDIA_DIR, and its media row. */
  let withVideo: { id: number; video: string };
  /** A word of an interview's abstract that its transcription lacks. */
  let abstractWord: { word: string; id: number; lang: string };
  /** An interview with no English version. */
  let noEnglish: number;
  const api = async (path: string) => {
    const res = await s.get(`/${c.db}/tables/${path}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    return res.json;
  };

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'browse-media-'));
    // The same generator and seed build both engines' archives: the SQLite file names the paths.
    writeDemoMedia(join(inject('sqliteDir'), `${FIXTURE_DB}.sqlite`), mediaDir);
    s = await startTestServer(c, { MEDIA_DIR: mediaDir });
    browser = await launchChromium();
    const direct = await c.openDirect();
    try {
      const media = await direct.query<{ section_id: number; video: string }>(
        `SELECT section_id, video FROM audiovisual WHERE video LIKE 'av/%' ORDER BY section_id`,
      );
      const interviews = await direct.query<{
        section_id: number;
        lang: string;
        audiovisual: string | null;
        abstract: string | null;
        transcription: string | null;
      }>(
        `SELECT section_id, lang, audiovisual, abstract, transcription FROM interview ORDER BY section_id, lang`,
      );
      const relative = new Map(media.map((m) => [Number(m.section_id), m.video]));
      const hit = interviews.find((i) => i.audiovisual && relative.has(idsOf(i.audiovisual)[0]!))!;
      withVideo = { id: Number(hit.section_id), video: relative.get(idsOf(hit.audiovisual)[0]!)! };
      // A word of a record's abstract that its transcription lacks, as rare as can be (so the
      // record is on the first page of results).
      const wordsOf = (text: string | null) => new Set(plainWords(text ?? '').map(normalizeWord));
      const rows = interviews.map((i) => ({
        i,
        abstract: wordsOf(i.abstract),
        transcript: wordsOf(i.transcription),
      }));
      const frequency = new Map<string, number>();
      for (const r of rows)
        for (const w of new Set([...r.abstract, ...r.transcript]))
          frequency.set(w, (frequency.get(w) ?? 0) + 1);
      let best: { word: string; id: number; lang: string; n: number } | undefined;
      for (const r of rows)
        for (const w of r.abstract)
          if (w.length >= 5 && !r.transcript.has(w) && (!best || frequency.get(w)! < best.n))
            best = { word: w, id: Number(r.i.section_id), lang: r.i.lang, n: frequency.get(w)! };
      if (best) abstractWord = best;
      const langs = new Map<number, string[]>();
      for (const i of interviews)
        langs.set(Number(i.section_id), [...(langs.get(Number(i.section_id)) ?? []), i.lang]);
      noEnglish = [...langs].find(([, l]) => !l.includes('lg-eng'))![0];
    } finally {
      await direct.close();
    }
    expect(abstractWord, 'an abstract has a word its transcription lacks').toBeDefined();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  it('plays the recording beside its transcript, and a timecode seeks it', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    const url = `${s.base}/browse/${c.db}/interview/${withVideo.id}?ui=en`;
    await load(page, url);
    // At 1366 px the player and the transcript sit side by side, their tops level.
    const playerBox = (await page.locator('[data-player]').boundingBox())!;
    const transcriptBox = (await page.locator('.transcript-panel').boundingBox())!;
    expect(playerBox.x + playerBox.width).toBeLessThanOrEqual(transcriptBox.x);
    expect(Math.abs(playerBox.y - transcriptBox.y)).toBeLessThan(2);
    expect(playerBox.width).toBeGreaterThan(300);
    expect(transcriptBox.width).toBeGreaterThan(300);
    const video = page.locator('[data-player] video');
    const src = (await video.getAttribute('src'))!;
    expect(src).toBe(`/publication/server_api/v2/media/${withVideo.video}`);
    // The media route answers the file, and byte ranges (a player seeks without the whole file).
    const whole = await s.request('GET', src);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    const part = await s.request('GET', src, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.body.length).toBe(100);
    await page.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).readyState >= 1);
    const codes = page.locator('.transcript-panel a.tc[data-seconds]');
    expect(await codes.count()).toBeGreaterThan(1);
    const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
    const later = codes.filter({ hasNotText: /^0:00/ }).first();
    const seconds = Number(await later.getAttribute('data-seconds'));
    expect(seconds).toBeGreaterThan(0);
    await later.click();
    // The script seeks the player (the page stays); without it the link would open the file.
    await page.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).currentTime > 0);
    expect(page.url()).toBe(url);
    const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThanOrEqual(Math.max(seconds, duration) + 1);
    await context.close();
  });

  it('shows related records by name with links, and images as pictures', async () => {
    const page = await browser.newPage();
    await load(page, `${s.base}/browse/${c.db}/interview/${withVideo.id}?ui=en`);
    const record = await api(`interview/records/${withVideo.id}`);
    const informantIds = idsOf(record.data[0].informant);
    const people = page.locator('.field dd').filter({ has: page.locator(`a[href*="/informant/"]`) });
    for (const id of informantIds) {
      const informant = (await api(`informant/records/${id}`)).data[0];
      const link = people.locator(`a[href$="/informant/${id}?ui=en"]`).first();
      expect((await link.textContent())?.trim()).toBe(`${informant.name} ${informant.surname}`);
    }
    expect(await page.locator('main').textContent()).not.toMatch(/informant \d+/);
    // The transcript's speakers by name too, linking to their records.
    const speaker = page.locator('.transcript .speaker a').first();
    const speakerId = Number((await speaker.getAttribute('href'))!.match(/\/informant\/(\d+)/)![1]);
    const person = (await api(`informant/records/${speakerId}`)).data[0];
    expect(await speaker.textContent()).toMatch(new RegExp(`^${person.name} ${person.surname} \\(`));
    const pictures = page
      .locator('.field')
      .filter({ has: page.locator('dt', { hasText: 'Images' }) })
      .locator('img');
    expect(await pictures.count()).toBe(new Set(idsOf(record.data[0].image)).size);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('main .pictures img')].every(
        (i) => (i as HTMLImageElement).naturalWidth > 0,
      ),
    );
    await page.close();
  });

  it('searches every full-text column by default and highlights what it found', async () => {
    const page = await browser.newPage();
    await load(page, `${s.base}/browse/${c.db}/interview?ui=en&lang=all&limit=100`);
    await page.locator('input#q').fill(abstractWord.word);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await page.locator('select#column').inputValue()).toBe('');
    const ids = await page
      .locator('table.rows tbody tr td:first-child a')
      .evaluateAll((as) => as.map((a) => Number(a.textContent)));
    expect(ids).toContain(abstractWord.id);
    // Searching the transcriptions alone (the old default) does not find that record.
    const onlyTranscripts = await api(
      `interview/search?q=${encodeURIComponent(abstractWord.word)}&column=transcription&lang=${abstractWord.lang}&limit=1000`,
    );
    expect(onlyTranscripts.data.map((r: { section_id: number }) => r.section_id)).not.toContain(
      abstractWord.id,
    );
    const marks = await page.locator('table.rows tbody mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => normalizeWord(m) === abstractWord.word)).toBe(true);
    const row = page
      .locator(
        `table.rows tbody tr[lang="${abstractWord.lang === 'lg-eng' ? 'en' : abstractWord.lang === 'lg-cat' ? 'ca' : 'es'}"]`,
      )
      .filter({ has: page.locator(`td:first-child a:text-is("${abstractWord.id}")`) })
      .first();
    await Promise.all([page.waitForEvent('load'), row.locator('td:first-child a').click()]);
    // The link opens the record at the first word found.
    expect(new URL(page.url()).hash).toBe('#first-match');
    expect(await page.locator('dl.record mark#first-match').count()).toBe(1);
    const inPlace = await page.locator('dl.record mark').allTextContents();
    expect(inPlace.length).toBeGreaterThan(0);
    expect(inPlace.every((m) => normalizeWord(m) === abstractWord.word)).toBe(true);
    await page.close();
  });

  it('says so where a record is shown in another language than the reader’s', async () => {
    const page = await browser.newPage();
    await load(page, `${s.base}/browse/${c.db}/interview/${noEnglish}?ui=en`);
    const record = await api(`interview/records/${noEnglish}`);
    expect(record.meta.languages).not.toContain('lg-eng');
    const notice = (await page.locator('p.notice').textContent()) ?? '';
    expect(notice).toMatch(/has no English version: it is shown in (Spanish|Catalan)/);
    expect(await page.locator('h1').getAttribute('lang')).toMatch(/^(es|ca)$/);
    // In Spanish, the Spanish version, with no notice.
    await load(page, `${s.base}/browse/${c.db}/interview/${noEnglish}?ui=es`);
    expect(await page.locator('p.notice').count()).toBe(0);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await page.close();
  });

  it('speaks the reader’s language: Accept-Language, then the switch', async () => {
    const context = await browser.newContext({ locale: 'ca-ES' });
    const page = await context.newPage();
    await load(page, `${s.base}/browse/${c.db}/interview`);
    expect(await page.locator('html').getAttribute('lang')).toBe('ca');
    expect((await page.locator('h1').textContent())?.trim()).toMatch(/^Entrevistes/);
    expect(await page.getByRole('button', { name: 'Mostra' }).count()).toBe(1);
    await Promise.all([
      page.waitForEvent('load'),
      page.locator('nav.ui-langs').getByRole('link', { name: 'Español' }).click(),
    ]);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect((await page.locator('h1').textContent())?.trim()).toMatch(/^Entrevistas/);
    // The chosen language stays on the links the page offers.
    const first = page.locator('table.rows tbody tr td:first-child a').first();
    expect(await first.getAttribute('href')).toMatch(/ui=es/);
    await Promise.all([page.waitForEvent('load'), first.click()]);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await context.close();
  });

  it('reads without JavaScript: a record’s transcript and related names, and a search’s results', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1024, height: 768 },
    });
    const page = await context.newPage();
    await load(page, `${s.base}/browse/${c.db}/interview/${withVideo.id}?ui=en`);
    const variants = (await api(`interview/records/${withVideo.id}`)).data as Record<string, string>[];
    const record = variants[0]!;
    // The transcript of one of the record's versions, its first words as stored, and timecodes
    // that open the video at their second.
    const transcript = page.locator('.transcript-panel .transcript');
    expect(await transcript.isVisible()).toBe(true);
    const shown = new Set((await transcript.innerText()).split(/[^\p{L}]+/u).map(normalizeWord));
    const firstWords = variants.map((v) =>
      plainWords(v.transcription ?? '')
        .map(normalizeWord)
        .slice(0, 20),
    );
    expect(firstWords.some((words) => words.length > 5 && words.every((w) => shown.has(w)))).toBe(true);
    const code = transcript.locator('a.tc').first();
    expect(await code.isVisible()).toBe(true);
    expect(await code.getAttribute('href')).toMatch(
      new RegExp(`${withVideo.video.replace(/[.]/g, '\\.')}#t=\\d`),
    );
    // Related people by name, as visible links.
    for (const id of idsOf(record.informant)) {
      const informant = (await api(`informant/records/${id}`)).data[0];
      const link = page.locator(`dl.record a[href$="/informant/${id}?ui=en"]`).first();
      expect(await link.isVisible()).toBe(true);
      expect((await link.innerText()).trim()).toBe(`${informant.name} ${informant.surname}`);
    }
    // A search's results: the record found, the word marked, the link to the record there.
    await load(
      page,
      `${s.base}/browse/${c.db}/interview?q=${encodeURIComponent(abstractWord.word)}&lang=all&limit=100&ui=en`,
    );
    const link = page.locator(`table.rows tbody td:first-child a:text-is("${abstractWord.id}")`).first();
    expect(await link.isVisible()).toBe(true);
    const marks = page.locator('table.rows tbody mark');
    expect(await marks.first().isVisible()).toBe(true);
    expect((await marks.allInnerTexts()).every((m) => normalizeWord(m) === abstractWord.word)).toBe(true);
    await context.close();
  });

  it('fits every screen from 1366 px to a 390 px phone, in en, es and ca, with no axe finding of any impact', async () => {
    const screens = [
      { width: 1366, height: 800 },
      { width: 1024, height: 768 },
      { width: 390, height: 844 },
    ];
    const pages = [
      { name: 'home', path: '/browse/' },
      { name: 'tables', path: `/browse/${c.db}/` },
      { name: 'list', path: `/browse/${c.db}/interview` },
      {
        name: 'search',
        path: `/browse/${c.db}/interview?q=${encodeURIComponent(abstractWord.word)}&lang=all`,
      },
      { name: 'record', path: `/browse/${c.db}/interview/${withVideo.id}` },
      { name: 'person', path: `/browse/${c.db}/informant/1` },
    ];
    // The pages come from the same templates on both engines: SQLite checks every width with axe;
    // MariaDB's data is checked where it would break a layout first (the phone, every language).
    const widths = c.engine === 'sqlite' ? screens : screens.filter((v) => v.width === 390);
    for (const viewport of widths) {
      // bypassCSP only so the test can inject axe-core; the pages themselves run under the CSP.
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      for (const lang of ['en', 'es', 'ca']) {
        for (const p of pages) {
          const where = `${p.path} ${lang} ${viewport.width}`;
          await load(page, `${s.base}${p.path}${p.path.includes('?') ? '&' : '?'}ui=${lang}`);
          expect(await page.locator('html').getAttribute('lang'), where).toBe(lang);
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(wide, where).toBeLessThanOrEqual(viewport.width);
          // axe is the slow part: every page in English at every width, and every language
          // on the phone (where a longer translation would break a layout first).
          if (c.engine === 'sqlite' && (lang === 'en' || viewport.width === 390)) {
            expect(await allViolations(page), where).toEqual([]);
          }
          if (c.engine === 'sqlite') await screenshot(page, `browse-${p.name}-${lang}-${viewport.width}`);
        }
      }
      await context.close();
    }
  }, 240_000);
});
