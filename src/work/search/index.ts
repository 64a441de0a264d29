/** The search module's public surface (what other actions import). */

export { type DateParts, dateInterval, dateTime } from './date-time.js';
export { type ParseSqoOptions, parseSqo, SQO_LIMITS, sectionsReadBy } from './parse-sqo.js';
export {
  countHistory,
  countRecords,
  countRelated,
  type HistoryOptions,
  type HistoryRow,
  type RawRecordRow,
  type RecordRef,
  readRecordRows,
  type SearchResult,
  searchHistory,
  searchRecords,
  searchRelated,
  sectionsOf,
} from './search-records.js';
export { scopeFor } from './search-scope.js';
export { NO_SCOPE, type ScopeFn, type SqlCondition } from './sqo-sql.js';
export type * from './sqo-types.js';
