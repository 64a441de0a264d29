/**
 * Builds the long texts of the demo archive (interview transcriptions, publication texts,
 * abstracts, titles) in the tag grammar of docs/publishing.md. A text is first built as a
 * language-neutral list of pieces (literal strings for tags and markup, word numbers for words),
 * drawing every random number before any language is chosen; rendering then only looks words up.
 * That is why the translations of one interview carry exactly the same tags and timecodes.
 */
import type { Random } from './random.js';
import {
  ADJECTIVES,
  CONNECTORS,
  LANG_INDEX,
  type Lang,
  NOUNS,
  OPENERS,
  SPECIALS,
  type Triple,
  VERBS,
} from './vocabulary.js';

/** A word number (>= 0), a capitalised word number (-(n + 1)), or a literal string. */
type Piece = number | string;

const WORDS: Triple[] = [...NOUNS, ...VERBS, ...ADJECTIVES, ...CONNECTORS, ...OPENERS, ...SPECIALS];
const NOUN0 = 0;
const VERB0 = NOUN0 + NOUNS.length;
const ADJ0 = VERB0 + VERBS.length;
const CONN0 = ADJ0 + ADJECTIVES.length;
const OPEN0 = CONN0 + CONNECTORS.length;
const SPEC0 = OPEN0 + OPENERS.length;

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function renderPieces(pieces: readonly Piece[], lang: Lang): string {
  const l = LANG_INDEX[lang];
  let out = '';
  for (const p of pieces) {
    if (typeof p === 'string') out += p;
    else if (p >= 0) out += WORDS[p]![l];
    else out += capitalise(WORDS[-p - 1]![l]!);
  }
  return out;
}

function lengthIn(pieces: readonly Piece[], l: number): number {
  let n = 0;
  for (const p of pieces) {
    if (typeof p === 'string') n += p.length;
    else n += WORDS[p >= 0 ? p : -p - 1]![l]!.length;
  }
  return n;
}

/** Longest rendering over the three languages, so length limits hold in each of them. */
function maxLength(pieces: readonly Piece[]): number {
  return Math.max(lengthIn(pieces, 0), lengthIn(pieces, 1), lengthIn(pieces, 2));
}

function randomWord(rng: Random): number {
  const r = rng.next();
  if (r < 0.42) return NOUN0 + rng.int(0, NOUNS.length - 1);
  if (r < 0.62) return VERB0 + rng.int(0, VERBS.length - 1);
  if (r < 0.77) return ADJ0 + rng.int(0, ADJECTIVES.length - 1);
  return CONN0 + rng.int(0, CONNECTORS.length - 1);
}

/** One made-up sentence (4 to 11 words after an optional opener), ending in punctuation. */
function sentence(rng: Random, markup: boolean): Piece[] {
  const words: Piece[] = [];
  if (rng.chance(0.35)) words.push(OPEN0 + rng.int(0, OPENERS.length - 1));
  else words.push(-(NOUN0 + rng.int(0, NOUNS.length - 1)) - 1);
  const n = rng.int(4, 11);
  for (let i = 0; i < n; i++) words.push(randomWord(rng));
  if (rng.chance(0.04)) words.splice(rng.int(1, words.length), 0, SPEC0 + rng.int(0, SPECIALS.length - 1));
  const emphasis = markup && rng.chance(0.1) ? rng.int(1, words.length - 1) : -1;
  const tag = rng.chance(0.5) ? 'strong' : 'em';
  const pieces: Piece[] = [];
  words.forEach((w, i) => {
    if (i > 0) pieces.push(' ');
    if (i === emphasis) pieces.push(`<${tag}>`, w, `</${tag}>`);
    else pieces.push(w);
  });
  const r = rng.next();
  pieces.push(r < 0.85 ? '.' : r < 0.95 ? '?' : '!');
  return pieces;
}

/** Plain text of 1..max sentences (abstracts, scope notes). */
export function plainText(rng: Random, minSentences: number, maxSentences: number): (lang: Lang) => string {
  const pieces: Piece[] = [];
  const n = rng.int(minSentences, maxSentences);
  for (let i = 0; i < n; i++) {
    if (i > 0) pieces.push(' ');
    pieces.push(...sentence(rng, false));
  }
  return (lang) => renderPieces(pieces, lang);
}

