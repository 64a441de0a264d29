/**
 * The section list's Export menu in Chromium against the real server (PGlite): both links
 * download the current list's records (the plain file with its BOM and the labels of the data
 * language, the Dédalo file with tipos), in English, Spanish and Catalan; screenshots of the open
 * menu at 1280, 1024 and 390 pixels go to test-screenshots/. From 1024 pixels up the list's table
 * fits without scrolling sideways.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import {
  haveChromium,
  logIn,
  newAppPage,
  screenshot,
  seriousViolations,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertRecordValues, text } from '../helpers/work-records.js';
import { startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

warnWithoutChromium('the export menu browser test is');

const ontology = loadOntology();

describe.runIf(haveChromium)('the Export menu of a section list', () => {
  let browser: Browser;
  let s: WorkServerHandle;
  let page: Page;

  beforeAll(async () => {
    browser = await startClientChromium();
    s = await startTestWorkServer(workEngineCases()[0]!);
    for (const [id, code, title] of [
      [1, 'OH-001', 'La guerra'],
      [2, 'OH-002', 'El molí'],
    ] as const) {
      await insertRecordValues(
        s.server.db,
        ontology,
        'oh1',
        id,
        { oh14: [text(code)], oh16: [text(title, 'lg-spa')] },
        [1],
      );
    }
    ({ page } = await newAppPage(browser, { width: 1280, height: 800 }));
    await page.goto(`${new URL(s.server.url).origin}/#/`);
    await logIn(page);
    // Logged in (the session cookie set) before the test navigates and reloads.
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  const downloaded = async (name: string): Promise<{ file: string; bytes: Buffer }> => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name }).click(),
    ]);
    return { file: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
  };

  it('downloads both formats of the list, in the interface and data language', async () => {
    for (const [ui, code, menu, plainLink, dedaloLink, header] of [
      [
        'en',
        'lg-eng',
        'Export',
        'Spreadsheet CSV (labels and values)',
        'Dédalo CSV (to import again)',
        'section_id,Code,Title',
      ],
      [
        'es',
        'lg-spa',
        'Exportar',
        'CSV para hoja de cálculo (etiquetas y valores)',
        'CSV de Dédalo (para volver a importar)',
        'section_id,Código,Título',
      ],
      [
        'ca',
        'lg-cat',
        'Exporta',
        'CSV per a full de càlcul (etiquetes i valors)',
        'CSV de Dédalo (per tornar a importar)',
        'section_id,Codi,Títol',
      ],
    ] as const) {
      await s.server.db.query('UPDATE sessions SET application_lang = $1, data_lang = $1', [code]);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${new URL(s.server.url).origin}/#/list/oh1`);
      await page.reload();
      await page.getByRole('cell', { name: 'OH-002' }).waitFor();
      await page.getByText(menu, { exact: true }).click();
      await page.getByRole('link', { name: plainLink }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      for (const [width, height] of [
        [1280, 800],
        [1024, 768],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `export-menu-${ui}-${width}`);
        // From 1024 px up, the whole list fits beside the menu: its table never scrolls sideways.
        if (width >= 1024)
          expect(
            await page.locator('.table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth),
            `the list's table at ${width} px (${ui})`,
          ).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      const plain = await downloaded(plainLink);
      expect(plain.file).toBe(`oh1-plain-${code.slice(3)}.csv`);
      expect([...plain.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = plain.bytes.toString('utf8').slice(1).split('\r\n');
      expect(lines[0]!.startsWith(header)).toBe(true);
      // The Spanish title in every language: it is the only one the records have.
      expect(lines[2]!.startsWith('2,OH-002,El molí')).toBe(true);
      // The menu closed itself; open it again for the other format.
      await page.getByText(menu, { exact: true }).click();
      const dedalo = await downloaded(dedaloLink);
      expect(dedalo.file).toBe('oh1.csv');
      expect(dedalo.bytes.toString('utf8').split('\n')[0]!.startsWith('section_id;oh14;oh16')).toBe(true);
    }
  }, 120_000);
});
