/**
 * Reads Dédalo 6 records as PostgreSQL COPY text of a matrix table (docs/import-export.md,
 * "Dédalo 6 records"): a pg_dump `COPY <table> (id, section_id, section_tipo, datos) FROM stdin;`
 * block, or bare lines of `section_id, section_tipo, datos` (with `id` first or not) as Dédalo's
 * thesaurus packages (`<tld>.copy`) hold them. Each row's `datos` becomes our stored shape: items
 * in the typed column of each component's model, ids numbered per component (translations share
 * the id of their position), the item counter, and the creation and modification stamps.
 * Nothing is lost: a component whose tipo the ontology lacks, whose model is not implemented, or
 * whose value does not fit its model is kept as it is under `misc`, and the row says so.
 * Streamed line by line.
 */
import { MAX_SECTION_ID } from '../components/component-values.js';
import { parseDateValue } from '../components/date-time.js';
import { COMPONENT_MODELS, isComponentModel } from '../ontology/component-models.js';
import { decodeCopyLine } from '../ontology/import/copy-text.js';
import { OntologyParseError } from '../ontology/import/parse-error.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import { LANG_PATTERN } from '../ontology/ontology-schema.js';
import type { DataColumn } from '../store/matrix-tables.js';
import type { CellRefusal } from './cell-changes.js';
import { CollectionFileError } from './collection-file-error.js';
import { utf8Chunks } from './utf8-check.js';

/** One Dédalo record in our stored shape (the columns of a matrix row). */
export interface MatrixCopyRecord {
  section_tipo: string;
  section_id: number;
  /** Whether the ontology has this section (a package of a TLD not installed yet has not). */
  sectionKnown: boolean;
  columns: Record<DataColumn, Record<string, unknown[]>>;
  /** Per component, the last item id used. */
  meta: Record<string, number>;
  created_at?: string;
  created_by?: number;
  modified_at?: string;
  modified_by?: number;
  /** What was kept under `misc` and why (one line per component). */
  notes: string[];
}

export interface MatrixCopyRow {
  line: number;
  /** Absent when the row is refused. */
  record?: MatrixCopyRecord;
  refusals: CellRefusal[];
}

export interface MatrixCopyOptions {
  ontology: Ontology;
  limits?: { maxLineChars?: number };
}

