/**
 * Which matrix tables feed the trigram-indexed string side table (matrix_string_search,
 * migration 4). Not the activity log since migration 15: it is written on every save, login and
 * read and searched only by its own list (what, where, who, when), so its text filters read the
 * rows' own values (search/sqo-sql.ts) instead of costing every write two trigram index inserts.
 */
import type { MatrixTable } from '../store/matrix-tables.js';

export function inStringSearch(table: MatrixTable): boolean {
  return table !== 'matrix_activity';
}
