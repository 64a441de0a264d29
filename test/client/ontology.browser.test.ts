/**
 * The Ontology area of the web client in Debian's Chromium against the real work server (PGlite,
 * to keep the run short; the API suite covers both engines): a global administrator adds a
 * section and a component through the records of the oral-history ontology section (model from
 * its drop-down), the new section appears in the menu without a reload, and a cataloguer, once
 * their profile grants it, catalogues a record in it; the area is not in the cataloguer's menu.
 * Screenshots at 1280, 1024 and 390 px in English, Spanish and Catalan go to test-screenshots/.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  haveChromium,
  logIn,
  newAppPage,
  screenshot,
  screenshotIfFailed,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, setProfileAccess } from '../helpers/work-permissions.js';
import { startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

warnWithoutChromium('the ontology browser tests are');

/** A component element of the record on screen, found by its label. */
const field = (page: Page, model: string, label: string) =>
  page.locator(model).filter({ has: page.locator('.head .label', { hasText: new RegExp(`^${label}$`) }) });

async function savedIn(page: Page, model: string, label: string) {
  await field(page, model, label)
    .getByRole('status')
    .getByText(/^(Saved|Guardado|Desat)$/)
    .waitFor({ timeout: 15_000 });
}

async function typeIn(page: Page, label: string, value: string) {
  const box = field(page, 'component-input-text', label).getByRole('textbox').first();
  await box.fill(value);
  await box.press('Tab');
  await savedIn(page, 'component-input-text', label);
}

