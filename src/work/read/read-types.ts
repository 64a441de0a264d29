/**
 * The shapes a read answers (docs/work-api.md): context entries (`typo: 'ddo'`)
 * describing each element shown, and data items holding each record's component values.
 */

/** A data-definition object of a `show.ddo_map`: which element, in which section, under which parent. */
export interface Ddo {
  tipo: string;
  section_tipo: string;
  /** `self` or the tipo of the portal this column is resolved through. */
  parent: string;
  mode?: string;
  model?: string;
  label?: string;
  view?: string;
}

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
}

/** One component of one record (or the leading `sections` item of a page). */
export interface DataItem {
  typo?: 'sections';
  tipo: string;
  section_tipo: string | string[];
  section_id?: number;
  mode?: string;
  lang?: string;
  from_component_tipo?: string;
  parent_tipo?: string;
  parent_section_id?: number;
  entries: unknown[];
  /**
   * The component's version in this record (0: never saved through the work API); a save may
   * name it as `data.version`. Component items only, not the `sections` item.
   */
  version?: number;
  pagination?: Pagination;
  datalist?: unknown[];
  [extra: string]: unknown;
}

export type ContextEntry = Record<string, unknown> & {
  typo: 'ddo';
  type: string;
  tipo: string;
  section_tipo: string;
  model: string;
  mode: string;
  lang: string;
  permissions: number;
};

export interface ReadResult {
  context: ContextEntry[];
  data: DataItem[];
}
