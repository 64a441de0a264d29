/**
 * The maintenance page in Chromium against the real work server (PGlite): a counter left behind
 * by a direct insert is fixed, another user's session is ended, a login lock is lifted, the sweep
 * runs, all through the page's buttons, each checked in the database or over HTTP afterwards.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureClientBuilt,
  haveChromium,
  launchChromium,
  logIn,
  newAppPage,
  screenshot,
  seriousViolations,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

warnWithoutChromium('the maintenance page browser test is');

describe.runIf(haveChromium)('maintenance page against the real server', () => {
  let browser: Browser;
  let s: WorkServerHandle;
  let page: Page;
  let ana: WorkBrowser;
  let drifted: number;

  beforeAll(async () => {
    ensureClientBuilt();
    browser = await launchChromium();
    s = await startTestWorkServer(workEngineCases()[0]!);
    const api = await rootBrowser(s);
    // A record, then one written behind the API's back: the interviews' counter is behind.
    const created = (await api.post({ action: 'create', source: { section_tipo: 'oh1' } })).body
      .data as number;
    drifted = created + 1;
    await s.server.db.query("INSERT INTO matrix (section_tipo, section_id) VALUES ('oh1', $1)", [drifted]);
    // Another user's session to end, and a username locked out from this address.
    await insertLoginUser(s.server.db, 4, { username: 'ana', password: 'ana password', profile: 2 });
    ana = s.browser();
    expect((await ana.login('ana', 'ana password')).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      await s.post({ dd_api: 'dd_utils_api', action: 'login', options: { username: 'bob', auth: 'guess' } });
    }
    ({ page } = await newAppPage(browser, { width: 1280, height: 900 }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('fixes a counter, ends a session, lifts a login lock and runs the sweep', async () => {
    await page.goto(`${new URL(s.server.url).origin}/#/`);
    await logIn(page);
    await page.getByRole('link', { name: 'Maintenance' }).click();

    // Counters: the interviews' row is out of step until fixed.
    const interviews = page.getByRole('row').filter({ hasText: 'oh1' });
    await interviews.getByText('out of step').waitFor();
    // System status, sessions, login locks and the sweep, as the server reports them.
    await page.getByRole('definition').getByText('pglite').waitFor();
    await page.getByRole('button', { name: 'End session of ana' }).waitFor();
    await page.getByRole('button', { name: 'Unlock bob from' }).waitFor();
    await page.getByText('It has not run yet.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'maintenance-real');

    await interviews.getByRole('button', { name: 'Fix Interviews' }).click();
    await page.getByText('Counter of Interviews fixed.').waitFor();
    await interviews.getByText(String(drifted)).first().waitFor();
    // (polled: the row is read again after the message shows)
    await expect.poll(() => interviews.getByText('out of step').count()).toBe(0);
    const { rows } = await s.server.db.query<{ value: number }>(
      "SELECT value FROM matrix_counter WHERE section_tipo = 'oh1'",
    );
    expect(rows[0]!.value).toBe(drifted);

    await page.getByRole('button', { name: 'End session of ana' }).click();
    await page.getByText('Session of ana ended.').waitFor();
    const after = await ana.post({ dd_api: 'dd_utils_api', action: 'get_system_info' });
    expect(after.body.error?.code).toBe('auth.not_logged');

    await page.getByRole('button', { name: 'Unlock bob from' }).click();
    await page.getByText(/Login of bob from .* unlocked\./).waitFor();
    await page.getByText('No login is locked.').waitFor();

    await page.getByRole('button', { name: 'Run the sweep now' }).click();
    await page.getByText(/^Sweep done: removed \d+ expired sessions/).waitFor();
    await page.getByText(/Last run .* \(from this page\)/).waitFor();
  }, 90_000);

  it('shows a maintainer who is not a global administrator what is theirs, and says what is not', async () => {
    await insertProfile(s.server.db, 10, [{ tipo: 'dd88', section_tipo: 'dd88', value: 2 }]);
    await insertLoginUser(s.server.db, 5, { username: 'mona', password: 'mona password', profile: 10 });
    // A browser of its own (no cookie of root's).
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${new URL(s.server.url).origin}/#/`);
    await page.getByLabel('User').fill('mona');
    await page.getByLabel('Password').fill('mona password');
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.getByRole('link', { name: 'Maintenance' }).click();
    await page.getByRole('definition').getByText('pglite').waitFor();
    await page.getByRole('button', { name: 'Run the sweep now' }).waitFor();
    const sessions = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Sessions' }) });
    await sessions.getByText('Only a global administrator sees and changes this.').waitFor();
    expect(await page.getByRole('button', { name: /^End session of/ }).count()).toBe(0);
  }, 60_000);
});
