/**
 * Hash routes, so the app works under any WORK_UI_PATH without server rewrites and a reload (or
 * a login after the session ended) lands on the same screen:
 *   #/                    home (the menu)
 *   #/list/<section>      a section's records (query: offset, limit, sort, dir, search)
 *   #/edit/<section>/<id> one record in edit mode
 *   #/deleted/<section>   the section's deleted records (restore)
 *   #/maintenance         the maintenance widgets
 *   #/import[/<section>]  importing records from a file (into that section)
 *   #/imported/<id>       what an import did (its stored report), with its undo
 *   #/thesaurus/<section> a thesaurus as a tree
 */
/** The page sizes a list offers (25 unless the address says otherwise). */
export const PAGE_SIZES = [10, 25, 50, 100];

/** A list's order: a column (a component tipo, or `section_id`) and its direction. */
export interface ListSort {
  column: string;
  dir: 'asc' | 'desc';
}

export type Route =
  | { name: 'home' }
  | {
      name: 'list';
      section: string;
      offset: number;
      limit?: number;
      sort?: ListSort;
      /** The search panel's state, as list-search.ts encodes it (opaque here). */
      search?: string;
    }
  | { name: 'edit'; section: string; id: number }
  | { name: 'maintenance' }
  | { name: 'deleted'; section: string }
  | { name: 'import'; section?: string }
  | { name: 'imported'; id: number }
  | { name: 'thesaurus'; section: string };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  if (parts[0] === 'list' && parts[1]) {
    const offset = Number(params.get('offset') ?? 0);
    const limit = Number(params.get('limit') ?? 0);
    const column = params.get('sort');
    const search = params.get('search');
    return {
      name: 'list',
      section: parts[1],
      offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
      ...(PAGE_SIZES.includes(limit) ? { limit } : {}),
      ...(column && /^[a-z_]+\d*$/.test(column)
        ? { sort: { column, dir: params.get('dir') === 'desc' ? 'desc' : 'asc' } as ListSort }
        : {}),
      ...(search ? { search } : {}),
    };
  }
  if (parts[0] === 'edit' && parts[1] && parts[2] && /^-?\d+$/.test(parts[2])) {
    return { name: 'edit', section: parts[1], id: Number(parts[2]) };
  }
  if (parts[0] === 'deleted' && parts[1]) return { name: 'deleted', section: parts[1] };
  if (parts[0] === 'maintenance') return { name: 'maintenance' };
  if (parts[0] === 'imported' && parts[1] && /^\d{1,15}$/.test(parts[1]))
    return { name: 'imported', id: Number(parts[1]) };
  if (parts[0] === 'import') return parts[1] ? { name: 'import', section: parts[1] } : { name: 'import' };
  if (parts[0] === 'thesaurus' && parts[1]) return { name: 'thesaurus', section: parts[1] };
  return { name: 'home' };
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'list': {
      const query = new URLSearchParams();
      if (route.offset) query.set('offset', String(route.offset));
      if (route.limit) query.set('limit', String(route.limit));
      if (route.sort) {
        query.set('sort', route.sort.column);
        query.set('dir', route.sort.dir);
      }
      if (route.search) query.set('search', route.search);
      const q = query.toString();
      return `#/list/${encodeURIComponent(route.section)}${q ? `?${q}` : ''}`;
    }
    case 'edit':
      return `#/edit/${encodeURIComponent(route.section)}/${route.id}`;
    case 'deleted':
      return `#/deleted/${encodeURIComponent(route.section)}`;
    case 'maintenance':
      return '#/maintenance';
    case 'imported':
      return `#/imported/${route.id}`;
    case 'import':
      return route.section ? `#/import/${encodeURIComponent(route.section)}` : '#/import';
    case 'thesaurus':
      return `#/thesaurus/${encodeURIComponent(route.section)}`;
    default:
      return '#/';
  }
}

export function navigate(route: Route): void {
  window.location.hash = hrefOf(route);
}
