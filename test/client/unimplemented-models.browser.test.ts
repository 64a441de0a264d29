/**
 * An imported ontology's elements whose model the archive does not implement, in Chromium against
 * the real work server (PGlite): after a global admin imports the `mus` TLD, a record of its
 * Objects section shows the geolocation and external-link fields with their label, their stored
 * value as text and a note saying they cannot be edited here, in English, Spanish and Catalan;
 * nothing in them can be typed into; the implemented fields around them still save. Screenshots
 * at 1280, 1024 and 390 px in each language go to test-screenshots/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  haveChromium,
  logIn,
  newAppPage,
  screenshot,
  seriousViolations,
  startClientChromium,
  warnWithoutChromium,
} from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { rootBrowser, startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

warnWithoutChromium('the not-implemented models browser test is');

const fixture = readFileSync(
  join(import.meta.dirname, '..', 'work', 'ontology-import', 'fixtures', 'mus.dd_ontology.copy.sql'),
  'utf8',
);

const NOTES = {
  'lg-eng': "This field's kind (component_geolocation) cannot be edited here.",
  'lg-spa': 'El tipo de este campo (component_geolocation) no se puede editar aquí.',
  'lg-cat': 'El tipus d’aquest camp (component_geolocation) no es pot editar aquí.',
} as const;

const field = (page: Page, label: string) =>
  page
    .locator('component-readonly')
    .filter({ has: page.locator('.head .label', { hasText: new RegExp(`^${label}$`) }) });

describe.runIf(haveChromium)('elements of models not implemented, in the web client', () => {
  let browser: Browser;
  let s: WorkServerHandle;
  let id: number;

  beforeAll(async () => {
    browser = await startClientChromium();
    s = await startTestWorkServer(workEngineCases()[0]!);
    const api = await rootBrowser(s);
    const imported = await api.post({
      dd_api: 'dd_ontology_api',
      action: 'import_ontology',
      options: { content: fixture, tld: 'mus', file_name: 'mus.dd_ontology.copy.sql' },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    id = (await api.post({ action: 'create', source: { section_tipo: 'mus2' } })).body.data as number;
    await s.server.db.query(
      `UPDATE matrix SET misc = coalesce(misc, '{}'::jsonb) || $1::jsonb WHERE section_tipo = 'mus2' AND section_id = $2`,
      [
        JSON.stringify({
          mus28: [{ id: 1, lang: 'lg-nolan', value: { lat: 41.39, lon: 2.17 } }],
          mus27: [
            { id: 1, lang: 'lg-nolan', value: { iri: 'https://example.org/objects/1', title: 'Catalogue' } },
          ],
        }),
        id,
      ],
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('shows them read-only with label, value and a note, in en/es/ca at three widths', async () => {
    for (const [lang, note] of Object.entries(NOTES)) {
      for (const width of [1280, 1024, 390]) {
        const { context, page } = await newAppPage(browser, { width, height: 900 });
        // The interface language as a session in that language gets it from start.
        await page.route('**/json', async (route) => {
          if (route.request().postDataJSON?.()?.action !== 'start') return route.fallback();
          const answer = await route.fetch();
          const json = await answer.json();
          // Only a logged-in session has a language of its own (the login form is in the browser's).
          if (json?.environment?.page_globals?.is_logged)
            json.environment.page_globals.dedalo_application_lang = lang;
          await route.fulfill({ response: answer, json });
        });
        await page.goto(`${new URL(s.server.url).origin}/#/edit/mus2/${id}`);
        await logIn(page);
        const location = field(page, 'Location');
        await location.getByText(note).waitFor();
        await location.getByText('lat: 41.39, lon: 2.17').waitFor();
        const link = field(page, 'External link');
        await link.getByText('iri: https://example.org/objects/1, title: Catalogue').waitFor();
        await link.getByRole('note').waitFor();
        // Nothing to type into in either of them, and the 3D model field says the same when empty.
        expect(await location.locator('input, textarea, [contenteditable=true]').count()).toBe(0);
        expect(await link.locator('input, textarea, [contenteditable=true]').count()).toBe(0);
        await field(page, '3D model').getByRole('note').waitFor();
        if (width === 1280 && lang === 'lg-eng') expect(await seriousViolations(page)).toEqual([]);
        await location.scrollIntoViewIfNeeded();
        await screenshot(page, `unimplemented-models-${lang}-${width}`);
        await context.close();
      }
    }
  }, 180_000);

  it('the implemented fields of the same record still save', async () => {
    const { context, page } = await newAppPage(browser);
    await page.goto(`${new URL(s.server.url).origin}/#/edit/mus2/${id}`);
    await logIn(page);
    const inventory = page
      .locator('component-input-text')
      .filter({ has: page.locator('.head .label', { hasText: /^Inventory number$/ }) });
    await inventory.getByRole('textbox').fill('MUS-0001');
    await inventory.getByRole('textbox').press('Tab');
    await inventory.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    const { rows } = await s.server.db.query(
      `SELECT string->'mus4'->0->>'value' AS v, misc->'mus28' AS geo FROM matrix WHERE section_tipo = 'mus2' AND section_id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({
      v: 'MUS-0001',
      geo: [{ id: 1, lang: 'lg-nolan', value: { lat: 41.39, lon: 2.17 } }],
    });
    await context.close();
  }, 60_000);
});
