/**
 * The permissions engine every action asks: a user's level on (section_tipo, tipo), whether they
 * are a global admin, and which records their projects let them see (docs/work-api.md,
 * "Permissions and uploads").
 *
 * A user's access is read from the database once and cached per user, tagged with the
 * `permissions_version` it was read under. Every write to the users or profiles table bumps that
 * version (a trigger, migration 2), and each request compares it once, so an instance sees a
 * change committed by any other instance sharing the database. `invalidateUser` and
 * `invalidateProfiles` drop this instance's entries at once (the save path calls them). Within a
 * request, `RequestPermissions` memoizes the answer, so one request costs at most one version
 * read plus, on a change, one load.
 *
 * Nothing here depends on one ontology: levels are keyed by (section_tipo, tipo) as stored, and
 * every method that needs the ontology (where users and profiles live, which component filters a
 * section by project) takes the request's, so a section or component added to the ontology is
 * seen by the same request that sees it everywhere else, without a restart.
 */
import { ROOT_USER_ID } from '../bootstrap/bootstrap-database.js';
import type { AccessLevel } from '../bootstrap/default-profiles.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { isOntologyEditingTipo } from '../ontology/ontology-sections.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import {
  loadUserAccessRow,
  NO_SECTION_ID,
  PERMISSION_TIPOS,
  projectFilterCondition,
  projectFilterTipoOf,
  readPermissionsVersion,
  recordInProjects,
  type SqlCondition,
  type UserAccessRow,
  YES_SECTION_ID,
} from './permissions-store.js';

export type { AccessLevel } from '../bootstrap/default-profiles.js';

/** What a user may try to do on (section_tipo, tipo), with the level each needs. */
export const REQUIRED_LEVEL = {
  read: 1,
  create: 2,
  duplicate: 2,
  delete: 2,
  save: 2,
} as const satisfies Record<string, AccessLevel>;

export type PermissionAction = keyof typeof REQUIRED_LEVEL;

/** One user's permissions, immutable: a change produces a new object on the next request. */
export interface UserAccess {
  readonly userId: number;
  /** False unless dd131 = yes (inactive, unset or unknown user): no access at all. */
  readonly active: boolean;
  /** Root and dd244 = yes (and active): passes every check. */
  readonly globalAdmin: boolean;
  /** dd153 section_ids of the user's projects (dd170), ascending. */
  readonly projectIds: readonly number[];
  /** The level on (sectionTipo, tipo); `tipo` defaults to the section's own item. */
  level(sectionTipo: string, tipo?: string): AccessLevel;
  /** level >= REQUIRED_LEVEL[action] (global admins: always). */
  can(action: PermissionAction, sectionTipo: string, tipo?: string): boolean;
}

/** Only global admins may bulk delete, cascade-delete ontology sections and force-unlock all. */
export function isGlobalAdmin(access: UserAccess): boolean {
  return access.active && access.globalAdmin;
}

/** A refused check, in the caller's terms; the dispatcher maps it to a 403 of the registry. */
export class PermissionDenied extends Error {
  constructor(
    readonly userId: number,
    readonly reason: 'level' | 'global_admin' | 'project_scope' | 'inactive',
    readonly sectionTipo?: string,
    readonly tipo?: string,
  ) {
    super(`permission denied (${reason}) for user ${userId}${sectionTipo ? ` on ${sectionTipo}` : ''}`);
    this.name = 'PermissionDenied';
  }
}

/** Throws PermissionDenied unless `access` may do `action` on (sectionTipo, tipo). */
export function assertCan(access: UserAccess, action: PermissionAction, sectionTipo: string, tipo?: string) {
  if (access.can(action, sectionTipo, tipo)) return;
  if (access.active && isOntologyEditingTipo(sectionTipo))
    throw new PermissionDenied(access.userId, 'global_admin', sectionTipo, tipo);
  throw new PermissionDenied(access.userId, access.active ? 'level' : 'inactive', sectionTipo, tipo);
}

export function assertGlobalAdmin(access: UserAccess): void {
  if (!isGlobalAdmin(access)) throw new PermissionDenied(access.userId, 'global_admin');
}

/**
 * Where a user's records are limited in one section: `all` for admins and sections without a
 * project filter component, otherwise the filter component and the user's project ids (a
 * neutral description the search layer turns into SQL, see `projectScopeCondition`).
 */
export type ProjectScope =
  | { kind: 'all' }
  | { kind: 'projects'; filterTipo: string; projectIds: readonly number[] };

const key = (sectionTipo: string, tipo: string) => `${sectionTipo}\u0000${tipo}`;

const isLevel = (v: unknown): v is AccessLevel => v === 0 || v === 1 || v === 2 || v === 3;

/**
 * A locator's section id as an integer (stored as a number, or a numeric string as imported data
 * has it); undefined when it is not a locator, or not one into `sectionTipo` when that is given.
 */
