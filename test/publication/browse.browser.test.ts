/**
 * The browse pages in Chromium, as a person uses them, on each engine: open a table from the
 * home page, filter with the column form, sort by clicking a header, page, open a record, follow
 * a relation link, search and see the highlight; facets narrow the rows; axe-core finds no serious
 * violation; hostile cell content renders as text. Every check compares what the page shows with
 * the JSON API (or the database) for the same selection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, screenshot, seriousViolations } from '../helpers/client-browser.js';
import { MARIADB } from '../helpers/mariadb-availability.js';
import {
  type EngineCase,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { normalizeWord, plainWords } from '../helpers/text-oracle.js';

if (!haveChromium) console.warn('\n[skip] no Chromium: the browse browser tests are skipped.\n');

/** The section ids of the table's rows, in page order (first column links to the record). */
const shownIds = (page: Page) =>
  page
    .locator('table.rows tbody tr td:first-child a')
    .evaluateAll((as) => as.map((a) => Number(a.textContent)));
/** The texts of a column of the list, by its header (the field's name in English). */
const columnValues = (page: Page, column: string) =>
  page.evaluate((name) => {
    const headers = [...document.querySelectorAll('table.rows thead th')].map((th) =>
      th.textContent?.replace(/[▲▼]/g, '').trim(),
    );
    const i = headers.indexOf(name);
    return [...document.querySelectorAll('table.rows tbody tr')].map(
      (tr) => tr.children[i]?.textContent?.trim() ?? '',
    );
  }, column);

/** Runs a click (or submit) that loads a new page, and waits for that page. */
async function navigate(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('load'), action()]);
}
const textOf = async (loc: Locator) => (await loc.first().textContent()) ?? '';