/** A noun in each language: used to fill title templates. */
export function randomNoun(rng: Random): Triple {
  return NOUNS[rng.int(0, NOUNS.length - 1)]!;
}

/** Fills `{noun}`, `{Noun}`, `{noun2}`, `{place}` in a template triple, per language. */
export function fillTemplate(
  template: Triple,
  nouns: readonly Triple[],
  place: string,
): (lang: Lang) => string {
  return (lang) => {
    const l = LANG_INDEX[lang];
    return template[l]!.replace(/\{(noun|Noun|noun2|place)\}/g, (_m, key: string) => {
      if (key === 'place') return place;
      const word = (key === 'noun2' ? nouns[1] : nouns[0])![l]!;
      return key === 'Noun' ? capitalise(word) : word;
    });
  };
}

const TRANSCRIPTION_MIN = 400;
const TRANSCRIPTION_MAX = 2500;

export interface Speaker {
  id: number;
  label: string;
}

export interface TranscriptionPlan {
  speakers: readonly Speaker[];
  /** Number of indexation tags: ids 1..indexTags all appear, in order. */
  indexTags: number;
  /** Media duration in tenths of a second; the last paragraph ends there. */
  durationTenths: number;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** `[TC_HH:MM:SS.mmm_TC]` from tenths; the grammar makes milliseconds optional, so whole seconds may omit them. */
function tcPoint(tenths: number, withMs: boolean): string {
  const ms = tenths * 100;
  const h = pad(Math.floor(ms / 3_600_000), 2);
  const hms = `${h}:${pad(Math.floor(ms / 60_000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)}`;
  return withMs || ms % 1000 !== 0 ? `[TC_${hms}.${pad(ms % 1000, 3)}_TC]` : `[TC_${hms}_TC]`;
}

function personTag(s: Speaker): string {
  return `[person-n-${s.id}-${s.label}-data:{"section_tipo":"rsc197","section_id":"${s.id}"}:data]`;
}

/**
 * A transcription of 400..2500 characters in every language: a starting timecode point, then
 * paragraphs that each open with a `[tc-IN-OUT]` range or a `[TC_..._TC]` point (times rising to
 * the media duration), speaker changes, `[index-n-k]` tags for k = 1..indexTags, notes and light
 * HTML.
 */
export function transcription(rng: Random, plan: TranscriptionPlan): (lang: Lang) => string {
  // Tags make the length of the plain text only an estimate: retry (deterministically, from the
  // same stream) with a shorter or longer target until every language is within the bounds.
  let target = rng.int(300, 1450);
  for (let attempt = 0; ; attempt++) {
    const pieces = transcriptionPieces(rng, plan, target);
    const lengths = [0, 1, 2].map((l) => lengthIn(pieces, l));
    const tooShort = Math.min(...lengths) < TRANSCRIPTION_MIN;
    const tooLong = Math.max(...lengths) > TRANSCRIPTION_MAX;
    if ((!tooShort && !tooLong) || attempt === 20) return (lang) => renderPieces(pieces, lang);
    target += tooLong ? -150 : 150;
  }
}

function transcriptionPieces(rng: Random, plan: TranscriptionPlan, target: number): Piece[] {
  const sentences: Piece[][] = [];
  let length = 0;
  while (length < target || sentences.length < plan.indexTags + 1) {
    const s = sentence(rng, true);
    sentences.push(s);
    length += maxLength(s) + 1;
  }

  // Paragraphs of 1..4 sentences.
  const paragraphOf: number[] = [];
  let paragraphs = 0;
  for (let i = 0; i < sentences.length; paragraphs++) {
    const size = rng.int(1, 4);
    for (let j = 0; j < size && i < sentences.length; j++, i++) paragraphOf.push(paragraphs);
  }

  // Index tags around K distinct sentences, numbered in reading order, sometimes spanning two.
  const order = rng.shuffle(sentences.map((_s, i) => i));
  const chosen = order.slice(0, plan.indexTags).sort((a, b) => a - b);
  const opens = new Map<number, number>();
  const closes = new Map<number, number>();
  chosen.forEach((start, k) => {
    const next = start + 1;
    const span =
      next < sentences.length &&
      paragraphOf[next] === paragraphOf[start] &&
      !chosen.includes(next) &&
      !opens.has(next) &&
      rng.chance(0.3)
        ? 2
        : 1;
    opens.set(start, k + 1);
    closes.set(start + span - 1, k + 1);
  });

  // Time boundaries: proportional to the words of each paragraph, in tenths or whole seconds.
  const words = new Array<number>(paragraphs).fill(0);
  sentences.forEach((s, i) => {
    words[paragraphOf[i]!]! += s.filter((p) => typeof p === 'number').length;
  });
  const total = words.reduce((a, b) => a + b, 0);
  // Integer tenths, so that printing `t / 10` never shows floating-point noise.
  const end = plan.durationTenths;
  const bounds: number[] = [0];
  let cumulative = 0;
  for (let p = 0; p < paragraphs; p++) {
    cumulative += words[p]!;
    let b = p === paragraphs - 1 ? end : Math.round((end * cumulative) / total);
    if (p < paragraphs - 1 && rng.chance(0.6)) b = Math.round(b / 10) * 10;
    bounds.push(Math.max(b, bounds[p]! + 5));
  }
  const style = rng.int(0, 2); // 0: ranges, 1: points, 2: both

  const pieces: Piece[] = [tcPoint(0, true)];
  let speaker = -1;
  let sentenceIndex = 0;
  let lastWasPoint = false;
  for (let p = 0; p < paragraphs; p++) {
    const point = style === 1 || (style === 2 && rng.chance(0.5));
    lastWasPoint = point;
    pieces.push(
      '<p>',
      point ? tcPoint(bounds[p]!, rng.chance(0.8)) : `[tc-${bounds[p]! / 10}-${bounds[p + 1]! / 10}]`,
    );
    if (speaker < 0 || (plan.speakers.length > 1 && rng.chance(0.4))) {
      const next = p === 0 ? 0 : (speaker + 1) % plan.speakers.length;
      if (next !== speaker) pieces.push(personTag(plan.speakers[next]!));
      speaker = next;
    }
    pieces.push(' ');
    let first = true;
    while (sentenceIndex < sentences.length && paragraphOf[sentenceIndex] === p) {
      if (!first) pieces.push(rng.chance(0.1) ? '<br>' : ' ');
      first = false;
      const open = opens.get(sentenceIndex);
      if (open !== undefined) pieces.push(`[index-n-${open}]`);
      pieces.push(...sentences[sentenceIndex]!);
      const close = closes.get(sentenceIndex);
      if (close !== undefined) pieces.push(`[/index-n-${close}]`);
      sentenceIndex++;
    }
    if (rng.chance(0.12)) {
      const note = rng.int(1, 40);
      pieces.push(` [note-n-${note}-data:{"section_tipo":"rsc326","section_id":"${note}"}:data]`);
    }
    pieces.push('</p>');
  }
  // With point markers only the next point tells where a passage ends: close the last one.
  if (lastWasPoint) pieces.push(tcPoint(end, true));
  return pieces;
}

/**
 * A publication text: paragraphs with `[page-n-N]` markers between them (pages counted from
 * firstPage), one of them labelled (`[page-n-5-label-data:v:data]`) when `labelled` is set.
 */
export function publicationText(rng: Random, firstPage: number, labelled: boolean): (lang: Lang) => string {
  const pages = rng.int(2, 9);
  const labelAt = labelled ? rng.int(0, pages - 1) : -1;
  const pieces: Piece[] = [];
  for (let page = 0; page < pages; page++) {
    const n = firstPage + page;
    pieces.push(
      page === labelAt ? `[page-n-${n}-label-data:${rng.pick(['v', 'r', 'xii'])}:data]` : `[page-n-${n}]`,
    );
    const paragraphs = rng.int(1, 3);
    for (let p = 0; p < paragraphs; p++) {
      pieces.push('<p>');
      const count = rng.int(2, 5);
      for (let s = 0; s < count; s++) {
        if (s > 0) pieces.push(' ');
        pieces.push(...sentence(rng, true));
      }
      pieces.push('</p>');
    }
  }
  return (lang) => renderPieces(pieces, lang);
}
