/**
 * The rights ceiling: nobody gets more rights than they were given (docs/security-rights.md).
 *
 * Users (dd128) and profiles (dd234) are the records that carry rights. Every write path that
 * can create, copy, change or delete one of them asks this module, inside its transaction:
 * - `beforeChange(row)`, with the stored record it is about to change or delete (locked): a
 *   non-global admin may not change root (dd128 -1) or a global administrator at all;
 * - `afterChange(tx, key)`, once the write is done and before the commit: the record as it now
 *   stands may not hold more than the actor holds. A user: not a global administrator (dd244),
 *   not root, every profile it lists (dd1725, each one, not only the first the engine reads)
 *   giving at most the actor's level on each (section_tipo, tipo), and only projects (dd170) of
 *   the actor. A profile: every security-access item (dd774) at most the actor's level there,
 *   and a grant that rose may not raise a user who is in a project the actor is not in.
 * A refusal throws the registered 403 (`perm.global_admin_required`, `perm.denied`,
 * `perm.out_of_scope`) with a message naming the record, what it would hold and what the actor
 * holds, and the same facts in `details`; the transaction rolls back, so nothing is written.
 * Global administrators (and root) keep full power: their guard checks nothing.
 *
 * The resulting state is read back from the database rather than predicted from the request, so
 * every change kind (insert, update, remove, set_data, sort, add_new_element, delete_data, a
 * duplicate, inbound references removed by a delete_record, an import) is judged the same way.
 */
import { ROOT_USER_ID } from '../bootstrap/bootstrap-database.js';
import { WorkError } from '../dispatch/error-registry.js';
import type { Ontology } from '../ontology/load-ontology.js';
import {
  checkedColumn,
  checkedTable,
  componentItems,
  type MatrixRow,
  readRecord,
} from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { type AccessLevel, isGlobalAdmin, locatorIds, type UserAccess } from './permissions.js';
import { PERMISSION_TIPOS, YES_SECTION_ID } from './permissions-store.js';

const T = PERMISSION_TIPOS;

/** The sections whose records carry rights. */
export const ACCOUNT_SECTIONS: readonly string[] = [T.users, T.profiles];

export const isAccountSection = (sectionTipo: string): boolean => ACCOUNT_SECTIONS.includes(sectionTipo);

const isLevel = (v: unknown): v is AccessLevel => v === 0 || v === 1 || v === 2 || v === 3;

/** One security-access grant of a profile, as stored (malformed items grant nothing). */
export interface Grant {
  section_tipo: string;
  tipo: string;
  value: AccessLevel;
}

/** The rights a user record carries, as stored (whether or not it is active). */
export interface UserRights {
  globalAdmin: boolean;
  /** Every dd234 section_id its profile component lists. */
  profileIds: number[];
  /** Every dd153 section_id its projects component lists. */
  projectIds: number[];
}

function itemsOf(ontology: Ontology, row: MatrixRow, tipo: string): unknown[] {
  const column = ontology.dataColumnOf(tipo);
  if (!column) throw new Error(`rights ceiling: ${tipo} is not a component`);
  return componentItems(row, column, tipo);
}

/** A user row's global-admin flag, profiles and projects. */
export function userRightsOf(ontology: Ontology, row: MatrixRow): UserRights {
  return {
    globalAdmin: locatorIds(itemsOf(ontology, row, T.globalAdmin), T.yesNo).includes(YES_SECTION_ID),
    profileIds: [...new Set(locatorIds(itemsOf(ontology, row, T.profile), T.profiles))],
    projectIds: [...new Set(locatorIds(itemsOf(ontology, row, T.projects), T.projectSection))],
  };
}

/** A profile row's well-formed security-access items. */
export function grantsOf(ontology: Ontology, row: MatrixRow): Grant[] {
  const grants: Grant[] = [];
  for (const item of itemsOf(ontology, row, T.securityAccess)) {
    if (typeof item !== 'object' || item === null) continue;
    const { tipo, section_tipo, value } = item as { tipo?: unknown; section_tipo?: unknown; value?: unknown };
    if (typeof tipo !== 'string' || typeof section_tipo !== 'string' || !isLevel(value)) continue;
    grants.push({ tipo, section_tipo, value });
  }
  return grants;
}

