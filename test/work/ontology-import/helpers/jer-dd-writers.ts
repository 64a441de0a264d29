/**
 * Test-side writers of Dédalo 6 `jer_dd` dumps, for fixtures and generated files: as
 * `INSERT INTO "jer_dd" (...) VALUES` statements (pg_dump --column-inserts style, several rows per
 * statement, escape strings for values holding control characters) and as COPY text. Written from
 * the column list the readers accept; the node list is the normalised one, mapped back to model
 * tipos through its model nodes.
 */
import { encodeCopyField } from '../../../../src/work/ontology/import/copy-text.js';
import type { ImportNode } from '../../../../src/work/ontology/import/import-node.js';

export const JER_DD_COLUMNS = [
  'id',
  'terminoID',
  'parent',
  'modelo',
  'esmodelo',
  'esdescriptor',
  'visible',
  'norden',
  'tld',
  'traducible',
  'relaciones',
  'propiedades',
  'properties',
  'term',
] as const;

type Column = (typeof JER_DD_COLUMNS)[number];

function modelTipos(nodes: readonly ImportNode[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const n of nodes) {
    const name = n.is_model ? n.term['lg-spa'] : undefined;
    if (name !== undefined && !map.has(name)) map.set(name, n.tipo);
  }
  return map;
}

/** The jer_dd cells of each node, as text or null. */
export function jerDdCells(nodes: readonly ImportNode[]): Record<Column, string | null>[] {
  const models = modelTipos(nodes);
  const modelOf = new Map(nodes.map((n) => [n.tipo, n.model]));
  const sectionModel = models.get('section') ?? 'dd6';
  return nodes.map((n, i) => ({
    id: String(i + 1),
    terminoID: n.tipo,
    parent: n.parent,
    modelo: n.model === null ? null : (models.get(n.model) ?? null),
    esmodelo: n.is_model ? 'si' : 'no',
    esdescriptor: 'si',
    visible: 'si',
    norden: n.order === null ? null : String(n.order),
    tld: n.tld,
    traducible: n.translatable ? 'si' : 'no',
    relaciones:
      n.relations.length === 0
        ? null
        : JSON.stringify(
            n.relations.map((target) => {
              const targetModel = modelOf.get(target);
              return { [(targetModel && models.get(targetModel)) || sectionModel]: target };
            }),
          ),
    propiedades: null,
    properties: n.properties === null ? null : JSON.stringify(n.properties),
    term: JSON.stringify(n.term),
  }));
}

function sqlValue(value: string | null, column: Column): string {
  if (value === null) return 'NULL';
  if (column === 'id' || column === 'norden') return value;
  if (/[\\\n\r\t]/.test(value)) {
    const body = value
      .replaceAll('\\', '\\\\')
      .replaceAll("'", "\\'")
      .replaceAll('\n', '\\n')
      .replaceAll('\r', '\\r')
      .replaceAll('\t', '\\t');
    return `E'${body}'`;
  }
  return `'${value.replaceAll("'", "''")}'`;
}

export interface SqlOptions {
  /** Rows per INSERT statement (default 1). */
  rowsPerInsert?: number;
  /** Column order of the statements (default JER_DD_COLUMNS reversed, to show order does not matter). */
  columns?: readonly Column[];
}

export function writeJerDdSql(nodes: readonly ImportNode[], options: SqlOptions = {}): string {
  const columns = options.columns ?? [...JER_DD_COLUMNS].reverse();
  const per = options.rowsPerInsert ?? 1;
  const cells = jerDdCells(nodes);
  const out = [
    '--',
    '-- PostgreSQL database dump (jer_dd, written for the tests)',
    '--',
    '',
    'SET statement_timeout = 0;',
    "SET client_encoding = 'UTF8';",
    'SET standard_conforming_strings = on;',
    "SELECT pg_catalog.set_config('search_path', '', false);",
    '',
    "INSERT INTO public.main_dd (id, tld, counter, name) VALUES (1, 'x', 0, 'not ontology; rows (a, b);');",
    '',
  ];
  const head = `INSERT INTO "jer_dd" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES`;
  for (let i = 0; i < cells.length; i += per) {
    const tuples = cells
      .slice(i, i + per)
      .map((row) => `(${columns.map((c) => sqlValue(row[c], c)).join(', ')})`);
    out.push(per === 1 ? `${head} ${tuples[0]};` : `${head}\n${tuples.join(',\n')};`);
  }
  out.push('', `SELECT pg_catalog.setval('public.jer_dd_id_seq', ${cells.length}, true);`, '');
  return out.join('\n');
}

export function writeJerDdCopy(nodes: readonly ImportNode[]): string {
  const cells = jerDdCells(nodes);
  const out = [
    '--',
    '-- PostgreSQL database dump (jer_dd as COPY text, written for the tests)',
    '--',
    '',
    "SET client_encoding = 'UTF8';",
    '',
    'COPY public.matrix_counter (tipo, value, ref) FROM stdin;',
    'oh1\t12\tInterviews [section]',
    '\\.',
    '',
    `COPY public.jer_dd (${JER_DD_COLUMNS.map((c) => (c === 'terminoID' ? '"terminoID"' : c)).join(', ')}) FROM stdin;`,
  ];
  for (const row of cells) out.push(JER_DD_COLUMNS.map((c) => encodeCopyField(row[c])).join('\t'));
  out.push('\\.', '', `SELECT pg_catalog.setval('public.jer_dd_id_seq', ${cells.length}, true);`, '');
  return out.join('\n');
}
