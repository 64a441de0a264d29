/**
 * The normalised ontology node every reader produces, whatever the file's format, and the report
 * that goes with a read.
 */

export interface ImportNode {
  tipo: string;
  /** The tree parent's tipo; null for a root. */
  parent: string | null;
  /** The model NAME (`section`, `component_input_text`); null when it could not be resolved. */
  model: string | null;
  /** A model node: its label is a model name that other nodes reference. */
  is_model: boolean;
  /** Order among siblings; null when the file has none. */
  order: number | null;
  tld: string;
  translatable: boolean;
  /** Target tipos of the node's typed relations, in file order. */
  relations: string[];
  /** Parsed properties; null when absent (or unreadable, which the report lists). */
  properties: unknown;
  /** Label by language code (`lg-spa`, `lg-eng`, ...). */
  term: Record<string, string>;
  /**
   * Columns the reader does not map (jer_dd's `id`, `visible`, `esdescriptor`, `usableIndex`,
   * dd_ontology's `id`, `is_main`, `propiedades`...), as text. Not written by the exporter.
   */
  extra?: Record<string, string | null>;
}

export type ProblemKind =
  | 'bad_tipo'
  | 'bad_json'
  | 'bad_value'
  | 'duplicate_tipo'
  | 'parent_missing'
  | 'model_unresolved';

export interface ImportProblem {
  kind: ProblemKind;
  /** 1-based line of the file where the row starts. */
  line: number;
  tipo: string | null;
  message: string;
}

export interface ImportReport {
  format: string;
  /** The TLD selected with `tld`, or null for all. */
  tld: string | null;
  /** Node count per TLD, in the whole file. */
  nodes_per_tld: Record<string, number>;
  /** Model name → number of selected (non-model) nodes using it. */
  models_used: Record<string, number>;
  /** Models used by selected nodes that this archive does not implement (nodes kept). */
  models_not_implemented: Record<string, number>;
  /** Model tipos that name no model node of the file, with the nodes using them. */
  unresolved_models: { model_tipo: string; tipos: string[] }[];
  /** TLDs that relations point into but that the file does not hold, with the relation count. */
  relations_to_missing_tlds: Record<string, number>;
  problems: ImportProblem[];
}

export interface ImportResult {
  nodes: ImportNode[];
  report: ImportReport;
}
