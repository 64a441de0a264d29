/**
 * Transcribing against the player (issue 25 §2), in Chromium against the real work server on
 * PGlite and PostgreSQL: a WAV uploaded to an audiovisual record fills its Duration from the
 * file; the player sits beside the transcription from 1024 px and above it on a phone; while
 * typing, Esc plays and pauses, F2 goes back 5 s and F4 inserts the player's time as a timecode;
 * a click on a timecode chip takes the player there; the interview's informant is offered as a
 * speaker tag; Ctrl+Enter inserts the next page marker. What the server stores is checked. Screenshots (PGlite) in en/es/ca at three widths.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  haveChromium,
  logIn,
  newAppPage,
  screenshot,
  screenshotIfFailed,
  seriousViolations,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { tinyWav } from '../helpers/media-files.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

warnWithoutChromium('the transcribing browser tests are');

let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await startClientChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const field = (page: Page, model: string, label: string) =>
  page.locator(model).filter({ has: page.locator('.head .label', { hasText: new RegExp(`^${label}$`) }) });

const link = (from: string, sectionTipo: string, sectionId: number) => ({
  type: 'dd151',
  section_tipo: sectionTipo,
  section_id: sectionId,
  from_component_tipo: from,
});

for (const engine of workEngineCases()) {
  describe.runIf(haveChromium)(`transcribing on ${engine.engine}`, () => {
    let s: WorkServerHandle;
    let api: WorkBrowser;
    let context: BrowserContext;
    let page: Page;
    let av: number;
    let person: number;

    const origin = () => new URL(s.server.url).origin;

    async function post(body: unknown) {
      const answer = await api.post(body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    }
    const save = (section: string, id: number, tipo: string, value: unknown) =>
      post({
        action: 'save',
        source: { section_tipo: section, section_id: id, tipo, lang: 'lg-nolan' },
        data: { changed_data: [{ action: 'insert', value }] },
      });

    async function storedTranscription(): Promise<string | undefined> {
      const answer = await api.post({
        action: 'read',
        source: {
          tipo: 'rsc36',
          model: 'component_text_area',
          section_tipo: 'rsc167',
          section_id: av,
          mode: 'edit',
          lang: 'lg-eng',
        },
      });
      const item = (answer.body.data?.data ?? []).find((d: { tipo: string }) => d.tipo === 'rsc36');
      return item?.entries?.[0]?.value;
    }

    const video = () => page.locator('component-av video');
    const media = <T>(fn: (v: HTMLVideoElement) => T) => video().evaluate(fn as (v: HTMLElement) => T);
    const box = () => field(page, 'component-text-area', 'Transcription').getByRole('textbox').first();

    beforeAll(async () => {
      s = await startTestWorkServer(engine);
      api = await rootBrowser(s);
      person = await post({ action: 'create', source: { section_tipo: 'rsc197' } });
      await save('rsc197', person, 'rsc85', { id: null, lang: 'lg-nolan', value: 'Ana' });
      await save('rsc197', person, 'rsc86', { id: null, lang: 'lg-nolan', value: 'García' });
      av = await post({ action: 'create', source: { section_tipo: 'rsc167' } });
      const interview = await post({ action: 'create', source: { section_tipo: 'oh1' } });
      await save('oh1', interview, 'oh25', link('oh25', 'rsc167', av));
      await save('oh1', interview, 'oh24', link('oh24', 'rsc197', person));
      ({ context, page } = await newAppPage(browser, { width: 1366, height: 800 }));
      await page.goto(`${origin()}/#/edit/rsc167/${av}`);
      await logIn(page);
      await page.getByRole('heading', { name: new RegExp(`^Audiovisual ${av}`) }).waitFor();
    }, 120_000);

    afterEach((t) => screenshotIfFailed(t.task, page, `transcribing-${engine.engine}`));

    afterAll(async () => {
      await context?.close();
      await s?.stop();
    });

    it('an uploaded file fills Duration from the file, and its player sits beside the transcription', async () => {
      await page.getByLabel('Upload a file to File').setInputFiles({
        name: 'interview.wav',
        mimeType: 'audio/wav',
        buffer: tinyWav(12),
      });
      await expect
        .poll(
          () => field(page, 'component-input-text', 'Duration').getByRole('textbox').first().inputValue(),
          {
            timeout: 15_000,
          },
        )
        .toBe('00:00:12.000');
      await expect.poll(() => media((v) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      expect(await media((v) => Math.round(v.duration))).toBe(12);

      for (const [width, beside] of [
        [1366, true],
        [1024, true],
        [390, false],
      ] as const) {
        await page.setViewportSize({ width, height: 800 });
        const player = (await video().boundingBox())!;
        const text = (await box().boundingBox())!;
        if (beside) {
          expect(player.x + player.width, `${width}: the player left of the text`).toBeLessThanOrEqual(
            text.x,
          );
          expect(player.y, `${width}: side by side`).toBeLessThan(text.y + text.height);
        } else {
          expect(player.y + player.height, `${width}: the player above the text`).toBeLessThanOrEqual(text.y);
        }
      }
      await page.setViewportSize({ width: 1366, height: 800 });
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('while typing: Esc plays and pauses, F2 goes back 5 s, F4 inserts the time; a timecode chip seeks', async () => {
      await box().click();
      await page.keyboard.type('Hola ');
      await page.keyboard.press('Escape');
      await expect.poll(() => media((v) => v.paused)).toBe(false);
      await page.keyboard.press('Escape');
      await expect.poll(() => media((v) => v.paused)).toBe(true);
      await media((v) => {
        v.currentTime = 8;
      });
      await page.keyboard.press('F2');
      await expect.poll(() => media((v) => v.currentTime)).toBe(3);
      await page.keyboard.press('F4');
      await page.keyboard.type('que tal');
      await page.keyboard.press('Control+Space');
      await expect.poll(() => media((v) => v.paused)).toBe(false);
      await page.keyboard.press('Control+Space');
      await expect.poll(() => media((v) => v.paused)).toBe(true);
      // Leaving the text saves it.
      await page.getByRole('button', { name: 'History', exact: true }).focus();
      await expect.poll(storedTranscription, { timeout: 15_000 }).toBe('Hola [TC_00:00:03.000_TC]que tal');

      await media((v) => {
        v.currentTime = 10;
      });
      await box().getByRole('img', { name: 'tag: TC 00:00:03' }).click();
      await expect.poll(() => media((v) => v.currentTime)).toBe(3);
      // The keys are told in the editor.
      await page.getByText('Keyboard shortcuts').click();
      await page.getByText('the player goes to that time').waitFor();
    });

    it("offers the interview's informant as a speaker and inserts the person tag", async () => {
      await box().click();
      await page.keyboard.press('Control+End');
      const speaker = page.getByLabel('Speaker');
      await expect
        .poll(() => speaker.locator('option').allInnerTexts())
        .toEqual(['Insert a speaker…', 'Ana García']);
      await speaker.selectOption({ label: 'Ana García' });
      await box().getByRole('img', { name: 'tag: person Ana García' }).waitFor();
      await page.getByRole('button', { name: 'History', exact: true }).focus();
      await expect
        .poll(storedTranscription, { timeout: 15_000 })
        .toBe(
          `Hola [TC_00:00:03.000_TC]que tal[person-n-${person}-Ana_García-data:{"section_tipo":"rsc197","section_id":"${person}"}:data]`,
        );
    });

    it('Ctrl+Enter inserts the next page marker where the caret is, and the keys list it', async () => {
      const before = await storedTranscription();
      await box().click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Control+Enter');
      await page.keyboard.type('Segunda página');
      await box().getByRole('img', { name: 'tag: page 1' }).waitFor();
      await page.getByRole('button', { name: 'History', exact: true }).focus();
      // The marker of the publication API's tag grammar, then the typing after it: no new line.
      await expect.poll(storedTranscription, { timeout: 15_000 }).toBe(`${before}[page-n-1]Segunda página`);
      expect(
        await page.getByRole('button', { name: 'Insert page break' }).getAttribute('aria-keyshortcuts'),
      ).toBe('Control+Enter');
      const keys = page.locator('dd-transcription-editor details.keys');
      if (!(await keys.evaluate((d) => (d as HTMLDetailsElement).open)))
        await keys.getByText('Keyboard shortcuts').click();
      expect(await keys.locator('dt', { hasText: 'Enter' }).innerText()).toBe('Ctrl+Enter');
      expect(await keys.locator('dd', { hasText: 'page break' }).innerText()).toBe('Insert page break');
    });

    it.runIf(engine.engine === 'pglite')(
      'screenshots of the transcription screen in en, es and ca',
      async () => {
        const language = {
          en: 'Interface language',
          es: 'Idioma de la interfaz',
          ca: 'Llengua de la interfície',
        };
        let current: keyof typeof language = 'en';
        for (const lang of ['en', 'es', 'ca'] as const) {
          await page.getByLabel(language[current]).selectOption(lang);
          current = lang;
          await page.waitForFunction((l) => document.documentElement.lang === l, lang);
          for (const [w, h] of [
            [1366, 800],
            [1024, 768],
            [390, 844],
          ] as const) {
            await page.setViewportSize({ width: w, height: h });
            await page.goto(`${origin()}/#/edit/rsc167/${av}`);
            await page.locator('dd-transcription-editor details').waitFor();
            await page.locator('dd-transcription-editor details').evaluate((d) => {
              (d as HTMLDetailsElement).open = true;
            });
            await screenshot(page, `transcribing-${lang}-${w}`);
          }
        }
        await page.getByLabel(language[current]).selectOption('en');
      },
      120_000,
    );
  });
}
