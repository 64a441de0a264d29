/**
 * Text fragments of one record: where the requested terms occur in a text column, as
 * highlighted excerpts with their stored position and page. Without `lang`, every language
 * variant is searched in lang order and each fragment says which variant it comes from;
 * `max_occurrences` bounds the fragments per term over all variants together.
 */
import type { Row } from '../db/types.js';
import type { FragmentsRequest } from '../query/fragment-requests.js';
import { type AnalysedText, analyseText, type FoundFragment, findFragments } from '../text/fragments.js';
import type { MatchTerm } from '../text/term-matching.js';
import { requireTable } from './catalog-service.js';
import type { PublicationContext } from './context.js';
import { readRecordVariants, textOf } from './record-variants.js';

export interface VariantText {
  row: Row;
  /** The variant's language, on multilingual tables. */
  lang?: string;
  text: AnalysedText;
}

export interface VariantFragment {
  variant: VariantText;
  fragment: FoundFragment;
}

export interface TextFragment {
  text: string;
  page?: number;
  position: number;
  /** Extension: the language variant the fragment comes from (multilingual tables). */
  lang?: string;
}

export function variantTexts(rows: readonly Row[], column: string): VariantText[] {
  return rows.map((row) => {
    const v: VariantText = { row, text: analyseText(textOf(row[column])) };
    if (typeof row.lang === 'string') v.lang = row.lang;
    return v;
  });
}

/** Fragments of every variant in order, at most `maxOccurrences` per term across all of them. */
export function fragmentsOfVariants(
  variants: readonly VariantText[],
  terms: readonly MatchTerm[],
  options: { maxCharacters: number; maxOccurrences: number },
): VariantFragment[] {
  const left = terms.map(() => options.maxOccurrences);
  const out: VariantFragment[] = [];
  for (const variant of variants) {
    if (left.every((n) => n === 0)) break;
    for (const fragment of findFragments(variant.text, terms, options)) {
      if (left[fragment.term]! === 0) continue;
      left[fragment.term]! -= 1;
      out.push({ variant, fragment });
    }
  }
  return out;
}

export async function textFragments(
  ctx: PublicationContext,
  db: string,
  tableName: string,
  id: number,
  req: FragmentsRequest,
): Promise<TextFragment[]> {
  const table = await requireTable(ctx, db, tableName);
  const rows = await readRecordVariants(ctx, db, table, id, [req.column], req.lang);
  return fragmentsOfVariants(variantTexts(rows, req.column), req.matchTerms, req).map(
    ({ variant, fragment }) => {
      const item: TextFragment =
        fragment.page === undefined
          ? { text: fragment.text, position: fragment.position }
          : { text: fragment.text, page: fragment.page, position: fragment.position };
      if (variant.lang !== undefined) item.lang = variant.lang;
      return item;
    },
  );
}
