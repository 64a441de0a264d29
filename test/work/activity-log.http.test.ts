/**
 * The activity log (dd542) through read and count like any section, filtered by user (dd543),
 * action (dd545), where (dd546) and date (dd547), for a caller allowed to read it; never
 * writable. Its texts are filtered from the rows themselves (not in the string side table).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the envelope holds
type Item = any;

const leaf = (component_tipo: string, q: unknown, extra: Record<string, unknown> = {}) => ({
  q,
  path: [{ section_tipo: 'dd542', component_tipo }],
  ...extra,
});
const sqo = (filter?: unknown, extra: Record<string, unknown> = {}) => ({
  section_tipo: ['dd542'],
  limit: 100,
  offset: 0,
  ...(filter ? { filter } : {}),
  ...extra,
});
const read = (filter?: unknown, extra: Record<string, unknown> = {}) => ({
  action: 'read',
  source: { tipo: 'dd542', section_tipo: 'dd542', mode: 'list', lang: 'lg-eng' },
  sqo: sqo(filter, extra),
});
const count = (filter?: unknown) => ({ action: 'count', sqo: sqo(filter) });

const byUser = (id: number) => ({ $and: [leaf('dd543', { section_tipo: 'dd128', section_id: id })] });
const byAction = (what: string) => ({ $and: [leaf('dd545', what, { q_operator: '=' })] });
const sinceYear = (year: number, op = '>=') => ({
  $and: [leaf('dd547', [{ mode: 'start', start: { year } }], { q_operator: op })],
});

function ok(answer: WorkAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

/** The section_ids a list read answers, in its order. */
const idsOf = (data: Item): number[] =>
  data.data.find((d: Item) => d.typo === 'sections').entries.map((l: Item) => l.section_id);

