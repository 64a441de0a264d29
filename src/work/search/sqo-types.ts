/**
 * The parsed, neutral form of a search query object (SQO). parse-sqo.ts builds it from a
 * client's JSON (refusing anything malformed with `search.invalid_sqo`); sqo-sql.ts turns it into
 * SQL. Every tipo in here has been checked against the ontology, every value typed, so the SQL
 * builder never meets user input it has to reject.
 */

export const SQO_MODES = ['search', 'list', 'edit', 'tm', 'related'] as const;
export type SqoMode = (typeof SQO_MODES)[number];

/** Path steps a filter or order may end on that are record columns, not components. */
export const STRUCTURAL_TIPOS = ['section_id', 'section_tipo', 'id'] as const;
export type StructuralTipo = (typeof STRUCTURAL_TIPOS)[number];

export interface PathStep {
  /** The section the step's component belongs to; undefined only for a first structural step. */
  section_tipo?: string;
  /** A component tipo, or a structural name (`section_id`, `section_tipo`, `id`). */
  component_tipo: string;
}

/** A numeric bound (number values, section ids, or virtual-calendar seconds for dates). */
export interface Bound {
  value: number;
  inclusive: boolean;
}

/** One test a leaf applies to the values of its component; a leaf ORs its tests. */
export type LeafTest =
  | { kind: 'presence'; present: boolean }
  | {
      kind: 'text';
      op: 'contains' | 'exact' | 'begins' | 'ends';
      /** Every word must match (one value holding all of them); one entry without split. */
      words: string[];
      /** True: no value may match ("does not contain", "different"). */
      negate: boolean;
    }
  | { kind: 'range'; lower?: Bound; upper?: Bound; negate: boolean }
  | { kind: 'locators'; locators: { section_tipo: string; section_id: number }[]; negate: boolean };

export interface FilterLeaf {
  kind: 'leaf';
  path: PathStep[];
  tests: LeafTest[];
  /** A language restriction for translatable text components; undefined: any language. */
  lang?: string;
  /** Where the leaf was in the client's SQO (`sqo.filter.$and[2]`), for messages. */
  at: string;
}

export interface FilterGroup {
  kind: 'group';
  op: '$and' | '$or' | '$not';
  children: FilterNode[];
}

export type FilterNode = FilterLeaf | FilterGroup;

export interface LocatorFilter {
  section_tipo: string;
  section_id: number;
  /** tm mode: one component's history; related mode: the pointing component. */
  tipo?: string;
  lang?: string;
}

export interface OrderItem {
  direction: 'ASC' | 'DESC';
  path: PathStep[];
  /** The language of a translatable component's value to sort by (default: the SQO's lang). */
  lang?: string;
}

export interface Sqo {
  /** Known section tipos (deduplicated), or exactly `['all']` in related mode. */
  section_tipo: string[];
  mode: SqoMode;
  filter?: FilterNode;
  filter_by_locators?: LocatorFilter[];
  /** How filter_by_locators combines with filter when both are given. */
  filter_by_locators_op: 'AND' | 'OR';
  order?: OrderItem[];
  /** 1..1000 (a client's 0 means "as many as allowed": 1000). */
  limit: number;
  offset: number;
  full_count: boolean;
  /** A total the client already knows (pagination): reused instead of counting again. */
  total?: number;
  /** The data language translatable values are sorted by. */
  lang: string;
}
