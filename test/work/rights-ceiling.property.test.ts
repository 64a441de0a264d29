/**
 * Property: whatever a non-global administrator sends (create, duplicate, delete in both modes,
 * save with every change kind and random values on every user and profile component, random
 * profile grants, targets among root, global admins, users and profiles above and below them),
 * no account ends with more rights than the actor holds, over HTTP on both engines.
 *
 * Rights are computed from the database here, independently of the server's code, the way the
 * permissions engine reads them: a user's global-admin flag (dd244 yes, or root), its levels from
 * the first profile it lists (dd1725 -> dd774), its projects (dd170). After each run, for every
 * account x (every run starts from the same state): root and the global admins are exactly as they were; x is a global admin only if it
 * was one; each level of x is at most the higher of its initial level and the actor's (at most its
 * initial level when x is in a project the actor is not in); each
 * project of x was x's or is the actor's; each grant of each profile likewise. No answer is a 5xx.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessItem, accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import type { SqlQueryable } from '../../src/work/store/sql-client.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile, insertProject, insertUser } from '../helpers/work-permissions.js';
import { startTestWorkServer, type WorkBrowser, type WorkServerHandle } from '../helpers/work-server.js';

const ontology = loadOntology();
const PASSWORD = 'rights property password';

const ACTOR = 100;
const ACTOR_PROFILE = 100;
const LOW_PROFILE = 101;
const HIGH_PROFILE = 102;
const ACTOR_PROJECTS = [1, 2];
/** What a run may write (users, profiles, projects, their counters), reset before each run. */
const RESET_TABLES = ['matrix_users', 'matrix_profiles', 'matrix_projects', 'matrix_counter'];

const raise = (items: AccessItem[], tipo: string, value: 0 | 1 | 2 | 3) =>
  items.map((i) => (i.tipo === tipo ? { ...i, value } : i));

/** The actor: 2 on users, 3 on profiles, 2 on projects, 2 on oh1 (3 on oh14, 1 on oh16), 1 on rsc197. */
const ACTOR_GRANTS: AccessItem[] = [
  ...accessItemsUnder(ontology, 'dd128', 2),
  ...accessItemsUnder(ontology, 'dd234', 3),
  ...accessItemsUnder(ontology, 'dd153', 2),
  ...raise(raise(accessItemsUnder(ontology, 'oh1', 2), 'oh14', 3), 'oh16', 1),
  ...accessItemsUnder(ontology, 'rsc197', 1),
];

interface Rights {
  globalAdmin: boolean;
  levels: Map<string, number>;
  projects: Set<number>;
}

interface Snapshot {
  users: Map<number, { rights: Rights; row: string }>;
  profiles: Map<number, Map<string, number>>;
}

const lk = (sectionTipo: unknown, tipo: unknown) => `${String(sectionTipo)} ${String(tipo)}`;

/** A locator's integer id into `sectionTipo` (numbers, or numeric strings as imports have them). */
function idsOf(value: unknown, sectionTipo: string): number[] {
  if (!Array.isArray(value)) return [];
  const out: number[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const l = item as { section_tipo?: unknown; section_id?: unknown };
    if (l.section_tipo !== sectionTipo) continue;
    const id =
      typeof l.section_id === 'string' && /^-?\d+$/.test(l.section_id) ? Number(l.section_id) : l.section_id;
    if (typeof id === 'number' && Number.isInteger(id)) out.push(id);
  }
  return out;
}

function grantsMap(value: unknown): Map<string, number> {
  const levels = new Map<string, number>();
  for (const item of Array.isArray(value) ? value : []) {
    const { section_tipo, tipo, value: v } = (item ?? {}) as Record<string, unknown>;
    if (typeof v !== 'number' || ![0, 1, 2, 3].includes(v)) continue;
    const k = lk(section_tipo, tipo);
    levels.set(k, Math.min(levels.get(k) ?? v, v));
  }
  return levels;
}

