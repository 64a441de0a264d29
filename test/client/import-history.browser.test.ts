/**
 * A record's History after an import, in Chromium against the real server (PGlite): the rows the
 * import wrote say "imported from FILE (import N)" beside who and when, in English, Spanish and
 * Catalan; screenshots at 1366, 1024 and 390 pixels go to test-screenshots/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { rootBrowser, startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

warnWithoutChromium('the import history browser test is');

describe.runIf(haveChromium)('History of an imported record', () => {
  let browser: Browser;
  let s: WorkServerHandle;
  let page: Page;
  let importId: number;

  beforeAll(async () => {
    browser = await startClientChromium();
    s = await startTestWorkServer(workEngineCases()[0]!);
    const root = await rootBrowser(s);
    const answer = await root.post({
      dd_api: 'dd_import_api',
      action: 'import_records',
      options: {
        content: 'section_id;oh14;oh16\n5;OH-005;"{""lg-eng"":[""The mill""],""lg-spa"":[""El molí""]}"\n',
        file_name: 'oh1.csv',
      },
    });
    expect(answer.body.data.counts.created).toBe(1);
    importId = answer.body.data.import_id;
    ({ page } = await newAppPage(browser, { width: 1366, height: 800 }));
    await page.goto(`${new URL(s.server.url).origin}/#/`);
    await logIn(page);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('says which import wrote each value, in the interface language', async () => {
    for (const [ui, code, button, region, origin] of [
      ['en', 'lg-eng', 'History', 'History', `imported from oh1.csv (import ${importId})`],
      ['es', 'lg-spa', 'Historial', 'Historial', `importado de oh1.csv (importación ${importId})`],
      ['ca', 'lg-cat', 'Historial', 'Historial', `importat de oh1.csv (importació ${importId})`],
    ] as const) {
      await s.server.db.query('UPDATE sessions SET application_lang = $1, data_lang = $1', [code]);
      await page.setViewportSize({ width: 1366, height: 800 });
      await page.goto(`${new URL(s.server.url).origin}/#/edit/oh1/5`);
      await page.reload();
      await page.getByRole('button', { name: button, exact: true }).click();
      const history = page.getByRole('region', { name: region });
      await history.getByRole('table').waitFor();
      expect(await history.getByText(origin, { exact: true }).count()).toBeGreaterThanOrEqual(2);
      expect(await seriousViolations(page)).toEqual([]);
      for (const [width, height] of [
        [1366, 800],
        [1024, 768],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `import-history-${ui}-${width}`);
      }
    }
  });
});
