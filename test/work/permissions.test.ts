import { afterEach, describe, expect, it } from 'vitest';
import {
  assertCan,
  assertGlobalAdmin,
  isGlobalAdmin,
  PermissionDenied,
  PermissionsEngine,
  REQUIRED_LEVEL,
} from '../../src/work/auth/permissions.js';
import { bootstrapDatabase } from '../../src/work/bootstrap/bootstrap-database.js';
import type { AccessItem, AccessLevel } from '../../src/work/bootstrap/default-profiles.js';
import { defaultOntologySource } from '../../src/work/ontology/default-ontology.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { insertRecord } from '../../src/work/store/records.js';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import {
  insertInterview,
  insertProfile,
  insertProject,
  insertUser,
  setProfileAccess,
  setUserRelations,
} from '../helpers/work-permissions.js';

const ontology = loadOntology();
const LEVELS = [0, 1, 2, 3] as const;
const ACTIONS = Object.keys(REQUIRED_LEVEL) as (keyof typeof REQUIRED_LEVEL)[];

/** The oh1 section item and its title component oh16 at one level. */
const interviewAccess = (value: AccessLevel): AccessItem[] => [
  { tipo: 'oh1', section_tipo: 'oh1', value },
  { tipo: 'oh16', section_tipo: 'oh1', value },
];

/** Counts the statements an engine sends, to prove what is cached. */
function counting(db: SqlQueryable): SqlQueryable & { count: number } {
  const counter = {
    count: 0,
    query: (sql: string, params?: readonly unknown[]) => {
      counter.count += 1;
      return db.query(sql, params);
    },
  };
  return counter as SqlQueryable & { count: number };
}

