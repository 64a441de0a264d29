/**
 * How much of a text value the btree indexes of migration 16 hold: a btree entry must stay under
 * about 2.7 kB, and a text value (a transcription) may be far longer. Shared by the migration
 * that builds the indexes and the SQL that must use the same expressions to reach them.
 */

/** Characters of a text value kept as its sort key (matrix_sort_key.text_key). */
export const SORT_KEY_CHARS = 256;

/**
 * Characters of a normalised value in the prefix/equality index (`left(value_norm, N)`): a
 * "begins with" or "equal" word up to this long is answered from it.
 */
export const PATTERN_INDEX_CHARS = 200;
