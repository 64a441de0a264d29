/**
 * The web client follows the ontology without a server restart, in Debian's Chromium against the
 * real work server (PGlite): a section added to dd_ontology by SQL while the server runs, and
 * granted to a cataloguer's profile, shows in their menu after a reload of the page, and its form
 * shows the new components; the mandatory one is marked (asterisk, aria-required) and a save
 * that would empty it is explained in the field; a value another record holds (unique) is
 * refused in the field with a link that opens that record.
 *
 * ONTOLOGY_SHOTS_DIR=/tmp/shots writes screenshots of the marked field and the refusal at 1280,
 * 1024 and 390 px in English, Spanish and Catalan.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import {
  haveChromium,
  logIn,
  screenshot,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { addNodes } from '../helpers/ontology-edits.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile, setProfileAccess } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

warnWithoutChromium('the ontology-follow browser tests');

const engine = workEngineCases().find((e) => e.engine === 'pglite')!;
const ontology = loadOntology();
const PASSWORD = 'cataloguer password';
const PROFILE_ID = 20;
const SECTION = 'oh8801';
const SHELF_MARK = 'oh8802';

const NEW_NODES = [
  {
    tipo: 'oh8800',
    parent: 'dd1',
    model: 'area',
    label: { 'lg-eng': 'Archive', 'lg-spa': 'Archivo', 'lg-cat': 'Arxiu' },
  },
  {
    tipo: SECTION,
    parent: 'oh8800',
    model: 'section',
    label: { 'lg-eng': 'Recordings', 'lg-spa': 'Grabaciones', 'lg-cat': 'Enregistraments' },
  },
  {
    tipo: SHELF_MARK,
    parent: SECTION,
    model: 'component_input_text',
    label: { 'lg-eng': 'Shelf mark', 'lg-spa': 'Signatura', 'lg-cat': 'Signatura' },
    properties: { mandatory: true, unique: true },
  },
  {
    tipo: 'oh8803',
    parent: SECTION,
    model: 'component_input_text',
    label: { 'lg-eng': 'Note', 'lg-spa': 'Nota', 'lg-cat': 'Nota' },
  },
];
const GRANTED = [
  ...accessItemsUnder(ontology, 'oh1', 2),
  { tipo: 'oh8800', section_tipo: 'oh8800', value: 2 as const },
  { tipo: SECTION, section_tipo: SECTION, value: 2 as const },
  { tipo: SHELF_MARK, section_tipo: SECTION, value: 2 as const },
  { tipo: 'oh8803', section_tipo: SECTION, value: 2 as const },
];

/** A component element of the record on screen, found by its label (the asterisk aside). */
const field = (page: Page, label: string) =>
  page.locator('component-input-text').filter({ has: page.locator('.head .label', { hasText: label }) });

