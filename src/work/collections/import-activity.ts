/**
 * The activity row an import writes for each record it creates or changes: ONE row per record
 * (docs/import-export.md, "Import ids: History and the activity log"), not the row per component
 * a save writes, in Dédalo's own terms so the activity list reads it as any other: `new` (dd42
 * code 3) for a record the import created, `save` (code 5) for one it changed, `where` the
 * section, and in the data the record, the import's id and the components written (their
 * values, languages and versions are in the history rows, which carry the same import id).
 * The per-row, bulk and Dédalo-record paths all build it here, so they log the same thing.
 */
import type { ActivityEntry } from '../store/activity.js';

export interface ImportedRecord {
  userId: number;
  sectionTipo: string;
  sectionId: number;
  created: boolean;
  /** The component tipos written, in the order written (repeats, one per language, dropped). */
  components: readonly string[];
  importId: number | null;
  when: Date;
}

export function importActivity(record: ImportedRecord): ActivityEntry {
  return {
    userId: record.userId,
    what: record.created ? 'new' : 'save',
    where: record.sectionTipo,
    when: record.when,
    data: {
      section_tipo: record.sectionTipo,
      section_id: record.sectionId,
      import_id: record.importId,
      components: [...new Set(record.components)],
    },
  };
}
