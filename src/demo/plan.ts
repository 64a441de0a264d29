/**
 * The cross-reference plan of a demo archive: the few numbers per record that other tables need
 * (which languages an interview has, its informants, images, number of index tags, duration; the
 * thesaurus hierarchy) kept in typed arrays, plus the inverse maps (who references an informant
 * or image, the children of a term). A few bytes per interview, so a million interviews still
 * fit easily, while the rows themselves are generated one at a time from their own random streams.
 */
import { Random } from './random.js';

export interface DemoOptions {
  interviews: number;
  seed?: number;
}

/** Bit flags of `Plan.langs`. */
export const LANG_SPA = 1;
export const LANG_ENG = 2;
export const LANG_CAT = 4;

/** Salts of the random streams: one per kind of record, so tables never share a stream. */
export const SALT = {
  plan: 1,
  interview: 2,
  informant: 3,
  image: 4,
  audiovisual: 5,
  publication: 6,
  themes: 7,
  onomastic: 8,
  themesPlan: 9,
  onomasticPlan: 10,
} as const;

/** Compressed lists: the items of key k are items[offsets[k - 1] .. offsets[k] - 1] (ids from 1). */
export interface Inverse {
  offsets: Int32Array;
  items: Int32Array;
}

export function inverseOf(inv: Inverse, id: number): Int32Array {
  return inv.items.subarray(inv.offsets[id - 1]!, inv.offsets[id]!);
}

/** Builds the inverse of `id -> targets` for targets 1..targetCount, items in increasing id order. */
function invert(
  sources: number,
  targetCount: number,
  targetsOf: (id: number, out: number[]) => void,
): Inverse {
  const counts = new Int32Array(targetCount + 1);
  const scratch: number[] = [];
  for (let id = 1; id <= sources; id++) {
    scratch.length = 0;
    targetsOf(id, scratch);
    for (const t of scratch) counts[t]!++;
  }
  const offsets = new Int32Array(targetCount + 1);
  for (let t = 1; t <= targetCount; t++) offsets[t] = offsets[t - 1]! + counts[t]!;
  const fill = offsets.slice(0, targetCount);
  const items = new Int32Array(offsets[targetCount]!);
  for (let id = 1; id <= sources; id++) {
    scratch.length = 0;
    targetsOf(id, scratch);
    for (const t of scratch) items[fill[t - 1]!++] = id;
  }
  return { offsets, items };
}

export interface ThesaurusPlan {
  count: number;
  /** parent1[j - 1]: first parent of term j, 0 for roots; parent2: rare second parent or 0. */
  parent1: Int32Array;
  parent2: Int32Array;
  norder: Int32Array;
  children: Inverse;
}

function thesaurusPlan(seed: number, salt: number, count: number): ThesaurusPlan {
  const rng = Random.for(seed, salt, 0);
  const roots = Math.min(count, Math.max(2, Math.round(count / 12)));
  const parent1 = new Int32Array(count);
  const parent2 = new Int32Array(count);
  for (let j = roots + 1; j <= count; j++) {
    const p = rng.int(1, j - 1);
    parent1[j - 1] = p;
    if (j > 2 && rng.chance(0.03)) {
      const q = rng.int(1, j - 1);
      if (q !== p) parent2[j - 1] = q;
    }
  }
  const norder = new Int32Array(count);
  const seen = new Int32Array(count + 1); // seen[0] counts roots
  for (let j = 1; j <= count; j++) norder[j - 1] = ++seen[parent1[j - 1]!]!;
  const children = invert(count, count, (j, out) => {
    if (parent1[j - 1]) out.push(parent1[j - 1]!);
    if (parent2[j - 1]) out.push(parent2[j - 1]!);
  });
  return { count, parent1, parent2, norder, children };
}