describe.runIf(haveChromium)('the client follows the ontology without a restart', () => {
  let browser: Browser;
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let context: BrowserContext | undefined;
  let page: Page;
  const origin = () => new URL(work.server.url).origin;

  /** A record of the new section holding `shelfMark`, written through the API as root. */
  async function recording(shelfMark?: string): Promise<number> {
    const id = (await root.post({ action: 'create', source: { section_tipo: SECTION } })).body.data as number;
    if (shelfMark !== undefined) {
      const saved = await root.post({
        action: 'save',
        source: { tipo: SHELF_MARK, section_tipo: SECTION, section_id: id, lang: 'lg-nolan' },
        data: { changed_data: [{ action: 'insert', value: { value: shelfMark } }] },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    return id;
  }

  async function openApp(hash: string, width = 1280, uiLang?: string) {
    await context?.close();
    context = await browser.newContext({ viewport: { width, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    if (uiLang) {
      // The interface language as the session would give it.
      await page.route('**/json', async (route) => {
        if (route.request().postDataJSON?.()?.action !== 'start') return route.fallback();
        const answer = await route.fetch();
        const json = await answer.json();
        if (json?.environment?.page_globals) json.environment.page_globals.dedalo_application_lang = uiLang;
        await route.fulfill({ response: answer, json });
      });
    }
    await page.goto(`${origin()}/${hash}`);
    await logIn(page, 'cata', PASSWORD);
  }

  beforeAll(async () => {
    browser = await startClientChromium();
    work = await startTestWorkServer(engine);
    await insertProfile(work.server.db, PROFILE_ID, accessItemsUnder(ontology, 'oh1', 2));
    await insertLoginUser(work.server.db, 30, {
      username: 'cata',
      password: PASSWORD,
      profile: PROFILE_ID,
      projects: [1],
    });
    root = await rootBrowser(work);
  }, 120_000);
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail' && page) await screenshot(page, `failed-ontology-${test.task.id}`);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await work?.stop();
  });

  it('a section added by SQL shows in the menu and form after a reload; mandatory marked; a duplicate refused with a link', async () => {
    await openApp('#/');
    const menu = page.locator('dd-menu');
    await menu.getByRole('link', { name: 'Interviews' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Recordings' }).count()).toBe(0);

    // The operator's SQL, while the server runs: the section, then the grant to the profile.
    await addNodes(work.server.db, NEW_NODES);
    await setProfileAccess(work.server.db, PROFILE_ID, GRANTED);
    const held = await recording('SM-0001');

    // The menu is read when the page loads: a reload shows the new section (same session).
    await page.reload();
    await menu.getByRole('link', { name: 'Recordings' }).click();
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('heading', { name: /^Recordings \d+/ }).waitFor();

    const shelf = field(page, 'Shelf mark');
    await expect.poll(() => shelf.locator('.head .required').textContent()).toBe('*');
    const input = shelf.getByRole('textbox');
    expect(await input.getAttribute('aria-required')).toBe('true');
    expect(await field(page, 'Note').getByRole('textbox').getAttribute('aria-required')).toBeNull();

    // A value another record holds: refused in the field, with the way to that record.
    await input.fill(' sm-0001 ');
    await input.press('Tab');
    const status = shelf.getByRole('status');
    await expect
      .poll(() => status.textContent())
      .toBe('Not saved: “SM-0001” is already the Shelf mark of another record.');
    const link = shelf.getByRole('link', { name: `Open that record (${held})` });
    expect(await link.getAttribute('href')).toBe(`#/edit/${SECTION}/${held}`);

    // A value of its own saves; emptying it again is refused and explained.
    await input.fill('SM-0002');
    await input.press('Tab');
    await expect.poll(() => status.textContent()).toBe('Saved');
    expect(await shelf.getByRole('link').count()).toBe(0);
    await input.fill('');
    await input.press('Tab');
    await expect
      .poll(() => status.textContent())
      .toBe('Not saved: Shelf mark is required: it cannot be left empty.');

    await page.goto(`${origin()}/#/edit/${SECTION}/${held}`);
    await page.getByRole('heading', { name: new RegExp(`^Recordings ${held}`) }).waitFor();
    expect(await field(page, 'Shelf mark').getByRole('textbox').inputValue()).toBe('SM-0001');
  });

  it.runIf(process.env.ONTOLOGY_SHOTS_DIR)(
    'screenshots of the mandatory marker and the duplicate refusal',
    async () => {
      const dir = process.env.ONTOLOGY_SHOTS_DIR!;
      for (const [lang, ui] of [
        ['lg-eng', 'en'],
        ['lg-spa', 'es'],
        ['lg-cat', 'ca'],
      ] as const) {
        for (const width of [1280, 1024, 390]) {
          const id = await recording();
          await openApp(`#/edit/${SECTION}/${id}`, width, lang);
          await page.getByRole('heading', { name: new RegExp(`^Recordings ${id}`) }).waitFor();
          const shelf = field(page, 'Shelf mark');
          const input = shelf.getByRole('textbox');
          await input.fill('SM-0001');
          await input.press('Tab');
          await shelf.getByRole('link').waitFor();
          await shelf.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${dir}/ontology-unique-${ui}-${width}.png` });
        }
      }
    },
    300_000,
  );
});
