/**
 * Every bound of the public API, declared once. REST, batch and MCP all validate against these
 * numbers, and the OpenAPI description quotes them; exceeding one is a 400, never a clamp.
 */
export const BOUNDS = {
  limit: { min: 0, max: 1000, default: 100 },
  offset: { min: 0, max: 2_147_483_647, default: 0 },
  id: { min: 1, max: Number.MAX_SAFE_INTEGER },
  filters: { maxClauses: 30, maxValueLength: 1024, maxListItems: 200 },
  sort: { maxTerms: 10 },
  fields: { maxColumns: 200 },
  /**
   * resolve_relations / resolve_inverse_relations. `maxIdsPerCell` is the spec's "ids per column":
   * a cell is stored data, not client input, so a longer cell is cut to its first 50 entries
   * rather than refused (the client could not fix it anyway). `maxRowsPerValue` stops a
   * `table.column` target that is not selective (every row matches) from multiplying a page into
   * a whole table per cell: past it the request is a 400. It leaves room for many languages.
   */
  relations: { maxKeys: 10, maxDepth: 3, maxIdsPerCell: 50, maxRowsPerValue: 100, maxParamLength: 4096 },
  q: { min: 1, max: 512 },
  /** Facets: columns per request, and values per column (`limit`, the top N by count). */
  facets: { maxColumns: 10, limit: { min: 1, max: 100, default: 10 } },
  /** Highlighted excerpts per search row, and their size in characters. */
  searchFragments: { perRow: 3, maxCharacters: 240 },
} as const;

export const TABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const LANG_PATTERN = /^lg-[a-z]{2,5}$/;