/** One grant per element, the lowest where an element is listed twice (as the engine reads it). */
export function effectiveGrants(grants: readonly Grant[]): Map<string, Grant> {
  const out = new Map<string, Grant>();
  for (const g of grants) {
    const k = `${g.section_tipo}\u0000${g.tipo}`;
    const previous = out.get(k);
    if (!previous || g.value < previous.value) out.set(k, g);
  }
  return out;
}

/** The first grant above the actor's level on its element, if any. */
export function grantAboveActor(actor: UserAccess, grants: readonly Grant[]): Grant | undefined {
  return grants.find((g) => g.value > actor.level(g.section_tipo, g.tipo));
}

const where = (g: Grant) => (g.tipo === g.section_tipo ? g.tipo : `${g.tipo} of ${g.section_tipo}`);

function exceeded(
  code: 'perm.denied' | 'perm.out_of_scope' | 'perm.global_admin_required',
  message: string,
  details: Record<string, unknown>,
): WorkError {
  return new WorkError(code, message, undefined, { rule: 'rights_ceiling', ...details });
}

const name = (key: RecordKey) => `${key.section_tipo} ${key.section_id}`;

/** Refuses a non-global admin's change of root or of a global administrator (the stored row). */
export function assertMayChangeAccount(ontology: Ontology, actor: UserAccess, row: MatrixRow): void {
  if (isGlobalAdmin(actor) || row.section_tipo !== T.users) return;
  const key = { section_tipo: row.section_tipo, section_id: Number(row.section_id) };
  if (key.section_id === ROOT_USER_ID) {
    throw exceeded(
      'perm.global_admin_required',
      `${name(key)} is root: only a global administrator may change it`,
      { record: key, exceeds: 'root' },
    );
  }
  if (userRightsOf(ontology, row).globalAdmin) {
    throw exceeded(
      'perm.global_admin_required',
      `${name(key)} is a global administrator (${T.globalAdmin} = yes): only a global administrator may change it`,
      { record: key, exceeds: 'global_admin' },
    );
  }
}

/** Refuses a profile whose grants go above the actor's levels. */
export function assertProfileWithin(actor: UserAccess, key: RecordKey, grants: readonly Grant[]): void {
  if (isGlobalAdmin(actor)) return;
  const above = grantAboveActor(actor, grants);
  if (!above) return;
  const yours = actor.level(above.section_tipo, above.tipo);
  throw exceeded(
    'perm.denied',
    `${name(key)} would give level ${above.value} on ${where(above)} (${T.securityAccess}), above your level ${yours} there`,
    {
      record: key,
      section_tipo: above.section_tipo,
      tipo: above.tipo,
      level: above.value,
      your_level: yours,
    },
  );
}

/**
 * Refuses a user whose rights go above the actor's: root, the global-admin flag, a listed
 * profile granting more than the actor has (`profiles` maps each listed profile id to its
 * grants; a profile that does not exist grants nothing), a project the actor is not in.
 */
