/**
 * The client on Dédalo's own core TLD `dd` (the default one replaced while the server runs,
 * test/fixtures/dedalo-dd): the menu shows Dédalo's administration and value lists beside the
 * archive's own areas, and a section the default content never had is opened from the menu, a
 * record created, a field filled and saved. PGlite only (one server per file).
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSEEN_LIST, UNSEEN_LIST_VALUE } from '../fixtures/dedalo-dd/dedalo-dd-nodes.js';
import {
  haveChromium,
  logIn,
  newAppPage,
  screenshot,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { replaceTld } from '../helpers/replace-tld.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

warnWithoutChromium("the client test on Dédalo's dd");

const engine = workEngineCases().find((e) => e.engine === 'pglite')!;
const DUMP = readFileSync(new URL('../fixtures/dedalo-dd/dd.jer_dd.sql', import.meta.url), 'utf8');

describe.runIf(haveChromium)("the client on Dédalo's core TLD dd", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let s: WorkServerHandle;

  beforeAll(async () => {
    browser = await startClientChromium();
    s = await startTestWorkServer(engine);
    await replaceTld(s.server.db, DUMP, 'dd');
    ({ context, page } = await newAppPage(browser));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.stop();
  });

  it('opens an unseen dd section from the menu, creates a record and saves a field', async () => {
    const origin = new URL(s.server.url).origin;
    await page.goto(`${origin}/#/list/oh1`);
    await logIn(page);
    await page.getByRole('heading', { name: 'Interviews', exact: true }).waitFor();
    try {
      for (const link of ['Users', 'Profiles', 'Tools register', 'Temp presets', 'Yes/No', 'Interviews']) {
        await page.getByRole('link', { name: link, exact: true }).waitFor();
      }
      await page.getByText('Value lists', { exact: true }).waitFor();

      await page.getByRole('link', { name: 'Forms of address', exact: true }).click();
      await page.getByRole('heading', { name: 'Forms of address', exact: true }).waitFor();
      await page.getByRole('button', { name: 'New record' }).click();
      await page.getByRole('heading', { name: /^Forms of address \d+/ }).waitFor();
      const id = Number(new RegExp(`#/edit/${UNSEEN_LIST}/(\\d+)`).exec(page.url())?.[1]);
      expect(id).toBeGreaterThan(0);

      const field = page
        .locator('component-input-text')
        .filter({ has: page.locator('.head .label', { hasText: /^Form of address$/ }) });
      await field.getByRole('textbox').fill('Doctora');
      await field.getByRole('textbox').press('Tab');
      await field.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

      const { rows } = await s.server.db.query<{ value: string }>(
        `SELECT string -> $1::text -> 0 ->> 'value' AS value FROM matrix WHERE section_tipo = $2 AND section_id = $3`,
        [UNSEEN_LIST_VALUE, UNSEEN_LIST, id],
      );
      expect(rows[0]?.value).toBe('Doctora');
    } catch (err) {
      await screenshot(page, 'failed-dedalo-dd').catch(() => {});
      throw err;
    }
  }, 90_000);
});