export interface Plan {
  seed: number;
  interviews: number;
  informants: number;
  publications: number;
  langs: Uint8Array;
  indexTags: Uint8Array;
  durationTenths: Int32Array;
  informantA: Int32Array;
  informantB: Int32Array;
  /** Up to two extra images per interview besides its own (image id = interview id); 0 = none. */
  imageB: Int32Array;
  imageC: Int32Array;
  /** Interviews that reference informant j / image j. */
  informantRefs: Inverse;
  imageRefs: Inverse;
  publicationEnglish: Uint8Array;
  themes: ThesaurusPlan;
  onomastic: ThesaurusPlan;
}

export function validateOptions(opts: DemoOptions): { interviews: number; seed: number } {
  const seed = opts.seed ?? 1;
  if (!Number.isSafeInteger(opts.interviews) || opts.interviews < 1 || opts.interviews > 10_000_000) {
    throw new RangeError(`interviews must be an integer from 1 to 10000000, got ${opts.interviews}`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  return { interviews: opts.interviews, seed };
}

export function makePlan(opts: DemoOptions): Plan {
  const { interviews: n, seed } = validateOptions(opts);
  const rng = Random.for(seed, SALT.plan, 0);
  const informants = Math.max(1, Math.round(n * 0.8));

  const langs = new Uint8Array(n);
  const indexTags = new Uint8Array(n);
  const durationTenths = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    langs[i] = LANG_SPA | (rng.chance(0.85) ? LANG_ENG : 0) | (rng.chance(0.3) ? LANG_CAT : 0);
    indexTags[i] = rng.int(2, 6);
    durationTenths[i] = rng.int(3_000, 54_000);
  }
  // The archive must show records missing a translation even when it is tiny.
  if (n > 1 && langs.every((l) => (l & LANG_ENG) !== 0)) langs[n - 1] = langs[n - 1]! & ~LANG_ENG;

  // Every informant is the first informant of at least one interview (interview i -> a block of
  // the shuffled informant list); a third of the interviews add a second, random informant.
  const order = rng.shuffle(Int32Array.from({ length: informants }, (_v, k) => k + 1));
  const informantA = new Int32Array(n);
  const informantB = new Int32Array(n);
  const imageB = new Int32Array(n);
  const imageC = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const a = order[Math.floor((i * informants) / n)]!;
    informantA[i] = a;
    if (informants > 1 && rng.chance(0.3)) {
      const b = rng.int(1, informants);
      if (b !== a) informantB[i] = b;
    }
    const extra = rng.int(0, 2);
    if (extra >= 1 && n > 1) {
      const b = rng.int(1, n);
      if (b !== i + 1) imageB[i] = b;
    }
    if (extra >= 2 && n > 2) {
      const c = rng.int(1, n);
      if (c !== i + 1 && c !== imageB[i]) imageC[i] = c;
    }
  }
  const informantRefs = invert(n, informants, (id, out) => {
    out.push(informantA[id - 1]!);
    if (informantB[id - 1]) out.push(informantB[id - 1]!);
  });
  const imageRefs = invert(n, n, (id, out) => {
    out.push(id);
    if (imageB[id - 1]) out.push(imageB[id - 1]!);
    if (imageC[id - 1]) out.push(imageC[id - 1]!);
  });

  const publications = Math.max(5, Math.floor(n / 20));
  const publicationEnglish = new Uint8Array(publications);
  for (let j = 0; j < publications; j++) publicationEnglish[j] = j === 0 || rng.chance(0.9) ? 1 : 0;

  return {
    seed,
    interviews: n,
    informants,
    publications,
    langs,
    indexTags,
    durationTenths,
    informantA,
    informantB,
    imageB,
    imageC,
    informantRefs,
    imageRefs,
    publicationEnglish,
    themes: thesaurusPlan(seed, SALT.themesPlan, Math.min(2000, Math.max(30, Math.floor(n / 2)))),
    onomastic: thesaurusPlan(seed, SALT.onomasticPlan, Math.min(500, Math.max(10, Math.floor(n / 10)))),
  };
}
