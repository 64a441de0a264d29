/**
 * Whether a list request (records, search) asks for an export instead of the JSON page:
 * `format=csv|ndjson` in the query, or an Accept header that prefers text/csv or
 * application/x-ndjson over JSON. `bom=true` puts a UTF-8 byte order mark before a CSV so
 * spreadsheets read it as UTF-8. Both parameters are taken out of the query before the list's
 * own parser sees it, so the JSON routes' parameters and their errors stay exactly as they were.
 */
import { invalidQuery } from '../problems.js';
import type { QueryParams } from './query-string.js';
import { clip, parseBooleanParam, singleParam } from './scalar-params.js';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export interface ExportRequest {
  format: ExportFormat;
  bom: boolean;
  /** The client named a limit: export that page; otherwise the whole selection up to EXPORT_MAX_ROWS. */
  explicitLimit: boolean;
}

/** The export media type an Accept header prefers, when it prefers one over JSON. */
export function exportFormatFromAccept(accept: string | undefined): ExportFormat | undefined {
  if (!accept) return undefined;
  let best: { format: ExportFormat | 'json'; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const format =
      type === 'text/csv'
        ? 'csv'
        : type === 'application/x-ndjson' || type === 'application/ndjson'
          ? 'ndjson'
          : type === 'application/json'
            ? 'json'
            : undefined;
    if (format && (!best || q > best.q)) best = { format, q };
  }
  return best && best.format !== 'json' ? best.format : undefined;
}

/**
 * Takes `format` and `bom` out of `params` and says whether an export was asked for. A bad value
 * is a 400; `bom` without an export format too, so a typo never silently answers JSON.
 */
export function takeExportRequest(
  params: QueryParams,
  accept: string | undefined,
): ExportRequest | undefined {
  const rawFormat = singleParam(params, 'format');
  const rawBom = singleParam(params, 'bom');
  params.delete('format');
  params.delete('bom');
  let format: ExportFormat | undefined;
  if (rawFormat !== undefined) {
    if (!(EXPORT_FORMATS as readonly string[]).includes(rawFormat) && rawFormat !== 'json') {
      throw invalidQuery('format', `format must be json, csv or ndjson, got "${clip(rawFormat)}"`);
    }
    format = rawFormat === 'json' ? undefined : (rawFormat as ExportFormat);
  } else {
    format = exportFormatFromAccept(accept);
  }
  const bom = rawBom === undefined ? false : parseBooleanParam('bom', rawBom);
  if (format === undefined) {
    if (rawBom !== undefined) throw invalidQuery('bom', 'bom applies to exports only; add format=csv');
    return undefined;
  }
  return { format, bom, explicitLimit: params.has('limit') };
}