async function snapshot(db: SqlQueryable): Promise<Snapshot> {
  const profiles = new Map<number, Map<string, number>>();
  const p = await db.query<{ section_id: number; access: unknown }>(
    `SELECT section_id, misc -> 'dd774' AS access FROM matrix_profiles WHERE section_tipo = 'dd234'`,
  );
  for (const row of p.rows) profiles.set(Number(row.section_id), grantsMap(row.access));
  const users = new Map<number, { rights: Rights; row: string }>();
  const u = await db.query<{ section_id: number; relation: Record<string, unknown>; row: string }>(
    `SELECT section_id, relation,
       jsonb_build_array(string, relation, date, number, media, misc, meta)::text || coalesce(modified_at::text, '') AS row
     FROM matrix_users WHERE section_tipo = 'dd128'`,
  );
  for (const row of u.rows) {
    const id = Number(row.section_id);
    const relation = row.relation ?? {};
    const first = idsOf(relation.dd1725, 'dd234')[0];
    users.set(id, {
      row: row.row,
      rights: {
        // Whether or not the account is active: an inactive global admin is one re-activation away.
        globalAdmin: id === -1 || idsOf(relation.dd244, 'dd64').includes(1),
        levels: first === undefined ? new Map() : new Map(profiles.get(first) ?? []),
        projects: new Set(idsOf(relation.dd170, 'dd153')),
      },
    });
  }
  return { users, profiles };
}

const actorLevels = grantsMap(ACTOR_GRANTS);

/** The violations of the property in `now` against `initial`. */
function violations(initial: Snapshot, now: Snapshot): string[] {
  const out: string[] = [];
  for (const [id, before] of initial.users) {
    if (!before.rights.globalAdmin) continue;
    const after = now.users.get(id);
    if (!after) out.push(`global admin dd128 ${id} was deleted`);
    else if (after.row !== before.row) out.push(`global admin dd128 ${id} was changed`);
  }
  const levelsAbove = (what: string, levels: Map<string, number>, was: Map<string, number> | undefined) => {
    for (const [k, level] of levels) {
      const ceiling = Math.max(was?.get(k) ?? 0, actorLevels.get(k) ?? 0);
      if (level > ceiling) out.push(`${what}: level ${level} on ${k}, above ${ceiling}`);
    }
  };
  for (const [id, after] of now.users) {
    const before = initial.users.get(id)?.rights;
    if (after.rights.globalAdmin && !before?.globalAdmin) out.push(`dd128 ${id} became a global admin`);
    if (before?.globalAdmin) continue;
    // A user in a project the actor is not in gains no level at all: the actor has no rights to
    // give there (a raised profile would raise them in that project).
    const foreignProject = [...after.rights.projects].some((p) => !ACTOR_PROJECTS.includes(p));
    if (foreignProject) {
      for (const [k, level] of after.rights.levels) {
        const was = before?.levels.get(k) ?? 0;
        if (level > was)
          out.push(`dd128 ${id} (outside the actor's projects): level ${level} on ${k}, was ${was}`);
      }
    }
    levelsAbove(`dd128 ${id}`, after.rights.levels, before?.levels);
    for (const p of after.rights.projects) {
      if (!before?.projects.has(p) && !ACTOR_PROJECTS.includes(p)) out.push(`dd128 ${id}: project ${p}`);
    }
  }
  for (const [id, grants] of now.profiles) levelsAbove(`dd234 ${id}`, grants, initial.profiles.get(id));
  return out;
}

// ---- random requests -------------------------------------------------------------------------

