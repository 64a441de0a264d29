/**
 * The default Cataloguer in the web client (issue 25 §5), in Chromium against the real work server
 * on PGlite and PostgreSQL: a fresh install's Cataloguer creates an interview, sets Publishable
 * (the Yes/No options have their names), sees the project by its name (not "#1"), and is offered
 * neither Publish nor Publish section (publishing needs level 3); once an administrator gives the
 * profile level 3 on interviews, Publish is offered and its outcome is told in words.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

warnWithoutChromium('the Cataloguer browser tests are');

const PASSWORD = 'cataloguer password';

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

for (const engine of workEngineCases()) {
  describe.runIf(haveChromium)(`the default Cataloguer on ${engine.engine}`, () => {
    let s: WorkServerHandle;
    let root: WorkBrowser;
    let context: BrowserContext;
    let page: Page;
    let interview: number;

    beforeAll(async () => {
      s = await startTestWorkServer(engine);
      root = await rootBrowser(s);
      // Profile 2 is the default Cataloguer, project 1 the default project.
      await insertLoginUser(s.server.db, 5, {
        username: 'anna',
        password: PASSWORD,
        fullName: 'Anna Puig',
        profile: 2,
        projects: [1],
      });
      ({ context, page } = await newAppPage(browser, { width: 1366, height: 800 }));
      await page.goto(`${new URL(s.server.url).origin}/#/list/oh1`);
      await logIn(page, 'anna', PASSWORD);
      await page.getByRole('heading', { name: 'Interviews', exact: true }).waitFor();
    }, 120_000);

    afterEach((t) => screenshotIfFailed(t.task, page, `cataloguer-${engine.engine}`));

    afterAll(async () => {
      await context?.close();
      await s?.stop();
    });

    /** The screen's question "what may I publish here?" has been answered. */
    const diffusionInfo = () =>
      page.waitForResponse((r) => r.request().postData()?.includes('"get_diffusion_info"') === true);

    it('creates an interview, sets Publishable, sees the project by name, and is offered no Publish', async () => {
      const listAsked = diffusionInfo();
      await page.reload();
      await listAsked;
      await page.getByRole('button', { name: 'New record' }).waitFor();
      expect(await page.getByRole('button', { name: 'Publish section' }).count()).toBe(0);
      const recordAsked = diffusionInfo();
      await page.getByRole('button', { name: 'New record' }).click();
      await recordAsked;
      const heading = page.getByRole('heading', { name: /^Interviews \d+/ });
      await heading.waitFor();
      interview = Number(/Interviews (\d+)/.exec(await heading.innerText())![1]);

      const publishable = field(page, 'component-radio-button', 'Publishable');
      await publishable.getByLabel('Yes').check();
      await publishable.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
      await field(page, 'component-filter', 'Projects').getByLabel('Default project').waitFor();
      expect(await field(page, 'component-filter', 'Projects').getByText('#1').count()).toBe(0);
      // The toolbar is drawn, and there is no Publish in it.
      await page.getByRole('button', { name: 'Duplicate' }).waitFor();
      expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
      await screenshot(page, 'cataloguer-interview-en-1366');

      const stored = await root.post({
        action: 'read',
        source: {
          tipo: 'oh32',
          model: 'component_radio_button',
          section_tipo: 'oh1',
          section_id: interview,
          mode: 'edit',
          lang: 'lg-nolan',
        },
      });
      const item = stored.body.data.data.find((d: { tipo: string }) => d.tipo === 'oh32');
      expect(item.entries.map((l: { section_id: number }) => Number(l.section_id))).toEqual([1]);
    });

    it('is offered Publish once the profile has level 3 on interviews, and told the outcome in words', async () => {
      const profile = await root.post({
        action: 'read',
        source: {
          tipo: 'dd774',
          model: 'component_security_access',
          section_tipo: 'dd234',
          section_id: 2,
          mode: 'edit',
          lang: 'lg-nolan',
        },
      });
      const access = profile.body.data.data.find((d: { tipo: string }) => d.tipo === 'dd774');
      const items = (access.entries as { tipo: string; section_tipo: string; value: number }[]).map((i) =>
        i.section_tipo === 'oh1' && i.tipo === 'oh1' ? { ...i, value: 3 } : i,
      );
      const saved = await root.post({
        action: 'save',
        source: { section_tipo: 'dd234', section_id: 2, tipo: 'dd774', lang: 'lg-nolan' },
        data: { changed_data: [{ action: 'set_data', value: items }] },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      await page.reload();
      await page.getByRole('heading', { name: `Interviews ${interview}` }).waitFor();
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByText('Published to test: 1 record published, 0 removed.').waitFor();
      // A whole section is still for global administrators.
      const listAsked = diffusionInfo();
      await page.getByRole('link', { name: '← Interviews' }).click();
      await listAsked;
      await page.getByRole('button', { name: 'New record' }).waitFor();
      expect(await page.getByRole('button', { name: 'Publish section' }).count()).toBe(0);
    });
  });
}
