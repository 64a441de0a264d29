/**
 * The client on a plain-http address that is not localhost (an intranet server reached as
 * http://archive.example:3000/): the browser treats such a page as not secure, and a few Web APIs
 * (crypto.randomUUID among them) do not exist there. Duplicate and delete must still work.
 * Chromium resolves the made-up name to 127.0.0.1, so the page really is a non-secure origin.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  ensureClientBuilt,
  haveChromium,
  logIn,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

warnWithoutChromium('the plain-http client test');

const engine = workEngineCases().find((e) => e.engine === 'pglite')!;
const HOST = 'archive.example';

describe.runIf(haveChromium)('the client on a plain-http intranet address', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let s: WorkServerHandle;
  let api: WorkBrowser;

  beforeAll(async () => {
    ensureClientBuilt();
    s = await startTestWorkServer(engine);
    api = await rootBrowser(s);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      ],
    });
    context = await browser.newContext();
    page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
  });

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('duplicates and deletes a record where crypto.randomUUID does not exist', async () => {
    const id = (await api.post({ action: 'create', source: { section_tipo: 'oh1' } })).body.data as number;
    const port = new URL(s.server.url).port;
    await page.goto(`http://${HOST}:${port}/#/edit/oh1/${id}`);
    expect(await page.evaluate(() => [window.isSecureContext, typeof crypto.randomUUID])).toEqual([
      false,
      'undefined',
    ]);
    await logIn(page);
    await page.getByRole('heading', { name: `Interviews ${id}`, exact: true }).waitFor();

    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL((url) => /#\/edit\/oh1\/\d+$/.test(url.hash) && !url.hash.endsWith(`/${id}`));
    const copy = Number(/#\/edit\/oh1\/(\d+)/.exec(page.url())?.[1]);
    expect(copy).toBeGreaterThan(id);

    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/Delete the record/).check();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'Interviews', exact: true }).waitFor();
    const left = await s.server.db.query<{ section_id: number }>(
      `SELECT section_id FROM matrix WHERE section_tipo = 'oh1' AND section_id = ANY($1::integer[]) ORDER BY section_id`,
      [[id, copy]],
    );
    expect(left.rows.map((r) => Number(r.section_id))).toEqual([id]);
  }, 60_000);
});
