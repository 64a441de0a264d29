/**
 * Where v1's "audiovisual record" lives in a database (docs/publication-v1.md, "Our data model"),
 * read from the schema (cached with it, so a republished database is seen again):
 *
 * - configured: the record holding the transcription is AV_TABLE.AV_TRANSCRIPTION_COLUMN, as
 *   v2 reads it (the demo: `interview`.`transcription`), its media in AV_MEDIA_TABLE;
 * - dedalo: Dédalo's standard published shape, used when the configured pair is absent and
 *   `audiovisual` has a text column `rsc36`: the audiovisual row holds the transcription
 *   (`rsc36`), the video path (`video`, else the default `av/404/rsc35_rsc167_<id>.mp4`, both
 *   under MEDIA_BASE_URL or `/dedalo/media`) and the
 *   time-code `duration`; posterframes lie beside the videos (`av/posterframe/<video name>.jpg`);
 *   the interview is the `interview` row whose `audiovisual` column lists the record.
 *
 * So a Dédalo website's database needs no AV_* variable, and the demo keeps its configuration.
 */
import type { DatabaseSchema, Row, TableInfo } from '../db/types.js';
import { mediaUrl } from '../services/av-media.js';
import type { PublicationContext } from '../services/context.js';
import { relationId, relationItems } from './v1-rows.js';

export const DEDALO_AV_TABLE = 'audiovisual';
export const DEDALO_TRANSCRIPTION_COLUMN = 'rsc36';
export const DEDALO_INTERVIEW_TABLE = 'interview';
/** The interview's column listing its audiovisual records (FIELD_AUDIOVISUAL). */
export const DEDALO_AV_RELATION_COLUMN = 'audiovisual';
const DEDALO_VIDEO_COLUMN = 'video';
/** DEDALO_AV_FOLDER + DEDALO_AV_QUALITY_DEFAULT, and the file name of Dédalo's component rsc35. */
const DEDALO_VIDEO_FOLDER = 'av/404';
const DEDALO_VIDEO_FILE = (id: number) => `rsc35_rsc167_${id}.mp4`;

export interface V1AvShape {
  kind: 'configured' | 'dedalo';
  /** The table of the records holding the transcription. */
  table: string;
  column: string;
  /** dedalo: the interview table (with its `audiovisual` column), when the database has one. */
  interview?: TableInfo;
}

const isText = (t: TableInfo | undefined, column: string) => t?.columnsByName.get(column)?.kind === 'text';

const shapes = new WeakMap<DatabaseSchema, V1AvShape>();

export async function avShapeOf(ctx: PublicationContext, db: string): Promise<V1AvShape> {
  const schema = await ctx.schemas.get(db);
  let shape = shapes.get(schema);
  if (shape) return shape;
  const { table, transcriptionColumn } = ctx.config.av;
  const dedalo = schema.tables.get(DEDALO_AV_TABLE);
  if (!isText(schema.tables.get(table), transcriptionColumn) && isText(dedalo, DEDALO_TRANSCRIPTION_COLUMN)) {
    const interview = schema.tables.get(DEDALO_INTERVIEW_TABLE);
    shape = {
      kind: 'dedalo',
      table: DEDALO_AV_TABLE,
      column: DEDALO_TRANSCRIPTION_COLUMN,
      interview: interview?.columnsByName.has(DEDALO_AV_RELATION_COLUMN) ? interview : undefined,
    };
  } else shape = { kind: 'configured', table, column: transcriptionColumn };
  shapes.set(schema, shape);
  return shape;
}

/** Dédalo's `duration`: a time code (`00:25:13.480`), or digits only (legacy minutes). */
export function dedaloDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 60;
  const m = /^(\d+):([0-5]?\d):([0-5]?\d(?:[.,]\d+)?)$/.exec(v);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]!.replace(',', '.')) : undefined;
}

/** DEDALO_MEDIA_BASE_URL's usual value: Dédalo's media base when MEDIA_BASE_URL says none. */
export const DEDALO_MEDIA_BASE_URL = '/dedalo/media';

/**
 * The video URL of a Dédalo audiovisual row: its `video` column, else Dédalo's default file
 * (WEB_VIDEO_BASE_URL/rsc35_rsc167_<id>.mp4), relative paths under MEDIA_BASE_URL or, when that
 * is empty, under `/dedalo/media`.
 */
export function dedaloVideo(row: Row, id: number, baseUrl: string): string {
  const base = baseUrl || DEDALO_MEDIA_BASE_URL;
  const v = row[DEDALO_VIDEO_COLUMN];
  return (
    mediaUrl(typeof v === 'string' ? v : undefined, base) ??
    `${base}/${DEDALO_VIDEO_FOLDER}/${DEDALO_VIDEO_FILE(id)}`
  );
}

/**
 * The posterframe beside a video: `<folder above the quality folder>/posterframe/<name>.jpg`
 * (`/media/av/404/rsc35_rsc167_1.mp4` -> `/media/av/posterframe/rsc35_rsc167_1.jpg`), or with
 * `_<tagId>` before `.jpg` for the frame of an index tag (posterframe_tag_url).
 */
export function posterframeOf(video: string, tagId?: number | string): string {
  const path = video.split(/[?#]/)[0]!;
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1).replace(/\.[^.]*$/, '');
  const folder = path.slice(0, Math.max(0, slash));
  const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
  return `${parent}/posterframe/${name}${tagId === undefined ? '' : `_${tagId}`}.jpg`;
}

/** The ids a relation cell lists, as strings of digits. */
export function relationIdsOf(cell: unknown): string[] {
  return relationItems(cell)
    .map(relationId)
    .filter((id): id is string => id !== undefined && /^\d+$/.test(id));
}
