/**
 * The Import page in Chromium against the real server (PGlite): from the interviews' list, Import
 * opens the page with the section chosen; a spreadsheet CSV's columns are mapped by label (the
 * title in Spanish, the informant found by name); the dry run lists row by row what would be
 * created and the refused row (a date that does not exist) and writes nothing; the run creates the
 * other two, which the list then shows, and offers the refused row as a CSV with its reason; a
 * global admin undoes the import. A cataloguer imports too (no Undo offered), and a file over
 * 3 MiB goes up in chunks before the import reads it. Screenshots of the mapped columns and of the
 * dry run at 1366, 1024 and 390 pixels in English, Spanish and Catalan go to test-screenshots/.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page, Request } from 'playwright-core';
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
import { insertLoginUser } from '../helpers/work-permissions.js';
import { insertRecordValues, text } from '../helpers/work-records.js';
import { startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

warnWithoutChromium('the Import page browser test is');

const ontology = loadOntology();

const CSV = [
  'Code;Title;Interview date;Informant',
  'OH-101;La guerra;1990-05-17;Rosa',
  'OH-102;El molí;2001-02-30;',
  'OH-103;Les eres;1985;',
  '',
].join('\n');

const WIDTHS = [
  [1366, 800],
  [1024, 768],
  [390, 844],
] as const;

describe.runIf(haveChromium)('the Import page', () => {
  let browser: Browser;
  let s: WorkServerHandle;
  let page: Page;

  beforeAll(async () => {
    browser = await startClientChromium();
    s = await startTestWorkServer(workEngineCases()[0]!);
    await insertRecordValues(s.server.db, ontology, 'rsc197', 7, {
      rsc85: [text('Rosa')],
      rsc86: [text('Serra')],
    });
    ({ page } = await newAppPage(browser, { width: 1366, height: 800 }));
    await page.goto(`${new URL(s.server.url).origin}/#/`);
    await logIn(page);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  const codes = async () =>
    (
      await s.server.db.query<{ code: string }>(
        `SELECT string -> 'oh14' -> 0 ->> 'value' AS code FROM matrix WHERE section_tipo = 'oh1' ORDER BY 1`,
      )
    ).rows.map((r) => r.code);

  /** The page with the file chosen and its columns mapped (the title in Spanish, informant by name). */
  async function chooseAndMap(english = true, listShot = '') {
    await page.goto(`${new URL(s.server.url).origin}/#/list/oh1`);
    await page.reload();
    const importLink = page.locator('dd-section-list a[href="#/import/oh1"]');
    await importLink.waitFor();
    if (listShot) {
      // The list's bar with its Import link, on a phone (where the bar wraps).
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, listShot);
      await page.setViewportSize({ width: 1366, height: 800 });
    }
    await importLink.click();
    await page.locator('dd-import input[type=file]').setInputFiles({
      name: 'interviews.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV, 'utf8'),
    });
    // Columns named as the fields' labels are mapped already; the title's language and the
    // informant's key are chosen.
    const field = (column: string) => page.locator(`dd-import select[aria-label$="${column}"]`).first();
    await field('Title').waitFor();
    if (english) {
      expect(await field('Code').inputValue()).toBe('oh14');
      expect(await field('Interview date').inputValue()).toBe('oh29');
    } else {
      await field('Code').selectOption('oh14');
      await field('Title').selectOption('oh16');
      await field('Interview date').selectOption('oh29');
    }
    await field('Informant').selectOption('oh24');
    await page.locator('dd-import select[aria-label*="Informant"]').nth(1).selectOption('key:rsc197:rsc85');
    await page.locator('dd-import select[aria-label*="Title"]').nth(1).selectOption('lg-spa');
  }

  it('tries a spreadsheet CSV (nothing written), imports it, offers the refused row, and a global admin undoes it', async () => {
    await chooseAndMap();
    const page_ = page.locator('dd-import');
    await page_.getByRole('button', { name: 'Try it (nothing is written)' }).click();
    await page_.getByRole('heading', { name: 'What the import would do' }).waitFor();
    // Row by row: lines 2 and 4 would be created, line 3 is refused and says why.
    const rows = page_.locator('table.rows tbody tr');
    expect(await rows.count()).toBe(3);
    expect((await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      '2 Would be created',
      expect.stringMatching(/^3 Refused Interview date: oh29: .*does not exist/),
      '4 Would be created',
    ]);
    await page_.getByLabel('Only refused rows').check();
    expect(await rows.count()).toBe(1);
    expect(await codes()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    await page_.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
    await page_.getByRole('heading', { name: /^Import \d+: what it did$/ }).waitFor();
    expect(await codes()).toEqual(['OH-101', 'OH-103']);
    const { rows: informants } = await s.server.db.query<{ code: string; informant: unknown }>(
      `SELECT string -> 'oh14' -> 0 ->> 'value' AS code, relation -> 'oh24' AS informant
       FROM matrix WHERE section_tipo = 'oh1' ORDER BY 1`,
    );
    // The informant column found Rosa (rsc197 7) by her name; the empty cell linked no one.
    expect(informants[0]!.informant).toEqual([
      expect.objectContaining({ section_tipo: 'rsc197', section_id: 7 }),
    ]);
    expect(informants[1]!.informant ?? []).toEqual([]);
    // Each created row links to its record.
    expect(await page_.locator('table.rows tbody tr a', { hasText: /^record \d+$/ }).count()).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page_.getByRole('link', { name: /Download the refused rows/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('interviews-refused.csv');
    const refused = readFileSync((await download.path())!, 'utf8').split('\n');
    expect(refused[0]).toBe('Code;Title;Interview date;Informant;reason');
    expect(refused[1]).toMatch(/^OH-102;El molí;2001-02-30;;Interview date: /);

    // The list shows the imported records, the informant found by name.
    await page_.getByRole('link', { name: /Open the list of/ }).click();
    await page.getByRole('cell', { name: 'OH-103' }).waitFor();
    expect(await page.getByRole('cell', { name: 'OH-101' }).count()).toBe(1);

    // Undo (root is a global admin): the records go.
    await page.goBack();
    await page.locator('dd-import').getByRole('button', { name: 'Undo this import' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo this import' }).click();
    await page
      .locator('dd-import')
      .getByText(/^Import \d+ undone\.$/)
      .first()
      .waitFor();
    expect(await codes()).toEqual([]);
    // The result keeps its address: a reload shows it again, undone (no second Undo).
    expect(page.url()).toMatch(/#\/imported\/\d+$/);
    await page.reload();
    await page
      .locator('dd-import')
      .getByRole('heading', { name: /^Import \d+: what it did$/ })
      .waitFor();
    await page
      .locator('dd-import')
      .getByText(/^Import \d+ undone\.$/)
      .first()
      .waitFor();
    expect(await page.locator('dd-import').getByRole('button', { name: 'Undo this import' }).count()).toBe(0);
    await screenshot(page, 'import-undone-en-1366');
  }, 120_000);

  it('a cataloguer imports with their own rights and is not offered Undo', async () => {
    await insertLoginUser(s.server.db, 5, {
      username: 'cata',
      password: 'cata password',
      profile: 2,
      projects: [1],
    });
    const { context, page: cata } = await newAppPage(browser, { width: 1366, height: 800 });
    try {
      await cata.goto(`${new URL(s.server.url).origin}/#/list/oh1`);
      await logIn(cata, 'cata', 'cata password');
      await cata.locator('dd-section-list a[href="#/import/oh1"]').click();
      await cata.locator('dd-import input[type=file]').setInputFiles({
        name: 'more.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Code;Title\nOH-201;Per la cataloguer\n', 'utf8'),
      });
      await cata.locator('dd-import select[aria-label$="Title"]').first().waitFor();
      await cata.locator('dd-import').getByRole('button', { name: 'Import', exact: true }).click();
      await cata.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
      await cata
        .locator('dd-import')
        .getByRole('heading', { name: /^Import \d+: what it did$/ })
        .waitFor();
      expect(await codes()).toContain('OH-201');
      await cata
        .locator('dd-import')
        .getByRole('link', { name: /Open the list of/ })
        .waitFor();
      expect(await cata.locator('dd-import').getByRole('button', { name: 'Undo this import' }).count()).toBe(
        0,
      );
    } finally {
      await context.close();
    }
  }, 120_000);

  it('uploads a file over 3 MiB in chunks first and imports it from there', async () => {
    // A code over the field's length limit makes the file big and its row refused.
    const big = ['Code;Title', 'OH-301;Short', `${'x'.repeat(3_300_000)};Too long`, ''].join('\n');
    await page.goto(`${new URL(s.server.url).origin}/#/import/oh1`);
    await page.locator('dd-import input[type=file]').setInputFiles({
      name: 'big.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(big, 'utf8'),
    });
    const page_ = page.locator('dd-import');
    await page_.locator('select[aria-label$="Title"]').first().waitFor();
    // The file's bytes go as multipart chunks (2 MiB each), not inside the import request.
    const uploads: string[] = [];
    const onRequest = (r: Request) => {
      if ((r.headers()['content-type'] ?? '').startsWith('multipart/form-data')) uploads.push(r.url());
    };
    page.on('request', onRequest);
    await page_.getByRole('button', { name: 'Try it (nothing is written)' }).click();
    await page_.getByRole('heading', { name: 'What the import would do' }).waitFor();
    page.off('request', onRequest);
    expect(uploads.length).toBe(2);
    const rows = page_.locator('table.rows tbody tr');
    expect((await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim().slice(0, 40))).toEqual([
      '2 Would be created',
      expect.stringMatching(/^3 Refused Code: /),
    ]);
    expect(await codes()).not.toContain('OH-301');
  }, 120_000);

  it('reads in English, Spanish and Catalan at three widths', async () => {
    for (const [ui, code, tryLabel] of [
      ['en', 'lg-eng', 'Try it (nothing is written)'],
      ['es', 'lg-spa', 'Probar (no se escribe nada)'],
      ['ca', 'lg-cat', 'Prova (no s’escriu res)'],
    ] as const) {
      await s.server.db.query('UPDATE sessions SET application_lang = $1, data_lang = $1', [code]);
      await page.setViewportSize({ width: 1366, height: 800 });
      await chooseAndMap(ui === 'en', `import-list-bar-${ui}-390`);
      for (const [width, height] of WIDTHS) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `import-mapping-${ui}-${width}`);
      }
      await page.setViewportSize({ width: 1366, height: 800 });
      await page.locator('dd-import').getByRole('button', { name: tryLabel }).click();
      await page.locator('dd-import table.rows').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      for (const [width, height] of WIDTHS) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `import-dry-run-${ui}-${width}`);
      }
    }
    await s.server.db.query(`UPDATE sessions SET application_lang = 'lg-eng', data_lang = 'lg-eng'`);
  }, 180_000);
});
