/**
 * One component of one record as a read answers it: its context, its data item (entries in the
 * requested language for translatable literals; locators with `paginated_key` and a
 * `pagination` for relations, and a `datalist` for selects), and for portals the target
 * records' items and contexts, one level deep. The `get_data` branch of `read` and the echo of
 * `save` both answer this.
 */
import type { UserAccess } from '../auth/permissions.js';
import type { ActionContext } from '../dispatch/action-registry.js';
import type { SqlQueryable } from '../store/sql-client.js';
import type { Ddo, ReadResult } from './read-types.js';

export interface ComponentReadRequest {
  sectionTipo: string;
  sectionId: number;
  tipo: string;
  mode: string;
  /** The data language; untranslatable components answer `lg-nolan`. */
  lang: string;
  /** Relations: the page of locators to answer (default limit 10, offset 0). */
  pagination?: { limit: number; offset: number };
  /** Portal columns to resolve (a `show.ddo_map`); default: the target section's list columns. */
  ddoMap?: readonly Ddo[];
}

/** Reads through `db` when given (a save's transaction), else the pool. */
export async function readComponent(
  _ctx: ActionContext,
  _access: UserAccess,
  _request: ComponentReadRequest,
  _db?: SqlQueryable,
): Promise<ReadResult> {
  throw new Error('readComponent: being built');
}
