/**
 * Indexing in Chromium against the real work server (PGlite and PostgreSQL): the thesaurus opens from the menu
 * as a tree (parents by name, levels read when expanded), a search shows breadcrumbs and opens
 * the tree down to a match, an editor adds, renames and moves a term and is told why a move
 * under the term's own descendant is refused. In a transcription a selected passage is indexed
 * with two terms picked by search (marks and locators saved together), shows as a marked
 * passage, is re-pointed (one term unticked, another ticked: the locators move, the text stays,
 * and the term's History shows it), and is removed again (both sides). Screenshots (PGlite only)
 * of the tree, the picker and the marked passage at three widths in English, Spanish and Catalan
 * go to test-screenshots/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadPublishConfig } from '../../src/publish/publish-targets.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import {
  haveChromium,
  logIn,
  newAppPage,
  screenshot,
  screenshotIfFailed,
  seriousViolations,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { startTestServer, type TestServer } from '../helpers/publication-server.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertRecordValues, locator, text } from '../helpers/work-records.js';
import { rootBrowser, startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

warnWithoutChromium('the indexing browser tests are');

const tmp = mkdtempSync(join(tmpdir(), 'indexing-browser-'));
const ontology = loadOntology();
const TEXT = 'At first we spoke about the war, and later about the exile in France.';

const WIDTHS = [
  { width: 1366, height: 800 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];
const LANG_LABEL: Record<string, string> = {
  en: 'Interface language',
  es: 'Idioma de la interfaz',
  ca: 'Llengua de la interfície',
};

let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await startClientChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

for (const engine of workEngineCases())
  describe.runIf(haveChromium)(`indexing (${engine.engine})`, () => {
    const PUBLIC_DB = `indexing_public_${engine.engine}`;
    /** The pictures are taken once (PGlite); PostgreSQL runs the same steps without them. */
    const pictures = engine.engine === 'pglite';
    let s: WorkServerHandle;
    let context: BrowserContext;
    let page: Page;
    let origin: string;
    let publication: TestServer | undefined;

    const locatorsOf = async (termId: number) => {
      const { rows } = await s.server.db.query<{ items: Record<string, unknown>[] | null }>(
        `SELECT relation -> 'hierarchy40' AS items FROM matrix_hierarchy WHERE section_tipo = 'ts1' AND section_id = $1`,
        [termId],
      );
      return rows[0]?.items ?? [];
    };
    const storedText = async () => {
      const { rows } = await s.server.db.query<{ value: string }>(
        `SELECT string -> 'rsc36' -> 0 ->> 'value' AS value FROM matrix WHERE section_tipo = 'rsc167' AND section_id = 1`,
      );
      return rows[0]!.value;
    };

    /** Pictures of the current screen at three widths (back to the first after), on PGlite. */
    const shots = async (name: string) => {
      if (!pictures) return;
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        await screenshot(page, `${name}-${size.width}`);
      }
      await page.setViewportSize(WIDTHS[0]!);
    };
    const uiLang = async (from: string, to: string) => {
      await page.getByLabel(LANG_LABEL[from]!).selectOption(to);
      await page.getByLabel(LANG_LABEL[to]!).waitFor();
    };

    beforeAll(async () => {
      s = await startTestWorkServer(
        engine,
        {},
        {
          publish: {
            config: loadPublishConfig({
              PUBLISH_TARGETS: `public=sqlite:${join(tmp, `${PUBLIC_DB}.sqlite`)}`,
            }),
          },
        },
      );
      origin = new URL(s.server.url).origin;
      const put = (st: string, id: number, values: Record<string, unknown[]>) =>
        insertRecordValues(s.server.db, ontology, st, id, values);
      const name = (en: string, es: string, ca: string) => [
        text(en, 'lg-eng', 1),
        text(es, 'lg-spa', 1),
        text(ca, 'lg-cat', 1),
      ];
      await put('rsc167', 1, { rsc36: [text(TEXT, 'lg-eng', 1)] });
      // The interview of the recording (publishable): its terms are indexed as a whole too.
      await put('oh1', 1, {
        oh14: [text('OH-1')],
        oh16: [text('The war years', 'lg-eng', 1)],
        oh25: [{ ...locator('oh25', 'rsc167', 1), id: 1 }],
        oh32: [{ ...locator('oh32', 'dd64', 1), id: 1 }],
      });
      await put('ts1', 1, {
        hierarchy25: name('War', 'Guerra', 'Guerra'),
        hierarchy49: [{ ...locator('hierarchy49', 'ts1', 2, 'dd48'), id: 1 }],
      });
      await put('ts1', 2, {
        hierarchy25: name('Civil war', 'Guerra civil', 'Guerra civil'),
        hierarchy36: [{ ...locator('hierarchy36', 'ts1', 1, 'dd47'), id: 1 }],
        hierarchy49: [{ ...locator('hierarchy49', 'ts1', 4, 'dd48'), id: 1 }],
      });
      await put('ts1', 3, { hierarchy25: name('Exile', 'Exilio', 'Exili') });
      await put('ts1', 4, {
        hierarchy25: name('Battle of the Ebro', 'Batalla del Ebro', 'Batalla de l’Ebre'),
        hierarchy36: [{ ...locator('hierarchy36', 'ts1', 2, 'dd47'), id: 1 }],
      });
      ({ context, page } = await newAppPage(browser, WIDTHS[0]));
      page.setDefaultTimeout(15_000);
      await page.goto(`${origin}/#/`);
      await logIn(page);
      await page.getByRole('button', { name: 'Log out' }).waitFor();
    }, 120_000);

    afterEach((t) => screenshotIfFailed(t.task, page, `indexing-${engine.engine}`));

    afterAll(async () => {
      await context?.close();
      await publication?.close();
      await s?.stop();
    });

    it('opens the thesaurus from the menu as a tree, parents by name, and finds a term with its breadcrumb', async () => {
      await page.getByRole('link', { name: 'Thesaurus terms', exact: true }).click();
      await page.getByRole('heading', { name: 'Thesaurus terms' }).waitFor();
      const tree = page.getByRole('list', { name: 'Thesaurus terms' });
      await tree.getByRole('link', { name: 'War', exact: true }).waitFor();
      await tree.getByRole('link', { name: 'Exile', exact: true }).waitFor();
      // Children are read when their parent opens.
      expect(await tree.getByRole('link', { name: 'Civil war' }).count()).toBe(0);
      const toggle = page.getByRole('button', { name: 'Show the terms under War' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(
        await page.getByRole('button', { name: 'Hide the terms under War' }).getAttribute('aria-expanded'),
      ).toBe('true');
      await tree.getByRole('link', { name: 'Civil war', exact: true }).waitFor();
      expect(await page.getByText('#2').count()).toBe(0);

      await page.getByLabel('Find a term').fill('ebro');
      const match = page.getByRole('list', { name: 'Matching terms' }).getByRole('button');
      await expect.poll(() => match.count()).toBe(1);
      expect(await match.innerText()).toContain('War › Civil war');
      await match.click();
      await tree.getByRole('link', { name: 'Battle of the Ebro', exact: true }).waitFor();
      expect(await page.locator('.node[aria-current="true"]').innerText()).toContain('Battle of the Ebro');
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('adds a child term, renames it, moves a term, and refuses a move under its own descendant', async () => {
      await page
        .getByRole('button', { name: 'Add a term under it' })
        .nth(await indexOfTerm('Exile'))
        .click();
      await page.getByLabel('Name of the new term under Exile').fill('Exile in Frnce');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('link', { name: 'Exile in Frnce', exact: true }).waitFor();
      await page
        .getByRole('button', { name: 'Rename' })
        .nth(await indexOfTerm('Exile in Frnce'))
        .click();
      await page.getByLabel('New name of Exile in Frnce').fill('Exile in France');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('link', { name: 'Exile in France', exact: true }).waitFor();

      // War under Battle of the Ebro (its own grandchild): refused, and said why.
      await page
        .getByRole('button', { name: 'Move' })
        .nth(await indexOfTerm('War'))
        .click();
      await page.getByLabel('Move War under (find the new broader term):').fill('ebro');
      await page
        .getByRole('group', { name: 'Move War' })
        .getByRole('button', { name: /Battle of the Ebro/ })
        .click();
      await page
        .getByText('War cannot be moved under Battle of the Ebro: that term is War itself or lies under it.')
        .waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();

      // Battle of the Ebro moves under Exile: it shows there, and no longer under Civil war.
      await page
        .getByRole('button', { name: 'Move' })
        .nth(await indexOfTerm('Battle of the Ebro'))
        .click();
      await page.getByLabel('Move Battle of the Ebro under (find the new broader term):').fill('exile');
      await page
        .getByRole('group', { name: 'Move Battle of the Ebro' })
        .getByRole('button', { name: /^Exile$/ })
        .click();
      await page.getByText('Battle of the Ebro moved under Exile.').waitFor();
      const { rows } = await s.server.db.query<{ parent: string }>(
        `SELECT relation -> 'hierarchy36' -> 0 ->> 'section_id' AS parent FROM matrix_hierarchy WHERE section_tipo = 'ts1' AND section_id = 4`,
      );
      expect(rows[0]!.parent).toBe('3');

      // Pictures of the tree in the three languages (PGlite).
      if (!pictures) return;
      await page.getByLabel('Find a term').fill('war');
      await page.getByRole('list', { name: 'Matching terms' }).getByRole('button').first().waitFor();
      await shots('indexing-tree-en');
      await uiLang('en', 'es');
      await page.getByRole('button', { name: 'Añadir un término de nivel superior' }).waitFor();
      await shots('indexing-tree-es');
      await uiLang('es', 'ca');
      await page.getByRole('button', { name: 'Afegeix un terme de nivell superior' }).waitFor();
      await shots('indexing-tree-ca');
      await uiLang('ca', 'en');
    });

    /** The record's History, opened (it stays open from one record to the next). */
    async function openHistory() {
      const button = page.getByRole('button', { name: 'History', exact: true });
      if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
      await page.getByRole('region', { name: 'History' }).getByRole('table').waitFor();
    }

    /** The position of a term's row among the tree's rows (for its row's buttons). */
    async function indexOfTerm(label: string): Promise<number> {
      const labels = await page
        .getByRole('list', { name: 'Thesaurus terms' })
        .locator('.node .label')
        .allInnerTexts();
      const at = labels.indexOf(label);
      expect(at, `${label} in ${labels.join(', ')}`).toBeGreaterThanOrEqual(0);
      return at;
    }

    /** Selects `words` in the transcription editor, as a person dragging over them would. */
    async function select(words: string) {
      await page.locator('dd-transcription-editor .surface').evaluate((surface, words) => {
        const walker = document.createTreeWalker(surface, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const at = (n.nodeValue ?? '').indexOf(words);
          if (at < 0) continue;
          const root = surface.getRootNode() as ShadowRoot & { getSelection?: () => Selection | null };
          const sel = root.getSelection?.() ?? document.getSelection()!;
          (surface as HTMLElement).focus();
          sel.setBaseAndExtent(n, at, n, at + words.length);
          surface.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
          return;
        }
        throw new Error(`"${words}" is not in the transcription`);
      }, words);
    }

    it('indexes a selected passage with two terms picked by search, shows it marked, and removes it', async () => {
      await page.goto(`${origin}/#/edit/rsc167/1`);
      await page.locator('dd-transcription-editor .surface').getByText(TEXT).waitFor();
      await select('the war');
      await page.getByRole('button', { name: 'Index selection' }).click();
      const picker = page.getByRole('dialog', { name: 'Index the passage' });
      await picker.waitFor();
      expect(await picker.getByLabel('The passage').innerText()).toBe('the war');
      await picker.getByLabel('Search the thesaurus').fill('civil');
      await picker.getByRole('checkbox', { name: /Civil war/ }).check();
      await picker.getByLabel('Search the thesaurus').fill('exil');
      await picker
        .getByRole('checkbox', { name: /^Exile\b/ })
        .first()
        .waitFor();
      await shots('indexing-picker-en');
      await picker.getByRole('checkbox', { name: /^Exile$/ }).check();
      await picker.getByRole('button', { name: 'Save terms' }).click();
      await page.getByText('Passage 1 indexed: Civil war, Exile.').waitFor();

      // Both sides, saved together.
      expect(await storedText()).toBe(
        TEXT.replace('the war', '[index-n-1--data::data]the war[/index-n-1--data::data]'),
      );
      for (const id of [2, 3]) {
        expect(await locatorsOf(id)).toEqual([
          expect.objectContaining({ type: 'dd96', section_tipo: 'rsc167', section_id: 1, tag_id: '1' }),
        ]);
      }
      // Published, the public reads the passage for the term (the work API's own publishing).
      const root = await rootBrowser(s);
      for (const section of ['rsc167', 'ts1', 'oh1']) {
        const published = await root.post({
          dd_api: 'dd_diffusion_api',
          action: 'diffuse',
          options: { section_tipo: section },
        });
        expect(published.status, JSON.stringify(published.body)).toBe(200);
      }
      publication = await startTestServer({
        engine: 'sqlite',
        db: PUBLIC_DB,
        env: { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: tmp, DB_NAMES: PUBLIC_DB },
        openDirect: async () => {
          throw new Error('unused');
        },
      });
      const fragment = await publication.get(
        `/${PUBLIC_DB}/av-indexation-fragment?section_id=1&tag_id=1&lang=lg-eng`,
      );
      expect(fragment.status, JSON.stringify(fragment.json)).toBe(200);
      expect(fragment.json.data.transcription).toBe('the war');
      expect(fragment.json.data.terms.map((x: { term: string }) => x.term).sort()).toEqual([
        'Civil war',
        'Exile',
      ]);

      // The passage is marked, and listed with its terms.
      await page.locator('dd-transcription-editor mark.region', { hasText: 'the war' }).waitFor();
      const passage = page.getByRole('button', { name: '1: Civil war, Exile' });
      await passage.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shots('indexing-passage-en');
      // The passage and its picker in Spanish and Catalan (pictures only).
      const languages = [
        ['en', 'es', 'Fragmentos indexados'],
        ['es', 'ca', 'Fragments indexats'],
      ] as const;
      for (const [from, to, list] of pictures ? languages : []) {
        await uiLang(from, to);
        await page.getByRole('group', { name: list }).waitFor();
        await shots(`indexing-passage-${to}`);
        await page.getByRole('group', { name: list }).getByRole('button').first().click();
        await page.getByRole('dialog').waitFor();
        await shots(`indexing-picker-${to}`);
        await page.keyboard.press('Escape');
      }
      if (pictures) await uiLang('ca', 'en');

      // Re-pointed: Exile unticked, War ticked. The locators move, the text keeps its marks.
      await page.getByRole('button', { name: '1: Civil war, Exile' }).click();
      const repoint = page.getByRole('dialog', { name: 'Terms of passage 1' });
      await repoint.waitFor();
      await repoint.getByLabel('Search the thesaurus').fill('exil');
      await repoint.getByRole('checkbox', { name: /^Exile$/ }).uncheck();
      await repoint.getByLabel('Search the thesaurus').fill('war');
      await repoint.getByRole('checkbox', { name: /^War$/ }).check();
      await repoint.getByRole('button', { name: 'Save terms' }).click();
      await page.getByText('Passage 1 indexed: Civil war, War.').waitFor();
      // Listed by the terms' order in the thesaurus, as read again.
      await page.getByRole('button', { name: '1: War, Civil war' }).waitFor();
      expect(await storedText()).toBe(
        TEXT.replace('the war', '[index-n-1--data::data]the war[/index-n-1--data::data]'),
      );
      for (const id of [1, 2]) {
        expect(await locatorsOf(id)).toEqual([
          expect.objectContaining({ type: 'dd96', section_tipo: 'rsc167', section_id: 1, tag_id: '1' }),
        ]);
      }
      expect(await locatorsOf(3)).toEqual([]);

      // History: the recording shows the text saved with the passage's marks; the term War shows
      // the recording it now indexes, Exile its indexation gone.
      await openHistory();
      await page
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: 'Transcription (lg-eng)', exact: true }) })
        .filter({ hasText: '[index-n-1--data::data]the war' })
        .first()
        .waitFor();
      for (const [term, name, value] of [
        [1, 'War', 'Audiovisual 1'],
        [3, 'Exile', '(empty)'],
      ] as const) {
        await page.goto(`${origin}/#/edit/ts1/${term}`);
        await page.getByRole('heading', { name: new RegExp(` ${term}: ${name}$`) }).waitFor();
        await openHistory();
        const row = page
          .getByRole('row')
          .filter({ has: page.getByRole('cell', { name: 'Indexations', exact: true }) })
          .first();
        await row.waitFor();
        expect((await row.getByRole('cell').nth(3).innerText()).trim()).toBe(value);
      }
      await page.goto(`${origin}/#/edit/rsc167/1`);
      await page.getByRole('button', { name: '1: War, Civil war' }).waitFor();

      // Removed: marks and locators go together.
      await page.getByRole('button', { name: '1: War, Civil war' }).click();
      const again = page.getByRole('dialog', { name: 'Terms of passage 1' });
      await again.waitFor();
      await again.getByRole('button', { name: 'Remove indexation' }).click();
      await page.getByText('Indexation 1 removed.').waitFor();
      expect(await storedText()).toBe(TEXT);
      for (const id of [1, 2, 3]) expect(await locatorsOf(id)).toEqual([]);
      expect(await page.locator('dd-transcription-editor mark.region').count()).toBe(0);
    });

    it('indexes the whole interview with a term, shown under its form', async () => {
      await page.goto(`${origin}/#/edit/oh1/1`);
      const panel = page.getByRole('region', { name: 'Terms of the whole record' });
      await panel.getByText('no terms').waitFor();
      await panel.getByRole('button', { name: 'Index the whole record' }).click();
      const picker = page.getByRole('dialog', { name: 'Terms of the whole record' });
      await picker.getByLabel('Search the thesaurus').fill('war');
      await picker.getByRole('checkbox', { name: /^War$/ }).check();
      await picker.getByRole('button', { name: 'Save terms' }).click();
      await panel.locator('.chip', { hasText: 'War' }).waitFor();
      const war = await locatorsOf(1);
      expect(war).toEqual([expect.objectContaining({ type: 'dd96', section_tipo: 'oh1', section_id: 1 })]);
      expect(war[0]).not.toHaveProperty('tag_id');
      await shots('indexing-record-en');
    });
  });
