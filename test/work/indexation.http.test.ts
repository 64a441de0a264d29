/**
 * Indexing transcriptions with thesaurus terms over HTTP on both engines
 * (`dd_component_text_area_api.set_indexation` / `get_indexations`, `dd_ts_api`): a passage's
 * marks in the text and the term's dd96 locator are written in one change (history on both
 * records), re-pointed, removed from both sides; refused without the rights on either side, on
 * a stale text version, with marks that disagree with the terms; a failure injected half-way
 * leaves neither side. The thesaurus tree answers levels and searches with breadcrumbs, and a
 * move that would make a cycle is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile } from '../helpers/work-permissions.js';
import { insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

/** Set by a test: statements matching it fail inside transactions. */
let failInsideTransaction: RegExp | undefined;

function failureInjector(db: SqlClient): SqlClient {
  const tx = (inner: SqlQueryable): SqlQueryable => ({
    query: (sql, params) =>
      failInsideTransaction?.test(sql)
        ? Promise.reject(new Error('injected failure'))
        : inner.query(sql, params),
  });
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => db.transaction((inner) => fn(tx(inner))),
    close: () => db.close(),
  };
}

const TEXT = 'Al principio hablamos de la guerra y después del exilio en Francia.';
const open = (id: number) => `[index-n-${id}--data::data]`;
const close = (id: number) => `[/index-n-${id}--data::data]`;
/** TEXT with `passage` marked by tag `id`. */
const marked = (passage: string, id: number, base = TEXT) =>
  base.replace(passage, `${open(id)}${passage}${close(id)}`);

const setIndexation = (data: Record<string, unknown>, source: Record<string, unknown> = {}) => ({
  dd_api: 'dd_component_text_area_api',
  action: 'set_indexation',
  source: { section_tipo: 'rsc167', section_id: 1, tipo: 'rsc36', lang: 'lg-spa', ...source },
  data,
});

const getIndexations = (source: Record<string, unknown> = {}) => ({
  dd_api: 'dd_component_text_area_api',
  action: 'get_indexations',
  source: { section_tipo: 'rsc167', section_id: 1, tipo: 'rsc36', lang: 'lg-spa', ...source },
});

const ts = (action: string, source: Record<string, unknown> = {}, options?: Record<string, unknown>) => ({
  dd_api: 'dd_ts_api',
  action,
  source: { section_tipo: 'ts1', lang: 'lg-spa', ...source },
  ...(options ? { options } : {}),
});

const term = (id: number) => ({ section_tipo: 'ts1', section_id: id });

