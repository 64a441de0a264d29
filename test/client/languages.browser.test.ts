/**
 * The client in the archive's languages, in Chromium against the real work server (PGlite and
 * PostgreSQL): a
 * Catalan cataloguer sees menu, list, record, buttons and a save refusal in Catalan, with the
 * ontology's Catalan labels and no English text; the interface language survives a reload and
 * `<html lang>` follows it; a translatable field is edited side by side in two languages, each
 * saving in its own; a field empty in the data language shows the value of another language with
 * a mark; the header names who is logged in. Screenshots (PGlite only) of the list and the record
 * form at three widths in each language go to test-screenshots/; axe-core finds nothing serious
 * on the side-by-side form.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import ca from '../../client/src/i18n/ca.js';
import en from '../../client/src/i18n/en.js';
import es from '../../client/src/i18n/es.js';
import {
  englishLeftIn,
  haveChromium,
  newAppPage,
  pageText,
  screenshot,
  screenshotIfFailed,
  seriousViolations,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

warnWithoutChromium('the interface language browser tests are');

const PASSWORD = 'marta password';

let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await startClientChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** The ontology's English labels a Catalan screen must not show either. */
const ENGLISH_LABELS = ['Interviews', 'Title', 'Abstract', 'People'];
const englishIn = (text: string) => englishLeftIn(text, en, ca, ENGLISH_LABELS);

/** A component of the record, found by its label (within `scope`, a column or the form). */
const field = (scope: Page | Locator, label: string) => {
  const page =
    'page' in scope && typeof scope.page === 'function' ? (scope as Locator).page() : (scope as Page);
  return scope.locator('component-input-text').filter({
    has: page.locator('.head .label', { hasText: new RegExp(`^${label}$`) }),
  });
};

