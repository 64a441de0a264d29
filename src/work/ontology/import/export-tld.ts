/**
 * One TLD of the work database as a file the import reads back identically: Dédalo 7
 * `dd_ontology` COPY text (the default) or Dédalo 6 `jer_dd` COPY text. The TLD's rows in tree
 * order (siblings by order_number, then tipo), preceded by the stored model nodes its elements
 * name (so a jer_dd file resolves its model tipos). The same database gives the same bytes.
 */
import type { SqlQueryable } from '../../store/sql-client.js';
import { encodeCopyField } from './copy-text.js';
import { exportDdOntology } from './export-dd-ontology.js';
import type { ImportNode } from './import-node.js';
import type { TldRow } from './tld-rows.js';
import { modelNodeName } from './tld-rows.js';

export const EXPORT_FORMATS = ['dd_ontology', 'jer_dd'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The TLD is not in the database (nothing to export). */
export class TldNotInstalled extends Error {
  constructor(readonly tld: string) {
    super(`the TLD ${tld} has no element in this ontology`);
    this.name = 'TldNotInstalled';
  }
}

const byOrder = (a: TldRow, b: TldRow) =>
  a.order_number - b.order_number || (a.tipo < b.tipo ? -1 : a.tipo > b.tipo ? 1 : 0);

function toNode(r: TldRow): ImportNode {
  return {
    tipo: r.tipo,
    parent: r.parent,
    model: r.model === '' ? null : r.model,
    is_model: r.is_model,
    order: r.order_number,
    tld: r.tld,
    translatable: r.is_translatable,
    relations: (r.relations ?? []).map((x) => x.tipo),
    properties: r.properties ?? null,
    term: r.term,
  };
}

/** The TLD's nodes, model nodes first, then the tree from the TLD's top elements down. */
export async function readTldNodes(db: SqlQueryable, tld: string): Promise<ImportNode[]> {
  const { rows } = await db.query<{ row: TldRow; own: boolean }>(
    `SELECT jsonb_build_object('tipo', o.tipo, 'parent', o.parent, 'term', o.term, 'model', o.model,
       'order_number', o.order_number, 'relations', o.relations, 'tld', o.tld,
       'properties', o.properties, 'model_tipo', o.model_tipo, 'is_model', o.is_model,
       'is_translatable', o.is_translatable) AS row, o.tld = $1 AS own
     FROM dd_ontology o
     WHERE o.tld = $1
        OR (o.is_model AND o.tipo IN (SELECT model_tipo FROM dd_ontology WHERE tld = $1 AND model_tipo IS NOT NULL))`,
    [tld],
  );
  const own = rows.filter((r) => r.own).map((r) => r.row);
  if (!own.some((r) => !r.is_model)) throw new TldNotInstalled(tld);
  const models = rows
    .filter((r) => !r.own)
    .map((r) => r.row)
    .sort((a, b) => (a.tipo < b.tipo ? -1 : a.tipo > b.tipo ? 1 : 0));
  const tipos = new Set(own.map((r) => r.tipo));
  const childrenOf = new Map<string | null, TldRow[]>();
  for (const r of own) {
    const key = r.parent !== null && tipos.has(r.parent) ? r.parent : null;
    childrenOf.set(key, [...(childrenOf.get(key) ?? []), r]);
  }
  for (const list of childrenOf.values()) list.sort(byOrder);
  const ordered: TldRow[] = [];
  const placed = new Set<string>();
  const walk = (parent: string | null) => {
    for (const r of childrenOf.get(parent) ?? []) {
      if (placed.has(r.tipo)) continue;
      placed.add(r.tipo);
      ordered.push(r);
      walk(r.tipo);
    }
  };
  walk(null);
  // Rows in a parent cycle are not reached from the top: written last, by tipo.
  for (const r of [...own].sort(byOrder)) if (!placed.has(r.tipo)) ordered.push(r);
  return [...models, ...ordered].map(toNode);
}

const JER_DD_COLUMNS = [
  'terminoID',
  'parent',
  'modelo',
  'esmodelo',
  'norden',
  'tld',
  'traducible',
  'relaciones',
  'properties',
  'term',
] as const;

/**
 * Dédalo 6 `jer_dd` COPY text: `modelo` is the model node's tipo when the file holds it, else
 * the model name (which the reader also accepts); relations as Dédalo writes them, `{model: tipo}`.
 */
export function exportJerDd(nodes: readonly ImportNode[], comment?: string): string {
  const modelTipo = new Map<string, string>();
  for (const n of nodes) {
    const name = n.is_model ? modelNodeName(n) : undefined;
    if (name !== undefined && !modelTipo.has(name)) modelTipo.set(name, n.tipo);
  }
  const out: string[] = [];
  if (comment) for (const line of comment.split('\n')) out.push(`-- ${line}`);
  out.push(
    `COPY public.jer_dd (${JER_DD_COLUMNS.map((c) => (c === 'terminoID' ? '"terminoID"' : c)).join(', ')}) FROM stdin;`,
  );
  const sectionModel = modelTipo.get('section') ?? 'section';
  for (const n of nodes) {
    const fields = [
      n.tipo,
      n.parent,
      n.model === null ? null : (modelTipo.get(n.model) ?? n.model),
      n.is_model ? 'si' : 'no',
      n.order === null ? null : String(n.order),
      n.tld,
      n.translatable ? 'si' : 'no',
      n.relations.length === 0 ? null : JSON.stringify(n.relations.map((tipo) => ({ [sectionModel]: tipo }))),
      n.properties === null ? null : JSON.stringify(n.properties),
      JSON.stringify(n.term),
    ];
    out.push(fields.map(encodeCopyField).join('\t'));
  }
  out.push('\\.', '');
  return out.join('\n');
}

export async function exportTld(
  db: SqlQueryable,
  tld: string,
  format: ExportFormat = 'dd_ontology',
): Promise<string> {
  const nodes = await readTldNodes(db, tld);
  const comment = `${format} of the TLD ${tld}, exported from the work database`;
  return format === 'jer_dd' ? exportJerDd(nodes, comment) : exportDdOntology(nodes, comment);
}