export function locatorSectionId(item: unknown, sectionTipo?: string): number | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { section_tipo, section_id } = item as { section_tipo?: unknown; section_id?: unknown };
  if (sectionTipo !== undefined && section_tipo !== sectionTipo) return undefined;
  const id =
    typeof section_id === 'string' && /^-?\d{1,9}$/.test(section_id) ? Number(section_id) : section_id;
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}

/** The integer section ids of the locators into `sectionTipo` in a component value. */
export const locatorIds = (value: unknown, sectionTipo: string): number[] =>
  (Array.isArray(value) ? value : [])
    .map((item) => locatorSectionId(item, sectionTipo))
    .filter((id): id is number => id !== undefined);

function makeAccess(
  userId: number,
  active: boolean,
  globalAdmin: boolean,
  projectIds: readonly number[],
  levels: ReadonlyMap<string, AccessLevel>,
): UserAccess {
  const level = (sectionTipo: string, tipo: string = sectionTipo): AccessLevel => {
    if (!active) return 0;
    if (globalAdmin) return 3;
    // The ontology (its sections and area) is global administrators' alone, whatever a profile
    // grants there: editing it changes what every user sees and can do.
    if (isOntologyEditingTipo(sectionTipo) || isOntologyEditingTipo(tipo)) return 0;
    return levels.get(key(sectionTipo, tipo)) ?? 0;
  };
  return Object.freeze({
    userId,
    active,
    globalAdmin: active && globalAdmin,
    projectIds: Object.freeze([...projectIds]),
    level,
    can: (action: PermissionAction, sectionTipo: string, tipo?: string) =>
      level(sectionTipo, tipo) >= REQUIRED_LEVEL[action],
  });
}

const ROOT_ACCESS = makeAccess(ROOT_USER_ID, true, true, [], new Map());

/** Interprets a user's stored data; every malformed part counts as "no access" for that part. */
export function buildUserAccess(userId: number, row: UserAccessRow): UserAccess {
  if (userId === ROOT_USER_ID) return ROOT_ACCESS;
  const t = PERMISSION_TIPOS;
  // Active only with dd131 = yes and not also no, as login decides (store/users.ts): a user
  // without the value, or a missing user, has no access.
  const activeIds = locatorIds(row.active, t.yesNo);
  const active = row.userFound && activeIds.includes(YES_SECTION_ID) && !activeIds.includes(NO_SECTION_ID);
  const globalAdmin = locatorIds(row.globalAdmin, t.yesNo).includes(YES_SECTION_ID);
  const projectIds = [...new Set(locatorIds(row.projects, t.projectSection))].sort((a, b) => a - b);
  const levels = new Map<string, AccessLevel>();
  for (const item of Array.isArray(row.access) ? row.access : []) {
    if (typeof item !== 'object' || item === null) continue;
    const { tipo, section_tipo, value } = item as { tipo?: unknown; section_tipo?: unknown; value?: unknown };
    if (typeof tipo !== 'string' || typeof section_tipo !== 'string' || !isLevel(value)) continue;
    const k = key(section_tipo, tipo);
    // A duplicated item is a data error; the lower level wins (fail closed).
    const previous = levels.get(k);
    levels.set(k, previous === undefined ? value : (Math.min(previous, value) as AccessLevel));
  }
  return makeAccess(userId, active, globalAdmin, active ? projectIds : [], levels);
}

export interface PermissionsEngineOptions {
  /** Users kept in the cross-request cache (least recently used dropped first). */
  maxCachedUsers?: number;
}

interface CacheEntry {
  version: number;
  access: UserAccess;
}

/** One per server process (server.ts builds it); holds the cross-request cache. */
export class PermissionsEngine {
  private readonly cache = new Map<number, CacheEntry>();
  private readonly loading = new Map<number, Promise<CacheEntry>>();
  private readonly maxCachedUsers: number;
  /** Bumped by invalidate*, so a load that started before an invalidation is not cached. */
  private generation = 0;

  constructor(
    private readonly db: SqlQueryable,
    ontology: Ontology | (() => Ontology),
    options: PermissionsEngineOptions = {},
  ) {
    this.fallbackOntology = typeof ontology === 'function' ? ontology : () => ontology;
    this.maxCachedUsers = options.maxCachedUsers ?? 1000;
  }

  /**
   * The ontology used when a caller passes none (tests, tools). Requests always pass their own
   * (RequestPermissions carries it), never the server's latest: a request that started on one
   * version must not judge against another.
   */
  private readonly fallbackOntology: () => Ontology;

  /** A per-request memo over this engine, judging with the request's ontology. */
  requestScope(ontology?: Ontology): RequestPermissions {
    return new RequestPermissions(this, ontology ?? this.fallbackOntology());
  }

  /** The user's current access: cached when the permissions version has not moved. */
  async forUser(userId: number, ontology: Ontology = this.fallbackOntology()): Promise<UserAccess> {
    if (userId === ROOT_USER_ID) return ROOT_ACCESS;
    const cached = this.cache.get(userId);
    if (!cached) return (await this.load(userId, ontology)).access;
    const version = await readPermissionsVersion(this.db);
    if (version === cached.version && this.cache.get(userId) === cached) {
      // Most recently used last.
      this.cache.delete(userId);
      this.cache.set(userId, cached);
      return cached.access;
    }
    if (version !== cached.version) this.dropOlderThan(version);
    let entry = await this.load(userId, ontology);
    // A load already under way may have read an older snapshot than the version just seen.
    if (entry.version < version) entry = await this.load(userId, ontology, true);
    return entry.access;
  }

