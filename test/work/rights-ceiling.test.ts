/**
 * The rights ceiling's pure checks (auth/rights-ceiling.ts), as an importer holding values in
 * memory would call them: what exceeds an actor, with which code and message, and that global
 * admins pass everything.
 */
import { describe, expect, it } from 'vitest';
import { buildUserAccess } from '../../src/work/auth/permissions.js';
import {
  assertMayChangeAccount,
  assertProfileWithin,
  assertUserWithin,
  effectiveGrants,
  type Grant,
  grantAboveActor,
  userRightsOf,
} from '../../src/work/auth/rights-ceiling.js';
import { WorkError } from '../../src/work/dispatch/error-registry.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import type { MatrixRow } from '../../src/work/store/record-rows.js';
import { userRelations } from '../helpers/work-permissions.js';

const ontology = loadOntology();
const yes = [{ section_tipo: 'dd64', section_id: 1 }];

/** An active user with these grants, projects and flag. */
const actorWith = (access: Grant[], projects: number[], globalAdmin = false) =>
  buildUserAccess(50, {
    version: 1,
    userFound: true,
    projects: projects.map((section_id) => ({ section_tipo: 'dd153', section_id })),
    globalAdmin: globalAdmin ? yes : [],
    active: yes,
    access,
  });

const actor = actorWith(
  [
    { section_tipo: 'oh1', tipo: 'oh1', value: 2 },
    { section_tipo: 'oh1', tipo: 'oh14', value: 3 },
  ],
  [1, 2],
);
const global = actorWith([], [], true);

const userRow = (id: number, relation: Record<string, unknown[]>): MatrixRow =>
  ({
    section_tipo: 'dd128',
    section_id: id,
    string: {},
    relation,
    misc: {},
    meta: {},
  }) as unknown as MatrixRow;

function refusal(run: () => void): WorkError {
  try {
    run();
  } catch (err) {
    if (err instanceof WorkError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('rights ceiling checks', () => {
  const key = { section_tipo: 'dd234', section_id: 7 };

  it('profiles: a grant above the actor on its element is refused, equal or lower passes', () => {
    expect(() =>
      assertProfileWithin(actor, key, [{ section_tipo: 'oh1', tipo: 'oh14', value: 3 }]),
    ).not.toThrow();
    const err = refusal(() =>
      assertProfileWithin(actor, key, [{ section_tipo: 'oh1', tipo: 'oh16', value: 1 }]),
    );
    expect(err.code).toBe('perm.denied');
    expect(err.message).toBe('dd234 7 would give level 1 on oh16 of oh1 (dd774), above your level 0 there');
    expect(err.details).toMatchObject({ rule: 'rights_ceiling', tipo: 'oh16', level: 1, your_level: 0 });
    expect(() =>
      assertProfileWithin(global, key, [{ section_tipo: 'dd88', tipo: 'dd88', value: 3 }]),
    ).not.toThrow();
  });

  it('users: flag, root, every listed profile and projects', () => {
    const user = { section_tipo: 'dd128', section_id: 9 };
    const low = new Map([[3, [{ section_tipo: 'oh1', tipo: 'oh1', value: 1 } as Grant]]]);
    const high = new Map([...low, [4, [{ section_tipo: 'oh1', tipo: 'oh1', value: 3 } as Grant]]]);
    const rights = (r: Partial<ReturnType<typeof userRightsOf>>) => ({
      globalAdmin: false,
      profileIds: [],
      projectIds: [],
      ...r,
    });
    expect(() =>
      assertUserWithin(actor, user, rights({ profileIds: [3], projectIds: [2] }), low),
    ).not.toThrow();
    expect(refusal(() => assertUserWithin(actor, user, rights({ globalAdmin: true }), low)).code).toBe(
      'perm.global_admin_required',
    );
    expect(
      refusal(() => assertUserWithin(actor, { section_tipo: 'dd128', section_id: -1 }, rights({}), low))
        .message,
    ).toBe('dd128 -1 is root: only a global administrator may change it');
    // The second profile counts: losing the first would promote it.
    const second = refusal(() => assertUserWithin(actor, user, rights({ profileIds: [3, 4] }), high));
    expect(second.code).toBe('perm.denied');
    expect(second.message).toContain('would hold profile dd234 4 (dd1725), which gives level 3 on oh1');
    const project = refusal(() => assertUserWithin(actor, user, rights({ projectIds: [1, 3] }), low));
    expect(project.code).toBe('perm.out_of_scope');
    expect(project.message).toBe(
      'dd128 9 would be in project dd153 3 (dd170), which is not one of your projects (1, 2)',
    );
    // A profile that does not exist grants nothing.
    expect(() => assertUserWithin(actor, user, rights({ profileIds: [99] }), low)).not.toThrow();
    expect(() =>
      assertUserWithin(global, user, rights({ globalAdmin: true, profileIds: [4], projectIds: [9] }), high),
    ).not.toThrow();
  });

  it('reads rights from a stored row: numeric-string ids count, other sections do not', () => {
    const row = userRow(9, {
      ...userRelations({ profile: 4, projects: ['3', 1], globalAdmin: true }),
      dd1725: [
        { section_tipo: 'dd234', section_id: '4' },
        { section_tipo: 'dd153', section_id: 5 },
      ],
    });
    expect(userRightsOf(ontology, row)).toEqual({ globalAdmin: true, profileIds: [4], projectIds: [3, 1] });
  });

  it('root and global admins may not be changed by a non-global admin, whatever the change', () => {
    expect(refusal(() => assertMayChangeAccount(ontology, actor, userRow(-1, {}))).code).toBe(
      'perm.global_admin_required',
    );
    const flagged = userRow(5, userRelations({ globalAdmin: true, active: false }));
    expect(refusal(() => assertMayChangeAccount(ontology, actor, flagged)).message).toBe(
      'dd128 5 is a global administrator (dd244 = yes): only a global administrator may change it',
    );
    expect(() =>
      assertMayChangeAccount(ontology, actor, userRow(6, userRelations({ profile: 1 }))),
    ).not.toThrow();
    expect(() => assertMayChangeAccount(ontology, global, flagged)).not.toThrow();
  });

  it('an element listed twice counts at its lowest level, as the engine reads it', () => {
    const grants: Grant[] = [
      { section_tipo: 'oh1', tipo: 'oh1', value: 3 },
      { section_tipo: 'oh1', tipo: 'oh1', value: 1 },
    ];
    expect(effectiveGrants(grants).get('oh1\u0000oh1')?.value).toBe(1);
    // The check itself is stricter: each item on its own.
    expect(grantAboveActor(actor, grants)).toEqual(grants[0]);
  });
});
