/**
 * Creating a record inside a caller's transaction: the next section_id from the section's
 * counter, the row with its creation metadata (who, when) and the creator's project filter, and
 * the activity row ('new'). The `create` action and `save`'s add_new_element both go through
 * here, so every new record of the work API looks the same. The counter increment belongs to the
 * caller's transaction: a rollback gives the id back, and concurrent creators serialise on the
 * counter row, so two never get the same id.
 */
import { DEFAULT_PROJECT_ID } from '../bootstrap/bootstrap-database.js';
import { WorkError } from '../dispatch/error-registry.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import { logActivity } from '../store/activity.js';
import { allocateSectionId, moveCounterPast } from '../store/counters.js';
import type { MatrixTable } from '../store/matrix-tables.js';
import { checkedTable } from '../store/record-rows.js';
import type { RecordColumns } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';

/** The projects section and the relation type of a project filter locator (docs/work-api.md). */
export const PROJECT_SECTION = 'dd153';
export const PROJECT_FILTER_TYPE = 'dd675';

export interface CreateRecordArgs {
  sectionTipo: string;
  userId: number;
  /** The creator's projects (dd170); empty means the default project dd153/1. */
  projectIds: readonly number[];
  /**
   * False: no 'new' activity row, the caller writes one for the whole record (an import logs one
   * row per record it writes, docs/import-export.md). Default true.
   */
  activity?: boolean;
  now: Date;
}

/** The section's node and table, refusing what may not hold new records. */
export function writableSectionTable(
  ontology: Ontology,
  sectionTipo: string,
): {
  section: OntologyNode;
  table: MatrixTable;
} {
  const section = ontology.node(sectionTipo);
  // tableOf answers only for sections. Callers pass a section they already checked; anything
  // else is a programming error.
  const table = ontology.tableOf(sectionTipo);
  if (!section || !table) throw new Error(`${sectionTipo} is not a section`);
  if (section.read_only) {
    throw new WorkError(
      'perm.section_not_writable',
      `${sectionTipo} is consultation-only: its records cannot be created, changed or deleted`,
    );
  }
  return { section, table: checkedTable(table) };
}

/** The section's project filter component (model component_filter), if it has one. */
export function projectFilterOf(ontology: Ontology, sectionTipo: string): OntologyNode | undefined {
  return ontology.sectionComponents(sectionTipo).find((c) => c.model === 'component_filter');
}

/**
 * The project filter items stamped on a new record: one dd675 locator per project of the creator,
 * or the default project for a creator without projects (root). The shape is a Dédalo
 * locator (docs/work-api.md), as bootstrap writes the project filters of its own records.
 */
export function creatorProjectFilter(filterTipo: string, projectIds: readonly number[]): unknown[] {
  const ids = projectIds.length > 0 ? [...new Set(projectIds)] : [DEFAULT_PROJECT_ID];
  return ids.map((projectId) => ({
    type: PROJECT_FILTER_TYPE,
    section_tipo: PROJECT_SECTION,
    section_id: projectId,
    from_component_tipo: filterTipo,
  }));
}

/**
 * Inserts a record row with every column given and creation metadata, or refuses with 409 when
 * the id is taken (the counter is behind the records: maintenance `modify_counter` fix repairs
 * it). ON CONFLICT keeps the refusal a clean answer instead of an aborted transaction.
 */
export async function insertNewRow(
  tx: SqlQueryable,
  table: MatrixTable,
  key: { section_tipo: string; section_id: number },
  columns: RecordColumns,
  meta: Record<string, number>,
  userId: number,
  now: Date,
): Promise<void> {
  const { rowCount } = await tx.query(
    `INSERT INTO ${checkedTable(table)}
       (section_tipo, section_id, string, relation, date, number, media, misc, meta, created_by, created_at)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9::jsonb, $10, $11::timestamptz)
     ON CONFLICT (section_tipo, section_id) DO NOTHING`,
    [
      key.section_tipo,
      key.section_id,
      JSON.stringify(columns.string ?? {}),
      JSON.stringify(columns.relation ?? {}),
      JSON.stringify(columns.date ?? {}),
      JSON.stringify(columns.number ?? {}),
      JSON.stringify(columns.media ?? {}),
      JSON.stringify(columns.misc ?? {}),
      JSON.stringify(meta),
      userId,
      now.toISOString(),
    ],
  );
  if (rowCount === 0) {
    throw new WorkError(
      'resource.conflict',
      `${key.section_tipo} ${key.section_id} already exists: the section's counter is behind its records (maintenance: counters_status fix)`,
    );
  }
}

/**
 * Creates an empty record (apart from its project filter) in `args.sectionTipo` and returns its
 * section_id. Run it inside `db.transaction`: the counter, the row and the activity row commit
 * or roll back together.
 */
export async function createRecordIn(
  tx: SqlQueryable,
  ontology: Ontology,
  args: CreateRecordArgs,
): Promise<number> {
  const { table } = writableSectionTable(ontology, args.sectionTipo);
  const sectionId = await allocateSectionId(tx, table, args.sectionTipo);
  const filter = projectFilterOf(ontology, args.sectionTipo);
  const columns: RecordColumns = {};
  const meta: Record<string, number> = {};
  if (filter) {
    columns.relation = { [filter.tipo]: creatorProjectFilter(filter.tipo, args.projectIds) };
  }
  const key = { section_tipo: args.sectionTipo, section_id: sectionId };
  await insertNewRow(tx, table, key, columns, meta, args.userId, args.now);
  if (args.activity === false) return sectionId;
  await logActivity(tx, {
    userId: args.userId,
    what: 'new',
    where: args.sectionTipo,
    when: args.now,
    data: { section_id: sectionId },
  });
  return sectionId;
}

/**
 * Creates an empty record (apart from its project filter) with a given section_id, as an import
 * row naming a record that does not exist does: the row, the activity row ('new'), and the
 * section's counter moved past the id, so later creations never collide with it. Throws 409
 * `resource.conflict` when the id is taken.
 */
export async function createRecordWithIdIn(
  tx: SqlQueryable,
  ontology: Ontology,
  args: CreateRecordArgs & { sectionId: number },
): Promise<void> {
  const { table } = writableSectionTable(ontology, args.sectionTipo);
  const filter = projectFilterOf(ontology, args.sectionTipo);
  const columns: RecordColumns = filter
    ? { relation: { [filter.tipo]: creatorProjectFilter(filter.tipo, args.projectIds) } }
    : {};
  const key = { section_tipo: args.sectionTipo, section_id: args.sectionId };
  await insertNewRow(tx, table, key, columns, {}, args.userId, args.now);
  await moveCounterPast(tx, table, args.sectionTipo, args.sectionId);
  if (args.activity === false) return;
  await logActivity(tx, {
    userId: args.userId,
    what: 'new',
    where: args.sectionTipo,
    when: args.now,
    data: { section_id: args.sectionId },
  });
}