export function assertUserWithin(
  actor: UserAccess,
  key: RecordKey,
  rights: UserRights,
  profiles: ReadonlyMap<number, readonly Grant[]>,
): void {
  if (isGlobalAdmin(actor)) return;
  if (key.section_id === ROOT_USER_ID) {
    throw exceeded(
      'perm.global_admin_required',
      `${name(key)} is root: only a global administrator may change it`,
      { record: key, exceeds: 'root' },
    );
  }
  if (rights.globalAdmin) {
    throw exceeded(
      'perm.global_admin_required',
      `${name(key)} would be a global administrator (${T.globalAdmin} = yes), which you are not: only a global administrator may grant it`,
      { record: key, exceeds: 'global_admin' },
    );
  }
  for (const profileId of rights.profileIds) {
    const above = grantAboveActor(actor, profiles.get(profileId) ?? []);
    if (!above) continue;
    const yours = actor.level(above.section_tipo, above.tipo);
    throw exceeded(
      'perm.denied',
      `${name(key)} would hold profile ${T.profiles} ${profileId} (${T.profile}), which gives level ${above.value} on ${where(above)}, above your level ${yours} there`,
      {
        record: key,
        profile: profileId,
        section_tipo: above.section_tipo,
        tipo: above.tipo,
        level: above.value,
        your_level: yours,
      },
    );
  }
  const foreign = rights.projectIds.find((id) => !actor.projectIds.includes(id));
  if (foreign !== undefined) {
    throw exceeded(
      'perm.out_of_scope',
      `${name(key)} would be in project ${T.projectSection} ${foreign} (${T.projects}), which is not one of your projects (${actor.projectIds.join(', ') || 'none'})`,
      { record: key, project: foreign, your_projects: [...actor.projectIds] },
    );
  }
}

/**
 * Each listed profile's grants, read in one statement (missing profiles are absent). The rows
 * are locked FOR SHARE, in id order. Against a concurrent raise of the same profile, whichever
 * write waits is judged on what the other committed: this user on the raised grants, or the
 * raise with this user among the profile's holders.
 */
export async function readProfileGrants(
  db: SqlQueryable,
  ontology: Ontology,
  profileIds: readonly number[],
): Promise<Map<number, Grant[]>> {
  const out = new Map<number, Grant[]>();
  if (profileIds.length === 0) return out;
  const table = ontology.tableOf(T.profiles);
  const column = ontology.dataColumnOf(T.securityAccess);
  if (!table || !column) throw new Error(`rights ceiling: ${T.profiles} has no matrix table`);
  const { rows } = await db.query<{ section_id: number; access: unknown }>(
    `SELECT section_id, ${checkedColumn(column)} -> $3::text AS access FROM ${checkedTable(table)}
     WHERE section_tipo = $1 AND section_id = ANY($2::integer[])
     ORDER BY section_id FOR SHARE`,
    [T.profiles, [...new Set(profileIds)], T.securityAccess],
  );
  for (const row of rows) {
    out.set(
      Number(row.section_id),
      grantsOf(ontology, { [column]: { [T.securityAccess]: row.access } } as unknown as MatrixRow),
    );
  }
  return out;
}

/** Judges an account record as it stands in `db` (a missing record holds nothing). */
export async function assertAccountWithin(
  db: SqlQueryable,
  ontology: Ontology,
  actor: UserAccess,
  key: RecordKey,
): Promise<void> {
  if (isGlobalAdmin(actor) || !isAccountSection(key.section_tipo)) return;
  const table = ontology.tableOf(key.section_tipo);
  if (!table) throw new Error(`rights ceiling: ${key.section_tipo} has no matrix table`);
  const row = await readRecord(db, checkedTable(table), key);
  if (!row) return;
  if (key.section_tipo === T.profiles) {
    assertProfileWithin(actor, key, grantsOf(ontology, row));
    return;
  }
  const rights = userRightsOf(ontology, row);
  assertUserWithin(actor, key, rights, await readProfileGrants(db, ontology, rights.profileIds));
}

/**
 * The users (not global admins: a profile does not change them) who list the profile, with
 * their projects. Locator ids may be stored as numbers or numeric strings.
 */
export async function profileHolders(
  db: SqlQueryable,
  ontology: Ontology,
  profileId: number,
): Promise<{ key: RecordKey; rights: UserRights }[]> {
  const table = ontology.tableOf(T.users);
  const column = ontology.dataColumnOf(T.profile);
  if (!table || column !== 'relation') throw new Error('rights ceiling: unexpected users storage');
  const { rows } = await db.query<MatrixRow>(
    `SELECT section_tipo, section_id, relation FROM ${checkedTable(table)}
     WHERE section_tipo = $1 AND (relation -> $2::text @> $3::jsonb OR relation -> $2::text @> $4::jsonb)`,
    [
      T.users,
      T.profile,
      JSON.stringify([{ section_tipo: T.profiles, section_id: profileId }]),
      JSON.stringify([{ section_tipo: T.profiles, section_id: String(profileId) }]),
    ],
  );
  return rows
    .map((row) => ({
      key: { section_tipo: T.users, section_id: Number(row.section_id) },
      rights: userRightsOf(ontology, { ...row, string: {}, misc: {} } as MatrixRow),
    }))
    .filter((h) => h.key.section_id !== ROOT_USER_ID && !h.rights.globalAdmin);
}

