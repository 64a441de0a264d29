/**
 * What an import reads: a file that can be opened more than once (a thesaurus package is read
 * twice: first the ids it holds, so a link to a record later in the file is not refused), and
 * the detection of its kind from its first bytes, never from its name.
 */
import { createReadStream } from 'node:fs';
import type { ImportKind } from './import-register.js';

export interface ImportSource {
  open(): AsyncIterable<Uint8Array | string>;
}

export const fileSource = (path: string): ImportSource => ({
  open: () => createReadStream(path, { highWaterMark: 256 * 1024 }),
});

export const textSource = (text: string): ImportSource => ({
  open: () =>
    (async function* () {
      yield text;
    })(),
});

/** How many characters are looked at to tell the kind. */
const SNIFF_CHARS = 64 * 1024;

async function head(source: ImportSource): Promise<string> {
  let text = '';
  for await (const chunk of source.open()) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.length >= SNIFF_CHARS) break;
  }
  return text.slice(0, SNIFF_CHARS);
}

const COPY_BLOCK = /^COPY\s+[\w".]+\s*\([^)]*\)\s+FROM\s+stdin/im;
/** A package line: (id,) section_id, section_tipo, then `datos` as a JSON object. */
const PACKAGE_LINE = /^(\d+\t)?\d+\t[a-z]+\d+\t\{/;

/**
 * The kind of a collection file: Dédalo 6 records (a COPY block of a matrix table, or package
 * lines), else a spreadsheet with its mapping when one is given, else Dédalo CSV.
 */
export async function detectKind(source: ImportSource, hasMapping: boolean): Promise<ImportKind> {
  const text = (await head(source)).replace(/^\uFEFF/, '');
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '';
  if (COPY_BLOCK.test(text) || PACKAGE_LINE.test(firstLine)) return 'matrix_copy';
  return hasMapping ? 'mapped_csv' : 'dedalo_csv';
}

/** `oh1.csv` → `oh1`: a Dédalo export is named after its section. */
export function sectionFromFileName(fileName: string): string | undefined {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  return /^([a-z]+\d+)\.csv$/i.exec(base)?.[1]?.toLowerCase();
}
