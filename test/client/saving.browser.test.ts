/**
 * "A save must never silently overwrite newer work" (issue 21 §1), the client side, in Debian's
 * Chromium against the real work server (PGlite): the editor shows the last saved value after
 * History / Publish re-render the record, the history follows the record on screen, a stale save
 * shows both values (mine / theirs), a released lock refreshes the field, and typing kept while
 * the server is away is retried, restored after a reload and announced in the app chrome; the
 * transcription editor keeps every keystroke (a property test over random edit sequences).
 *
 * - The 409 `record.stale_write` conflicts are real: someone saves the field on the server after
 *   the page read it (through the API, or a second browser), then the page saves.
 * - PROPERTY_RUNS=n raises the property test's runs (25 by default).
 * - SAVING_SHOTS_DIR=/tmp/shots writes screenshots of the conflict and the unsaved banner.
 */
import fc from 'fast-check';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  clearFailureScreenshots,
  ensureClientBuilt,
  haveChromium,
  launchChromium,
  screenshotIfFailed,
} from '../helpers/client-browser.js';
import { updateNode } from '../helpers/ontology-edits.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
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

  async function openApp(hash: string, width = 1280, heading = /^Interviews \d+/) {
    await context?.close();
    context = await browser.newContext({ viewport: { width, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await page.goto(`${origin()}/${hash}`);
    await logIn(page);
    await page.getByRole('heading', { name: heading }).waitFor();
  }

  let secondUser: { username: string; password: string } | undefined;
  /** A second user with the Admin profile (a user's own locks never block them). */
  async function ensureSecondUser() {
    if (secondUser) return secondUser;
    await api.login('root', TEST_ROOT_PASSWORD);
    const user = await api.post({ action: 'create', source: { section_tipo: 'dd128' } });
    const uid = user.body.data as number;
    const saves: [string, unknown][] = [
      ['dd132', { action: 'insert', value: { id: null, lang: 'lg-nolan', value: 'ana' } }],
      ['dd133', { action: 'insert', value: { id: null, lang: 'lg-nolan', value: 'ana password' } }],
      ['dd452', { action: 'insert', value: { id: null, lang: 'lg-nolan', value: 'Ana Pérez' } }],
      ['dd1725', { action: 'set_data', value: [{ section_tipo: 'dd234', section_id: 1 }] }],
      ['dd131', { action: 'set_data', value: [{ section_tipo: 'dd64', section_id: 1 }] }],
      ['dd170', { action: 'set_data', value: [{ section_tipo: 'dd153', section_id: 1 }] }],
    ];
    for (const [tipo, change] of saves) {
      const saved = await api.post({
        action: 'save',
        source: { section_tipo: 'dd128', section_id: uid, tipo, lang: 'lg-nolan' },
        data: { changed_data: [change] },
      });
      expect(saved.body.ok).toBe(true);
    }
    secondUser = { username: 'ana', password: 'ana password' };
    return secondUser;
  }

  /** Another person's browser on `hash`, logged in as the second user. */
  async function otherBrowser(hash: string): Promise<{ ctx: BrowserContext; other: Page }> {
    const user = await ensureSecondUser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const other = await ctx.newPage();
    await other.goto(`${origin()}/${hash}`);
    await logIn(other, user.username, user.password);
    await other.getByRole('heading', { name: /^Interviews \d+/ }).waitFor();
    return { ctx, other };
  }

  beforeAll(async () => {
    ensureClientBuilt();
    clearFailureScreenshots();
    browser = await launchChromium();
    s = await startTestWorkServer(engine);
    // These tests type the same codes into many interviews: the code's `unique` rule (its own
    // tests: ontology-follow) is lifted here, as an operator can.
    await updateNode(s.server.db, 'oh14', { properties: null });
    api = s.browser();
    await api.login('root', TEST_ROOT_PASSWORD);
  }, 120_000);

  afterEach((t) => screenshotIfFailed(t.task, page, 'saving'));

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

  it('typing after leaving a field is not replaced by the echo of its earlier save', async () => {
    const id = await newInterview('ORIG');
    await openApp(`#/edit/oh1/${id}`);
    // The first save is answered only once the person typed on.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let saves = 0;
    await page.route('**/json', async (route) => {
      if (route.request().postDataJSON?.()?.action === 'save' && ++saves === 1) await held;
      await route.fallback();
    });
    await code(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type('-1');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('End');
    await page.keyboard.type('-2');
    release();
    await savedIn(page);
    expect(await code(page).inputValue()).toBe('ORIG-1-2');
    await page.keyboard.press('Tab');
    await expect.poll(() => storedCode(id)).toBe('ORIG-1-2');
  }, 60_000);

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

  /** Read answers with a `version` on Code, and the saves the page sends, for the 409 tests. */
  async function withVersions(p: Page, version: number) {
    const saves: { data: { version?: number; changed_data: unknown[] } }[] = [];
    await p.route('**/json', async (route) => {
      const body = route.request().postDataJSON?.();
      if (body?.action === 'read') {
        const answer = await route.fetch();
        const json = await answer.json();
        for (const d of json?.data?.data ?? []) if (d.tipo === 'oh14') d.version = version;
        await route.fulfill({ response: answer, json });
        return;
      }
      if (body?.action === 'save') saves.push(body);
      await route.fallback();
    });
    return saves;
  }

  /** The next save of Code is answered 409 record.stale_write, as the server's contract says. */
  async function answerStaleOnce(p: Page, id: number, theirs: string, currentVersion: number) {
    const refused: unknown[] = [];
    const handler = async (route: import('playwright-core').Route) => {
      const body = route.request().postDataJSON?.();
      if (body?.action !== 'save' || refused.length > 0) return route.fallback();
      refused.push(body);
      await route.fulfill({
        status: 409,
        json: {
          ok: false,
          request_id: 'test',
          error: {
            code: 'record.stale_write',
            message: 'Ana Pérez (ana) changed this field at 10:02; your change was made on an older value.',
            retryable: false,
            details: {
              section_tipo: 'oh1',
              section_id: id,
              tipo: 'oh14',
              lang: 'lg-nolan',
              your_version: body.data.version,
              current_version: currentVersion,
              changed_by: { user_id: 2, username: 'ana', full_username: 'Ana Pérez' },
              changed_at: new Date().toISOString(),
              current_value: {
                tipo: 'oh14',
                section_tipo: 'oh1',
                section_id: id,
                lang: 'lg-nolan',
                entries: [{ id: 1, lang: 'lg-nolan', value: theirs }],
                version: currentVersion,
              },
            },
          },
        },
      });
    };
    await p.route('**/json', handler);
    return refused;
  }

  /**
   * Someone else (root, through the API, naming no version: the stock client's last-write-wins)
   * saves Code after the page was read: the page's next save of Code is really stale.
   */
  async function saveCodeBehindThePage(id: number, value: string) {
    const saved = await api.post({
      action: 'save',
      source: { section_tipo: 'oh1', section_id: id, tipo: 'oh14', lang: 'lg-nolan' },
      data: { changed_data: [{ action: 'update', key: 0, value: { id: 1, lang: 'lg-nolan', value } }] },
    });
    expect(saved.body.ok).toBe(true);
  }

  /**
   * The page's saves of Code and the server's answers to them, in order. A save is recorded once
   * its answer's body is read, which may be after the page has shown it: poll the length.
   */
  function recordSaves(p: Page) {
    const saves: { version?: number; status: number; current_version?: number }[] = [];
    p.on('response', async (response) => {
      const body = response.request().postDataJSON?.();
      if (body?.action !== 'save' || body?.source?.tipo !== 'oh14') return;
      const json = await response.json().catch(() => undefined);
      saves.push({
        version: body.data?.version,
        status: response.status(),
        current_version: json?.error?.details?.current_version,
      });
    });
    return saves;
  }

  it('a stale save shows both values; "Keep mine" saves mine over the version the conflict named', async () => {
    const id = await newInterview('ORIG');
    await openApp(`#/edit/oh1/${id}`);
    const saves = recordSaves(page);
    await saveCodeBehindThePage(id, 'THEIRS');
    await code(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type('-MINE');
    await page.keyboard.press('Tab');
    const dialog = page.getByRole('alertdialog', { name: 'Code: someone else saved this field' });
    await dialog.waitFor();
    expect(await dialog.locator('figure.theirs').innerText()).toMatch(/Theirs \(.*root.*\)\s+THEIRS/);
    expect(await dialog.locator('figure.mine').innerText()).toContain('ORIG-MINE');
    expect(await storedCode(id)).toBe('THEIRS');
    await expect.poll(() => saves.length).toBe(1);
    expect(saves[0]).toMatchObject({ status: 409 });
    expect(typeof saves[0]!.version).toBe('number');
    expect(saves[0]!.current_version).toBeGreaterThan(saves[0]!.version!);
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await savedIn(page);
    await expect.poll(() => saves.length).toBe(2);
    expect(saves[1]).toMatchObject({ status: 200, version: saves[0]!.current_version });
    expect(await storedCode(id)).toBe('ORIG-MINE');
    await dialog.waitFor({ state: 'detached' });
  }, 60_000);

  it('a stale save: "Take theirs" shows their value and saves nothing', async () => {
    const id = await newInterview('ORIG');
    await openApp(`#/edit/oh1/${id}`);
    const saves = recordSaves(page);
    await saveCodeBehindThePage(id, 'THEIRS');
    await code(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type('-MINE');
    await page.keyboard.press('Tab');
    const dialog = page.getByRole('alertdialog', { name: 'Code: someone else saved this field' });
    await dialog.getByRole('button', { name: 'Take theirs' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await code(page).inputValue()).toBe('THEIRS');
    // The refused save only: nothing saved after the choice.
    expect(saves.map((x) => x.status)).toEqual([409]);
    expect(await storedCode(id)).toBe('THEIRS');
    // Nothing is left waiting: no banner, no warning on leaving.
    expect(await page.getByRole('region', { name: /not saved/ }).count()).toBe(0);
  }, 60_000);

  it('a released lock refreshes the field of whoever waited on it (their value, then editable)', async () => {
    const id = await newInterview('ORIG');
    await openApp(`#/edit/oh1/${id}`);
    const { ctx, other } = await otherBrowser(`#/edit/oh1/${id}`);
    try {
      // Root takes the lock on Code and types.
      await code(page).click();
      await page.keyboard.press('End');
      await page.keyboard.type('-ROOT');
      // Ana focuses the same field: read-only, root's name.
      await code(other).focus();
      await field(other, 'component-input-text', 'Code').getByRole('note').waitFor();
      expect(await code(other).getAttribute('readonly')).not.toBeNull();
      // Root leaves the field (saved, lock released): Ana's field shows root's value and opens.
      await page.keyboard.press('Tab');
      await savedIn(page);
      await page.getByRole('button', { name: 'History', exact: true }).focus();
      await expect.poll(() => code(other).inputValue(), { timeout: 15_000 }).toBe('ORIG-ROOT');
      await field(other, 'component-input-text', 'Code').getByRole('note').waitFor({ state: 'detached' });
      expect(await code(other).getAttribute('readonly')).toBeNull();
      await other.keyboard.press('End');
      await other.keyboard.type('-ANA');
      await other.keyboard.press('Tab');
      await savedIn(other);
      expect(await storedCode(id)).toBe('ORIG-ROOT-ANA');
    } finally {
      await ctx.close();
    }
  }, 60_000);

  /*
   * RUN AFTER MERGING BRANCH `stale` (per-component versions on the server). Until then read
   * answers carry no `version` and this test skips itself, saying so.
   */
  it('two people, one field: the second save sees the conflict and the first text is kept', async () => {
    const id = await newInterview('ORIG');
    // B's page is loaded (ORIG, its version) before A saves.
    const { ctx, other } = await otherBrowser(`#/edit/oh1/${id}`);
    try {
      await openApp(`#/edit/oh1/${id}`);
      await code(page).click();
      await page.keyboard.press('End');
      await page.keyboard.type('-A');
      await page.keyboard.press('Tab');
      await savedIn(page);
      await page.getByRole('button', { name: 'History', exact: true }).focus();
      // A's lock is released (A left the field); B edits the same field from the old value.
      await code(other).click();
      await other.keyboard.press('End');
      await other.keyboard.type('-B');
      await other.keyboard.press('Tab');
      const dialog = other.getByRole('alertdialog', { name: 'Code: someone else saved this field' });
      await dialog.waitFor({ timeout: 15_000 });
      expect(await dialog.locator('figure.theirs').innerText()).toContain('ORIG-A');
      expect(await dialog.locator('figure.mine').innerText()).toContain('ORIG-B');
      expect(await storedCode(id)).toBe('ORIG-A');
      await dialog.getByRole('button', { name: 'Take theirs' }).click();
      expect(await code(other).inputValue()).toBe('ORIG-A');
      expect(await storedCode(id)).toBe('ORIG-A');
    } finally {
      await ctx.close();
    }
  }, 90_000);

  describe('the server away', () => {
    let proxy: TcpProxy;
    /** The app through a TCP proxy that the test closes (server away) and opens again. */
    async function openThroughProxy(hash: string, heading = /^Interviews \d+/) {
      const target = new URL(s.server.url);
      proxy = new TcpProxy(target.hostname, Number(target.port));
      await proxy.open();
      await context?.close();
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      page.on('pageerror', (err) => {
        throw err;
      });
      await page.goto(`http://127.0.0.1:${proxy.port}/${hash}`);
      await logIn(page);
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    const banner = () => page.getByRole('region', { name: /changes? not saved$/ });
    const kept = () =>
      page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('dd-pending:')).length);

    afterEach(async () => {
      await proxy?.close();
    });

    it('a save that cannot reach the server is kept, announced once, and saved on its own when it is back', async () => {
      const id = await newInterview('ORIG');
      await openThroughProxy(`#/edit/oh1/${id}`);
      await proxy.close();
      await code(page).click();
      await page.keyboard.press('End');
      await page.keyboard.type('-AWAY');
      await page.keyboard.press('Tab');
      await field(page, 'component-input-text', 'Code')
        .getByRole('status')
        .getByText(/^Not saved yet: the server cannot be reached/)
        .waitFor();
      await banner().getByText('1 change not saved').waitFor();
      await banner().getByRole('button', { name: 'Retry' }).waitFor();
      expect(await kept()).toBe(1);
      expect(await storedCode(id)).toBe('ORIG');
      // Retry while still away: still kept, still one change.
      await banner().getByRole('button', { name: 'Retry' }).click();
      await banner().getByRole('button', { name: 'Retry' }).waitFor();
      expect(await kept()).toBe(1);
      // The server answers again: saved without anyone clicking (the back-off's next attempt).
      await proxy.open();
      await savedIn(page);
      await banner().waitFor({ state: 'detached' });
      expect(await storedCode(id)).toBe('ORIG-AWAY');
      expect(await kept()).toBe(0);
      // The record re-rendered (History) still shows the value the retry saved.
      await page.getByRole('button', { name: 'History', exact: true }).click();
      await page.getByRole('region', { name: 'History' }).getByRole('table').waitFor();
      expect(await code(page).inputValue()).toBe('ORIG-AWAY');
    }, 60_000);

    it('a name saved by the retry of a kept save brings the computed full name along', async () => {
      await api.login('root', TEST_ROOT_PASSWORD);
      const person = (await api.post({ action: 'create', source: { section_tipo: 'rsc197' } })).body
        .data as number;
      await openThroughProxy(`#/edit/rsc197/${person}`, new RegExp(`^People ${person}`));
      const fullName = field(page, 'component-input-text', 'Full name').getByRole('textbox');
      await proxy.close();
      await field(page, 'component-input-text', 'Name').getByRole('textbox').first().fill('Mercè');
      await page.keyboard.press('Tab');
      await banner().getByText('1 change not saved').waitFor();
      expect(await fullName.inputValue()).toBe('');
      // Saved by the back-off's next attempt, not by this screen's own save call.
      await proxy.open();
      await savedIn(page, 'Name');
      await expect.poll(() => fullName.inputValue(), { timeout: 10_000 }).toBe('Mercè');
    }, 60_000);

    it('typing kept in the tab survives a reload: back in its field, marked not saved, then saved', async () => {
      const id = await newInterview('ORIG');
      await openThroughProxy(`#/edit/oh1/${id}`);
      // Typing, the field not left yet: leaving the page asks first.
      await code(page).click();
      await page.keyboard.press('End');
      await page.keyboard.type('-DRAFT');
      const asked: string[] = [];
      page.once('dialog', (d) => {
        asked.push(d.type());
        void d.accept();
      });
      // Saves do not get through after the reload (the server answers pages, not saves).
      await page.route('**/json', (route) =>
        route.request().postDataJSON?.()?.action === 'save'
          ? route.abort('connectionrefused')
          : route.fallback(),
      );
      await page.reload();
      expect(asked).toEqual(['beforeunload']);
      await page.getByRole('heading', { name: /^Interviews \d+/ }).waitFor();
      expect(await code(page).inputValue()).toBe('ORIG-DRAFT');
      await field(page, 'component-input-text', 'Code')
        .getByRole('status')
        .getByText(/^Not saved yet/)
        .waitFor();
      await banner().getByText('1 change not saved').waitFor();
      expect(await storedCode(id)).toBe('ORIG');
      // Saves get through again: Retry saves it.
      await page.unroute('**/json');
      await banner().getByRole('button', { name: 'Retry' }).click();
      await banner().waitFor({ state: 'detached' });
      await expect.poll(() => storedCode(id)).toBe('ORIG-DRAFT');
      await field(page, 'component-input-text', 'Code').getByRole('status').getByText('Saved').waitFor();
      // Nothing left: leaving asks nothing.
      page.once('dialog', (d) => {
        asked.push(d.type());
        void d.accept();
      });
      await page.reload();
      await page.getByRole('heading', { name: /^Interviews \d+/ }).waitFor();
      expect(asked).toEqual(['beforeunload']);
      expect(await code(page).inputValue()).toBe('ORIG-DRAFT');
    }, 60_000);

    it('closing a tab with typing not saved asks first', async () => {
      const id = await newInterview('ORIG');
      await openThroughProxy(`#/edit/oh1/${id}`);
      await code(page).click();
      await page.keyboard.press('End');
      await page.keyboard.type('-X');
      const asked: string[] = [];
      page.once('dialog', (d) => {
        asked.push(d.type());
        void d.dismiss();
      });
      await page.close({ runBeforeUnload: true });
      await expect.poll(() => asked).toEqual(['beforeunload']);
      expect(page.isClosed()).toBe(false);
    }, 60_000);
  });

  describe('the transcription editor keeps every keystroke', () => {
    // A transcription (rsc36 of an audiovisual record): only a text that holds Dédalo's tags
    // offers the timecode tool; the interview's Abstract is a plain text.
    const transcription = () => field(page, 'component-text-area', 'Transcription');
    const box = () => transcription().getByRole('textbox', { name: 'Transcription' });

    async function newAudiovisual(): Promise<number> {
      await api.login('root', TEST_ROOT_PASSWORD);
      return (await api.post({ action: 'create', source: { section_tipo: 'rsc167' } })).body.data as number;
    }

    async function openTranscription(id: number) {
      await page.goto(`${origin()}/#/edit/rsc167/${id}`);
      await page.getByRole('heading', { name: new RegExp(`^Audiovisual ${id}`) }).waitFor();
    }

    /** The stored transcription (rsc36, English) of an audiovisual record. */
    async function storedTranscription(id: number): Promise<string | undefined> {
      const answer = await api.post({
        action: 'read',
        source: {
          tipo: 'rsc36',
          model: 'component_text_area',
          section_tipo: 'rsc167',
          section_id: id,
          mode: 'edit',
          lang: 'lg-eng',
        },
      });
      const item = (answer.body.data?.data ?? []).find((d: { tipo: string }) => d.tipo === 'rsc36');
      return item?.entries?.[0]?.value;
    }

    async function insertTimecode(tc: string) {
      await transcription().getByRole('textbox', { name: 'Timecode to insert (00:01:30)' }).fill(tc);
      await transcription().getByRole('button', { name: 'Insert timecode' }).click();
    }

    async function clickBlankAfterText() {
      const b = await box().boundingBox();
      await page.mouse.click(b!.x + b!.width - 12, b!.y + b!.height - 12);
    }

    it('typing after a chip, in the blank area of the box, is saved; the next timecode is not nested', async () => {
      const id = await newAudiovisual();
      await openApp(`#/edit/rsc167/${id}`, 1280, new RegExp(`^Audiovisual ${id}`));
      await box().click();
      await page.keyboard.type('At the mill ');
      await insertTimecode('0:05');
      await clickBlankAfterText();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('later');
      await insertTimecode('0:10');
      await page.getByRole('button', { name: 'History', exact: true }).focus();
      const want = 'At the mill [TC_00:00:05.000_TC]later[TC_00:00:10.000_TC]';
      await expect.poll(() => storedTranscription(id), { timeout: 15_000 }).toBe(want);
    }, 60_000);

    type Action =
      | { kind: 'text'; text: string; fx: number; fy: number }
      | { kind: 'tc'; fx: number; fy: number }
      | { kind: 'click'; fx: number; fy: number }
      | { kind: 'key'; key: string; fx: number; fy: number }
      | { kind: 'backspace'; fx: number; fy: number };
    const frac = fc.double({ min: 0.02, max: 0.98, noNaN: true });
    const action: fc.Arbitrary<Action> = fc.oneof(
      fc.record({
        kind: fc.constant('text' as const),
        text: fc.stringMatching(/^[a-z ]{1,5}$/),
        fx: frac,
        fy: frac,
      }),
      fc.record({ kind: fc.constant('tc' as const), fx: frac, fy: frac }),
      fc.record({ kind: fc.constant('click' as const), fx: frac, fy: frac }),
      fc.record({
        kind: fc.constant('key' as const),
        key: fc.constantFrom('Control+End', 'Control+Home', 'ArrowLeft', 'ArrowRight', 'Home', 'End'),
        fx: frac,
        fy: frac,
      }),
      fc.record({ kind: fc.constant('backspace' as const), fx: frac, fy: frac }),
    );

    /** The editor's text and the caret as an offset in it (a caret in a chip counts as after it). */
    const editorState = () =>
      box().evaluate((surface) => {
        const ser = (root: Node): string => {
          let out = '';
          const walk = (n: Node) => {
            if (n.nodeType === Node.TEXT_NODE) out += n.nodeValue ?? '';
            else if (n instanceof HTMLElement && n.dataset.raw !== undefined) out += n.dataset.raw;
            else if (n instanceof HTMLElement && n.tagName === 'BR') out += n.nextSibling ? '\n' : '';
            else n.childNodes.forEach(walk);
          };
          root.childNodes.forEach(walk);
          return out;
        };
        const root = surface.getRootNode() as ShadowRoot & { getSelection(): Selection };
        const sel = root.getSelection();
        const upTo = (node: Node, offset: number) => {
          const r = document.createRange();
          r.setStart(surface, 0);
          r.setEnd(node, offset);
          return ser(r.cloneContents());
        };
        const range = sel.rangeCount > 0 ? sel.getRangeAt(0) : undefined;
        const inside = range !== undefined && surface.contains(range.startContainer);
        return {
          // What the editor will save (its own reading of the surface).
          text: (root.host as HTMLElement & { currentValue: string }).currentValue,
          start: inside ? upTo(range.startContainer, range.startOffset) : undefined,
          end: inside ? upTo(range.endContainer, range.endOffset) : undefined,
          focused: root.activeElement === surface,
        };
      }) as Promise<{ text: string; start?: string; end?: string; focused: boolean }>;

    it('property: over random edit sequences, what was typed is what the server stores', async () => {
      const first = await newAudiovisual();
      await openApp(`#/edit/rsc167/${first}`, 1280, new RegExp(`^Audiovisual ${first}`));
      const starts = ['', 'Hola que tal', 'Antes [TC_00:00:01.000_TC]', '[TC_00:00:02.000_TC] luego'];
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...starts),
          fc.array(action, { minLength: 1, maxLength: 10 }),
          async (start, actions) => {
            const id = await newAudiovisual();
            if (start) {
              const saved = await api.post({
                action: 'save',
                source: { section_tipo: 'rsc167', section_id: id, tipo: 'rsc36', lang: 'lg-eng' },
                data: {
                  changed_data: [{ action: 'insert', value: { id: null, lang: 'lg-eng', value: start } }],
                },
              });
              expect(saved.body.ok).toBe(true);
            }
            await openTranscription(id);
            await expect.poll(async () => (await editorState()).text).toBe(start);
            let model = start;
            let tcs = 0;
            const clickAt = async (fx: number, fy: number) => {
              // Where the person can see it: the form may have grown below or above the box.
              await box().scrollIntoViewIfNeeded();
              const b = (await box().boundingBox())!;
              await page.mouse.click(b.x + b.width * fx, b.y + b.height * fy);
            };
            /** The selection as offsets in the model (a caret in a chip, or a click on one, is after it). */
            const selectionOf = async (typing = true) => {
              const st = await editorState();
              if (typing) expect(st.start, 'the selection is in the text').toBeDefined();
              const start = st.start ?? model;
              const end = st.end ?? start;
              for (const part of [start, end])
                expect(
                  model.startsWith(part),
                  `selection ${JSON.stringify(part)} in ${JSON.stringify(model)}`,
                ).toBe(true);
              return [start.length, end.length] as const;
            };
            for (const [step, a] of actions.entries()) {
              if (a.kind !== 'tc' && !(await editorState()).focused) await clickAt(a.fx, a.fy);
              if (a.kind === 'click') await clickAt(a.fx, a.fy);
              else if (a.kind === 'key') await page.keyboard.press(a.key);
              else if (a.kind === 'text') {
                const [c, e] = await selectionOf();
                await page.keyboard.type(a.text);
                model = model.slice(0, c) + a.text + model.slice(e);
              } else if (a.kind === 'backspace') {
                const [c, e] = await selectionOf();
                await page.keyboard.press('Backspace');
                if (c < e) model = model.slice(0, c) + model.slice(e);
                else {
                  const before = model.slice(0, c);
                  const tag = /\[TC_[^\]]*_TC\]$/.exec(before);
                  const cut = tag ? tag[0].length : c > 0 ? 1 : 0;
                  model = before.slice(0, before.length - cut) + model.slice(c);
                }
              } else {
                tcs += 1;
                const tc = `0:${String(10 + tcs)}`;
                const raw = `[TC_00:00:${String(10 + tcs)}.000_TC]`;
                const [c, e] = await selectionOf(false);
                await insertTimecode(tc);
                const text = (await editorState()).text;
                const at = text.indexOf(raw);
                expect(at, `the timecode ${raw} is in ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(0);
                // The tag replaces the selection (when the editor had one), else goes where the caret was.
                expect(
                  [model, model.slice(0, c) + model.slice(e)],
                  `step ${step}: ${JSON.stringify(model)} + ${raw} at ${c}-${e} gave ${JSON.stringify(text)}`,
                ).toContain(text.slice(0, at) + text.slice(at + raw.length));
                model = text;
              }
              expect((await editorState()).text, `after step ${step} (${a.kind})`).toBe(model);
            }
            await page.getByRole('button', { name: 'History', exact: true }).focus();
            await expect
              .poll(async () => (await storedTranscription(id)) ?? '', {
                timeout: 15_000,
                message: `stored (editor: ${JSON.stringify((await editorState()).text)})`,
              })
              .toBe(model);
          },
        ),
        {
          numRuns: Number(process.env.PROPERTY_RUNS ?? 15),
          endOnFailure: true,
          // A fixed seed by default, so CI runs the same sequences each time; PROPERTY_SEED
          // explores others. Seed -585601916 found a timecode inserted before any click in
          // "Antes [TC_00:00:01.000_TC]" appended after the placeholder <br> (saved after a
          // "\n"); fixed, and kept in transcription-editor.browser.test.ts.
          seed: Number(process.env.PROPERTY_SEED ?? 20261126),
        },
      );
    }, 600_000);
  });

  /*
   * Pictures for review (not a check): SAVING_SHOTS_DIR=/tmp/shots writes the conflict dialog and
   * the unsaved-changes banner at 1280, 1024 and 390 px in English, Spanish and Catalan.
   */
  it.runIf(process.env.SAVING_SHOTS_DIR)(
    'screenshots of the conflict and the unsaved banner',
    async () => {
      const dir = process.env.SAVING_SHOTS_DIR!;
      for (const [lang, ui] of [
        ['lg-eng', 'en'],
        ['lg-spa', 'es'],
        ['lg-cat', 'ca'],
      ] as const) {
        for (const width of [1280, 1024, 390]) {
          const id = await newInterview('Entrevista a la molinera');
          await openApp(`#/edit/oh1/${id}`, width);
          // The interface language as the session would give it.
          await page.route('**/json', async (route) => {
            if (route.request().postDataJSON?.()?.action !== 'start') return route.fallback();
            const answer = await route.fetch();
            const json = await answer.json();
            if (json?.environment?.page_globals) json.environment.page_globals.dedalo_application_lang = lang;
            await route.fulfill({ response: answer, json });
          });
          await withVersions(page, 3);
          await page.reload();
          await page.getByRole('heading', { name: /^Interviews \d+/ }).waitFor();
          await answerStaleOnce(page, id, 'Entrevista a Rosa, la molinera de Sant Joan', 4);
          await code(page).click();
          await page.keyboard.press('End');
          await page.keyboard.type(' (1987)');
          await page.keyboard.press('Tab');
          const dialog = page.locator('[role=alertdialog]');
          await dialog.waitFor();
          await dialog.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${dir}/conflict-${ui}-${width}.png` });
          await dialog.locator('button').nth(1).click();
          // The server away for saves: the banner.
          await page.route('**/json', (route) =>
            route.request().postDataJSON?.()?.action === 'save'
              ? route.abort('connectionrefused')
              : route.fallback(),
          );
          await code(page).click();
          await page.keyboard.press('End');
          await page.keyboard.type(' 2');
          await page.keyboard.press('Tab');
          await page.locator('.unsaved').waitFor();
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: `${dir}/unsaved-${ui}-${width}.png` });
          await page.unrouteAll({ behavior: 'ignoreErrors' });
          await page.evaluate(() => sessionStorage.clear());
        }
      }
    },
    300_000,
  );
});