describe.runIf(haveChromium).each(engineCases())('browse pages in Chromium on $engine', (c) => {
  let s: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let word: string;
  const api = async (path: string) => {
    const res = await s.get(`/${c.db}/tables/${path}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    return res.json;
  };

  beforeAll(async () => {
    s = await startTestServer(c);
    browser = await launchChromium();
    // bypassCSP only so the test can inject axe-core; the pages themselves run under the CSP.
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const direct = await c.openDirect();
    try {
      const [row] = await direct.query<{ transcription: string }>(
        "SELECT transcription FROM interview WHERE section_id = 1 AND lang = 'lg-spa'",
      );
      word = plainWords(row!.transcription)
        .map(normalizeWord)
        .find((w) => w.length >= 7)!;
    } finally {
      await direct.close();
    }
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('opens a table from the home page, filters, sorts and pages like the API', async () => {
    const page = await context.newPage();
    await page.goto(`${s.base}/browse/`);
    await navigate(page, () => page.getByRole('link', { name: c.db, exact: true }).click());
    await navigate(page, () => page.getByRole('link', { name: 'Interviews', exact: true }).click());
    expect(await textOf(page.locator('h1'))).toContain('Interviews');
    // An English reader sees the English versions first (the page says so and offers the rest).
    const all = await api('interview/records?limit=20&count=true&lang=lg-eng');
    expect(await shownIds(page)).toEqual(all.data.map((r: { section_id: number }) => r.section_id));
    expect(await textOf(page.locator('.pager'))).toContain(`of ${all.pagination.total}`);
    expect(await textOf(page.locator('p.notice'))).toContain('Showing the records that exist in English');

    // Filter: place = the first row's place, through the column form.
    const place = all.data[0].place as string;
    await page.locator('details.filters summary').click();
    await page.locator('select[name="op[place]"]').selectOption('eq');
    await page.locator('input[name="v[place]"]').fill(place);
    await navigate(page, () => page.getByRole('button', { name: 'Apply filters' }).click());
    const filtered = await api(
      `interview/records?limit=20&count=true&lang=lg-eng&${encodeURIComponent('filter[place][eq]')}=${encodeURIComponent(place)}`,
    );
    expect(filtered.pagination.total).toBeLessThan(all.pagination.total);
    expect(await shownIds(page)).toEqual(filtered.data.map((r: { section_id: number }) => r.section_id));
    expect(new Set(await columnValues(page, 'Place'))).toEqual(new Set([place]));

    // Sort by clicking the date header: ascending, then descending (the filter stays).
    await navigate(page, () => page.locator('table.rows thead').getByRole('link', { name: 'Date' }).click());
    const byDate = await api(
      `interview/records?limit=20&sort=date&lang=lg-eng&${encodeURIComponent('filter[place][eq]')}=${encodeURIComponent(place)}`,
    );
    expect(await shownIds(page)).toEqual(byDate.data.map((r: { section_id: number }) => r.section_id));
    expect(await textOf(page.locator('th[aria-sort="ascending"]'))).toContain('Date');
    await navigate(page, () => page.locator('table.rows thead').getByRole('link', { name: /Date/ }).click());
    const byDateDesc = await api(
      `interview/records?limit=20&sort=-date&lang=lg-eng&${encodeURIComponent('filter[place][eq]')}=${encodeURIComponent(place)}`,
    );
    expect(await shownIds(page)).toEqual(byDateDesc.data.map((r: { section_id: number }) => r.section_id));

    // Page through the whole table: next, then previous.
    await page.goto(`${s.base}/browse/${c.db}/interview?sort=-section_id&lang=all`);
    await navigate(page, () => page.getByRole('link', { name: 'Next →' }).first().click());
    const second = await api('interview/records?limit=20&offset=20&sort=-section_id');
    expect(await shownIds(page)).toEqual(second.data.map((r: { section_id: number }) => r.section_id));
    expect(await textOf(page.locator('.pager'))).toContain('21–40');
    await navigate(page, () => page.getByRole('link', { name: '← Previous' }).first().click());
    expect(await textOf(page.locator('.pager'))).toContain('1–20');
    await page.close();
  });

  it('narrows the rows with a facet value and the language switch', async () => {
    const page = await context.newPage();
    await page.goto(`${s.base}/browse/${c.db}/interview?lang=all`);
    const facets = await api('interview/facets?columns=place&limit=8');
    const top = facets.data[0].values[0];
    const facetLink = page.locator('aside.facet section').filter({ hasText: 'Place' });
    await navigate(page, () => facetLink.getByRole('link', { name: top.value, exact: true }).click());
    expect(await textOf(page.locator('.pager'))).toContain(`of ${top.count}`);
    expect(new Set(await columnValues(page, 'Place'))).toEqual(new Set([top.value]));
    await page.locator('select#lang').selectOption('lg-spa');
    await navigate(page, () => page.getByRole('button', { name: 'Show' }).click());
    // One language: every row is Spanish (its lang attribute), and no language column repeats it.
    expect(
      new Set(
        await page
          .locator('table.rows tbody tr')
          .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('lang'))),
      ),
    ).toEqual(new Set(['es']));
    expect(
      (await page.locator('table.rows thead th').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim()),
    ).not.toContain('Language');
    expect(new Set(await columnValues(page, 'Place'))).toEqual(new Set([top.value]));
    await page.close();
  });

  it('opens a record with every language variant and follows a relation link', async () => {
    const page = await context.newPage();
    await page.goto(`${s.base}/browse/${c.db}/interview?lang=all&sort=section_id`);
    await navigate(page, () => page.locator('table.rows tbody tr td:first-child a').first().click());
    const record = await api('interview/records/1');
    const shown = record.data.find(
      (r: { lang: string }) => r.lang === new URL(page.url()).searchParams.get('lang'),
    );
    expect((await textOf(page.locator('h1'))).trim()).toBe(`${shown.title} Interviews no. 1`);
    // Every language variant is one click away.
    const variants = await page
      .locator('nav.lang-switch a')
      .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).searchParams.get('lang')));
    expect(variants).toEqual(record.meta.languages);
    expect(await page.locator('.transcript .tc').count()).toBeGreaterThan(0);
    await screenshot(page, `browse-record-${c.engine}`);
    expect(await seriousViolations(page)).toEqual([]);
    const informantId = Number((record.data[0].informant as string[])[0]);
    const informant = (await api(`informant/records/${informantId}`)).data[0];
    const name = `${informant.name} ${informant.surname}`;
    // An informant may be listed twice (interviewer and interviewee): take the first link.
    await navigate(page, () =>
      page.locator('dl.record').getByRole('link', { name, exact: true }).first().click(),
    );
    expect((await textOf(page.locator('h1'))).trim()).toBe(`${name} People no. ${informantId}`);
    expect(await textOf(page.locator('dl.record'))).toContain(informant.name);
    await page.close();
  });

  it('searches the transcriptions alone when asked, shows highlighted fragments and highlights the record', async () => {
    const page = await context.newPage();
    await page.goto(`${s.base}/browse/${c.db}/interview?lang=all`);
    await page.locator('input#q').fill(word);
    await page.locator('select#column').selectOption('transcription');
    await navigate(page, () => page.getByRole('button', { name: 'Show' }).click());
    const found = await api(`interview/search?q=${encodeURIComponent(word)}&limit=20&count=true`);
    expect(found.data.length).toBeGreaterThan(0);
    expect(await shownIds(page)).toEqual(found.data.map((r: { section_id: number }) => r.section_id));
    const marks = await page.locator('table.rows tbody mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => normalizeWord(m) === word)).toBe(true);
    await screenshot(page, `browse-search-${c.engine}`);
    expect(await seriousViolations(page)).toEqual([]);
    await navigate(page, () => page.locator('table.rows tbody tr td:first-child a').first().click());
    const highlighted = await page.locator('.transcript mark').allTextContents();
    expect(highlighted.length).toBeGreaterThan(0);
    expect(highlighted.every((m) => normalizeWord(m) === word)).toBe(true);
    await page.close();
  });

  it('has no serious accessibility violation on the home, tables and table pages', async () => {
    const page = await context.newPage();
    for (const path of ['/browse/', `/browse/${c.db}/`, `/browse/${c.db}/interview`]) {
      await page.goto(`${s.base}${path}`);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await screenshot(page, `browse-table-${c.engine}`);
    await page.close();
  });
});

const HOSTILE =
  '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">"quoted" & \'single\'';

async function writeHostileDb(
  c: EngineCase,
): Promise<{ env: Record<string, string>; db: string; drop(): Promise<void> }> {
  if (c.engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'i13-browse-hostile-'));
    const db = new Database(join(dir, 'hostile.sqlite'));
    db.exec('CREATE TABLE notes (section_id INTEGER PRIMARY KEY, body TEXT, label TEXT)');
    db.exec('CREATE INDEX ix_label ON notes (label)');
    db.prepare('INSERT INTO notes VALUES (?, ?, ?)').run(1, HOSTILE, HOSTILE);
    db.close();
    return {
      env: { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: dir, DB_NAMES: 'hostile' },
      db: 'hostile',
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `i13browse_${process.pid}`;
  const conn = await mysql.createConnection({ ...MARIADB, multipleStatements: true });
  await conn.query(`DROP DATABASE IF EXISTS \`${name}\`; CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await conn.query(
    `CREATE TABLE \`${name}\`.notes (section_id INT PRIMARY KEY, body TEXT, label VARCHAR(255), KEY ix_label (label))`,
  );
  await conn.query(`INSERT INTO \`${name}\`.notes VALUES (1, ?, ?)`, [HOSTILE, HOSTILE]);
  return {
    env: { ...c.env, DB_NAMES: name },
    db: name,
    drop: async () => {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

describe.runIf(haveChromium).each(engineCases())('browse pages escape hostile content on $engine', (c) => {
  let s: TestServer;
  let browser: Browser;
  let hostile: Awaited<ReturnType<typeof writeHostileDb>>;

  beforeAll(async () => {
    hostile = await writeHostileDb(c);
    s = await startTestServer({ ...c, env: hostile.env });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await hostile?.drop();
  });

  it('renders a cell holding markup as text, in the table, the facets and the record page', async () => {
    const page = await browser.newPage();
    for (const path of [`/browse/${hostile.db}/notes`, `/browse/${hostile.db}/notes/1`]) {
      await page.goto(`${s.base}${path}`);
      expect(await page.locator('script').count(), path).toBe(0);
      expect(await page.locator('main img').count(), path).toBe(0);
      expect(
        await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
        path,
      ).toBeUndefined();
      expect(await textOf(page.locator('main'))).toContain('<script>window.__pwned = 1</script>');
    }
    await page.goto(`${s.base}/browse/${hostile.db}/notes`);
    expect(await textOf(page.locator('aside.facet'))).toContain('<img src=x');
    await page.close();
  });
});
