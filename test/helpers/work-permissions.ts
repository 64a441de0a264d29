/**
 * Writes the users, profiles, projects and records the permissions suites need, straight through
 * the store (the save path does not exist yet), in the shapes docs/ontology.md describes.
 */

import { hashPassword } from '../../src/work/auth/password-hash.js';
import type { AccessItem } from '../../src/work/bootstrap/default-profiles.js';
import { insertRecord } from '../../src/work/store/records.js';
import type { SqlQueryable } from '../../src/work/store/sql-client.js';

const locator = (from: string, sectionTipo: string, sectionId: number | string, type = 'dd151') => ({
  type,
  section_tipo: sectionTipo,
  section_id: sectionId,
  from_component_tipo: from,
});

export async function insertProfile(
  db: SqlQueryable,
  sectionId: number,
  access: AccessItem[],
): Promise<void> {
  await insertRecord(
    db,
    'matrix_profiles',
    { section_tipo: 'dd234', section_id: sectionId },
    {
      string: { dd237: [{ id: 1, lang: 'lg-nolan', value: `profile ${sectionId}` }] },
      misc: { dd774: access },
    },
    { dd237: 1 },
    -1,
  );
}

export async function setProfileAccess(db: SqlQueryable, sectionId: number, access: AccessItem[]) {
  await db.query(
    `UPDATE matrix_profiles SET misc = jsonb_set(misc, '{dd774}', $1::jsonb)
     WHERE section_tipo = 'dd234' AND section_id = $2`,
    [JSON.stringify(access), sectionId],
  );
}

export interface TestUser {
  profile?: number;
  projects?: (number | string)[];
  globalAdmin?: boolean;
  /** dd131; `null` leaves it unset. Default: yes. */
  active?: boolean | null;
}

export function userRelations(user: TestUser): Record<string, unknown[]> {
  const yesNo = (from: string, yes: boolean | null | undefined) =>
    yes === undefined || yes === null ? [] : [locator(from, 'dd64', yes ? 1 : 2)];
  return {
    dd1725: user.profile === undefined ? [] : [locator('dd1725', 'dd234', user.profile)],
    dd170: (user.projects ?? []).map((p) => locator('dd170', 'dd153', p, 'dd675')),
    dd244: yesNo('dd244', user.globalAdmin),
    dd131: yesNo('dd131', user.active === undefined ? true : user.active),
  };
}

export async function insertUser(db: SqlQueryable, sectionId: number, user: TestUser): Promise<void> {
  await insertRecord(
    db,
    'matrix_users',
    { section_tipo: 'dd128', section_id: sectionId },
    {
      string: { dd132: [{ id: 1, lang: 'lg-nolan', value: `user${sectionId}` }] },
      relation: userRelations(user),
    },
    { dd132: 1 },
    -1,
  );
}

/**
 * A user who can log in: username (dd132), Argon2id password (dd133), full name (dd452) when
 * given, and the given access.
 */
export async function insertLoginUser(
  db: SqlQueryable,
  sectionId: number,
  user: TestUser & { username: string; password: string; fullName?: string },
): Promise<void> {
  await insertRecord(
    db,
    'matrix_users',
    { section_tipo: 'dd128', section_id: sectionId },
    {
      string: {
        dd132: [{ id: 1, lang: 'lg-nolan', value: user.username }],
        dd133: [{ id: 1, lang: 'lg-nolan', value: await hashPassword(user.password) }],
        ...(user.fullName ? { dd452: [{ id: 1, lang: 'lg-nolan', value: user.fullName }] } : {}),
      },
      relation: userRelations(user),
    },
    { dd132: 1, dd133: 1, ...(user.fullName ? { dd452: 1 } : {}) },
    -1,
  );
}

export async function setUserRelations(db: SqlQueryable, sectionId: number, user: TestUser): Promise<void> {
  await db.query(
    `UPDATE matrix_users SET relation = $1::jsonb WHERE section_tipo = 'dd128' AND section_id = $2`,
    [JSON.stringify(userRelations(user)), sectionId],
  );
}

export async function insertProject(db: SqlQueryable, sectionId: number): Promise<void> {
  await insertRecord(
    db,
    'matrix_projects',
    { section_tipo: 'dd153', section_id: sectionId },
    { string: { dd156: [{ id: 1, lang: 'lg-eng', value: `project ${sectionId}` }] } },
    { dd156: 1 },
    -1,
  );
}

/** An interview (oh1) whose project filter oh22 names these projects. */
export async function insertInterview(
  db: SqlQueryable,
  sectionId: number,
  projects: (number | string)[],
): Promise<void> {
  await insertRecord(
    db,
    'matrix',
    { section_tipo: 'oh1', section_id: sectionId },
    { relation: { oh22: projects.map((p) => locator('oh22', 'dd153', p, 'dd675')) } },
    {},
    -1,
  );
}

/** Users whose profile (10 + level) gives them one level on the suite's sections, and a global admin. */
export const LEVEL_USERS = [
  { id: 10, name: 'level0', level: 0 as const },
  { id: 11, name: 'level1', level: 1 as const },
  { id: 12, name: 'level2', level: 2 as const },
  { id: 13, name: 'level3', level: 3 as const },
];
export const LEVEL_ADMIN_ID = 14;
/** The usernames insertLevelUsers writes: the level users, then `admin`. */
export const LEVEL_USERNAMES = [...LEVEL_USERS.map((u) => u.name), 'admin'];

/**
 * Writes LEVEL_USERS (profile 10 + level with `accessAt(level)`, level 0 no access; projects 1
 * and 3) and the global admin (LEVEL_ADMIN_ID, project 4), all with `password`.
 */
export async function insertLevelUsers(
  db: SqlQueryable,
  password: string,
  accessAt: (level: 1 | 2 | 3) => AccessItem[],
): Promise<void> {
  for (const u of LEVEL_USERS) {
    await insertProfile(db, 10 + u.level, u.level === 0 ? [] : accessAt(u.level));
    await insertLoginUser(db, u.id, {
      username: u.name,
      password,
      profile: 10 + u.level,
      projects: [1, 3],
    });
  }
  await insertLoginUser(db, LEVEL_ADMIN_ID, {
    username: 'admin',
    password,
    profile: 10,
    projects: [4],
    globalAdmin: true,
  });
}
