/**
 * Which record of the audiovisual table (AV_TABLE, by default the interview table, which carries
 * the transcription; `audiovisual` on a database of Dédalo's standard shape, v1/av-shape.ts) an
 * indexation locator points at. A locator names either that record itself
 * (the demo's and many publications' locators: section_tipo oh1) or, as Dédalo writes them for a
 * passage of a recording, the recording (section_tipo rsc167) with the interview that holds it in
 * section_top_tipo / section_top_id: then the holder is the record, when the recording's section
 * is not the one published into AV_TABLE (publication_schema's dd_relations says which is).
 */
import { readSectionTables, tiposOfTable } from '../../services/section-tables.js';
import { avShapeOf } from '../av-shape.js';
import type { V1Call } from '../v1-call.js';

export interface LocatorLike {
  section_id?: unknown;
  section_tipo?: unknown;
  section_top_id?: unknown;
  section_top_tipo?: unknown;
}

/** A function giving each locator's AV_TABLE record id (as a string), read once per request. */
export async function avRecordIds(call: V1Call): Promise<(l: LocatorLike) => string> {
  // The table holding the transcriptions as this database has it (Dédalo's shape: audiovisual).
  const { table } = await avShapeOf(call.ctx, call.db);
  const avTipos = tiposOfTable(await readSectionTables(call.ctx, call.db), table);
  return (l) => {
    const top = l.section_top_id;
    const viaTop =
      top !== undefined &&
      top !== null &&
      avTipos.length > 0 &&
      typeof l.section_tipo === 'string' &&
      !avTipos.includes(l.section_tipo) &&
      (typeof l.section_top_tipo !== 'string' || avTipos.includes(l.section_top_tipo));
    return String(viaTop ? top : l.section_id);
  };
}
