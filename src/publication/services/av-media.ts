/**
 * The media asset of a transcribed record (docs/publishing.md, "Published shapes"): the
 * row of the media table named by the record's media relation column (first id), or else the
 * media row with the record's own section_id; and the public URLs of its video and poster, the
 * video one carrying the fragment's window as `vbegin`/`vend` seconds.
 */
import { secondsOfTimeCode } from '../../common/text/time-code.js';
import type { Row, TableInfo } from '../db/types.js';
import type { PublicationContext } from './context.js';
import { relationIds } from './relation-cells.js';

export interface MediaAsset {
  video?: string;
  image?: string;
  /** Seconds, when the media table (or the record) records it. */
  duration?: number;
}

export interface AvMedia {
  video_url: string | null;
  image_url: string | null;
  tc_in: number;
  tc_out: number;
}

const DURATION_COLUMN = 'duration';

/** A number, a numeric string, or a time code (`00:22:31`, as Dédalo writes durations) in seconds. */
export function numberOf(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? (secondsOfTimeCode(value) ?? Number(value))
        : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Absolute (`http...`) and rooted (`/...`) values are kept; others are put under MEDIA_BASE_URL. */
export function mediaUrl(value: string | undefined, baseUrl: string): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^https?:\/\//i.test(v) || v.startsWith('/')) return v;
  return `${baseUrl}/${v}`;
}

function seconds(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

export function withTimeWindow(url: string, tcIn: number, tcOut: number): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}vbegin=${seconds(tcIn)}&vend=${seconds(tcOut)}${fragment}`;
}

export function mediaOf(
  asset: MediaAsset | undefined,
  tcIn: number,
  tcOut: number,
  baseUrl: string,
): AvMedia {
  const video = mediaUrl(asset?.video, baseUrl);
  return {
    video_url: video === null ? null : withTimeWindow(video, tcIn, tcOut),
    image_url: mediaUrl(asset?.image, baseUrl),
    tc_in: tcIn,
    tc_out: tcOut,
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

async function mediaRows(ctx: PublicationContext, db: string, table: TableInfo, id: number): Promise<Row[]> {
  const { videoColumn, imageColumn } = ctx.config.av;
  const columns = ['section_id', 'lang', videoColumn, imageColumn, DURATION_COLUMN].filter((c) =>
    table.columnsByName.has(c),
  );
  return ctx.driver.select(db, {
    table: table.name,
    columns,
    where: [{ column: 'section_id', op: 'eq', value: id }],
    orderBy: table.hasLang ? [{ column: 'lang', desc: false }] : [],
    limit: 100,
  });
}

/**
 * The asset of `record` (a row holding the media relation column when its table has one). On a
 * multilingual media table the variant in the record's language is preferred.
 */
export async function findMediaAsset(
  ctx: PublicationContext,
  db: string,
  record: Row,
  sectionId: number,
): Promise<MediaAsset | undefined> {
  const { mediaTable, mediaRelationColumn, videoColumn, imageColumn } = ctx.config.av;
  const schema = await ctx.schemas.get(db);
  const table = schema.tables.get(mediaTable);
  if (!table?.columnsByName.has('section_id')) return undefined;
  const related = relationIds(record[mediaRelationColumn])[0];
  let rows = related === undefined ? [] : await mediaRows(ctx, db, table, related);
  if (rows.length === 0 && related !== sectionId) rows = await mediaRows(ctx, db, table, sectionId);
  const row = rows.find((r) => record.lang !== undefined && r.lang === record.lang) ?? rows[0];
  if (!row) return undefined;
  const asset: MediaAsset = {};
  const video = stringOf(row[videoColumn]);
  const image = stringOf(row[imageColumn]);
  const duration = numberOf(row[DURATION_COLUMN]);
  if (video !== undefined) asset.video = video;
  if (image !== undefined) asset.image = image;
  if (duration !== undefined) asset.duration = duration;
  return asset;
}

/** Columns of the record row that the audiovisual services read besides the transcription. */
export function avRecordColumns(ctx: PublicationContext): string[] {
  const { mediaRelationColumn, speakerRelationColumn } = ctx.config.av;
  return [mediaRelationColumn, speakerRelationColumn, DURATION_COLUMN];
}

/** The media duration for timecodes: the asset's, else the record's own `duration`. */
export function durationOf(asset: MediaAsset | undefined, record: Row): number | undefined {
  return asset?.duration ?? numberOf(record[DURATION_COLUMN]);
}
