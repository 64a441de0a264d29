import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, haveChromium, launchChromium } from '../helpers/client-browser.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

if (!haveChromium) console.warn(`\n[skip] no Chromium at ${CHROMIUM}: the docs browser test is skipped.\n`);

describe.runIf(haveChromium)('docs in a real browser', () => {
  const c = engineCases()[0]!;
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer(c, { BASE_PATH: '/behind/proxy/v2' });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function visit(path: string, rendered: string) {
    const page = await browser.newPage();
    const hosts = new Set<string>();
    page.on('request', (r) => hosts.add(new URL(r.url()).host));
    await page.goto(`${s.base}${path}`);
    await page.getByText(rendered, { exact: false }).first().waitFor({ timeout: 20_000 });
    // Scalar keeps polling, so "network idle" never comes: give late requests a moment instead.
    await page.waitForTimeout(1500);
    await page.close();
    return hosts;
  }

  it('renders the operations in Swagger UI with no request leaving the machine', async () => {
    const hosts = await visit('/docs/swagger', 'A filtered, sorted page of records');
    expect([...hosts]).toEqual([new URL(s.base).host]);
  }, 60_000);

  it('executes the records operation from Swagger UI with "Try it out", for every documented filter form', async () => {
    const page = await browser.newPage();
    await page.goto(`${s.base}/docs/swagger`);
    const op = page.locator('.opblock').filter({ hasText: 'A filtered, sorted page of records' }).first();
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.locator('input[placeholder="db"]').fill(c.db);
    await op.locator('input[placeholder="table"]').fill('interview');
    const filterRow = op.locator('tr[data-param-name="filter"]');
    const examples = filterRow.locator('select');
    const names = await examples
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(names).toEqual(expect.arrayContaining(['eq', 'range', 'like', 'in', 'isNull', 'ne']));
    for (const name of names) {
      await examples.selectOption(name);
      await op.getByRole('button', { name: 'Execute' }).click();
      const status = op.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ timeout: 20_000 });
      expect((await status.innerText()).trim(), name).toBe('200');
      const body = JSON.parse(
        await op.locator('.live-responses-table .response-col_description pre').first().innerText(),
      );
      expect(body.data.length, name).toBeGreaterThan(0);
      // The request Swagger UI built carries the whole filter key, operator included.
      const url = await op.locator('.request-url pre').innerText();
      expect(decodeURIComponent(url), name).toMatch(/filter\[[a-z_]+\](\[[a-z_]+\])?=/);
      await op.getByRole('button', { name: 'Clear' }).click();
    }
    await page.close();
  }, 90_000);

  it('renders the operations in Scalar at /docs/scalar and /docs/scalar/ with no request leaving the machine', async () => {
    for (const path of ['/docs/scalar', '/docs/scalar/']) {
      const hosts = await visit(path, 'Public databases (DB_NAMES)');
      expect(
        [...hosts].filter((h) => h !== ''),
        path,
      ).toEqual([new URL(s.base).host]);
    }
  }, 90_000);

  it('shows Scalar without document validation warnings, developer menus or an authentication box (no API_KEYS)', async () => {
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    });
    await page.goto(`${s.base}/docs/scalar`);
    await page
      .getByText('Public databases (DB_NAMES)', { exact: false })
      .first()
      .waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1500);
    expect(warnings.filter((w) => /validation/i.test(w))).toEqual([]);
    const visible = async (text: string) => {
      const found = await page.getByText(text, { exact: true }).all();
      return (await Promise.all(found.map((l) => l.isVisible()))).filter(Boolean).length;
    };
    for (const text of ['Developer Tools', 'Deploy', 'Authentication'])
      expect(await visible(text), text).toBe(0);
    expect(await visible('Client Libraries')).toBe(1);
    await page.close();
  }, 60_000);

  it('shows no lock icons in Swagger UI when no API key is configured', async () => {
    const page = await browser.newPage();
    await page.goto(`${s.base}/docs/swagger`);
    await page.getByText('A filtered, sorted page of records').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(5);
    expect(await page.locator('.authorization__btn, .btn.authorize').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('reaches both renderers from the landing page links', async () => {
    const page = await browser.newPage();
    await page.goto(`${s.base}/docs`);
    await page.getByRole('link', { name: 'Swagger UI' }).click();
    await page.waitForURL(/\/behind\/proxy\/v2\/docs\/swagger$/);
    await page.goBack();
    await page.getByRole('link', { name: 'Scalar' }).click();
    await page.waitForURL(/\/behind\/proxy\/v2\/docs\/scalar\/$/);
    await page.close();
  }, 60_000);
});
