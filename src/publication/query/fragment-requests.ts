/**
 * Query parameters of the fragment routes (fragments, av-fragments, av-indexation-fragment),
 * read into neutral requests. Every bad parameter is reported at once, one `errors` entry each;
 * unknown parameters are refused as on the records routes (`_`-prefixed ones are ignored).
 */
import type { TableInfo } from '../db/types.js';
import { invalidQuery, ProblemCollector } from '../problems.js';
import { literalTermsOf, type MatchTerm } from '../text/term-matching.js';
import type { QueryParams } from './query-string.js';
import { rejectUnknownParams } from './record-requests.js';
import { clip, parseIntegerParam, parseLangParam, singleParam } from './scalar-params.js';

/** The spec's bounds for these routes (declared beside their parser; the OpenAPI catalogue reads them from here). */
export const FRAGMENT_BOUNDS = {
  terms: { min: 1, max: 512 },
  maxCharacters: { min: 10, max: 5000, default: 320 },
  maxOccurrences: { min: 1, max: 10, default: 1 },
  tipo: { pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/ },
  /** Seconds: up to nine digits, up to three decimals (milliseconds). */
  seconds: { pattern: /^\d{1,9}(\.\d{1,3})?$/ },
  id: { min: 1, max: Number.MAX_SAFE_INTEGER },
} as const;

export const DEFAULT_TEXT_COLUMN = 'transcription';

export interface FragmentsRequest {
  /** As the client wrote them, echoed in meta.terms. */
  terms: string;
  matchTerms: MatchTerm[];
  column: string;
  lang?: string;
  maxCharacters: number;
  maxOccurrences: number;
}

export interface IndexationRequest {
  sectionId: number;
  sectionTipo?: string;
  componentTipo?: string;
  tagId?: number;
  tcIn?: number;
  tcOut?: number;
  lang?: string;
}

/**
 * `terms` are literal: whitespace separates them, nothing is an operator, and each is matched
 * with its punctuation, up to case and accents (text/term-matching.ts says exactly how).
 */
export function parseLiteralTerms(raw: string | undefined): MatchTerm[] {
  const { min, max } = FRAGMENT_BOUNDS.terms;
  if (raw === undefined)
    throw invalidQuery('terms', 'terms is required: the words to find, e.g. terms=canción');
  if (raw.trim().length < min || raw.length > max) {
    throw invalidQuery(
      'terms',
      `terms must be ${min} to ${max} characters (not only spaces), got ${raw.length}`,
    );
  }
  const terms = literalTermsOf(raw);
  if (terms.length === 0) {
    throw invalidQuery('terms', `terms has no word to find (letters or digits), got "${clip(raw)}"`);
  }
  return terms;
}

function parseTextColumn(raw: string | undefined, table: TableInfo): string {
  const column = raw ?? DEFAULT_TEXT_COLUMN;
  const info = table.columnsByName.get(column);
  if (!info) throw invalidQuery('column', `column "${clip(column)}" does not exist in table "${table.name}"`);
  if (info.kind !== 'text') {
    const texts = table.columns.filter((c) => c.kind === 'text').map((c) => c.name);
    throw invalidQuery(
      'column',
      `column "${column}" of "${table.name}" is not a text column (${info.type}); text columns: ${texts.join(', ') || 'none'}`,
    );
  }
  return column;
}

function langFor(params: QueryParams, table: TableInfo, p: ProblemCollector): string | undefined {
  const lang = p.try(() => parseLangParam(singleParam(params, 'lang')));
  if (lang !== undefined && !table.hasLang) {
    p.add('lang', `table "${table.name}" has no lang column; it is monolingual, so drop the lang parameter`);
    return undefined;
  }
  return lang;
}

function readFragmentParams(params: QueryParams, table: TableInfo, p: ProblemCollector) {
  const matchTerms = p.try(() => parseLiteralTerms(singleParam(params, 'terms')));
  const lang = langFor(params, table, p);
  const maxCharacters = p.try(() =>
    parseIntegerParam('max_characters', singleParam(params, 'max_characters'), FRAGMENT_BOUNDS.maxCharacters),
  );
  const maxOccurrences = p.try(() =>
    parseIntegerParam(
      'max_occurrences',
      singleParam(params, 'max_occurrences'),
      FRAGMENT_BOUNDS.maxOccurrences,
    ),
  );
  return { matchTerms, lang, maxCharacters, maxOccurrences };
}