/**
 * A profile whose grants rose raises every user holding it, in each of their projects: each such
 * user must be inside the actor's projects (a non-global admin gives no more rights in a project
 * they are not in). `raised` are the grants that went up.
 */
export async function assertRaiseWithinProjects(
  db: SqlQueryable,
  ontology: Ontology,
  actor: UserAccess,
  key: RecordKey,
  raised: readonly Grant[],
): Promise<void> {
  if (isGlobalAdmin(actor) || raised.length === 0) return;
  for (const holder of await profileHolders(db, ontology, key.section_id)) {
    const foreign = holder.rights.projectIds.find((id) => !actor.projectIds.includes(id));
    if (foreign === undefined) continue;
    const g = raised[0]!;
    throw exceeded(
      'perm.out_of_scope',
      `${name(key)} would raise ${name(holder.key)} (level ${g.value} on ${where(g)}), who is in project ${T.projectSection} ${foreign}, which is not one of your projects (${actor.projectIds.join(', ') || 'none'})`,
      { record: key, user: holder.key, project: foreign, your_projects: [...actor.projectIds] },
    );
  }
}

/** What a write path calls; a no-op for global admins and for records that carry no rights. */
export interface AccountGuard {
  /** The stored record a write is about to change or delete (read under the write's lock). */
  beforeChange(row: MatrixRow): void;
  /** The record after the write, inside the same transaction, before it commits. */
  afterChange(tx: SqlQueryable, key: RecordKey): Promise<void>;
}

/**
 * The guard of one write by `actor`. It remembers each profile's grants as `beforeChange` saw
 * them, so `afterChange` knows which grants rose (a profile it did not see, a new one, has no
 * holders to raise).
 */
export function accountGuard(ontology: Ontology, actor: UserAccess): AccountGuard {
  const grantsBefore = new Map<number, Grant[]>();
  return {
    beforeChange: (row) => {
      if (isGlobalAdmin(actor) || !isAccountSection(row.section_tipo)) return;
      assertMayChangeAccount(ontology, actor, row);
      if (row.section_tipo === T.profiles) grantsBefore.set(Number(row.section_id), grantsOf(ontology, row));
    },
    afterChange: async (tx, key) => {
      if (isGlobalAdmin(actor) || !isAccountSection(key.section_tipo)) return;
      await assertAccountWithin(tx, ontology, actor, key);
      const before = key.section_tipo === T.profiles ? grantsBefore.get(key.section_id) : undefined;
      if (!before) return;
      const table = ontology.tableOf(T.profiles);
      const row = table ? await readRecord(tx, checkedTable(table), key) : undefined;
      const was = effectiveGrants(before);
      const raised = [...effectiveGrants(row ? grantsOf(ontology, row) : []).values()].filter(
        (g) => g.value > (was.get(`${g.section_tipo}\u0000${g.tipo}`)?.value ?? 0),
      );
      await assertRaiseWithinProjects(tx, ontology, actor, key, raised);
    },
  };
}

/** Only a global administrator may write the global-admin flag (grant or withdraw it). */
export function assertMayWriteComponent(actor: UserAccess, sectionTipo: string, tipo: string): void {
  if (isGlobalAdmin(actor) || sectionTipo !== T.users || tipo !== T.globalAdmin) return;
  throw exceeded(
    'perm.global_admin_required',
    `${T.globalAdmin} (global administrator) of ${T.users} can be granted or withdrawn only by a global administrator`,
    { section_tipo: sectionTipo, tipo, exceeds: 'global_admin' },
  );
}
