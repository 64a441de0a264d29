/**
 * What the Import page knows of a file before the server reads it: its kind and its columns, from
 * the first line (read in the browser, nothing sent). The server reads the whole file again and
 * is the judge; this only lets the page show the columns and build a mapping.
 *
 * - Dédalo 6 records (COPY text): the first line starts with a record id and a tab.
 * - Dédalo CSV: the header's first cell is `section_id` and the other cells are tipos
 *   (`oh14`, `oh14 (Code)`).
 * - Anything else with a header row: a spreadsheet CSV, mapped column by column.
 */

export type ImportKind = 'dedalo_csv' | 'mapped_csv' | 'matrix_copy';

export interface DetectedFile {
  kind: ImportKind;
  /** The header cells (CSV kinds; empty for COPY text). */
  columns: string[];
}

const TIPO_CELL = /^[a-z]{2,32}[0-9]{1,9}(\s*\(.*\))?$/;

/** The first line of `text` (a quoted cell may hold line breaks), without its line end. */
function firstRecord(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return text.slice(0, i);
  }
  return text;
}

/** The separator the server picks: `;` or `,`, whichever the header uses more outside quotes. */
function separatorOf(line: string): ';' | ',' {
  let quoted = false;
  let semicolons = 0;
  let commas = 0;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ';') semicolons++;
    else if (!quoted && c === ',') commas++;
  }
  return commas > semicolons ? ',' : ';';
}

/** RFC 4180 cells of one line (quotes doubled inside quoted cells). */
export function splitCsvLine(line: string, separator: ';' | ','): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells.map((c) => c.trim());
}

/** The kind and columns of a file from its beginning (a BOM is skipped). */
export function detectFile(start: string): DetectedFile {
  const text = start.replace(/^\uFEFF/, '');
  const line = firstRecord(text);
  if (/^[0-9]+\t/.test(line)) return { kind: 'matrix_copy', columns: [] };
  const columns = splitCsvLine(line, separatorOf(line));
  const dedalo =
    columns[0] === 'section_id' &&
    columns.length > 1 &&
    columns.slice(1).every((c) => c === 'section_tipo' || TIPO_CELL.test(c));
  return { kind: dedalo ? 'dedalo_csv' : 'mapped_csv', columns };
}

/** The tipo a Dédalo CSV header cell names (`oh14 (Code)` → `oh14`). */
export const tipoOfHeader = (cell: string): string => cell.replace(/\s*\(.*\)$/, '');

/** Text compared loosely: case, accents and spacing do not matter ("Título" = "titulo "). */
export const looseText = (s: string): string =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
