/**
 * Component elements alone in Chromium (from the built bundle, no server): each is given a
 * context, an item and a record store that records what it is asked to save and answers as the
 * server would, so the element's own behaviour is what is checked — the change lists it sends,
 * the saving indicator, and a lock held by someone else. (A refusal's message is checked end to
 * end against the real server in cataloguing.browser.test.ts.)
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchBundlePage, openBundlePage } from '../helpers/client-browser.js';

describe.runIf(haveChromium)('component elements', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ browser, page } = await launchBundlePage());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /**
   * Mounts `<tag>` with a fake store: `save` records its arguments in window.saved and answers
   * an echo of the change; `focus` answers a lock held by someone else when `lockMessage` is set.
   */
  async function mount(
    tag: string,
    context: Record<string, unknown>,
    item: Record<string, unknown>,
    /** lockMessage: focus answers someone else holds it, from the call numbered lockRefusedFrom (default 1). */
    options: { lockMessage?: string; lockRefusedFrom?: number } = {},
  ) {
    await page.evaluate(
      ([tag, context, item, options]) => {
        document.body.replaceChildren();
        const w = window as unknown as { saved: unknown[]; locks: string[] };
        w.saved = [];
        w.locks = [];
        const opts = options as { lockMessage?: string; lockRefusedFrom?: number };
        const it = item as { tipo: string; section_tipo: string; section_id: number; entries: unknown[] };
        const store = {
          sectionTipo: it.section_tipo,
          sectionId: it.section_id,
          lang: 'lg-eng',
          session: {
            locksEnabled: true,
            menu: [
              { tipo: 'oh9000', model: 'area', parent: 'dd1', label: 'Oral history' },
              { tipo: 'oh1', model: 'section', parent: 'oh9000', label: 'Interviews' },
            ],
            announce() {},
            api: {
              apiUrl: '/api',
              supports: () => true,
              call: async () => ({
                data: [
                  {
                    type: 'component',
                    tipo: 'oh14',
                    section_tipo: 'oh1',
                    label: 'Code',
                    model: 'component_input_text',
                  },
                ],
                notices: [],
                envelope: {},
              }),
            },
          },
          async save(tipo: string, model: string, lang: string, changes: unknown[]) {
            w.saved.push({ tipo, model, lang, changes });
            // The echo: the component's new entries (enough for these elements).
            const change = changes[0] as { action: string; value: unknown };
            const entries =
              change.action === 'set_data' ? change.value : change.action === 'remove' ? [] : [change.value];
            return { context: [], data: [{ ...it, entries }] };
          },
          async focus(tipo: string) {
            w.locks.push(`focus ${tipo}`);
            const refused =
              opts.lockMessage !== undefined &&
              w.locks.filter((l) => l.startsWith('focus')).length >= (opts.lockRefusedFrom ?? 1);
            return refused ? { locked: false, message: opts.lockMessage } : { locked: true };
          },
          async blur(tipo: string) {
            w.locks.push(`blur ${tipo}`);
          },
        };
        const el = document.createElement(tag as string) as HTMLElement & Record<string, unknown>;
        el.context = context;
        el.item = item;
        el.data = [];
        el.store = store;
        document.body.append(el, document.createElement('button'));
      },
      [tag, context, item, options] as const,
    );
  }

  const saved = () => page.evaluate(() => (window as unknown as { saved: unknown[] }).saved);
  const ctx = (tipo: string, model: string, label: string, extra: Record<string, unknown> = {}) => ({
    typo: 'ddo',
    type: 'component',
    tipo,
    section_tipo: 'oh1',
    model,
    label,
    mode: 'edit',
    lang: 'lg-nolan',
    permissions: 2,
    ...extra,
  });
  const item = (tipo: string, entries: unknown[]) => ({ tipo, section_tipo: 'oh1', section_id: 7, entries });

  it('input text: update by id on change, remove when emptied, the Saved indicator', async () => {
    await mount(
      'component-input-text',
      ctx('oh14', 'component_input_text', 'Code'),
      item('oh14', [{ id: 3, lang: 'lg-nolan', value: 'A-1' }]),
    );
    const input = page.getByRole('textbox', { name: 'Code' });
    await input.fill('A-2');
    await input.press('Tab');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    await input.fill('');
    await input.press('Tab');
    expect(await saved()).toEqual([
      {
        tipo: 'oh14',
        model: 'component_input_text',
        lang: 'lg-nolan',
        changes: [{ action: 'update', id: 3, value: { id: 3, lang: 'lg-nolan', value: 'A-2' } }],
      },
      {
        tipo: 'oh14',
        model: 'component_input_text',
        lang: 'lg-nolan',
        changes: [{ action: 'remove', id: 3, value: null }],
      },
    ]);
  });

  it("a field another user holds turns read-only with the holder's name", async () => {
    await mount(
      'component-input-text',
      ctx('oh14', 'component_input_text', 'Code'),
      item('oh14', [{ id: 1, lang: 'lg-nolan', value: 'A' }]),
      {
        // The sentence RecordStore builds from a record.in_use refusal's error.details.holder.
        lockMessage: 'Maria López (maria) is editing this field since 10:02.',
      },
    );
    const input = page.getByRole('textbox', { name: 'Code' });
    await input.focus();
    await page
      .getByRole('note')
      .getByText('Maria López (maria) is editing this field since 10:02.')
      .waitFor();
    expect(await input.getAttribute('readonly')).not.toBeNull();
    expect(await page.evaluate(() => (window as unknown as { locks: string[] }).locks)).toEqual([
      'focus oh14',
    ]);
  });

  it('renews its lock every 45 s while focused, and turns read-only when a renewal is refused', async () => {
    // A page of its own with a fake clock: the heartbeat is a 45 s interval.
    const shared = page;
    page = await openBundlePage(browser);
    try {
      await page.clock.install();
      await mount(
        'component-input-text',
        ctx('oh14', 'component_input_text', 'Code'),
        item('oh14', [{ id: 1, lang: 'lg-nolan', value: 'A' }]),
        { lockMessage: 'Maria López (maria) is editing this field since 10:02.', lockRefusedFrom: 3 },
      );
      const input = page.getByRole('textbox', { name: 'Code' });
      await input.focus();
      const locks = () => page.evaluate(() => (window as unknown as { locks: string[] }).locks);
      await page.waitForFunction(() => (window as unknown as { locks: string[] }).locks.length === 1);
      await page.clock.runFor(44_000);
      expect(await locks()).toEqual(['focus oh14']);
      await page.clock.runFor(1_000); // 45 s: the first renewal, granted
      expect(await locks()).toEqual(['focus oh14', 'focus oh14']);
      expect(await input.getAttribute('readonly')).toBeNull();
      await page.clock.runFor(45_000); // the second renewal: someone else has it now
      await page
        .getByRole('note')
        .getByText('Maria López (maria) is editing this field since 10:02.')
        .waitFor();
      expect(await input.getAttribute('readonly')).not.toBeNull();
      // No more renewals once it is lost.
      await page.clock.runFor(180_000);
      expect(await locks()).toEqual(['focus oh14', 'focus oh14', 'focus oh14']);
    } finally {
      await page.close();
      page = shared;
    }
  });

  it('takes the lock on focus and releases it on blur', async () => {
    await mount('component-input-text', ctx('oh14', 'component_input_text', 'Code'), item('oh14', []));
    await page.getByRole('textbox', { name: 'Code' }).focus();
    await page.locator('button').last().focus();
    await page.waitForFunction(() => (window as unknown as { locks: string[] }).locks.length === 2);
    expect(await page.evaluate(() => (window as unknown as { locks: string[] }).locks)).toEqual([
      'focus oh14',
      'blur oh14',
    ]);
  });

  it('translatable text saves in the data language', async () => {
    await mount(
      'component-input-text',
      ctx('oh16', 'component_input_text', 'Title', { translatable: true }),
      item('oh16', []),
    );
    await page.getByRole('textbox', { name: 'Title' }).fill('Mill');
    await page.getByRole('textbox', { name: 'Title' }).press('Tab');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    expect(await saved()).toEqual([
      {
        tipo: 'oh16',
        model: 'component_input_text',
        lang: 'lg-eng',
        changes: [{ action: 'insert', id: null, value: { id: null, lang: 'lg-eng', value: 'Mill' } }],
      },
    ]);
  });

  it('date: year-month typed, saved as {start}; a bad date is refused before the server', async () => {
    await mount('component-date', ctx('oh29', 'component_date', 'Interview date'), item('oh29', []));
    const input = page.getByRole('textbox', { name: 'Interview date' });
    await input.fill('May 1990');
    await input.press('Tab');
    await page
      .getByRole('status')
      .getByText(/Write the date as/)
      .waitFor();
    await input.fill('1990-05');
    await input.press('Tab');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    expect(await saved()).toEqual([
      {
        tipo: 'oh29',
        model: 'component_date',
        lang: 'lg-nolan',
        changes: [{ action: 'set_data', value: [{ start: { year: 1990, month: 5 } }] }],
      },
    ]);
  });

  it('number: the first value is inserted as a number, changed by id, removed when emptied', async () => {
    await mount('component-number', ctx('mus7', 'component_number', 'Height (cm)'), item('mus7', []));
    const input = page.getByRole('spinbutton', { name: 'Height (cm)' });
    await input.fill('12.5');
    await input.press('Tab');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    await input.fill('40');
    await input.press('Tab');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    await input.fill('');
    await input.press('Tab');
    const changes = ((await saved()) as { changes: unknown[] }[]).map((s) => s.changes);
    expect(changes).toEqual([
      [{ action: 'insert', id: null, value: { id: null, lang: 'lg-nolan', value: 12.5 } }],
      // The echo of the insert gave the item its place; the fake store echoes id null back.
      [{ action: 'update', id: null, value: { id: null, lang: 'lg-nolan', value: 40 } }],
      [{ action: 'remove', id: null, value: null }],
    ]);
  });

  it('check box: each tick saves the whole list in the value list order', async () => {
    const yes = { section_tipo: 'dd64', section_id: 1 };
    const no = { section_tipo: 'dd64', section_id: 2 };
    await mount('component-check-box', ctx('mus9', 'component_check_box', 'Materials'), {
      ...item('mus9', [no]),
      datalist: [
        { value: yes, label: 'Wood' },
        { value: no, label: 'Iron' },
      ],
    });
    expect(await page.getByRole('checkbox', { name: 'Iron' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Wood' }).check();
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Iron' }).uncheck();
    const changes = ((await saved()) as { changes: unknown[] }[]).map((s) => s.changes);
    expect(changes).toEqual([
      [{ action: 'set_data', value: [yes, no] }],
      [{ action: 'set_data', value: [yes] }],
    ]);
    // A list without records yet says so.
    await mount('component-check-box', ctx('mus9', 'component_check_box', 'Materials'), {
      ...item('mus9', []),
      datalist: [],
    });
    await page.getByText('Its list of values has no options yet.').waitFor();
  });

  it('date range (date_mode range): from and to saved as {start, end}; an end before the start is refused', async () => {
    await mount(
      'component-date',
      ctx('mus12', 'component_date', 'Production', { properties: { date_mode: 'range' } }),
      item('mus12', []),
    );
    const from = page.getByRole('textbox', { name: 'From' });
    const to = page.getByRole('textbox', { name: 'To' });
    await to.fill('1890');
    await to.press('Tab');
    await page.getByRole('status').getByText('A range needs its start date.').waitFor();
    await from.fill('1900-03');
    await from.press('Tab');
    await page.getByRole('status').getByText('The end of the range comes before its start.').waitFor();
    await to.fill('1910');
    await to.press('Tab');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    expect(await saved()).toEqual([
      {
        tipo: 'mus12',
        model: 'component_date',
        lang: 'lg-nolan',
        changes: [{ action: 'set_data', value: [{ start: { year: 1900, month: 3 }, end: { year: 1910 } }] }],
      },
    ]);
  });

  it('security access: a section row sets every field of the section', async () => {
    await mount(
      'component-security-access',
      { ...ctx('dd774', 'component_security_access', 'Security access'), section_tipo: 'dd234' },
      {
        tipo: 'dd774',
        section_tipo: 'dd234',
        section_id: 2,
        entries: [{ tipo: 'oh9000', section_tipo: 'oh9000', value: 1 }],
      },
    );
    const row = page.getByRole('combobox', { name: 'Level for Interviews' });
    await row.waitFor();
    expect(await page.getByRole('combobox', { name: 'Level for Oral history' }).inputValue()).toBe('1');
    await row.selectOption('2');
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    const [call] = (await saved()) as { changes: { action: string; value: unknown[] }[] }[];
    expect(call!.changes[0]!.action).toBe('set_data');
    expect(call!.changes[0]!.value).toEqual(
      expect.arrayContaining([
        { tipo: 'oh9000', section_tipo: 'oh9000', value: 1 },
        { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
        { tipo: 'oh14', section_tipo: 'oh1', value: 2 },
      ]),
    );
  });

  it('read-only without write access: no input accepts typing', async () => {
    await mount(
      'component-input-text',
      ctx('oh14', 'component_input_text', 'Code', { permissions: 1 }),
      item('oh14', [{ id: 1, lang: 'lg-nolan', value: 'A' }]),
    );
    expect(await page.getByRole('textbox', { name: 'Code' }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: /Add a value/ }).count()).toBe(0);
  });
});
