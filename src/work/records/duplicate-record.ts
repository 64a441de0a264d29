/**
 * Duplicating a record inside a caller's transaction: a copy of every component of the source
 * (items with their ids, and the per-component item counters, so ids stay unique and are never
 * reused in the copy either) under a new section_id from the counter, with new creation metadata
 * and an activity row ('new', naming the source). The source's history is not copied: the copy's
 * history starts at its creation, and the activity row says where it came from.
 *
 * Credentials are not copied: a user (dd128) duplicated with its username would make both
 * accounts share it, and login refuses an ambiguous username, locking the original out; a copied
 * password hash would let the copy log in with someone else's password. So password components
 * (every section) and the username of dd128 stay empty in the copy, which is a template to fill.
 * So do components the ontology marks `unique` (records/component-rules.ts): the copy would hold
 * the source's value.
 *
 * Parent and children components mirror each other (the save keeps A's parent P <-> P's child A).
 * A child has one parent, so the copy starts without children (they still name the source as
 * their parent); it keeps the source's parents, and each parent lists the copy among its children.
 */
import { WorkError } from '../dispatch/error-registry.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { logActivity } from '../store/activity.js';
import { allocateSectionId } from '../store/counters.js';
import { DATA_COLUMNS } from '../store/matrix-tables.js';
import { readRecord } from '../store/record-rows.js';
import type { RecordColumns } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { componentRules } from './component-rules.js';
import { insertNewRow, writableSectionTable } from './create-record.js';
import { mirrorParentChildren } from './delete-records.js';

/** Components never copied, by section, besides every component_password. */
const NOT_COPIED: Readonly<Record<string, readonly string[]>> = { dd128: ['dd132'] };

export interface DuplicateRecordArgs {
  sectionTipo: string;
  /** The record copied; a missing one is a 404 `resource.not_found`. */
  sourceId: number;
  userId: number;
  now: Date;
}

/** The components of `sectionTipo` a duplicate leaves empty. */
export function componentsNotCopied(ontology: Ontology, sectionTipo: string): Set<string> {
  const skipped = new Set(
    (Object.hasOwn(NOT_COPIED, sectionTipo) ? NOT_COPIED[sectionTipo] : undefined) ?? [],
  );
  for (const c of ontology.sectionComponents(sectionTipo)) {
    if (c.model === 'component_password' || c.model === 'component_relation_children') skipped.add(c.tipo);
    if (componentRules(c).unique) skipped.add(c.tipo);
  }
  return skipped;
}

/** Copies the record and returns the copy's section_id. Run inside `db.transaction`. */
export async function duplicateRecordIn(
  tx: SqlQueryable,
  ontology: Ontology,
  args: DuplicateRecordArgs,
): Promise<number> {
  const { table } = writableSectionTable(ontology, args.sectionTipo);
  // Locked, so a save or delete running at the same time cannot leave a half-old copy.
  const source = await readRecord(
    tx,
    table,
    { section_tipo: args.sectionTipo, section_id: args.sourceId },
    { forUpdate: true },
  );
  if (!source) {
    throw new WorkError('resource.not_found', `${args.sectionTipo} ${args.sourceId} does not exist`);
  }
  const skipped = componentsNotCopied(ontology, args.sectionTipo);
  const columns: RecordColumns = {};
  for (const column of DATA_COLUMNS) {
    columns[column] = Object.fromEntries(
      Object.entries(source[column] ?? {}).filter(([tipo]) => !skipped.has(tipo)),
    );
  }
  const sectionId = await allocateSectionId(tx, table, args.sectionTipo);
  const copy = { section_tipo: args.sectionTipo, section_id: sectionId };
  await insertNewRow(tx, table, copy, columns, source.meta ?? {}, args.userId, args.now);
  for (const [tipo, items] of Object.entries(columns.relation ?? {})) {
    await mirrorParentChildren(tx, ontology, copy, tipo, items, 'add', args.userId, args.now);
  }
  await logActivity(tx, {
    userId: args.userId,
    what: 'new',
    where: args.sectionTipo,
    when: args.now,
    data: { section_id: sectionId, duplicated_from: args.sourceId },
  });
  return sectionId;
}