/** The fixtures' ids, then ids the runs' creates and duplicates get (counters start at 1 and 3). */
const USER_IDS = [-1, 100, 101, 102, 103, 104, 105, 106, 107];
const NEW_USER_IDS = [1, 2, 3, 4];
const PROFILE_IDS = [1, 2, 100, 101, 102];
const NEW_PROFILE_IDS = [3, 4, 5, 6];
const GRANT_TARGETS: [string, string][] = [
  ['oh1', 'oh1'],
  ['oh1', 'oh14'],
  ['oh1', 'oh16'],
  ['oh1', 'oh22'],
  ['dd128', 'dd128'],
  ['dd128', 'dd244'],
  ['dd128', 'dd1725'],
  ['dd234', 'dd234'],
  ['dd234', 'dd774'],
  ['dd153', 'dd153'],
  ['dd88', 'dd88'],
  ['rsc197', 'rsc197'],
];

const grantArb = fc
  .tuple(fc.constantFrom(...GRANT_TARGETS), fc.integer({ min: 0, max: 3 }))
  .map(([[section_tipo, tipo], value]) => ({ section_tipo, tipo, value }));
const locatorTo = (sectionTipo: string, ids: number[]) =>
  fc.oneof(
    fc.constantFrom(...ids).map((section_id) => ({ section_tipo: sectionTipo, section_id })),
    fc
      .constantFrom(...ids)
      .map((section_id) => ({ section_tipo: sectionTipo, section_id: String(section_id) })),
  );
const text = fc.constantFrom('a', 'b', 'carol', 'dave').map((value) => ({ value }));
const password = fc.constantFrom('password one', 'password two').map((value) => ({ value }));

/** Each component the actor may write, with values of its kind. */
const COMPONENTS: { section: string; tipo: string; value: fc.Arbitrary<unknown> }[] = [
  { section: 'dd128', tipo: 'dd132', value: text },
  { section: 'dd128', tipo: 'dd452', value: text },
  { section: 'dd128', tipo: 'dd133', value: password },
  { section: 'dd128', tipo: 'dd1725', value: locatorTo('dd234', [...PROFILE_IDS, 3, 4]) },
  { section: 'dd128', tipo: 'dd170', value: locatorTo('dd153', [1, 2, 3]) },
  { section: 'dd128', tipo: 'dd244', value: locatorTo('dd64', [1, 2]) },
  { section: 'dd128', tipo: 'dd131', value: locatorTo('dd64', [1, 2]) },
  { section: 'dd234', tipo: 'dd237', value: text },
  { section: 'dd234', tipo: 'dd774', value: grantArb },
];

const changeArb = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc.record({ action: fc.constant('insert'), value }),
    fc.record({ action: fc.constant('update'), key: fc.integer({ min: 0, max: 2 }), value }),
    fc.record({ action: fc.constant('remove'), key: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ action: fc.constant('remove'), value }),
    fc.record({ action: fc.constant('set_data'), value: fc.array(value, { maxLength: 4 }) }),
    fc.record({
      action: fc.constant('sort_data'),
      value: fc.record({
        source_key: fc.integer({ min: 0, max: 2 }),
        target_key: fc.integer({ min: 0, max: 2 }),
      }),
    }),
    fc.record({ action: fc.constant('add_new_element'), value: fc.constantFrom('dd234', 'dd153', 'dd128') }),
    fc.constant({ action: 'clear' }),
  );

const idIn = (section: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(section === 'dd128' ? USER_IDS : PROFILE_IDS)) },
    { weight: 1, arbitrary: fc.constantFrom(...(section === 'dd128' ? NEW_USER_IDS : NEW_PROFILE_IDS)) },
  );

const requestArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...COMPONENTS).chain((c) =>
      fc.record({
        action: fc.constant('save'),
        source: fc.record({
          type: fc.constant('component'),
          tipo: fc.constant(c.tipo),
          section_tipo: fc.constant(c.section),
          section_id: idIn(c.section),
          mode: fc.constant('edit'),
          lang: fc.constant('lg-nolan'),
        }),
        data: fc.record({ changed_data: fc.array(changeArb(c.value), { minLength: 1, maxLength: 3 }) }),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      action: fc.constant('create'),
      source: fc.record({ section_tipo: fc.constantFrom('dd128', 'dd234') }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('dd128', 'dd234').chain((section) =>
      fc.record({
        action: fc.constant('duplicate'),
        source: fc.record({ section_tipo: fc.constant(section), section_id: idIn(section) }),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('dd128', 'dd234', 'dd234', 'dd153').chain((section) =>
      fc.record({
        action: fc.constant('delete'),
        source: fc.record({
          section_tipo: fc.constant(section),
          section_id: section === 'dd153' ? fc.constantFrom(1, 2, 3) : idIn(section),
          delete_mode: fc.constantFrom('delete_data', 'delete_record'),
        }),
      }),
    ),
  },
);

describe.each(workEngineCases())('rights ceiling property ($engine)', (engine) => {
  let work: WorkServerHandle;
  let actor: WorkBrowser;
  let initial: Snapshot;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertProject(db, 2);
    await insertProject(db, 3);
    await insertProfile(db, ACTOR_PROFILE, ACTOR_GRANTS);
    await insertProfile(db, LOW_PROFILE, accessItemsUnder(ontology, 'oh1', 1));
    await insertProfile(db, HIGH_PROFILE, [
      ...accessItemsUnder(ontology, 'oh1', 3),
      ...accessItemsUnder(ontology, 'dd88', 2),
    ]);
    await insertLoginUser(db, ACTOR, {
      username: 'actor',
      password: PASSWORD,
      profile: ACTOR_PROFILE,
      projects: ACTOR_PROJECTS,
    });
    await insertUser(db, 101, { projects: [3], globalAdmin: true });
    await insertUser(db, 102, { profile: 1, projects: [1] });
    await insertUser(db, 103, { profile: 2, projects: [1] });
    await insertUser(db, 104, { profile: LOW_PROFILE, projects: [1] });
    await insertUser(db, 105, { profile: LOW_PROFILE, projects: [3] });
    await insertUser(db, 106, { profile: LOW_PROFILE, projects: [1] });
    // 106 lists the low profile first, the high one second: losing the first would raise it.
    await db.query(
      `UPDATE matrix_users SET relation = jsonb_set(relation, '{dd1725}', relation -> 'dd1725' || $1::jsonb)
       WHERE section_tipo = 'dd128' AND section_id = 106`,
      [
        JSON.stringify([
          { type: 'dd151', section_tipo: 'dd234', section_id: HIGH_PROFILE, from_component_tipo: 'dd1725' },
        ]),
      ],
    );
    // An inactive global admin: still one.
    await insertUser(db, 107, { profile: 2, projects: [1], globalAdmin: true, active: false });
    initial = await snapshot(db);
    // Every run starts from this state (independent runs: a counterexample shrinks to the
    // requests that cause it): the tables a run may write, kept aside.
    for (const table of RESET_TABLES)
      await db.query(`CREATE TABLE ceiling_${table} AS SELECT * FROM ${table}`);
    actor = work.browser();
    expect((await actor.login('actor', PASSWORD)).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('no account ends with more rights than the non-global admin who wrote it', async () => {
    const db = work.server.db;
    let refusals = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: 1, maxLength: 6 }), async (requests) => {
        await db.transaction(async (tx) => {
          for (const table of RESET_TABLES) {
            await tx.query(`DELETE FROM ${table}`);
            await tx.query(`INSERT INTO ${table} SELECT * FROM ceiling_${table}`);
          }
        });
        for (const body of requests) {
          const answer = await actor.post(body);
          expect(answer.status, JSON.stringify({ body, answer: answer.body })).toBeLessThan(500);
          if (answer.status === 200) accepted += 1;
          else refusals += 1;
        }
        const found = violations(initial, await snapshot(db));
        expect(found, JSON.stringify(requests)).toEqual([]);
      }),
      { numRuns: 100 },
    );
    // The runs did both: writes went through and the ceiling refused some.
    expect(accepted).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
  }, 120_000);
});