const FRAGMENT_PARAMS = ['terms', 'column', 'lang', 'max_characters', 'max_occurrences'];
const AV_FRAGMENT_PARAMS = ['terms', 'lang', 'max_characters', 'max_occurrences'];

/** `.../records/{id}/fragments`. */
export function parseFragmentsRequest(params: QueryParams, table: TableInfo): FragmentsRequest {
  const p = new ProblemCollector();
  rejectUnknownParams(params, FRAGMENT_PARAMS, p, false);
  const column = p.try(() => parseTextColumn(singleParam(params, 'column'), table));
  const read = readFragmentParams(params, table, p);
  p.throwIfAny();
  return {
    terms: singleParam(params, 'terms')!,
    matchTerms: read.matchTerms!,
    column: column!,
    lang: read.lang,
    maxCharacters: read.maxCharacters!,
    maxOccurrences: read.maxOccurrences!,
  };
}

/** `.../records/{id}/av-fragments`: the same without `column` (the transcription column is configured). */
export function parseAvFragmentsRequest(
  params: QueryParams,
  table: TableInfo,
  column: string,
): FragmentsRequest {
  const p = new ProblemCollector();
  rejectUnknownParams(params, AV_FRAGMENT_PARAMS, p, false);
  const read = readFragmentParams(params, table, p);
  p.throwIfAny();
  return {
    terms: singleParam(params, 'terms')!,
    matchTerms: read.matchTerms!,
    column,
    lang: read.lang,
    maxCharacters: read.maxCharacters!,
    maxOccurrences: read.maxOccurrences!,
  };
}

function parseTipo(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!FRAGMENT_BOUNDS.tipo.pattern.test(raw)) {
    throw invalidQuery(name, `${name} must be an ontology tipo such as oh1 or rsc36, got "${clip(raw)}"`);
  }
  return raw;
}

function parseSeconds(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!FRAGMENT_BOUNDS.seconds.pattern.test(raw)) {
    throw invalidQuery(
      name,
      `${name} must be a number of seconds, at least 0 (up to 3 decimals, e.g. 75.5), got "${clip(raw)}"`,
    );
  }
  return Number(raw);
}

const INDEXATION_PARAMS = [
  'section_id',
  'section_tipo',
  'component_tipo',
  'tag_id',
  'tc_in',
  'tc_out',
  'lang',
];

/** `/{db}/av-indexation-fragment`. */
export function parseIndexationRequest(params: QueryParams): IndexationRequest {
  const p = new ProblemCollector();
  rejectUnknownParams(params, INDEXATION_PARAMS, p, false);
  const rawId = p.try(() => singleParam(params, 'section_id'));
  if (rawId === undefined && !p.problems.some((e) => e.name === 'section_id')) {
    p.add('section_id', 'section_id is required: the record whose transcription holds the passage');
  }
  const sectionId = p.try(() => parseIntegerParam('section_id', rawId, FRAGMENT_BOUNDS.id));
  const sectionTipo = p.try(() => parseTipo('section_tipo', singleParam(params, 'section_tipo')));
  const componentTipo = p.try(() => parseTipo('component_tipo', singleParam(params, 'component_tipo')));
  const tagId = p.try(() => parseIntegerParam('tag_id', singleParam(params, 'tag_id'), FRAGMENT_BOUNDS.id));
  const tcIn = p.try(() => parseSeconds('tc_in', singleParam(params, 'tc_in')));
  const tcOut = p.try(() => parseSeconds('tc_out', singleParam(params, 'tc_out')));
  if (tcIn !== undefined && tcOut !== undefined && tcIn > tcOut) {
    const detail = `tc_in (${tcIn}) must not be greater than tc_out (${tcOut})`;
    p.add('tc_in', detail);
    p.add('tc_out', detail);
  }
  const lang = p.try(() => parseLangParam(singleParam(params, 'lang')));
  p.throwIfAny();
  return { sectionId: sectionId!, sectionTipo, componentTipo, tagId, tcIn, tcOut, lang };
}