describe.runIf(haveChromium)('the Ontology area of the web client', () => {
  let s: WorkServerHandle;
  let browser: Awaited<ReturnType<typeof startClientChromium>>;
  let context: BrowserContext | undefined;
  let page: Page;

  beforeAll(async () => {
    browser = await startClientChromium();
    s = await startTestWorkServer(workEngineCases()[0]!);
    await insertLoginUser(s.server.db, 5, {
      username: 'cata',
      password: 'cataloguer password',
      profile: 2,
      projects: [1],
    });
  }, 120_000);

  afterEach((t) => screenshotIfFailed(t.task, page, 'ontology'));

  afterAll(async () => {
    await context?.close();
    await s?.stop();
    await browser?.close();
  });

  async function openApp(hash: string, username?: string, password?: string, width = 1280, height = 800) {
    await context?.close();
    ({ context, page } = await newAppPage(browser, { width, height }));
    await page.goto(`${new URL(s.server.url).origin}/${hash}`);
    await logIn(page, username, password);
  }

  /** A new record of the oral-history ontology section, opened in edit mode; answers its id. */
  async function newNode(term: string, model: string, parent: string): Promise<number> {
    await page.goto(`${new URL(s.server.url).origin}/#/list/oh0`);
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('heading', { name: /\(oh\) \d+/ }).waitFor();
    const id = Number(/#\/edit\/oh0\/(\d+)/.exec(page.url())?.[1]);
    await typeIn(page, 'Term', term);
    const select = field(page, 'component-input-text', 'Model').getByRole('combobox');
    // The model is chosen from the implemented list.
    expect(await select.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['section', 'section_group', 'component_input_text', 'component_portal']),
    );
    await select.selectOption(model);
    await savedIn(page, 'component-input-text', 'Model');
    await typeIn(page, 'Parent', parent);
    return id;
  }

  it('lets a global admin add a section and a component that a cataloguer then catalogues', async () => {
    await openApp('#/list/oh0');
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Oral history (oh)' }).waitFor();
    await page.getByRole('heading', { name: 'Oral history (oh)' }).waitFor();
    await screenshot(page, 'ontology-list-en-1280');

    const sectionId = await newNode('Places', 'section', 'oh9000');
    // The menu follows without a reload.
    await nav.getByRole('link', { name: 'Places', exact: true }).waitFor();
    await screenshot(page, 'ontology-node-en-1280');
    await newNode('Place name', 'component_input_text', `oh${sectionId}`);
    // Yes/no flags are radio buttons.
    const mandatory = field(page, 'component-radio-button', 'Mandatory');
    await mandatory.getByRole('radio', { name: 'Yes' }).check();
    await savedIn(page, 'component-radio-button', 'Mandatory');

    // The order is a number; the other properties are JSON.
    const order = field(page, 'component-number', 'Order').getByRole('spinbutton');
    await order.fill('3');
    await order.press('Tab');
    await savedIn(page, 'component-number', 'Order');
    const other = field(page, 'component-json', 'Other properties').getByRole('textbox');
    await other.fill('{"css": {"width": "50%"}}');
    await other.press('Tab');
    await savedIn(page, 'component-json', 'Other properties');
    // A broken parent is refused with the reason, and nothing is written.
    const parent = field(page, 'component-input-text', 'Parent').getByRole('textbox').first();
    await parent.fill('oh777');
    await parent.press('Tab');
    await field(page, 'component-input-text', 'Parent')
      .getByText(/missing parent oh777/)
      .waitFor();
    // Back to the stored value: nothing to save, the refusal goes.
    await parent.fill(`oh${sectionId}`);
    await parent.press('Tab');
    await field(page, 'component-input-text', 'Parent')
      .getByText(/missing parent/)
      .waitFor({ state: 'detached' });

    for (const [width, height] of [
      [1024, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `ontology-node-en-${width}`);
    }

    // The cataloguer: no Ontology area; the new section once the profile grants it.
    const section = `oh${sectionId}`;
    const { rows } = await s.server.db.query<{ tipo: string }>(
      `SELECT tipo FROM dd_ontology WHERE parent = $1 AND model = 'component_input_text'`,
      [section],
    );
    await setProfileAccess(s.server.db, 2, [
      { tipo: 'oh9000', section_tipo: 'oh9000', value: 2 },
      { tipo: section, section_tipo: section, value: 2 },
      { tipo: rows[0]!.tipo, section_tipo: section, value: 2 },
    ]);
    await openApp(`#/list/${section}`, 'cata', 'cataloguer password');
    const cataNav = page.getByRole('navigation', { name: 'Sections' });
    await cataNav.getByRole('link', { name: 'Places', exact: true }).waitFor();
    expect(await cataNav.getByText('Ontology').count()).toBe(0);
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('heading', { name: /^Places \d+/ }).waitFor();
    await typeIn(page, 'Place name', 'Ripoll');
    const node = await s.server.db.query<{ order_number: number; properties: unknown }>(
      'SELECT order_number, properties FROM dd_ontology WHERE tipo = $1',
      [rows[0]!.tipo],
    );
    expect(node.rows[0]).toEqual({ order_number: 3, properties: { css: { width: '50%' }, mandatory: true } });
    const stored = await s.server.db.query(
      `SELECT 1 FROM matrix WHERE section_tipo = $1 AND string::text LIKE '%Ripoll%'`,
      [section],
    );
    expect(stored.rows.length).toBe(1);
  });

  it('adds a TLD from its record, and uninstalls it after asking when its sections hold records', async () => {
    await openApp('#/list/ontology2');
    await page.getByRole('heading', { name: 'Ontology TLDs' }).waitFor();
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('heading', { name: /^Ontology TLDs \d+/ }).waitFor();
    await typeIn(page, 'Name', 'Numismatics');
    await typeIn(page, 'TLD', 'numis');
    // Its ontology section appears in the menu without a reload.
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Numismatics (numis)' }).waitFor();
    await screenshot(page, 'ontology-tld-en-1280');
    const tldRecord = page.url();

    await nav.getByRole('link', { name: 'Numismatics (numis)' }).click();
    await page.getByRole('heading', { name: 'Numismatics (numis)' }).waitFor();
    const coinsId = await (async () => {
      await page.getByRole('button', { name: 'New record' }).click();
      await page.getByRole('heading', { name: /\(numis\) \d+/ }).waitFor();
      const id = Number(/#\/edit\/numis0\/(\d+)/.exec(page.url())?.[1]);
      await typeIn(page, 'Term', 'Coins');
      await field(page, 'component-input-text', 'Model').getByRole('combobox').selectOption('section');
      await savedIn(page, 'component-input-text', 'Model');
      await typeIn(page, 'Parent', 'dd1');
      return id;
    })();
    await nav.getByRole('link', { name: 'Coins', exact: true }).click();
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('heading', { name: /^Coins \d+/ }).waitFor();

    // Deleting the TLD's record: the app asks again, naming the records kept.
    await page.goto(tldRecord);
    await page.getByRole('heading', { name: /^Ontology TLDs \d+/ }).waitFor();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('radio', { name: /Delete the record/ }).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('dialog', { name: 'Uninstall the TLD numis?' });
    await ask.getByText('Coins: 1').waitFor();
    await screenshot(page, 'ontology-uninstall-en-1280');
    await ask.getByRole('button', { name: 'Uninstall' }).click();
    await page.getByRole('heading', { name: 'Ontology TLDs', exact: true }).waitFor();
    await nav.getByRole('link', { name: 'Numismatics (numis)' }).waitFor({ state: 'detached' });
    expect(await nav.getByRole('link', { name: 'Coins', exact: true }).count()).toBe(0);
    const kept = await s.server.db.query('SELECT 1 FROM matrix WHERE section_tipo = $1', [`numis${coinsId}`]);
    expect(kept.rows.length).toBe(1);
  });

  it('shows the Ontology area in Spanish and Catalan', async () => {
    for (const [lang, code, area, sections] of [
      ['es', 'lg-spa', 'Ontología', 'Secciones'],
      ['ca', 'lg-cat', 'Ontologia', 'Seccions'],
    ] as const) {
      await openApp('#/edit/oh0/1');
      await page.getByRole('heading', { name: /\(oh\) 1/ }).waitFor();
      await s.server.db.query('UPDATE sessions SET application_lang = $1, data_lang = $1', [code]);
      await page.reload();
      // The whole interface follows the session's language, the menu's name too.
      const nav = page.getByRole('navigation', { name: sections });
      await nav.getByText(area, { exact: true }).waitFor();
      for (const [width, height] of [
        [1280, 800],
        [1024, 768],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `ontology-node-${lang}-${width}`);
      }
    }
  });
});