describe.each(workEngineCases())('permissions ($engine)', ({ freshDatabase }) => {
  let fresh: FreshDatabase | undefined;
  afterEach(async () => {
    await fresh?.dispose();
    fresh = undefined;
  });

  async function start(): Promise<SqlClient> {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await bootstrapDatabase(db, ontology, { rootPassword: 'permissions test' });
    return db;
  }

  it('levels 0..3 decide read, create, duplicate, delete and save', async () => {
    const db = await start();
    // Profiles 10..13 give levels 0..3 on oh1; users 10..13 use them.
    for (const level of LEVELS) {
      await insertProfile(db, 10 + level, interviewAccess(level));
      await insertUser(db, 10 + level, { profile: 10 + level, projects: [1] });
    }
    const engine = new PermissionsEngine(db, ontology);
    for (const level of LEVELS) {
      const access = await engine.forUser(10 + level);
      expect(access.active).toBe(true);
      expect(isGlobalAdmin(access)).toBe(false);
      expect(access.level('oh1')).toBe(level);
      expect(access.level('oh1', 'oh16')).toBe(level);
      // Absent items are 0: another component, another section, a tipo of another section.
      expect(access.level('oh1', 'oh23')).toBe(0);
      expect(access.level('rsc197')).toBe(0);
      expect(access.level('oh16', 'oh16')).toBe(0);
      expect(access.projectIds).toEqual([1]);
      for (const action of ACTIONS) {
        const allowed = level >= REQUIRED_LEVEL[action];
        expect(access.can(action, 'oh1'), `level ${level} ${action}`).toBe(allowed);
        expect(access.can(action, 'oh1', 'oh16'), `level ${level} ${action} oh16`).toBe(allowed);
        expect(access.can(action, 'rsc197')).toBe(false);
        if (allowed) assertCan(access, action, 'oh1', 'oh16');
        else expect(() => assertCan(access, action, 'oh1', 'oh16')).toThrow(PermissionDenied);
      }
      expect(() => assertGlobalAdmin(access)).toThrow(PermissionDenied);
    }
    expect(ACTIONS.filter((a) => REQUIRED_LEVEL[a] === 1)).toEqual(['read']);

    // The bootstrap profiles are read the same way.
    await insertUser(db, 20, { profile: 2, projects: [1] });
    const cataloguer = await engine.forUser(20);
    expect(cataloguer.level('oh1', 'oh24')).toBe(2);
    expect(cataloguer.level('ts1', 'hierarchy25')).toBe(1);
    expect(cataloguer.can('save', 'ts1', 'hierarchy25')).toBe(false);
    expect(cataloguer.level('dd88')).toBe(0);
    expect(cataloguer.level('dd128', 'dd132')).toBe(0);

    // No profile, or a profile that does not exist: nothing.
    await insertUser(db, 21, { projects: [1] });
    await insertUser(db, 22, { profile: 99, projects: [1] });
    for (const id of [21, 22]) {
      const access = await engine.forUser(id);
      expect(access.active).toBe(true);
      expect(access.level('oh1')).toBe(0);
    }
  });

  it('root and global admins pass every check; only they are global admins', async () => {
    const db = await start();
    await insertProfile(db, 10, interviewAccess(0));
    await insertUser(db, 10, { profile: 10, globalAdmin: true });
    await insertUser(db, 11, { profile: 10, globalAdmin: false, projects: [1] });
    await insertInterview(db, 1, []);
    const engine = new PermissionsEngine(db, ontology);

    const root = await engine.forUser(-1);
    const admin = await engine.forUser(10);
    for (const access of [root, admin]) {
      expect(isGlobalAdmin(access)).toBe(true);
      assertGlobalAdmin(access);
      for (const [section, tipo] of [
        ['oh1', 'oh16'],
        ['dd88', 'dd88'],
        ['dd234', 'dd774'],
        ['oh1', undefined],
      ]) {
        expect(access.level(section!, tipo)).toBe(3);
        for (const action of ACTIONS) expect(access.can(action, section!, tipo)).toBe(true);
      }
      // A record in no project is still theirs; searches are not limited.
      expect(await engine.recordInScope(access, { section_tipo: 'oh1', section_id: 1 })).toBe(true);
      expect(engine.projectScope(access, 'oh1')).toEqual({ kind: 'all' });
      expect(engine.projectScopeCondition(access, 'oh1', 1)).toBeUndefined();
    }
    const plain = await engine.forUser(11);
    expect(isGlobalAdmin(plain)).toBe(false);
    expect(() => assertGlobalAdmin(plain)).toThrow(expect.objectContaining({ reason: 'global_admin' }));
  });

  it("judges with the request's ontology, not the one the engine was built with", async () => {
    const db = await start();
    // The request's ontology has a section the engine's fallback does not, limited by projects.
    const source = defaultOntologySource();
    const withRecordings = loadOntology({
      ...source,
      nodes: [
        ...source.nodes,
        { tipo: 'oh8801', parent: 'oh0', model: 'section', label: { 'lg-eng': 'Recordings' } },
        {
          tipo: 'oh8807',
          parent: 'oh8801',
          model: 'component_filter',
          label: { 'lg-eng': 'Projects' },
          target_section_tipo: ['dd153'],
        },
      ],
    });
    await insertProfile(db, 10, [{ tipo: 'oh8801', section_tipo: 'oh8801', value: 2 }]);
    await insertUser(db, 10, { profile: 10, projects: [1] });
    const locator = { type: 'dd675', section_tipo: 'dd153', section_id: 2, from_component_tipo: 'oh8807' };
    await insertRecord(
      db,
      'matrix',
      { section_tipo: 'oh8801', section_id: 1 },
      { relation: { oh8807: [locator] } },
      {},
      -1,
    );
    const engine = new PermissionsEngine(db, ontology);
    const record = { section_tipo: 'oh8801', section_id: 1 };
    const request = engine.requestScope(withRecordings);
    const access = await request.forUser(10);
    expect(access.level('oh8801')).toBe(2);
    // Record of project 2, user of project 1: out of scope, as the request's ontology says.
    await expect(request.assertRecordInScope(access, record)).rejects.toMatchObject({
      reason: 'project_scope',
    });
    expect(engine.projectScope(access, 'oh8801', withRecordings)).toEqual({
      kind: 'projects',
      filterTipo: 'oh8807',
      projectIds: [1],
    });
    // The engine's own ontology does not know the filter: it would have let the record through.
    expect(engine.projectScope(access, 'oh8801')).toEqual({ kind: 'all' });
  });

  it('refuses inactive (dd131 no or unset) and unknown users everything', async () => {
    const db = await start();
    await insertProfile(db, 10, interviewAccess(3));
    await insertInterview(db, 1, [1]);
    await insertUser(db, 10, { profile: 10, projects: [1], active: false });
    await insertUser(db, 11, { profile: 10, projects: [1], active: false, globalAdmin: true });
    // dd131 unset counts as inactive, as at login.
    await insertUser(db, 12, { profile: 10, projects: [1], active: null });
    const engine = new PermissionsEngine(db, ontology);
    for (const id of [10, 11, 12, 404]) {
      const access = await engine.forUser(id);
      expect(access.active).toBe(false);
      expect(isGlobalAdmin(access)).toBe(false);
      expect(access.level('oh1')).toBe(0);
      expect(access.projectIds).toEqual([]);
      for (const action of ACTIONS) expect(access.can(action, 'oh1')).toBe(false);
      expect(() => assertCan(access, 'read', 'oh1')).toThrow(expect.objectContaining({ reason: 'inactive' }));
      expect(await engine.recordInScope(access, { section_tipo: 'oh1', section_id: 1 })).toBe(false);
      expect(await engine.recordInScope(access, { section_tipo: 'rsc197', section_id: 1 })).toBe(false);
      expect(engine.projectScopeCondition(access, 'oh1', 1)?.sql).toBe('FALSE');
    }
    // Active again: the same profile applies.
    await setUserRelations(db, 10, { profile: 10, projects: [1], active: true });
    expect((await engine.forUser(10)).level('oh1')).toBe(3);
  });

  it('limits non-admins to records of their projects, one record or a search', async () => {
    const db = await start();
    await insertProject(db, 2);
    await insertProject(db, 3);
    await insertProfile(db, 10, interviewAccess(2));
    await insertUser(db, 10, { profile: 10, projects: [1, 3] });
    await insertUser(db, 11, { profile: 10, projects: [] });
    // Interview 5 stores its project id as a string, as some Dédalo data does.
    const interviews: [number, (number | string)[]][] = [
      [1, [1]],
      [2, [2]],
      [3, [2, 3]],
      [4, []],
      [5, ['3']],
    ];
    for (const [id, projects] of interviews) await insertInterview(db, id, projects);
    const engine = new PermissionsEngine(db, ontology);
    const user = await engine.forUser(10);
    expect(user.projectIds).toEqual([1, 3]);

    const inScope = async (sectionTipo: string, id: number) =>
      engine.recordInScope(user, { section_tipo: sectionTipo, section_id: id });
    expect(await inScope('oh1', 1)).toBe(true);
    expect(await inScope('oh1', 2)).toBe(false);
    expect(await inScope('oh1', 3)).toBe(true);
    expect(await inScope('oh1', 4)).toBe(false);
    expect(await inScope('oh1', 5)).toBe(true);
    expect(await inScope('oh1', 99)).toBe(false);
    await expect(engine.assertRecordInScope(user, { section_tipo: 'oh1', section_id: 2 })).rejects.toThrow(
      expect.objectContaining({ reason: 'project_scope' }),
    );
    // A section without a project filter is not limited.
    expect(engine.projectScope(user, 'rsc197')).toEqual({ kind: 'all' });
    expect(await inScope('rsc197', 1)).toBe(true);
    expect(engine.projectScope(user, 'oh1')).toEqual({
      kind: 'projects',
      filterTipo: 'oh22',
      projectIds: [1, 3],
    });

    // The same scope as a search condition, after the search's own parameters, through an alias.
    const search = async (userId: number) => {
      const access = await engine.forUser(userId);
      const condition = engine.projectScopeCondition(access, 'oh1', 3, 'm')!;
      const { rows } = await db.query<{ section_id: number }>(
        `SELECT m.section_id FROM matrix m WHERE m.section_tipo = $1 AND m.section_id < $2::integer
           AND ${condition.sql} ORDER BY m.section_id`,
        ['oh1', 100, ...condition.params],
      );
      return rows.map((r) => r.section_id);
    };
    expect(await search(10)).toEqual([1, 3, 5]);
    expect(await search(11)).toEqual([]);
  });

  it('caches per user, memoizes per request, and sees changes after invalidation', async () => {
    const db = await start();
    await insertProfile(db, 10, interviewAccess(1));
    await insertProfile(db, 11, interviewAccess(3));
    await insertUser(db, 10, { profile: 10, projects: [1] });
    const counted = counting(db);
    const engine = new PermissionsEngine(counted, ontology);

    expect((await engine.forUser(10)).level('oh1')).toBe(1);
    // A cached user costs one version read; a request memo costs nothing after the first call.
    counted.count = 0;
    const request = engine.requestScope();
    const first = await request.forUser(10);
    expect(await request.forUser(10)).toBe(first);
    expect(counted.count).toBe(1);

    // Change the profile but put the version back, as if the change had been made without the
    // trigger: the cache answers until the save path's invalidateProfiles().
    const { rows } = await db.query<{ version: string }>(
      'SELECT version::text AS version FROM permissions_version',
    );
    await setProfileAccess(db, 10, interviewAccess(2));
    await db.query('UPDATE permissions_version SET version = $1', [rows[0]!.version]);
    expect((await engine.forUser(10)).level('oh1')).toBe(1);
    engine.invalidateProfiles();
    expect((await engine.forUser(10)).level('oh1')).toBe(2);
    // The memo of the request in progress keeps its answer; the next request sees the change.
    expect((await request.forUser(10)).level('oh1')).toBe(1);
    expect((await engine.requestScope().forUser(10)).level('oh1')).toBe(2);

    // Same for the user's own record and invalidateUser().
    const { rows: again } = await db.query<{ version: string }>(
      'SELECT version::text AS version FROM permissions_version',
    );
    await setUserRelations(db, 10, { profile: 11, projects: [1] });
    await db.query('UPDATE permissions_version SET version = $1', [again[0]!.version]);
    expect((await engine.forUser(10)).level('oh1')).toBe(2);
    engine.invalidateUser(10);
    expect((await engine.forUser(10)).level('oh1')).toBe(3);
  });

  it('a second engine on the same database sees changes through the version check', async () => {
    const db = await start();
    await insertProfile(db, 10, interviewAccess(1));
    await insertUser(db, 10, { profile: 10, projects: [1] });
    // A second instance: its own client on PostgreSQL; PGlite is one backend per directory.
    const other = fresh!.database.engine === 'postgres' ? await fresh!.open() : db;
    const a = new PermissionsEngine(db, ontology);
    const b = new PermissionsEngine(other, ontology);
    expect((await a.forUser(10)).level('oh1')).toBe(1);
    expect((await b.forUser(10)).level('oh1')).toBe(1);

    // A changes the profile (the trigger bumps the version); B has not been told.
    await setProfileAccess(db, 10, interviewAccess(3));
    expect((await b.forUser(10)).level('oh1')).toBe(3);

    // A user change: B sees it too, and a change in a rolled-back transaction is not seen.
    await db.transaction(async (tx) => {
      await setUserRelations(tx, 10, { profile: 10, projects: [1], active: false });
    });
    expect((await b.forUser(10)).active).toBe(false);
    await expect(
      db.transaction(async (tx) => {
        await setUserRelations(tx, 10, { profile: 10, projects: [1], active: true });
        throw new Error('save failed');
      }),
    ).rejects.toThrow('save failed');
    expect((await b.forUser(10)).active).toBe(false);
    expect((await a.forUser(10)).active).toBe(false);

    // A deleted profile: nothing left.
    await setUserRelations(db, 10, { profile: 10, projects: [1] });
    await db.query(`DELETE FROM matrix_profiles WHERE section_tipo = 'dd234' AND section_id = 10`);
    expect((await b.forUser(10)).level('oh1')).toBe(0);
  });
});
