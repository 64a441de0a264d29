/**
 * Hash routes, so the app works under any WORK_UI_PATH without server rewrites and a reload (or
 * a login after the session ended) lands on the same screen:
 *   #/                    home (the menu)
 *   #/list/<section>      a section's records (query: offset, limit)
 *   #/edit/<section>/<id> one record in edit mode
 *   #/maintenance         the maintenance widgets
 *   #/thesaurus/<section> a thesaurus as a tree
 */
/** The page sizes a list offers (25 unless the address says otherwise). */
export const PAGE_SIZES = [10, 25, 50, 100];

export type Route =
  | { name: 'home' }
  | { name: 'list'; section: string; offset: number; limit?: number }
  | { name: 'edit'; section: string; id: number }
  | { name: 'maintenance' }
  | { name: 'thesaurus'; section: string };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  if (parts[0] === 'list' && parts[1]) {
    const offset = Number(params.get('offset') ?? 0);
    const limit = Number(params.get('limit') ?? 0);
    return {
      name: 'list',
      section: parts[1],
      offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
      ...(PAGE_SIZES.includes(limit) ? { limit } : {}),
    };
  }
  if (parts[0] === 'edit' && parts[1] && parts[2] && /^-?\d+$/.test(parts[2])) {
    return { name: 'edit', section: parts[1], id: Number(parts[2]) };
  }
  if (parts[0] === 'maintenance') return { name: 'maintenance' };
  if (parts[0] === 'thesaurus' && parts[1]) return { name: 'thesaurus', section: parts[1] };
  return { name: 'home' };
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'list': {
      const query = new URLSearchParams();
      if (route.offset) query.set('offset', String(route.offset));
      if (route.limit) query.set('limit', String(route.limit));
      const q = query.toString();
      return `#/list/${encodeURIComponent(route.section)}${q ? `?${q}` : ''}`;
    }
    case 'edit':
      return `#/edit/${encodeURIComponent(route.section)}/${route.id}`;
    case 'maintenance':
      return '#/maintenance';
    case 'thesaurus':
      return `#/thesaurus/${encodeURIComponent(route.section)}`;
    default:
      return '#/';
  }
}

export function navigate(route: Route): void {
  window.location.hash = hrefOf(route);
}