const MAX_LINE_CHARS = 16_000_000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const COPY_HEADER = /^COPY\s+([\w".]+)\s*\(([^)]*)\)\s+FROM\s+stdin\s*;?\s*$/i;

/** The lines of a byte stream (LF or CRLF), decoded; throws when one is longer than the limit. */
async function* lines(source: AsyncIterable<Uint8Array | string>, max: number): AsyncGenerator<string> {
  let pending = '';
  let line = 0;
  for await (const chunk of utf8Chunks(source)) {
    pending += chunk.toString('utf8');
    let start = 0;
    for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n', start)) {
      line++;
      const text = pending.slice(start, at);
      yield text.endsWith('\r') ? text.slice(0, -1) : text;
      start = at + 1;
    }
    pending = pending.slice(start);
    if (pending.length > max) {
      throw new CollectionFileError('limit', `a line is longer than ${max} characters`, { line: line + 1 });
    }
  }
  if (pending !== '') yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}

/** Dédalo's stamps ("2019-05-02 10:11:12", ISO too) as ISO text; undefined when not a time. */
function timestamp(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return undefined;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const userId = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
};

/** A component's `dato` as (lang, values) pairs: `{lang: [..]}`, or a bare list/value (no language). */
function datoByLang(dato: unknown): [string, unknown[]][] {
  if (dato === null || dato === undefined) return [];
  if (isObject(dato) && Object.keys(dato).every((k) => LANG_PATTERN.test(k))) {
    return Object.entries(dato).map(([lang, v]) => [lang, Array.isArray(v) ? v : v === null ? [] : [v]]);
  }
  return [[NO_LANG, Array.isArray(dato) ? dato : [dato]]];
}

/** Items `{id, lang, value}`: the n-th value of each language gets id n (translations share it). */
function literalItems(pairs: [string, unknown[]][], convert: (v: unknown) => unknown): unknown[] {
  return pairs.flatMap(([lang, values]) => values.map((v, n) => ({ id: n + 1, lang, value: convert(v) })));
}

class DoesNotFit extends Error {}

function textValue(v: unknown): string | null {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new DoesNotFit('a text value is not a string');
}

function numberValue(v: unknown): number | null {
  if (v === null) return null;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new DoesNotFit('a number value is not a number');
  return n;
}

/** One row's `datos` converted (see the module comment). */
export function convertDatos(
  ontology: Ontology,
  sectionTipo: string,
  sectionId: number,
  datos: Record<string, unknown>,
): MatrixCopyRecord {
  const columns: MatrixCopyRecord['columns'] = {
    string: {},
    relation: {},
    date: {},
    number: {},
    media: {},
    misc: {},
  };
  const meta: Record<string, number> = {};
  const notes: string[] = [];
  const put = (column: DataColumn, tipo: string, items: unknown[]) => {
    if (items.length === 0) return;
    columns[column][tipo] = items;
    const ids = items.map((i) => (isObject(i) && typeof i.id === 'number' ? i.id : 0));
    meta[tipo] = Math.max(meta[tipo] ?? 0, ...ids);
  };
  const keep = (tipo: string, items: unknown[], why: string) => {
    // A tipo may be kept twice (component data and locators): the second list follows the first,
    // its item ids after the first's.
    const before = columns.misc[tipo] ?? [];
    const offset = meta[tipo] ?? 0;
    const renumbered = items.map((i) =>
      isObject(i) && typeof i.id === 'number' ? { ...i, id: i.id + offset } : i,
    );
    put('misc', tipo, [...before, ...renumbered]);
    notes.push(`${tipo}: ${why}, kept as stored`);
  };

  const components = isObject(datos.components) ? datos.components : {};
  for (const [tipo, component] of Object.entries(components)) {
    const dato = isObject(component) ? component.dato : undefined;
    const pairs = datoByLang(dato);
    const asStored = () => literalItems(pairs, (v) => v);
    if (pairs.every(([, values]) => values.length === 0)) continue;
    const node = ontology.node(tipo);
    if (!node) {
      keep(tipo, asStored(), 'not in the ontology');
      continue;
    }
    if (!isComponentModel(node.model)) {
      keep(tipo, asStored(), `${node.model} is not implemented here`);
      continue;
    }
    const model = node.model;
    const column = COMPONENT_MODELS[model].column;
    try {
      switch (model) {
        case 'component_input_text':
        case 'component_text_area':
        case 'component_email':
          put(column, tipo, literalItems(pairs, textValue));
          break;
        case 'component_number':
          put(column, tipo, literalItems(pairs, numberValue));
          break;
        case 'component_date':
          put(
            column,
            tipo,
            pairs.flatMap(([, values]) =>
              values.map((v, n) => {
                try {
                  return { id: n + 1, lang: NO_LANG, ...parseDateValue(v, tipo, `value[${n}]`) };
                } catch (error) {
                  throw new DoesNotFit(`a date does not fit: ${(error as Error).message}`);
                }
              }),
            ),
          );
          break;
        case 'component_av':
        case 'component_image':
        case 'component_pdf':
          put(
            column,
            tipo,
            pairs.flatMap(([lang, values]) =>
              values.map((v, n) => (isObject(v) ? { ...v, id: n + 1, lang } : { id: n + 1, lang, value: v })),
            ),
          );
          break;
        case 'component_json':
          put(column, tipo, asStored());
          break;
        case 'component_password':
          // Dédalo's password hashes are not ours: kept apart, never used to log in.
          keep(tipo, asStored(), 'a Dédalo password hash is not used here');
          break;
        default:
          // Relation models keep their data in `relations`; security access grids are Dédalo's own.
          keep(tipo, asStored(), `${model} data is not read from components`);
      }
    } catch (error) {
      if (!(error instanceof DoesNotFit)) throw error;
      keep(tipo, asStored(), error.message);
    }
  }

  // Locators, grouped by the component they belong to.
  const relations = Array.isArray(datos.relations) ? datos.relations : [];
  const byComponent = new Map<string, unknown[]>();
  for (const locator of relations) {
    const from =
      isObject(locator) && typeof locator.from_component_tipo === 'string' ? locator.from_component_tipo : '';
    const list = byComponent.get(from) ?? [];
    list.push(locator);
    byComponent.set(from, list);
  }
  for (const [tipo, locators] of byComponent) {
    if (tipo === '') {
      keep('relations', locators, 'locators without from_component_tipo');
      continue;
    }
    const node = ontology.node(tipo);
    const model = node?.model ?? '';
    if (!node || !isComponentModel(model) || !COMPONENT_MODELS[model].relation) {
      keep(
        tipo,
        locators.map((l, n) => ({ id: n + 1, lang: NO_LANG, value: l })),
        node ? `${model} is not a relation here` : 'not in the ontology',
      );
      continue;
    }
    const items: unknown[] = [];
    let fits = true;
    for (const [n, l] of locators.entries()) {
      const raw = (l as Record<string, unknown>).section_id;
      const id = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
      const target = (l as Record<string, unknown>).section_tipo;
      if (
        typeof id !== 'number' ||
        !Number.isInteger(id) ||
        id < 1 ||
        id > MAX_SECTION_ID ||
        typeof target !== 'string'
      ) {
        fits = false;
        break;
      }
      items.push({ ...(l as Record<string, unknown>), id: n + 1, section_id: id });
    }
    if (fits) put('relation', tipo, items);
    else
      keep(
        tipo,
        locators.map((l, n) => ({ id: n + 1, lang: NO_LANG, value: l })),
        'a locator has no valid record id',
      );
  }

  const record: MatrixCopyRecord = {
    section_tipo: sectionTipo,
    section_id: sectionId,
    sectionKnown: ontology.node(sectionTipo)?.model === 'section',
    columns,
    meta,
    notes,
  };
  const stamps = {
    created_at: timestamp(datos.created_date),
    created_by: userId(datos.created_by_userID),
    modified_at: timestamp(datos.modified_date),
    modified_by: userId(datos.modified_by_userID),
  };
  for (const [k, v] of Object.entries(stamps)) if (v !== undefined) Object.assign(record, { [k]: v });
  return record;
}

type Layout = { sectionId: number; sectionTipo: number; datos: number; fields: number };

/** Where a COPY block's columns are; undefined when it is not a matrix table's block. */
function layoutOf(names: readonly string[]): Layout | undefined {
  const at = (n: string) => names.indexOf(n);
  const layout = {
    sectionId: at('section_id'),
    sectionTipo: at('section_tipo'),
    datos: at('datos'),
    fields: names.length,
  };
  return layout.sectionId < 0 || layout.sectionTipo < 0 || layout.datos < 0 ? undefined : layout;
}

/** Bare lines (no COPY header): `section_id, section_tipo, datos`, or with `id` first. */
function bareLayout(fields: number, line: number): Layout {
  if (fields === 3) return { sectionId: 0, sectionTipo: 1, datos: 2, fields };
  if (fields === 4) return { sectionId: 1, sectionTipo: 2, datos: 3, fields };
  throw new CollectionFileError(
    'syntax',
    `a line has ${fields} tab-separated fields: Dédalo records are (id,) section_id, section_tipo, datos`,
    { line },
  );
}

function readLine(
  options: MatrixCopyOptions,
  fields: (string | null)[],
  layout: Layout,
  line: number,
): MatrixCopyRow {
  const refuse = (
    reason: CellRefusal['reason'],
    column: number,
    header: string,
    message: string,
  ): MatrixCopyRow => ({
    line,
    refusals: [{ line, column, header, reason, message }],
  });
  const rawId = fields[layout.sectionId] ?? '';
  const sectionId = /^\d{1,10}$/.test(rawId) ? Number(rawId) : Number.NaN;
  if (!(sectionId >= 1 && sectionId <= MAX_SECTION_ID)) {
    return refuse(
      'section_id',
      layout.sectionId + 1,
      'section_id',
      `"${rawId.slice(0, 32)}" is not a record id`,
    );
  }
  const sectionTipo = fields[layout.sectionTipo] ?? '';
  if (!/^[a-z]{2,32}[0-9]{1,9}$/.test(sectionTipo)) {
    return refuse(
      'section_tipo',
      layout.sectionTipo + 1,
      'section_tipo',
      `"${sectionTipo.slice(0, 64)}" is not a tipo`,
    );
  }
  let datos: unknown;
  try {
    datos = JSON.parse(fields[layout.datos] ?? 'null');
  } catch (error) {
    return refuse('format', layout.datos + 1, 'datos', `datos is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(datos)) return refuse('format', layout.datos + 1, 'datos', 'datos is not a JSON object');
  return { line, record: convertDatos(options.ontology, sectionTipo, sectionId, datos), refusals: [] };
}

/**
 * The records of a Dédalo 6 matrix COPY file, one per data line. Throws CollectionFileError for a
 * file that cannot be read (encoding, a COPY line with the wrong number of fields or a bad escape,
 * no records at all); a row whose ids or `datos` are unusable is refused and the others are read.
 */
export async function* readMatrixCopy(
  source: AsyncIterable<Uint8Array | string>,
  options: MatrixCopyOptions,
): AsyncGenerator<MatrixCopyRow> {
  const max = options.limits?.maxLineChars ?? MAX_LINE_CHARS;
  let layout: Layout | undefined;
  /** inside: in a matrix COPY block; skip: in another table's block; outside: SQL around blocks. */
  let state: 'start' | 'inside' | 'skip' | 'outside' | 'bare' = 'start';
  let rows = 0;
  let n = 0;
  try {
    for await (const text of lines(source, max)) {
      n++;
      if (state === 'inside' || state === 'skip') {
        if (text === '\\.') {
          state = 'outside';
          continue;
        }
        if (state === 'skip') continue;
      }
      if (state === 'start' || state === 'outside') {
        const header = COPY_HEADER.exec(text.trim());
        if (header) {
          const names = header[2]!.split(',').map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
          layout = layoutOf(names);
          state = layout ? 'inside' : 'skip';
          continue;
        }
        // Before any COPY header, a line with tabs starts a bare package file.
        if (state === 'start' && text.includes('\t')) state = 'bare';
        else continue;
      }
      if (text === '' || (state === 'bare' && text === '\\.')) continue;
      const fields = decodeCopyLine(text, n);
      if (state === 'bare' && layout === undefined) layout = bareLayout(fields.length, n);
      if (fields.length !== layout!.fields) {
        throw new CollectionFileError(
          'syntax',
          `the line has ${fields.length} fields, the COPY names ${layout!.fields}`,
          {
            line: n,
          },
        );
      }
      rows++;
      yield readLine(options, fields, layout!, n);
    }
  } catch (error) {
    if (error instanceof OntologyParseError) {
      throw new CollectionFileError('syntax', error.message.replace(/^line \d+: /, ''), {
        line: error.line ?? undefined,
      });
    }
    throw error;
  }
  if (rows === 0) {
    throw new CollectionFileError(
      'syntax',
      'no Dédalo records: expected a COPY block of a matrix table (section_id, section_tipo, datos) or its tab-separated lines',
    );
  }
}
