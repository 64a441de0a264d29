/**
 * Finding records again in the cataloguing client, in Debian's Chromium against the real work
 * server (PGlite and PostgreSQL, one server per engine): searching interviews by the words of
 * their transcription (through the audiovisual portal) with the matching excerpts under the
 * rows; sorting by a column; the page, order and search kept in the address (reload,
 * back/forward); jumping to a page; a change of data language reading the open list again; a
 * Spanish list and record form with no English left, and the users list naming profiles and
 * yes/no. Screenshots (PGlite) of the search with excerpts, the deleted records and the link
 * search and dialog at 1366, 1024 and 390 wide.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../client/src/i18n/en.js';
import es from '../../client/src/i18n/es.js';
import {
  englishLeftIn,
  haveChromium,
  logIn,
  newAppPage,
  pageText,
  screenshot,
  screenshotIfFailed,
  seriousViolations,
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

warnWithoutChromium('the finding browser tests are');

let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await startClientChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function create(api: WorkBrowser, section: string): Promise<number> {
  const created = await api.post({ action: 'create', source: { section_tipo: section } });
  expect(created.body.ok).toBe(true);
  return created.body.data as number;
}

async function saveText(
  api: WorkBrowser,
  section: string,
  id: number,
  tipo: string,
  lang: string,
  value: string,
) {
  const saved = await api.post({
    action: 'save',
    source: { section_tipo: section, section_id: id, tipo, lang },
    data: { changed_data: [{ action: 'insert', value: { id: null, lang, value } }] },
  });
  expect(saved.body.ok).toBe(true);
}

async function link(
  api: WorkBrowser,
  section: string,
  id: number,
  tipo: string,
  target: string,
  targetId: number,
) {
  const saved = await api.post({
    action: 'save',
    source: { section_tipo: section, section_id: id, tipo, lang: 'lg-nolan' },
    data: { changed_data: [{ action: 'insert', value: { section_tipo: target, section_id: targetId } }] },
  });
  expect(saved.body.ok).toBe(true);
}

/** The ontology's English labels a Spanish screen of these sections must not show either. */
const ENGLISH_LABELS = ['Interviews', 'Title', 'People', 'Informants', 'Code', 'Users'];

/** The ids of the list's rows, in order. */
const rowIds = async (page: Page): Promise<number[]> =>
  (await page.locator('dd-section-list tbody tr:not(.excerpts) td.id a').allTextContents()).map(Number);