describe.each(workEngineCases())('indexation on $engine', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  const db = () => work.server.db;

  const textOf = async (lang = 'lg-spa'): Promise<string> => {
    const { rows } = await db().query<{ items: { lang: string; value: string }[] }>(
      `SELECT string -> 'rsc36' AS items FROM matrix WHERE section_tipo = 'rsc167' AND section_id = 1`,
    );
    return rows[0]!.items.find((i) => i.lang === lang)?.value ?? '';
  };
  const locatorsOf = async (termId: number) => {
    const { rows } = await db().query<{ items: Record<string, unknown>[] | null }>(
      `SELECT relation -> 'hierarchy40' AS items FROM matrix_hierarchy WHERE section_tipo = 'ts1' AND section_id = $1`,
      [termId],
    );
    return rows[0]?.items ?? [];
  };
  const historyCount = async (sectionTipo: string, sectionId: number, tipo: string) => {
    const { rows } = await db().query<{ n: string }>(
      'SELECT count(*) AS n FROM matrix_time_machine WHERE section_tipo = $1 AND section_id = $2 AND tipo = $3',
      [sectionTipo, sectionId, tipo],
    );
    return Number(rows[0]!.n);
  };
  const textVersion = async (browser = root): Promise<number> => {
    const read = await browser.post({
      action: 'read',
      source: {
        typo: 'source',
        type: 'component',
        action: 'get_data',
        model: 'component_text_area',
        tipo: 'rsc36',
        section_tipo: 'rsc167',
        section_id: 1,
        mode: 'edit',
        lang: 'lg-spa',
      },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    return read.body.data.data.find((d: { tipo: string }) => d.tipo === 'rsc36').version;
  };
  const ok = (answer: WorkAnswer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  };
  const login = async (username: string) => {
    const b = work.browser();
    expect((await b.login(username, 'a password for tests')).status).toBe(200);
    return b;
  };

  beforeAll(async () => {
    work = await startTestWorkServer(engine, {}, { wrapDb: failureInjector });
    const put = (st: string, id: number, values: Record<string, unknown[]>) =>
      insertRecordValues(db(), ontology, st, id, values);
    await put('rsc167', 1, {
      rsc36: [text(TEXT, 'lg-spa', 1), text('At first we spoke of the war.', 'lg-eng', 2)],
    });
    await put('oh1', 1, { oh14: [text('OH-1')], oh25: [{ ...locator('oh25', 'rsc167', 1), id: 1 }] });
    await put('ts1', 1, {
      hierarchy25: [text('Guerra', 'lg-spa', 1), text('War', 'lg-eng', 2)],
      hierarchy49: [{ ...locator('hierarchy49', 'ts1', 2, 'dd48'), id: 1 }],
    });
    await put('ts1', 2, {
      hierarchy25: [text('Guerra civil', 'lg-spa', 1)],
      hierarchy36: [{ ...locator('hierarchy36', 'ts1', 1, 'dd47'), id: 1 }],
      hierarchy49: [{ ...locator('hierarchy49', 'ts1', 4, 'dd48'), id: 1 }],
    });
    await put('ts1', 3, { hierarchy25: [text('Exilio', 'lg-spa', 1)] });
    await put('ts1', 4, {
      hierarchy25: [text('Batalla del Ebro', 'lg-spa', 1)],
      hierarchy36: [{ ...locator('hierarchy36', 'ts1', 2, 'dd47'), id: 1 }],
    });
    // A cataloguer as the default profile makes one (saves oral history and resources, reads
    // the thesaurus) and an indexer who may also write the terms' indexations.
    const cataloguer = [
      ...accessItemsUnder(ontology, 'oh9000', 2),
      ...accessItemsUnder(ontology, 'rsc9000', 2),
      ...accessItemsUnder(ontology, 'dd100', 1),
    ];
    await insertProfile(db(), 5, cataloguer);
    await insertProfile(db(), 6, [
      ...cataloguer.filter((i) => i.tipo !== 'hierarchy40'),
      { tipo: 'hierarchy40', section_tipo: 'ts1', value: 2 },
    ]);
    // An indexer who may write the terms' indexations but only read the transcriptions.
    await insertProfile(db(), 7, [
      ...accessItemsUnder(ontology, 'rsc9000', 1),
      ...accessItemsUnder(ontology, 'dd100', 1).filter((i) => i.tipo !== 'hierarchy40'),
      { tipo: 'hierarchy40', section_tipo: 'ts1', value: 2 },
    ]);
    for (const [id, profile] of [
      [20, 5],
      [21, 6],
      [22, 7],
    ] as const) {
      await insertLoginUser(db(), id, {
        username: `user${id}`,
        password: 'a password for tests',
        profile,
        projects: [1],
      });
    }
    root = work.browser();
    expect((await root.login('root', TEST_ROOT_PASSWORD)).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('indexes a passage: the marks in the text and the locator in each term, in one change with history on both', async () => {
    const before = await textVersion();
    const textHistory = await historyCount('rsc167', 1, 'rsc36');
    const indexer = await login('user21');
    const value = marked('la guerra', 1);
    const data = ok(
      await indexer.post(setIndexation({ tag_id: 1, value, version: before, terms: [term(2), term(3)] })),
    );
    expect(data.tag_id).toBe(1);
    expect(data.added).toEqual([term(2), term(3)]);
    expect(data.terms.map((t: { label: string }) => t.label)).toEqual(['Guerra civil', 'Exilio']);
    expect(data.terms[0].path.map((t: { label: string }) => t.label)).toEqual(['Guerra']);
    expect(data.version).toBeGreaterThan(before);

    expect(await textOf()).toBe(value);
    // The other language's text is untouched.
    expect(await textOf('lg-eng')).toBe('At first we spoke of the war.');
    for (const id of [2, 3]) {
      expect(await locatorsOf(id)).toEqual([
        expect.objectContaining({
          type: 'dd96',
          section_tipo: 'rsc167',
          section_id: 1,
          tag_id: '1',
          tag_component_tipo: 'rsc36',
          from_component_tipo: 'hierarchy40',
          // The interview holding the recording (its oh25 links it).
          section_top_tipo: 'oh1',
          section_top_id: 1,
        }),
      ]);
      expect(await historyCount('ts1', id, 'hierarchy40')).toBe(1);
    }
    expect(await historyCount('rsc167', 1, 'rsc36')).toBe(textHistory + 1);
    // Each write has its activity row, by the indexer.
    const { rows } = await db().query<{ n: string }>(
      `SELECT count(*) AS n FROM matrix_activity
        WHERE created_by = 21 AND string -> 'dd545' -> 0 ->> 'value' = 'save'`,
    );
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(3);

    const listed = ok(await indexer.post(getIndexations()));
    expect(listed.tags).toEqual([
      expect.objectContaining({
        tag_id: 1,
        terms: [
          expect.objectContaining({ section_id: 2, label: 'Guerra civil' }),
          expect.objectContaining({ section_id: 3, label: 'Exilio' }),
        ],
      }),
    ]);
    expect(listed.next_tag_id).toBe(2);
    expect(listed.may_index).toBe(true);
    // A default cataloguer reads the indexations but is not offered indexing.
    const cataloguer = await login('user20');
    expect(ok(await cataloguer.post(getIndexations())).may_index).toBe(false);
  });

  it('two passages of one transcription are two locators of the same term', async () => {
    const value = marked('exilio', 2, await textOf());
    ok(await root.post(setIndexation({ tag_id: 2, value, version: await textVersion(), terms: [term(3)] })));
    expect((await locatorsOf(3)).map((l) => l.tag_id)).toEqual(['1', '2']);
  });

  it('re-points a passage (other terms) without touching the text', async () => {
    const version = await textVersion();
    const data = ok(await root.post(setIndexation({ tag_id: 1, terms: [term(3), term(4)] })));
    expect(data.added).toEqual([term(4)]);
    expect(data.removed).toEqual([term(2)]);
    expect(await locatorsOf(2)).toEqual([]);
    expect((await locatorsOf(4)).map((l) => l.tag_id)).toEqual(['1']);
    expect(await textVersion()).toBe(version);
  });

  it('removes a passage: its marks and every term locator, in one change', async () => {
    const value = (await textOf()).replace(open(1), '').replace(close(1), '');
    const data = ok(
      await root.post(setIndexation({ tag_id: 1, value, version: await textVersion(), terms: [] })),
    );
    expect(data.removed).toEqual([term(3), term(4)]);
    expect(await textOf()).not.toContain('index-n-1-');
    expect(await locatorsOf(4)).toEqual([]);
    // The other passage stays on both sides.
    expect((await locatorsOf(3)).map((l) => l.tag_id)).toEqual(['2']);
    expect(await textOf()).toContain(open(2));
  });

  it('removing an indexation takes its marks out of every translation of the text', async () => {
    ok(
      await root.post(
        setIndexation({
          tag_id: 3,
          value: marked('Francia', 3, await textOf()),
          version: await textVersion(),
          terms: [term(4)],
        }),
      ),
    );
    // The English translation marks the same passage with the same tag id.
    ok(
      await root.post({
        action: 'save',
        source: { tipo: 'rsc36', section_tipo: 'rsc167', section_id: 1, lang: 'lg-eng', mode: 'edit' },
        data: {
          changed_data: [
            { action: 'update', id: 2, value: `At first we spoke of ${open(3)}the war${close(3)}.` },
          ],
        },
      }),
    );
    // Removed without sending a text: the server takes the marks out of both languages.
    const data = ok(await root.post(setIndexation({ tag_id: 3, terms: [] })));
    expect(data.removed).toEqual([term(4)]);
    expect(await textOf()).not.toContain('index-n-3-');
    expect(await textOf('lg-eng')).toBe('At first we spoke of the war.');
    expect(await locatorsOf(4)).toEqual([]);
  });

  it('indexes the whole interview: a locator with no tag, listed apart from the passages', async () => {
    ok(
      await root.post(
        setIndexation({ terms: [term(1)] }, { section_tipo: 'oh1', section_id: 1, tipo: undefined }),
      ),
    );
    expect(await locatorsOf(1)).toEqual([
      expect.objectContaining({ type: 'dd96', section_tipo: 'oh1', section_id: 1 }),
    ]);
    expect((await locatorsOf(1))[0]).not.toHaveProperty('tag_id');
    const listed = ok(
      await root.post(getIndexations({ section_tipo: 'oh1', section_id: 1, tipo: undefined })),
    );
    expect(listed.tags).toEqual([
      expect.objectContaining({ tag_id: null, terms: [expect.objectContaining({ label: 'Guerra' })] }),
    ]);
    expect(listed.indexable).toBe(true);
    // A recording indexes passages of its transcription, not itself as a whole.
    expect(ok(await root.post(getIndexations({ tipo: undefined }))).indexable).toBe(false);
    ok(
      await root.post(setIndexation({ terms: [] }, { section_tipo: 'oh1', section_id: 1, tipo: undefined })),
    );
    expect(await locatorsOf(1)).toEqual([]);
  });

  it('refuses without save rights on the terms (a default cataloguer) or on the text, and writes nothing', async () => {
    const textBefore = await textOf();
    const history = await historyCount('rsc167', 1, 'rsc36');
    const cataloguer = await login('user20');
    const refused = await cataloguer.post(
      setIndexation({
        tag_id: 7,
        value: marked('Francia', 7, textBefore),
        version: await textVersion(),
        terms: [term(3)],
      }),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toMatch(/^perm\./);
    const noText = await login('user22');
    const refusedText = await noText.post(
      setIndexation({ tag_id: 7, value: marked('Francia', 7, textBefore), terms: [term(3)] }),
    );
    expect(refusedText.status).toBe(403);
    expect(await textOf()).toBe(textBefore);
    expect(await historyCount('rsc167', 1, 'rsc36')).toBe(history);
    expect((await locatorsOf(3)).map((l) => l.tag_id)).toEqual(['2']);
  });

  it('refuses a stale text version with 409 record.stale_write, and writes nothing', async () => {
    const version = await textVersion();
    // Someone saves the text meanwhile.
    const current = await textOf();
    ok(
      await root.post({
        action: 'save',
        source: { tipo: 'rsc36', section_tipo: 'rsc167', section_id: 1, lang: 'lg-spa', mode: 'edit' },
        data: { changed_data: [{ action: 'update', id: 1, value: `${current} Fin.` }] },
      }),
    );
    const stale = await root.post(
      setIndexation({ tag_id: 8, value: marked('Francia', 8, current), version, terms: [term(3)] }),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('record.stale_write');
    expect(await textOf()).toBe(`${current} Fin.`);
    expect((await locatorsOf(3)).map((l) => l.tag_id)).toEqual(['2']);
  });

  it('refuses marks that disagree with the terms, with precise 400s', async () => {
    const current = await textOf();
    const missing = await root.post(setIndexation({ tag_id: 9, value: current, terms: [term(3)] }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation.invalid_value');
    expect(missing.body.error.message).toContain('must mark the passage once');
    const leftover = await root.post(setIndexation({ tag_id: 2, value: current, terms: [] }));
    expect(leftover.status).toBe(400);
    expect(leftover.body.error.message).toContain('still holds the marks of tag 2');
    const repoint = await root.post(setIndexation({ tag_id: 40, terms: [term(3)] }));
    expect(repoint.status).toBe(400);
    expect(repoint.body.error.message).toContain('no passage marked with tag 40');
    const notText = await root.post(setIndexation({ tag_id: 1, terms: [] }, { tipo: 'rsc54' }));
    expect(notText.status).toBe(400);
    expect(notText.body.error.message).toContain('component_text_area');
    const badTerm = await root.post(
      setIndexation({ tag_id: 2, terms: [{ section_tipo: 'rsc197', section_id: 1 }] }),
    );
    expect(badTerm.status).toBe(400);
    expect(badTerm.body.error.message).toContain('no indexation component');
    expect((await locatorsOf(3)).map((l) => l.tag_id)).toEqual(['2']);
  });

  it('a failure injected after the text is written leaves neither the text nor the locator', async () => {
    const current = await textOf();
    const history = await historyCount('rsc167', 1, 'rsc36');
    // The text's write goes first; the term's table write fails.
    failInsideTransaction = /UPDATE matrix_hierarchy/;
    try {
      const failed = await root.post(
        setIndexation({ tag_id: 10, value: marked('Francia', 10, current), terms: [term(3)] }),
      );
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      failInsideTransaction = undefined;
    }
    expect(await textOf()).toBe(current);
    expect(await historyCount('rsc167', 1, 'rsc36')).toBe(history);
    expect((await locatorsOf(3)).map((l) => l.tag_id)).toEqual(['2']);
  });

  it('answers the thesaurus tree one level at a time and searches with breadcrumbs', async () => {
    const roots = ok(await root.post(ts('get_children_data')));
    expect(roots.terms.map((t: { label: string; children: number }) => [t.label, t.children])).toEqual([
      ['Exilio', 0],
      ['Guerra', 1],
    ]);
    const children = ok(await root.post(ts('get_children_data', { section_id: 1 })));
    expect(children.terms.map((t: { label: string }) => t.label)).toEqual(['Guerra civil']);
    const found = ok(await root.post(ts('search_terms', {}, { q: 'ebro' })));
    expect(found.terms).toHaveLength(1);
    expect(found.terms[0].label).toBe('Batalla del Ebro');
    expect(found.terms[0].path.map((t: { label: string }) => t.label)).toEqual(['Guerra', 'Guerra civil']);
    // A language the term lacks falls back to another, and says which.
    const english = ok(await root.post(ts('get_children_data', { lang: 'lg-eng', section_id: 1 })));
    expect(english.terms[0]).toMatchObject({ label: 'Guerra civil', lang: 'lg-spa' });
    const notThesaurus = await root.post(ts('get_children_data', { section_tipo: 'oh1' }));
    expect(notThesaurus.status).toBe(400);
    expect(notThesaurus.body.error.message).toContain('is not a thesaurus');
  });

  it('moves a term with a plain save of its parent, and refuses a move under its own descendant', async () => {
    const move = (termId: number, parent: number) =>
      root.post({
        action: 'save',
        source: {
          tipo: 'hierarchy36',
          section_tipo: 'ts1',
          section_id: termId,
          lang: 'lg-nolan',
          mode: 'edit',
        },
        data: {
          changed_data: [{ action: 'set_data', value: [{ section_tipo: 'ts1', section_id: parent }] }],
        },
      });
    const cycle = await move(1, 4);
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.code).toBe('validation.hierarchy_cycle');
    expect(cycle.body.error.message).toContain(
      'a term cannot be moved under itself or one of its descendants',
    );
    ok(await move(4, 3));
    const under = ok(await root.post(ts('get_children_data', { section_id: 3 })));
    expect(under.terms.map((t: { label: string }) => t.label)).toEqual(['Batalla del Ebro']);
    const civil = ok(await root.post(ts('get_children_data', { section_id: 2 })));
    expect(civil.terms).toEqual([]);
  });
});
