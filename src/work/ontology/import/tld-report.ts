/**
 * What an ontology import reports (returned by the API as `result`, printed by the CLI; `--json`
 * prints this object), and its readable text.
 */
import type { ImportProblem } from './import-node.js';

/** How many, and the first tipos (LISTED at most). */
export interface TipoList {
  count: number;
  tipos: string[];
}

export const LISTED = 20;

export const tipoList = (tipos: readonly string[]): TipoList => ({
  count: tipos.length,
  tipos: tipos.slice(0, LISTED),
});

export interface TldImportReport {
  file: string;
  format: string;
  tld: string;
  /** The TLD's name as registered in main_dd. */
  name: string;
  dry_run: boolean;
  /** False for a dry run or a refused import: nothing was written. */
  written: boolean;
  added: TipoList;
  changed: TipoList;
  removed: TipoList;
  unchanged: number;
  /** Model nodes of other TLDs in the file that this TLD's elements name, newly stored. */
  model_nodes_added: number;
  /** Model → element count: kept in the ontology and shown read-only. */
  models_not_implemented: Record<string, number>;
  /** TLD → relation count: relations kept as they are, ignored until that TLD is installed. */
  relations_to_tlds_not_installed: Record<string, number>;
  unresolved_models: { model_tipo: string; tipos: string[] }[];
  /** Elements whose parent is not installed (or the TLD's root): placed under the root area. */
  attached_to_root: { tipo: string; parent: string | null }[];
  /**
   * Elements of OTHER TLDs whose parent this import removes (our default admin area, when
   * Dédalo's own `dd` replaces ours): placed under the root area, never left without a parent.
   */
  reattached_to_root: { tipo: string; parent: string }[];
  /** Languages of labels this archive does not offer: the labels are kept. */
  labels_in_languages_not_offered: string[];
  notes: string[];
  /** Problems of the file, with their line (rows ignored, cells unreadable). */
  problems: ImportProblem[];
  /** Why the import was refused (the file or the resulting ontology), when it was. */
  refused: string[];
}

const list = (l: TipoList) =>
  l.count === 0
    ? ''
    : `: ${l.tipos.join(', ')}${l.count > l.tipos.length ? `, … (${l.count - l.tipos.length} more)` : ''}`;

export function formatTldReport(r: TldImportReport): string {
  const out: string[] = [];
  const verb =
    r.refused.length > 0 ? 'REFUSED, nothing written' : r.dry_run ? 'dry run, nothing written' : 'imported';
  out.push(`Ontology import of TLD ${r.tld} (${r.name}) from ${r.file} [${r.format}]: ${verb}.`);
  out.push(
    `  ${r.added.count} added, ${r.changed.count} changed, ${r.removed.count} removed, ${r.unchanged} unchanged`,
  );
  if (r.added.count > 0) out.push(`  added${list(r.added)}`);
  if (r.changed.count > 0) out.push(`  changed${list(r.changed)}`);
  if (r.removed.count > 0) out.push(`  removed${list(r.removed)}`);
  if (r.model_nodes_added > 0) out.push(`  model nodes stored from other TLDs: ${r.model_nodes_added}`);
  const models = Object.entries(r.models_not_implemented);
  if (models.length > 0) {
    out.push('  models not implemented here (elements kept, shown read-only):');
    for (const [model, n] of models) out.push(`    ${model}: ${n}`);
  }
  const tlds = Object.entries(r.relations_to_tlds_not_installed);
  if (tlds.length > 0) {
    out.push('  relations to TLDs not installed (kept, ignored until installed):');
    for (const [tld, n] of tlds) out.push(`    ${tld}: ${n}`);
  }
  for (const u of r.unresolved_models)
    out.push(`  unresolved model ${u.model_tipo}, used by ${u.tipos.slice(0, LISTED).join(', ')}`);
  for (const a of r.attached_to_root)
    out.push(`  ${a.tipo} placed under the root area (its parent ${a.parent ?? '(none)'} is not installed)`);
  for (const a of r.reattached_to_root)
    out.push(`  ${a.tipo} (another TLD) placed under the root area: its parent ${a.parent} is removed`);
  for (const lang of r.labels_in_languages_not_offered)
    out.push(`  labels in ${lang} kept; not offered as a data language`);
  for (const note of r.notes) out.push(`  note: ${note}`);
  for (const p of r.problems) out.push(`  line ${p.line}: ${p.message}`);
  if (r.refused.length > 0) {
    out.push('  refused because:');
    for (const p of r.refused) out.push(`    - ${p}`);
  }
  return out.join('\n');
}
