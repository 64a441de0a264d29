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
} as const;

export const TABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const LANG_PATTERN = /^lg-[a-z]{2,5}$/;
