/**
 * Page numbers of long texts: a fragment is on the page of the last `[page-n-N]` marker before
 * it, and on no page when none precedes it.
 */
import type { PageTag, Tag } from '../../common/text/tag-grammar.js';

/** The page tags of a text, in text order. */
export function pageTags(tags: readonly Tag[]): PageTag[] {
  return tags.filter((t): t is PageTag => t.kind === 'page');
}

/** The page marker in effect at stored offset `position`, if any. */
export function pageAt(pages: readonly PageTag[], position: number): PageTag | undefined {
  let found: PageTag | undefined;
  for (const p of pages) {
    if (p.end > position) break;
    found = p;
  }
  return found;
}
