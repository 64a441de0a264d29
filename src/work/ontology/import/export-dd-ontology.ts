/**
 * Writes a node list as Dédalo 7 `dd_ontology` COPY text, which readOntologyFile reads back to
 * the same list (less `extra`, the columns the reader does not map, which are not written).
 */
import { encodeCopyField } from './copy-text.js';
import type { ImportNode } from './import-node.js';

export const DD_ONTOLOGY_COLUMNS = [
  'id',
  'tipo',
  'parent',
  'term',
  'model',
  'order_number',
  'relations',
  'tld',
  'properties',
  'model_tipo',
  'is_model',
  'is_translatable',
] as const;

export function exportDdOntology(nodes: readonly ImportNode[], comment?: string): string {
  const modelTipo = new Map<string, string>();
  for (const n of nodes) {
    const name = n.is_model ? (n.term['lg-spa'] ?? n.term['lg-eng'] ?? Object.values(n.term)[0]) : undefined;
    if (name !== undefined && !modelTipo.has(name)) modelTipo.set(name, n.tipo);
  }
  const out: string[] = [];
  if (comment) for (const line of comment.split('\n')) out.push(`-- ${line}`);
  out.push(`COPY public.dd_ontology (${DD_ONTOLOGY_COLUMNS.join(', ')}) FROM stdin;`);
  nodes.forEach((n, i) => {
    const fields = [
      String(i + 1),
      n.tipo,
      n.parent,
      JSON.stringify(n.term),
      n.model,
      n.order === null ? null : String(n.order),
      JSON.stringify(n.relations.map((tipo) => ({ tipo }))),
      n.tld,
      n.properties === null ? null : JSON.stringify(n.properties),
      n.model === null ? null : (modelTipo.get(n.model) ?? null),
      n.is_model ? 't' : 'f',
      n.translatable ? 't' : 'f',
    ];
    out.push(fields.map(encodeCopyField).join('\t'));
  });
  out.push('\\.', '');
  return out.join('\n');
}
