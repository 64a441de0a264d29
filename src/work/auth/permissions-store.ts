/**
 * The SQL the permissions engine needs: the permissions version, one user's access data (their
 * record and their profile's security access, read together with the version in one statement,
 * so the data and the version it is tagged with come from the same snapshot), and the project
 * scope condition searches and single-record checks share. Table and column names come from the
 * ontology and are checked against the store's closed lists; every value is bound.
 */
import type { Ontology } from '../ontology/load-ontology.js';
import { DATA_COLUMNS, type DataColumn, isMatrixTable, type MatrixTable } from '../store/matrix-tables.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';

/** The tipos permissions are made of (docs/ontology.md, docs/work-api.md). */
export const PERMISSION_TIPOS = {
  users: 'dd128',
  profile: 'dd1725',
  projects: 'dd170',
  globalAdmin: 'dd244',
  active: 'dd131',
  profiles: 'dd234',
  securityAccess: 'dd774',
  projectSection: 'dd153',
  yesNo: 'dd64',
} as const;

export const YES_SECTION_ID = 1;
export const NO_SECTION_ID = 2;

/** A user's raw access data, as stored; permissions.ts interprets it. */
export interface UserAccessRow {
  /** The permissions version of the snapshot this row was read in. */
  version: number;
  userFound: boolean;
  /** Component values as stored (locator arrays, dd774 items), null when absent. */
  projects: unknown;
  globalAdmin: unknown;
  active: unknown;
  access: unknown;
}

function tableOf(ontology: Ontology, sectionTipo: string): MatrixTable {
  const table = ontology.tableOf(sectionTipo);
  if (!table || !isMatrixTable(table)) throw new Error(`permissions: ${sectionTipo} has no matrix table`);
  return table;
}

function columnOf(ontology: Ontology, componentTipo: string): DataColumn {
  const column = ontology.dataColumnOf(componentTipo);
  if (!column || !(DATA_COLUMNS as readonly string[]).includes(column)) {
    throw new Error(`permissions: ${componentTipo} is not a component`);
  }
  return column;
}

/** `column -> $n`, or an empty array when the component's value is missing or not an array. */
const arrayOf = (value: string) =>
  `CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END`;

export async function readPermissionsVersion(db: SqlQueryable): Promise<number> {
  const { rows } = await db.query<{ version: string }>(
    'SELECT version::text AS version FROM permissions_version WHERE id = 1',
  );
  if (!rows[0]) throw new Error('permissions: the permissions_version row is missing (migration 2)');
  return Number(rows[0].version);
}

/**
 * One statement: the version, the user's projects, global-admin and active values, and the
 * security access of the profile their first dd1725 locator points at. A missing user, profile
 * or component comes back as null, never as an error.
 */
export async function loadUserAccessRow(
  db: SqlQueryable,
  ontology: Ontology,
  userId: number,
): Promise<UserAccessRow> {
  const t = PERMISSION_TIPOS;
  const users = tableOf(ontology, t.users);
  const profiles = tableOf(ontology, t.profiles);
  const profileValue = `u.${columnOf(ontology, t.profile)} -> $7::text`;
  const { rows } = await db.query<{
    version: string;
    user_found: boolean;
    projects: unknown;
    global_admin: unknown;
    active: unknown;
    access: unknown;
  }>(
    `SELECT v.version::text AS version,
       u.section_id IS NOT NULL AS user_found,
       u.${columnOf(ontology, t.projects)} -> $3::text AS projects,
       u.${columnOf(ontology, t.globalAdmin)} -> $4::text AS global_admin,
       u.${columnOf(ontology, t.active)} -> $5::text AS active,
       p.${columnOf(ontology, t.securityAccess)} -> $6::text AS access
     FROM permissions_version v
     LEFT JOIN ${users} u ON u.section_tipo = $1::text AND u.section_id = $2::integer
     LEFT JOIN LATERAL (
       SELECT (e.l ->> 'section_id')::integer AS id
       FROM jsonb_array_elements(${arrayOf(profileValue)}) WITH ORDINALITY AS e(l, n)
       WHERE e.l ->> 'section_tipo' = $8::text AND (e.l ->> 'section_id') ~ '^-?[0-9]{1,9}$'
       ORDER BY e.n
       LIMIT 1
     ) pl ON true
     LEFT JOIN ${profiles} p ON p.section_tipo = $8::text AND p.section_id = pl.id
     WHERE v.id = 1`,
    [t.users, userId, t.projects, t.globalAdmin, t.active, t.securityAccess, t.profile, t.profiles],
  );
  const row = rows[0];
  if (!row) throw new Error('permissions: the permissions_version row is missing (migration 2)');
  return {
    version: Number(row.version),
    userFound: row.user_found,
    projects: row.projects,
    globalAdmin: row.global_admin,
    active: row.active,
    access: row.access,
  };
}

/** The project filter component (model component_filter) of a section, if it has one. */
export function projectFilterTipoOf(ontology: Ontology, sectionTipo: string): string | undefined {
  return ontology.sectionComponents(sectionTipo).find((c) => c.model === 'component_filter')?.tipo;
}

export interface SqlCondition {
  /** A boolean SQL expression; its placeholders start at the `firstParam` asked for. */
  sql: string;
  params: unknown[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * "The record's project filter holds a locator to one of these projects", as a condition on a
 * matrix row (optionally through a table alias). Compares section ids as text, so a locator that
 * stores "3" matches project 3 as well as one storing 3. No project ids: FALSE.
 */
export function projectFilterCondition(
  ontology: Ontology,
  filterTipo: string,
  projectIds: readonly number[],
  firstParam: number,
  alias?: string,
): SqlCondition {
  if (projectIds.length === 0) return { sql: 'FALSE', params: [] };
  if (alias !== undefined && !IDENTIFIER.test(alias)) throw new Error(`permissions: bad alias ${alias}`);
  if (!Number.isInteger(firstParam) || firstParam < 1) throw new Error('permissions: bad first parameter');
  const column = `${alias ? `${alias}.` : ''}${columnOf(ontology, filterTipo)}`;
  const [a, b, c] = [firstParam, firstParam + 1, firstParam + 2];
  const value = `${column} -> $${a}::text`;
  return {
    sql: `EXISTS (SELECT 1 FROM jsonb_array_elements(${arrayOf(value)}) AS scope_locator(l)
      WHERE scope_locator.l ->> 'section_tipo' = $${b}::text
        AND scope_locator.l ->> 'section_id' = ANY($${c}::text[]))`,
    params: [filterTipo, PERMISSION_TIPOS.projectSection, projectIds.map(String)],
  };
}

/** Whether the record exists and its project filter names one of the projects. */
export async function recordInProjects(
  db: SqlQueryable,
  ontology: Ontology,
  key: RecordKey,
  filterTipo: string,
  projectIds: readonly number[],
): Promise<boolean> {
  const table = tableOf(ontology, key.section_tipo);
  const condition = projectFilterCondition(ontology, filterTipo, projectIds, 3);
  const { rowCount } = await db.query(
    `SELECT 1 FROM ${table} WHERE section_tipo = $1 AND section_id = $2 AND ${condition.sql}`,
    [key.section_tipo, key.section_id, ...condition.params],
  );
  return rowCount > 0;
}
