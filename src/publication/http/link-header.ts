/**
 * RFC 8288 pagination links. The target keeps the path the client used (BASE_PATH included) and
 * every query parameter as the client encoded it, with only `offset` replaced.
 */
export function paginationLinks(
  url: string,
  offset: number,
  limit: number,
  hasMore: boolean,
): string | undefined {
  if (limit === 0) return undefined;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const kept = (q < 0 ? '' : url.slice(q + 1)).split('&').filter((pair) => {
    if (pair === '') return false;
    const key = pair.split('=')[0]!;
    let decoded = key;
    try {
      decoded = decodeURIComponent(key);
    } catch {
      // unreachable for requests that passed validation; keep the pair as it is
    }
    return decoded !== 'offset';
  });
  const target = (o: number) => `<${path}?${[...kept, `offset=${o}`].join('&')}>`;
  const links: string[] = [];
  if (hasMore) links.push(`${target(offset + limit)}; rel="next"`);
  if (offset > 0) links.push(`${target(Math.max(0, offset - limit))}; rel="prev"`);
  return links.length > 0 ? links.join(', ') : undefined;
}