for (const engine of workEngineCases()) {
  describe.runIf(haveChromium)(`finding records on ${engine.engine}`, () => {
    let s: WorkServerHandle;
    let api: WorkBrowser;
    let context: BrowserContext | undefined;
    let page: Page;
    const interviews: Record<string, number> = {};

    async function openApp(hash: string, viewport = { width: 1366, height: 800 }) {
      await context?.close();
      ({ context, page } = await newAppPage(browser, viewport));
      await page.goto(`${new URL(s.server.url).origin}/${hash}`);
      await logIn(page);
    }

    beforeAll(async () => {
      s = await startTestWorkServer(engine);
      api = await rootBrowser(s);
      // Three interviews with titles that sort differently from their ids; the first has an
      // audiovisual record whose Spanish transcription names the Buxeda family twice.
      for (const [key, title] of [
        ['weaver', 'Weaver family'],
        ['harbour', 'Harbour strike'],
        ['mill', 'Anchor mill'],
      ] as const) {
        interviews[key] = await create(api, 'oh1');
        await saveText(api, 'oh1', interviews[key]!, 'oh16', 'lg-eng', title);
      }
      await saveText(api, 'oh1', interviews.weaver!, 'oh16', 'lg-spa', 'Familia tejedora');
      const av = await create(api, 'rsc167');
      await saveText(
        api,
        'rsc167',
        av,
        'rsc36',
        'lg-spa',
        '<p>[TC_00:00:01.000_TC] Nací en Sabadell en 1931. Mi padre era Joan Buxeda, tejedor, y trabajaba de noche en la fábrica.</p>' +
          '<p>[TC_00:02:30.000_TC] Mi madre cosía en casa para una tienda de la Rambla y los domingos íbamos todos juntos a misa.</p>' +
          '<p>[TC_00:04:12.000_TC] Después de la guerra los Buxèda perdieron el telar y nos fuimos al barrio del puerto.</p>',
      );
      await link(api, 'oh1', interviews.weaver!, 'oh25', 'rsc167', av);
      const other = await create(api, 'rsc167');
      await saveText(api, 'rsc167', other, 'rsc36', 'lg-spa', '<p>El puerto estaba cerrado.</p>');
      await link(api, 'oh1', interviews.harbour!, 'oh25', 'rsc167', other);
    }, 180_000);

    /** Pictures of the screen as it is at 1366, 1024 and 390 wide (PGlite only), back to 1366 after. */
    async function shots(name: string) {
      if (engine.engine !== 'pglite') return;
      for (const [width, height] of [
        [1366, 800],
        [1024, 768],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `${name}-${width}`);
      }
      await page.setViewportSize({ width: 1366, height: 800 });
    }

    afterEach((t) => screenshotIfFailed(t.task, page, `finding-${engine.engine}`));

    afterAll(async () => {
      await context?.close();
      await s?.stop();
    });

    it('finds an interview by the words of its transcription and shows the excerpts, kept in the address', async () => {
      await openApp('#/list/oh1');
      await page.getByRole('heading', { name: 'Interviews', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const panel = page.locator('dd-search-panel');
      // The portal itself: "Audiovisual contains Buxeda" answers rows, not an error.
      await panel.getByLabel('Condition 1: field').selectOption({ label: 'Audiovisual' });
      await panel.getByLabel('Condition 1: related record contains').fill('Buxeda');
      await panel.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => rowIds(page)).toEqual([interviews.weaver]);
      expect(await page.locator('dd-section-list [role=alert]').count()).toBe(0);

      // The transcription behind the portal is a field of its own.
      await panel.getByLabel('Condition 1: field').selectOption({ label: 'Audiovisual › Transcription' });
      await panel.getByLabel('Condition 1: contains').fill('buxeda');
      await panel.getByRole('button', { name: 'Search', exact: true }).click();
      const excerpts = page.locator('dd-section-list tr.excerpts li');
      await expect.poll(() => excerpts.count()).toBe(2);
      expect(await rowIds(page)).toEqual([interviews.weaver]);
      // Accent- and case-insensitive, like the search: both spellings are marked, tags are gone.
      // (polled: the excerpts of the first search may still be on screen a moment)
      await expect
        .poll(() => page.locator('dd-section-list tr.excerpts mark').allTextContents())
        .toEqual(['Buxeda', 'Buxèda']);
      expect(await excerpts.first().textContent()).toContain('Mi padre era Joan Buxeda, tejedor');
      expect(await excerpts.first().textContent()).not.toContain('TC_');
      await shots('finding-transcription-search-en');
      expect(await seriousViolations(page)).toEqual([]);

      // The address holds the search: a reload shows the same rows, excerpts and condition.
      expect(page.url()).toContain('search=');
      await page.reload();
      await expect.poll(() => rowIds(page)).toEqual([interviews.weaver]);
      await expect.poll(() => excerpts.count()).toBe(2);
      await expect.poll(() => panel.getByLabel('Condition 1: contains').inputValue()).toBe('buxeda');

      // Back: the list before the search, every interview.
      await page.goBack();
      await page.goBack();
      await expect.poll(async () => (await rowIds(page)).length).toBe(3);
    });

    it('sorts by a column, keeps the order in the address, and back/forward walk the orders', async () => {
      await openApp('#/list/oh1');
      await expect.poll(() => rowIds(page)).toEqual([interviews.weaver, interviews.harbour, interviews.mill]);
      const title = page.locator('dd-section-list th').filter({ hasText: 'Title' });
      await title.getByRole('button').click();
      await expect.poll(() => rowIds(page)).toEqual([interviews.mill, interviews.harbour, interviews.weaver]);
      expect(await title.getAttribute('aria-sort')).toBe('ascending');
      await title.getByRole('button').click();
      await expect.poll(() => rowIds(page)).toEqual([interviews.weaver, interviews.harbour, interviews.mill]);
      expect(await title.getAttribute('aria-sort')).toBe('descending');
      expect(page.url()).toContain('sort=oh16&dir=desc');
      await page.reload();
      await expect.poll(() => rowIds(page)).toEqual([interviews.weaver, interviews.harbour, interviews.mill]);
      await page.goBack();
      await expect.poll(() => rowIds(page)).toEqual([interviews.mill, interviews.harbour, interviews.weaver]);
      await page.goForward();
      await expect.poll(() => rowIds(page)).toEqual([interviews.weaver, interviews.harbour, interviews.mill]);
      // The id column sorts too.
      await page.locator('dd-section-list th').first().getByRole('button').click();
      await page.locator('dd-section-list th').first().getByRole('button').click();
      await expect.poll(() => rowIds(page)).toEqual([interviews.mill, interviews.harbour, interviews.weaver]);
    });

    it('names linked records and shows dates in the interface language (Catalan)', async () => {
      await link(api, 'oh1', interviews.weaver!, 'oh32', 'dd64', 1);
      const saved = await api.post({
        action: 'save',
        source: { section_tipo: 'oh1', section_id: interviews.weaver, tipo: 'oh29', lang: 'lg-nolan' },
        data: {
          changed_data: [{ action: 'set_data', value: [{ start: { year: 1998, month: 5, day: 12 } }] }],
        },
      });
      expect(saved.body.ok).toBe(true);
      await openApp('#/list/oh1');
      await page.getByLabel('Interface language').selectOption('ca');
      const row = page.locator('dd-section-list tbody tr').filter({
        has: page.locator('td.id a', { hasText: new RegExp(`^${interviews.weaver}$`) }),
      });
      // Publishable names the yes/no record and links to it, never "dd64 1".
      await row.getByRole('link', { name: 'Yes', exact: true }).waitFor();
      expect(await row.getByRole('link', { name: 'Yes', exact: true }).getAttribute('href')).toBe(
        '#/edit/dd64/1',
      );
      const text = (await row.textContent()) ?? '';
      expect(text).not.toContain('dd64');
      expect(text).not.toContain('1998/05/12');
      expect(text).toMatch(/12 de maig(?: del?)? 1998/);
      await screenshot(page, `finding-names-ca-${engine.engine}`);

      // The activity log: the root user named as such, places by their labels, moments in Catalan.
      await page.goto(`${new URL(s.server.url).origin}/#/list/dd542?sort=section_id&dir=desc`);
      const first = page.locator('dd-section-list tbody tr').first();
      await first.getByText('root (usuari del sistema)').waitFor();
      // Names and labels arrive in separate reads: wait until every code has been replaced.
      await expect
        .poll(async () => (await first.locator('td').allTextContents()).join(' '))
        .not.toMatch(/#-1|dd128|dd229|\d\s?[AP]M\b/);
      const cells = await first.locator('td').allTextContents();
      expect(cells.at(-1)).toMatch(/ de (gen|febr|març|abr|maig|juny|jul|ag|set|oct|nov|des)\.? /);
      // The login of this page names the login screen in Catalan ("Accés"), not "dd229".
      await page.goto(
        `${new URL(s.server.url).origin}/#/list/dd542?search=${encodeURIComponent(
          JSON.stringify({
            op: '$and',
            c: [],
            f: { $and: [{ q: '==login', path: [{ section_tipo: 'dd542', component_tipo: 'dd545' }] }] },
            x: [],
          }),
        )}`,
      );
      await page.locator('dd-section-list tbody tr').first().getByText('Accés').waitFor();
      // What happened, in words: not the code "login".
      await page.locator('dd-section-list tbody tr').first().getByText('va iniciar la sessió').waitFor();
      // In the activity record, the user field names root too (it is in no value list).
      await page.locator('dd-section-list tbody tr').first().locator('td.id a').click();
      const user = page
        .locator('component-select')
        .filter({ has: page.locator('.head .label', { hasText: /^Usuari$/ }) });
      await expect
        .poll(() =>
          user.locator('select').evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent),
        )
        .toBe('root (usuari del sistema)');
    });

    it('shows what was deleted and restores a record from the list', async () => {
      const id = await create(api, 'oh1');
      await saveText(api, 'oh1', id, 'oh16', 'lg-eng', 'Lost and found');
      const removed = await api.post({
        action: 'delete',
        source: { section_tipo: 'oh1', section_id: id, delete_mode: 'delete_record' },
      });
      expect(removed.body.ok).toBe(true);
      await openApp('#/list/oh1');
      await page.getByRole('link', { name: 'Deleted records' }).click();
      await page.getByRole('heading', { name: 'Deleted from Interviews' }).waitFor();
      const row = page.locator('dd-deleted-records tbody tr').filter({ hasText: 'Lost and found' });
      await row.waitFor();
      expect(await row.locator('td').nth(3).textContent()).toBe('root (system user)');
      await shots('finding-deleted-en');
      expect(await seriousViolations(page)).toEqual([]);
      await row.getByRole('button', { name: `Restore record ${id}` }).click();
      await page.getByText(`Record ${id} restored.`).waitFor();
      await expect.poll(() => row.count()).toBe(0);
      // Back in the list, with its title.
      await page.getByRole('link', { name: '← Interviews' }).click();
      await page
        .locator('dd-section-list tbody tr')
        .filter({ has: page.locator('td.id a', { hasText: new RegExp(`^${id}$`) }) })
        .getByText('Lost and found')
        .waitFor();
    });

    it('links as you type with what tells namesakes apart, and "New" fills the new record in a dialog', async () => {
      for (const [year, month, day] of [
        [1931, 3, 3],
        [1945, 11, 20],
      ] as const) {
        const person = await create(api, 'rsc197');
        await saveText(api, 'rsc197', person, 'rsc85', 'lg-nolan', 'Joan');
        await saveText(api, 'rsc197', person, 'rsc86', 'lg-nolan', 'Vives');
        const born = await api.post({
          action: 'save',
          source: { section_tipo: 'rsc197', section_id: person, tipo: 'rsc89', lang: 'lg-nolan' },
          data: { changed_data: [{ action: 'set_data', value: [{ start: { year, month, day } }] }] },
        });
        expect(born.body.ok).toBe(true);
      }
      const interview = interviews.mill!;
      await openApp(`#/edit/oh1/${interview}`);
      const informants = page.locator('component-portal').filter({
        has: page.locator('.head .label', { hasText: /^Informants$/ }),
      });
      // Typing is enough: no button to press.
      await informants.getByRole('textbox', { name: /Find a record to link/ }).pressSequentially('viv');
      const found = informants.getByRole('list', { name: 'Found records' }).getByRole('listitem');
      await expect.poll(() => found.count()).toBe(2);
      const texts = await found.allTextContents();
      expect(texts.join(' | ')).toMatch(
        /Joan Vives.*Date of birth: 3 Mar 1931.*\| .*Joan Vives.*Date of birth: 20 Nov 1945/s,
      );
      await shots('finding-link-search-en');
      await found.filter({ hasText: '1945' }).getByRole('button', { name: 'Link Joan Vives' }).click();
      await informants.getByRole('link', { name: 'Joan Vives' }).waitFor();

      // New: created and linked in one change, then filled in a dialog; the interview stays open.
      await informants.getByRole('button', { name: 'New People' }).click();
      const dialog = page.getByRole('dialog', { name: /^New People \d+, linked to Informants$/ });
      await dialog.waitFor();
      const name = dialog.locator('component-input-text').filter({
        has: page.locator('.head .label', { hasText: /^Name$/ }),
      });
      await name.getByRole('textbox').fill('Mercè');
      await name.getByRole('textbox').press('Tab');
      await name.getByRole('status').getByText('Saved', { exact: true }).waitFor();
      // The full name is computed from name and surname by the server: shown read-only, and
      // read again when its name was saved.
      const fullName = dialog
        .locator('component-input-text')
        .filter({ has: page.locator('.head .label', { hasText: /^Full name$/ }) })
        .getByRole('textbox');
      await expect.poll(() => fullName.inputValue(), { timeout: 10_000 }).toBe('Mercè');
      expect(await fullName.getAttribute('readonly')).not.toBeNull();
      await shots('finding-link-new-dialog-en');
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await informants.getByRole('link', { name: 'Mercè' }).waitFor();
      expect(page.url()).toContain(`#/edit/oh1/${interview}`);
      const stored = await s.server.db.query<{ v: { section_id: number }[] }>(
        `SELECT relation->'oh24' AS v FROM matrix WHERE section_tipo = 'oh1' AND section_id = $1`,
        [interview],
      );
      expect(stored.rows[0]!.v).toHaveLength(2);
    });

    it('in Spanish: a list and a record form with no English; users named by profile and active', async () => {
      await insertLoginUser(s.server.db, 7, {
        username: 'anna',
        password: 'anna password',
        fullName: 'Anna Puig',
        profile: 2,
        projects: [1],
      });
      const person = await create(api, 'rsc197');
      await saveText(api, 'rsc197', person, 'rsc85', 'lg-nolan', 'Núria');
      await openApp('#/list/rsc197');
      // A Spanish cataloguer: interface and data in Spanish (value lists such as Yes/No are data).
      await page.getByLabel('Interface language').selectOption('es');
      await page.getByLabel('Idioma de los datos').selectOption('lg-spa');
      await page.getByRole('heading', { name: 'Personas', exact: true }).waitFor();
      await page.locator('dd-section-list tbody tr').first().waitFor();
      await page.getByRole('button', { name: 'Nuevo registro' }).waitFor();
      expect(englishLeftIn(await pageText(page), en, es, ENGLISH_LABELS)).toEqual([]);

      // The interview form: its portal's "new" and a field's "add a value" read in Spanish
      // (the issue saw "New Personas" and "Add a value to Título").
      await page.goto(`${new URL(s.server.url).origin}/#/edit/oh1/${interviews.weaver}`);
      await page.getByRole('heading', { name: new RegExp(`^Entrevistas ${interviews.weaver}`) }).waitFor();
      await page.getByRole('button', { name: 'Nuevo: Personas' }).waitFor();
      await page.getByRole('button', { name: 'Añadir un valor a Título' }).waitFor();
      expect(englishLeftIn(await pageText(page), en, es, ENGLISH_LABELS)).toEqual([]);

      // The users list: profile and active by name, never "#2" or "dd64 1".
      await page.goto(`${new URL(s.server.url).origin}/#/list/dd128`);
      const anna = page.locator('dd-section-list tbody tr').filter({ hasText: 'anna' });
      await expect
        .poll(async () => (await anna.locator('td').allTextContents()).join(' | '))
        .toMatch(/Cataloguer.*(?<!\p{L})Sí(?!\p{L})/u);
      const cells = (await anna.locator('td').allTextContents()).join(' | ');
      expect(cells).not.toMatch(/#-?\d|dd64|dd234|dd153/);
    });

    it('jumps to a page, and a change of data language reads the open list again', async () => {
      await openApp('#/list/oh1?limit=10');
      await page.locator('dd-section-list tbody tr').first().waitFor();
      // A few records are one page: there is nowhere to jump.
      expect(await page.getByLabel('Page', { exact: true }).count()).toBe(0);
      // Twenty-one more make three pages of ten.
      for (let i = 0; i < 21; i += 1) await create(api, 'oh1');
      await page.reload();
      const jump = page.getByLabel('Page', { exact: true });
      await jump.fill('3');
      await jump.press('Enter');
      await expect
        .poll(() => page.locator('dd-section-list .pager span').first().textContent())
        .toMatch(/^21–2\d of 2\d$/);
      expect(page.url()).toContain('offset=20');

      await page.goto(`${new URL(s.server.url).origin}/#/list/oh1`);
      const weaverRow = page.locator('dd-section-list tbody tr').filter({
        has: page.locator(`td.id a`, { hasText: new RegExp(`^${interviews.weaver}$`) }),
      });
      await expect.poll(() => weaverRow.textContent()).toContain('Weaver family');
      await page.getByLabel('Data language').selectOption('lg-spa');
      await expect.poll(() => weaverRow.textContent()).toContain('Familia tejedora');
    });
  });
}