describe.each(workEngineCases())('activity log through read and count ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let ana: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    await insertLoginUser(work.server.db, 4, { username: 'ana', password: 'ana password', profile: 2 });
    root = await rootBrowser(work);
    ana = work.browser();
    expect((await ana.login('ana', 'ana password')).status).toBe(200);
    expect(ok(await root.post({ action: 'create', source: { section_tipo: 'oh1' } }))).toEqual(
      expect.any(Number),
    );
    expect((await ana.post({ dd_api: 'dd_utils_api', action: 'quit' })).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  /** What the log holds, read straight from the table: [section_id, user, action]. */
  const rows = async () =>
    (
      await work.server.db.query<{ section_id: number; who: number; what: string }>(
        `SELECT section_id, (relation->'dd543'->0->>'section_id')::integer AS who,
           string->'dd545'->0->>'value' AS what
         FROM matrix_activity WHERE section_tipo = 'dd542' ORDER BY section_id`,
      )
    ).rows;

  it('counts and lists every entry, and filters by user, action and date', async () => {
    const all = await rows();
    expect(all.map((r) => r.what)).toEqual(expect.arrayContaining(['login', 'new', 'logout']));
    expect(ok(await root.post(count()))).toEqual({ total: all.length });
    expect(idsOf(ok(await root.post(read()))).sort((a, b) => a - b)).toEqual(all.map((r) => r.section_id));

    const anas = all.filter((r) => r.who === 4).map((r) => r.section_id);
    expect(anas).toHaveLength(2); // login, logout
    expect(ok(await root.post(count(byUser(4))))).toEqual({ total: 2 });
    expect(idsOf(ok(await root.post(read(byUser(4))))).sort((a, b) => a - b)).toEqual(anas);

    const logins = all.filter((r) => r.what === 'login').map((r) => r.section_id);
    expect(ok(await root.post(count(byAction('login'))))).toEqual({ total: logins.length });
    expect(idsOf(ok(await root.post(read(byAction('login'))))).sort((a, b) => a - b)).toEqual(logins);

    const year = work.clock.now().getUTCFullYear();
    expect(ok(await root.post(count(sinceYear(year))))).toEqual({ total: all.length });
    expect(ok(await root.post(count(sinceYear(year + 1))))).toEqual({ total: 0 });
    expect(ok(await root.post(count(sinceYear(year, '<'))))).toEqual({ total: 0 });

    const both = { $and: [...byUser(4).$and, ...byAction('logout').$and] };
    expect(idsOf(ok(await root.post(read(both))))).toEqual(
      all.filter((r) => r.who === 4 && r.what === 'logout').map((r) => r.section_id),
    );
  });

  it('text filters (what, where) read the rows themselves: the same answers without the log in the string side table', async () => {
    const { rows: log } = await work.server.db.query<{ section_id: number; what: string; where: string }>(
      `SELECT section_id, string->'dd545'->0->>'value' AS what, string->'dd546'->0->>'value' AS where
       FROM matrix_activity WHERE section_tipo = 'dd542' ORDER BY section_id`,
    );
    // Migration 15: the activity log's texts are not copied to the trigram side table.
    const { rows: side } = await work.server.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM matrix_string_search WHERE section_tipo = 'dd542'`,
    );
    expect(side[0]!.n).toBe('0');
    const ids = (keep: (r: (typeof log)[number]) => boolean) => log.filter(keep).map((r) => r.section_id);
    const found = async (filter: unknown) => {
      const total = ok(await root.post(count(filter))).total;
      const listed = idsOf(ok(await root.post(read(filter)))).sort((a, b) => a - b);
      expect(listed).toHaveLength(total);
      return listed;
    };
    // where = the section a record was created in; case and accents aside, as any text filter.
    const created = ids((r) => r.where === 'oh1');
    expect(created.length).toBeGreaterThan(0);
    expect(await found({ $and: [leaf('dd546', 'OH1', { q_operator: '=' })] })).toEqual(created);
    // contains, begins with, and the two of one row at once.
    expect(await found({ $and: [leaf('dd546', 'h1')] })).toEqual(ids((r) => r.where.includes('h1')));
    expect(await found({ $and: [leaf('dd545', 'log*')] })).toEqual(
      ids((r) => r.what === 'login' || r.what === 'logout'),
    );
    expect(await found({ $and: [leaf('dd545', 'new', { q_operator: '=' }), leaf('dd546', 'oh')] })).toEqual(
      ids((r) => r.what === 'new' && r.where.includes('oh')),
    );
    expect(await found({ $and: [leaf('dd545', 'nothing-logged')] })).toEqual([]);
  });

  it('reads one entry with its values', async () => {
    const [first] = await rows();
    const data = ok(
      await root.post({
        action: 'read',
        source: { tipo: 'dd542', section_tipo: 'dd542', section_id: first!.section_id, mode: 'edit' },
        sqo: {
          section_tipo: ['dd542'],
          filter_by_locators: [{ section_tipo: 'dd542', section_id: first!.section_id }],
        },
      }),
    );
    const what = data.data.find((d: Item) => d.tipo === 'dd545' && d.section_id === first!.section_id);
    expect(what.entries ?? what.value).toEqual([expect.objectContaining({ value: first!.what })]);
  });

  it('refuses every write to the log and a reader without access', async () => {
    const [first] = await rows();
    const before = await rows();
    for (const body of [
      { action: 'create', source: { section_tipo: 'dd542' } },
      { action: 'duplicate', source: { section_tipo: 'dd542', section_id: first!.section_id } },
      { action: 'delete', source: { section_tipo: 'dd542', section_id: first!.section_id } },
      {
        action: 'save',
        source: { section_tipo: 'dd542', section_id: first!.section_id, tipo: 'dd545', lang: 'lg-nolan' },
        data: { changed_data: [{ action: 'set_data', value: [{ value: 'forged' }] }] },
      },
    ]) {
      const answer = await root.post(body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.body.error.code).toBe('perm.section_not_writable');
    }
    const after = await rows();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.some((r) => r.what === 'forged')).toBe(false);

    // The Cataloguer profile has no access to the log: it sees none of it.
    expect((await ana.login('ana', 'ana password')).status).toBe(200);
    expect(ok(await ana.post(count()))).toEqual({ total: 0 });
    const listed = await ana.post(read());
    const sections = listed.body.data?.data?.find((d: Item) => d.typo === 'sections');
    expect(listed.status === 403 || (sections?.entries ?? []).length === 0, JSON.stringify(listed.body)).toBe(
      true,
    );
  });
});