for (const engine of workEngineCases())
  describe.runIf(haveChromium)(`the archive's languages (${engine.engine})`, () => {
    /** The pictures are taken once (PGlite); PostgreSQL runs the same steps without them. */
    const pictures = engine.engine === 'pglite';
    let s: WorkServerHandle;
    let api: WorkBrowser;
    let context: BrowserContext;
    let page: Page;
    let interview: number;
    let origin: string;

    beforeAll(async () => {
      s = await startTestWorkServer(engine);
      origin = new URL(s.server.url).origin;
      api = await rootBrowser(s);
      await insertLoginUser(s.server.db, 40, {
        username: 'marta',
        password: PASSWORD,
        profile: 2,
        globalAdmin: true,
        fullName: 'Marta Puig',
      });
      // An interview with an English title and a code another record will try to take.
      const created = await api.post({ action: 'create', source: { section_tipo: 'oh1' } });
      interview = created.body.data as number;
      for (const [tipo, lang, value] of [
        ['oh14', 'lg-nolan', 'E-001'],
        ['oh16', 'lg-eng', 'The harvest of 1952'],
      ] as const) {
        const saved = await api.post({
          action: 'save',
          source: { section_tipo: 'oh1', section_id: interview, tipo, lang },
          data: { changed_data: [{ action: 'insert', value: { id: null, lang, value } }] },
        });
        expect(saved.body.ok, JSON.stringify(saved.body)).toBe(true);
      }
      ({ context, page } = await newAppPage(browser, { width: 1366, height: 800 }));
      page.setDefaultTimeout(15_000);
    }, 120_000);

    afterEach((t) => screenshotIfFailed(t.task, page, `languages-${engine.engine}`));

    afterAll(async () => {
      await context?.close();
      await s?.stop();
    });

    it('logs in in Catalan and shows menu, list, record, buttons and a refusal with no English', async () => {
      await page.goto(`${origin}/#/list/oh1`);
      await page.getByRole('heading', { name: 'Dédalo — log in' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      await page.getByLabel('Interface language').selectOption('ca');
      await page.getByRole('heading', { name: 'Dédalo — inici de sessió' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ca');
      await page.getByLabel('Usuari', { exact: true }).fill('marta');
      await page.getByLabel('Contrasenya', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Entra' }).click();

      // The list: the section's Catalan name, the count, the buttons, the menu.
      await page.getByRole('heading', { name: 'Entrevistes', exact: true }).waitFor();
      await page.getByText('1 registre', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Persones' }).waitFor();
      await page.getByRole('button', { name: 'Registre nou' }).waitFor();
      // The header says who is logged in, beside "Log out" in Catalan.
      await page.locator('header').getByText('Marta Puig').waitFor();
      await page.getByRole('button', { name: 'Tanca la sessió' }).waitFor();
      await page.getByRole('columnheader', { name: 'Títol' }).waitFor();
      for (const area of ['Història oral', 'Recursos', 'Administració'])
        await page.getByText(area, { exact: true }).waitFor();
      expect(englishIn(await pageText(page))).toEqual([]);

      // A new interview: the form's labels and buttons in Catalan.
      await page.getByRole('button', { name: 'Registre nou' }).click();
      await page.getByRole('heading', { name: /^Entrevistes \d+/ }).waitFor();
      for (const name of ['Historial', 'Duplica', 'Elimina…'])
        await page.getByRole('button', { name }).waitFor();
      await field(page, 'Codi').waitFor();
      await field(page, 'Títol').waitFor();

      // A refusal in Catalan: the code is already another interview's.
      const code = field(page, 'Codi').getByRole('textbox');
      await code.fill('E-001');
      await code.press('Tab');
      await field(page, 'Codi')
        .getByText('«E-001» ja és el valor de Codi d’un altre registre.')
        .first()
        .waitFor();
      await field(page, 'Codi')
        .getByRole('link', { name: `Obre aquest registre (${interview})` })
        .waitFor();
      if (pictures) await screenshot(page, 'ca-refusal');
      expect(englishIn(await pageText(page))).toEqual([]);
    });

    it('keeps the interface language after a reload', async () => {
      await page.reload();
      await page.getByRole('button', { name: 'Tanca la sessió' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ca');
      expect(await page.getByLabel('Llengua de la interfície').inputValue()).toBe('ca');
      expect(englishIn(await pageText(page))).toEqual([]);
    });

    it('edits a translatable field side by side in two languages, each saving in its own', async () => {
      await page.goto(`${origin}/#/edit/oh1/${interview}`);
      await page.getByRole('heading', { name: /^Entrevistes \d+/ }).waitFor();
      await page.getByLabel('Compara amb').selectOption('lg-spa');
      const english = page.locator('.col[data-lang="lg-eng"]');
      const spanish = page.locator('.col[data-lang="lg-spa"]');
      await spanish.getByText('espanyol', { exact: true }).first().waitFor();
      await english.getByText('anglès', { exact: true }).first().waitFor();
      expect(await field(english, 'Títol').getByRole('textbox').first().inputValue()).toBe(
        'The harvest of 1952',
      );

      const englishTitle = field(english, 'Títol').getByRole('textbox').first();
      await englishTitle.fill('The 1952 harvest');
      await englishTitle.press('Tab');
      await field(english, 'Títol').getByText('Desat', { exact: true }).waitFor();
      const spanishTitle = field(spanish, 'Títol').getByRole('textbox').first();
      await spanishTitle.fill('La cosecha de 1952');
      await spanishTitle.press('Tab');
      await field(spanish, 'Títol').getByText('Desat', { exact: true }).waitFor();
      if (pictures) await screenshot(page, 'ca-side-by-side-1366');
      expect(await seriousViolations(page)).toEqual([]);

      const read = async (lang: string) => {
        const answer = await api.post({
          action: 'read',
          source: {
            tipo: 'oh16',
            model: 'component_input_text',
            section_tipo: 'oh1',
            section_id: interview,
            mode: 'edit',
            lang,
          },
        });
        const item = answer.body.data.data.find((d: { tipo: string }) => d.tipo === 'oh16');
        return item.entries.map((e: { value: string }) => e.value);
      };
      expect(await read('lg-eng')).toEqual(['The 1952 harvest']);
      expect(await read('lg-spa')).toEqual(['La cosecha de 1952']);
    });

    it('marks a value shown from another language while the data language has none', async () => {
      await page.getByLabel('Compara amb').selectOption('');
      await page.getByLabel('Llengua de les dades').selectOption('lg-cat');
      const mark = page
        .getByRole('note')
        .filter({ hasText: 'Es mostra en anglès: encara no hi ha valor en català.' });
      await mark.waitFor();
      await mark.getByText('The 1952 harvest').waitFor();
      expect(await field(page, 'Títol').getByRole('textbox').first().inputValue()).toBe('');
      if (pictures) await screenshot(page, 'ca-fallback');
      // The list shows the English title too, marked as English.
      await page.goto(`${origin}/#/list/oh1`);
      await page
        .getByRole('cell', { name: /The 1952 harvest/ })
        .locator('.fallback', { hasText: 'EN' })
        .waitFor();
      await page
        .getByText('Es mostra en anglès: encara no hi ha valor en català.')
        .first()
        .waitFor({ state: 'attached' });
      await page.goto(`${origin}/#/edit/oh1/${interview}`);

      // Once the field has its Catalan value the mark goes.
      const title = field(page, 'Títol').getByRole('textbox').first();
      await title.fill('La collita de 1952');
      await title.press('Tab');
      await field(page, 'Títol').getByText('Desat', { exact: true }).waitFor();
      await mark.waitFor({ state: 'detached' });
    });

    it.runIf(pictures)(
      'takes pictures of the list and the side-by-side form in each language at three widths',
      async () => {
        const names: Record<string, { compare: string; language: string }> = {
          en: { compare: 'Compare with', language: 'Interface language' },
          es: { compare: 'Comparar con', language: 'Idioma de la interfaz' },
          ca: { compare: 'Compara amb', language: 'Llengua de la interfície' },
        };
        await page.getByLabel('Llengua de les dades').selectOption('lg-eng');
        let current = 'ca';
        for (const lang of ['en', 'es', 'ca'] as const) {
          await page.getByLabel(names[current]!.language).selectOption(lang);
          current = lang;
          await page.waitForFunction((l) => document.documentElement.lang === l, lang);
          for (const [w, h] of [
            [1366, 800],
            [1024, 768],
            [390, 844],
          ] as const) {
            await page.setViewportSize({ width: w, height: h });
            await page.goto(`${origin}/#/list/oh1`);
            await page.locator('dd-section-list table').waitFor();
            await screenshot(page, `${lang}-list-${w}`);
            await page.goto(`${origin}/#/edit/oh1/${interview}`);
            await page.getByLabel(names[lang]!.compare).selectOption('lg-spa');
            await page.locator('.col[data-lang="lg-spa"]').first().waitFor();
            await screenshot(page, `${lang}-record-${w}`);
          }
        }
        // Spanish and English screens take their words from their own files too.
        expect((es as Record<string, string>).newRecord).toBe('Nuevo registro');
      },
      120_000,
    );
  });