  /** Forget one user (their record was saved or deleted). */
  invalidateUser(userId: number): void {
    this.generation += 1;
    this.cache.delete(userId);
    this.loading.delete(userId);
  }

  /** Forget everyone (a profile was saved, created or deleted: any user may use it). */
  invalidateProfiles(): void {
    this.generation += 1;
    this.cache.clear();
    this.loading.clear();
  }

  /** How `access` is limited in `sectionTipo` by projects. */
  projectScope(
    access: UserAccess,
    sectionTipo: string,
    ontology: Ontology = this.fallbackOntology(),
  ): ProjectScope {
    if (isGlobalAdmin(access)) return { kind: 'all' };
    const filterTipo = projectFilterTipoOf(ontology, sectionTipo);
    if (!filterTipo) return { kind: 'all' };
    return { kind: 'projects', filterTipo, projectIds: access.active ? access.projectIds : [] };
  }

  /**
   * The scope as an SQL condition on the section's matrix rows (placeholders from `firstParam`),
   * or undefined when nothing is limited. Inactive users and users without projects get FALSE.
   */
  projectScopeCondition(
    access: UserAccess,
    sectionTipo: string,
    firstParam: number,
    alias?: string,
    ontology: Ontology = this.fallbackOntology(),
  ): SqlCondition | undefined {
    const scope = this.projectScope(access, sectionTipo, ontology);
    if (scope.kind === 'all') return undefined;
    return projectFilterCondition(ontology, scope.filterTipo, scope.projectIds, firstParam, alias);
  }

  /**
   * Whether the record is inside the user's projects (always true for global admins and in
   * sections without a project filter). A record without any project is outside every
   * non-admin's scope; a record that does not exist is reported as outside too.
   */
  async recordInScope(
    access: UserAccess,
    record: RecordKey,
    ontology: Ontology = this.fallbackOntology(),
  ): Promise<boolean> {
    if (!access.active) return false;
    const scope = this.projectScope(access, record.section_tipo, ontology);
    if (scope.kind === 'all') return true;
    if (scope.projectIds.length === 0) return false;
    return recordInProjects(this.db, ontology, record, scope.filterTipo, scope.projectIds);
  }

  /** Throws PermissionDenied unless the record is in the user's scope. */
  async assertRecordInScope(
    access: UserAccess,
    record: RecordKey,
    ontology: Ontology = this.fallbackOntology(),
  ): Promise<void> {
    if (await this.recordInScope(access, record, ontology)) return;
    throw new PermissionDenied(access.userId, 'project_scope', record.section_tipo);
  }

  /** Single flight per user: concurrent misses share one load. */
  private load(userId: number, ontology: Ontology, fresh = false): Promise<CacheEntry> {
    const running = fresh ? undefined : this.loading.get(userId);
    if (running) return running;
    const generation = this.generation;
    const promise = loadUserAccessRow(this.db, ontology, userId)
      .then((row) => {
        const entry = { version: row.version, access: buildUserAccess(userId, row) };
        if (generation === this.generation) this.remember(userId, entry);
        return entry;
      })
      .finally(() => {
        if (this.loading.get(userId) === promise) this.loading.delete(userId);
      });
    this.loading.set(userId, promise);
    return promise;
  }

  private remember(userId: number, entry: CacheEntry): void {
    const current = this.cache.get(userId);
    if (current && current.version > entry.version) return;
    this.cache.delete(userId);
    this.cache.set(userId, entry);
    while (this.cache.size > this.maxCachedUsers) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
  }

  /** The version moved: every entry read before it may be stale. */
  private dropOlderThan(version: number): void {
    for (const [userId, entry] of this.cache) if (entry.version < version) this.cache.delete(userId);
  }
}

/** The per-request memo: each user's access is computed at most once per request. */
export class RequestPermissions {
  private readonly memo = new Map<number, Promise<UserAccess>>();

  constructor(
    readonly engine: PermissionsEngine,
    /** The request's ontology (LiveOntology.current() when the request started). */
    readonly ontology: Ontology,
  ) {}

  /** Throws PermissionDenied unless the record is in the user's projects (request's ontology). */
  assertRecordInScope(access: UserAccess, record: RecordKey): Promise<void> {
    return this.engine.assertRecordInScope(access, record, this.ontology);
  }

  forUser(userId: number): Promise<UserAccess> {
    let access = this.memo.get(userId);
    if (!access) {
      access = this.engine.forUser(userId, this.ontology);
      this.memo.set(userId, access);
      // A failed load (database down) is not memoized: a retry in the same request may succeed.
      access.catch(() => this.memo.delete(userId));
    }
    return access;
  }
}
