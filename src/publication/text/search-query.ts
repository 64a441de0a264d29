/**
 * The boolean full-text query language of the search route (MariaDB's IN BOOLEAN MODE subset
 * the spec names): plain words (optional), `+word` (required), `-word` (excluded), `"quoted
 * phrases"` (with + or - too) and `word*` prefixes. Parsed once into terms that serve three
 * readers: the MariaDB AGAINST string, the SQLite FTS5 MATCH expression, and the highlighter.
 *
 * Words are runs of letters, digits and `_` (Unicode-aware); every other character separates
 * words, exactly as both engines' tokenizers do. Regenerating the engine syntax from the parsed
 * terms means no client input reaches the full-text parser verbatim.
 */
import { invalidQuery } from '../problems.js';

export type TermMode = 'required' | 'optional' | 'excluded';

export interface SearchTerm {
  /** One word, or the words of a phrase in order (lower-cased). */
  words: string[];
  /** The last word is a prefix (`word*`). */
  prefix: boolean;
  mode: TermMode;
}

export interface ParsedSearch {
  terms: SearchTerm[];
}

const WORD = /[\p{L}\p{N}_]+/gu;
const TOKEN = /([+-]?)"([^"]*)"?(\*?)|([+-]?)([^\s"]+)/gu;

function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

export function parseSearchQuery(q: string): ParsedSearch {
  const terms: SearchTerm[] = [];
  for (const m of q.matchAll(TOKEN)) {
    const quoted = m[2] !== undefined;
    const sign = quoted ? m[1] : m[4];
    const raw = quoted ? m[2]! : m[5]!;
    const words = wordsOf(raw);
    if (words.length === 0) continue;
    const prefix = quoted ? m[3] === '*' : /\*$/.test(raw);
    const mode: TermMode = sign === '+' ? 'required' : sign === '-' ? 'excluded' : 'optional';
    terms.push({ words, prefix: prefix && words.length > 0, mode });
  }
  if (!terms.some((t) => t.mode !== 'excluded')) {
    throw invalidQuery(
      'q',
      terms.length === 0
        ? 'q has no searchable word (letters or digits)'
        : 'q only excludes words; add at least one word to search for',
    );
  }
  return { terms };
}

/** The same query for MariaDB's MATCH ... AGAINST (... IN BOOLEAN MODE). */
export function toMariadbBoolean(parsed: ParsedSearch): string {
  return parsed.terms
    .map((t) => {
      const sign = t.mode === 'required' ? '+' : t.mode === 'excluded' ? '-' : '';
      if (t.words.length > 1) return `${sign}"${t.words.join(' ')}"`;
      return `${sign}${t.words[0]}${t.prefix ? '*' : ''}`;
    })
    .join(' ');
}

function fts5Term(t: SearchTerm): string {
  return `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`;
}

/**
 * The same query for SQLite FTS5, with MariaDB's semantics: when required terms exist they must
 * all match (optional terms then only rank in MariaDB, and are dropped here); otherwise any
 * optional term matches. Excluded terms remove rows either way.
 */
export function toFts5Match(parsed: ParsedSearch): string {
  const required = parsed.terms.filter((t) => t.mode === 'required').map(fts5Term);
  const optional = parsed.terms.filter((t) => t.mode === 'optional').map(fts5Term);
  const excluded = parsed.terms.filter((t) => t.mode === 'excluded').map(fts5Term);
  let expr = required.length > 0 ? required.join(' AND ') : optional.join(' OR ');
  for (const e of excluded) expr = `(${expr}) NOT ${e}`;
  return expr;
}

/** The terms a highlighter marks: everything searched for, nothing excluded. */
export function highlightTermsOf(parsed: ParsedSearch): SearchTerm[] {
  return parsed.terms.filter((t) => t.mode !== 'excluded');
}
