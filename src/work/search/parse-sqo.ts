/**
 * Client SQO -> the neutral Sqo of sqo-types.ts. Every refusal is a 400 `search.invalid_sqo`
 * whose message names the offending place (`sqo.filter.$and[2].path[0].component_tipo is not a
 * component of oh1`). Unknown keys are ignored (Dédalo clients send `id`, `generated_time`,
 * `select`, `parsed` ...), and server-only keys (`skip_projects_filter`, `include_negative`,
 * `sentence`, `table` ...) are never read, so a client cannot set them. Every tipo is checked
 * against the ontology. docs/work-sqo.md describes the accepted grammar.
 */
import { WorkError } from '../dispatch/error-registry.js';
import { COMPONENT_MODELS, isComponentModel } from '../ontology/component-models.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import { type DateParts, dateInterval } from './date-time.js';
import {
  type Bound,
  type FilterGroup,
  type FilterLeaf,
  type FilterNode,
  type LeafTest,
  type LocatorFilter,
  type OrderItem,
  type PathStep,
  SQO_MODES,
  type Sqo,
  type SqoMode,
  STRUCTURAL_TIPOS,
} from './sqo-types.js';

export const SQO_LIMITS = {
  /** Highest `limit` a client may ask for. */
  maxLimit: 1000,
  maxOffset: 2_147_483_647,
  maxFilterDepth: 32,
  /** Groups, leaves and q values (locators, dates, strings) together. */
  maxFilterNodes: 1000,
  maxQLength: 1000,
  maxPathSteps: 8,
  maxSections: 100,
  maxLocators: 1000,
  maxOrderItems: 10,
} as const;

export interface ParseSqoOptions {
  /** `limit` when the client gives none (null or absent). Default 10 (a section list). */
  defaultLimit?: number;
  /** The data language translatable values are ordered by. Default lg-eng. */
  lang?: string;
  /** The name messages use for the SQO's place in the request. Default `sqo`. */
  at?: string;
}

type Json = Record<string, unknown>;

const invalid = (message: string): never => {
  throw new WorkError('search.invalid_sqo', message);
};

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const own = (o: Json, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** Absent and null are the same: "not given". */
const given = (o: Json, k: string): unknown => {
  const v = own(o, k);
  return v === null ? undefined : v;
};

/** A short, safe echo of client input inside a message. */
const echo = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

/** Deep equality for JSON values (key order ignored). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
    );
  }
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

const SECTION_ID_TEXT = /^-?\d{1,9}$/;

/** Characters PostgreSQL text cannot hold: NUL and unpaired UTF-16 surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is looked for
const NOT_STORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function sectionIdOf(v: unknown, at: string): number {
  const n = typeof v === 'string' && SECTION_ID_TEXT.test(v.trim()) ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || Math.abs(n) > 2_147_483_647) {
    return invalid(`${at} must be an integer section id`);
  }
  return n;
}

function integerIn(v: unknown, at: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    return invalid(`${at} must be an integer from ${min} to ${max}`);
  }
  return v;
}

/** A parse in progress: the ontology, the SQO's sections and a node budget. */
class SqoParser {
  private nodes = 0;

  constructor(
    readonly ontology: Ontology,
    readonly sections: readonly string[],
    readonly at: string,
  ) {}

  spend(at: string, n = 1): void {
    this.nodes += n;
    if (this.nodes > SQO_LIMITS.maxFilterNodes) {
      invalid(`${at}: the filter has more than ${SQO_LIMITS.maxFilterNodes} nodes`);
    }
  }

  section(v: unknown, at: string): OntologyNode {
    if (typeof v !== 'string') return invalid(`${at} must be a section tipo`);
    const node = this.ontology.node(v);
    if (node?.model !== 'section') return invalid(`${at} ${echo(v)} is not a known section`);
    return node;
  }

  /**
   * A join chain: every step but the last a relation component leading to the next step's
   * section, the last the component searched (or a structural name when `structural`).
   */
  path(raw: unknown, at: string): PathStep[] {
    if (!Array.isArray(raw) || raw.length === 0) return invalid(`${at} must be a non-empty array of steps`);
    if (raw.length > SQO_LIMITS.maxPathSteps) {
      return invalid(`${at} has more than ${SQO_LIMITS.maxPathSteps} steps`);
    }
    const steps: PathStep[] = [];
    let previous: OntologyNode | undefined;
    for (const [i, step] of raw.entries()) {
      const here = `${at}[${i}]`;
      if (!isObject(step)) return invalid(`${here} must be an object`);
      const last = i === raw.length - 1;
      const tipo = own(step, 'component_tipo');
      const sectionRaw = given(step, 'section_tipo');
      const section = sectionRaw === undefined ? undefined : this.section(sectionRaw, `${here}.section_tipo`);
      if (typeof tipo !== 'string' || tipo === '') {
        return invalid(`${here}.component_tipo must be a component tipo`);
      }
      if ((STRUCTURAL_TIPOS as readonly string[]).includes(tipo)) {
        if (!last) return invalid(`${here}.component_tipo ${tipo} may only be the last step`);
        const sectionTipo =
          section?.tipo ?? (previous ? this.targetOf(previous, undefined, here) : undefined);
        if (sectionTipo && i === 0 && !this.sections.includes(sectionTipo)) {
          return invalid(`${here}.section_tipo ${sectionTipo} is not one of the SQO's sections`);
        }
        if (sectionTipo && previous) this.targetOf(previous, sectionTipo, here);
        steps.push({ section_tipo: sectionTipo, component_tipo: tipo });
        continue;
      }
      const node = this.ontology.node(tipo);
      if (!node || !isComponentModel(node.model)) {
        return invalid(`${here}.component_tipo ${echo(tipo)} is not a component`);
      }
      const real = this.ontology.sectionOf(tipo)?.tipo;
      if (!real) return invalid(`${here}.component_tipo ${tipo} belongs to no section`);
      // A component of a virtual section is its real section's: the path names the virtual one.
      const owner =
        (section && this.ontology.isComponentOf(tipo, section.tipo) ? section.tipo : undefined) ??
        (i === 0 && !this.sections.includes(real)
          ? this.sections.find((s) => this.ontology.virtualOf(s) === real)
          : undefined) ??
        real;
      if (section && section.tipo !== owner) {
        return invalid(`${here}.component_tipo ${tipo} is not a component of ${section.tipo}`);
      }
      if (i === 0 && !this.sections.includes(owner)) {
        return invalid(`${here}.component_tipo ${tipo} is not a component of ${this.sections.join(', ')}`);
      }
      if (previous) this.targetOf(previous, owner, here);
      if (node.model === 'component_password') {
        return invalid(`${here}.component_tipo ${tipo} is a password and cannot be searched or ordered by`);
      }
      if (!last && !COMPONENT_MODELS[node.model].relation) {
        return invalid(
          `${here}.component_tipo ${tipo} is not a relation component, so the path cannot go on`,
        );
      }
      steps.push({ section_tipo: owner, component_tipo: tipo });
      previous = node;
    }
    return steps;
  }

  /** The section `relation` leads to (checked against its targets when `sectionTipo` is given). */
  private targetOf(relation: OntologyNode, sectionTipo: string | undefined, at: string): string {
    const targets = relation.target_section_tipo ?? [];
    if (sectionTipo === undefined) {
      if (targets.length !== 1) return invalid(`${at}.section_tipo is required after ${relation.tipo}`);
      return targets[0]!;
    }
    if (!targets.includes(sectionTipo)) {
      return invalid(`${at} leads to ${sectionTipo}, which ${relation.tipo} does not point to`);
    }
    return sectionTipo;
  }

  filter(raw: unknown, at: string, depth: number): FilterNode | undefined {
    if (depth > SQO_LIMITS.maxFilterDepth) {
      return invalid(`${at}: the filter is nested deeper than ${SQO_LIMITS.maxFilterDepth} levels`);
    }
    if (!isObject(raw)) return invalid(`${at} must be an object ($and, $or, $not or a leaf with path)`);
    this.spend(at);
    const ops = (['$and', '$or', '$not'] as const).filter((op) => Object.hasOwn(raw, op));
    if (ops.length > 1) return invalid(`${at} has more than one of $and, $or, $not`);
    const op = ops[0];
    if (op === undefined) {
      if (Object.hasOwn(raw, 'path')) return this.leaf(raw, at);
      if (Object.keys(raw).length === 0) return undefined;
      return invalid(`${at} must hold $and, $or, $not or a leaf with path`);
    }
    const rawChildren = raw[op];
    const list = Array.isArray(rawChildren)
      ? rawChildren
      : op === '$not' && isObject(rawChildren)
        ? [rawChildren]
        : undefined;
    if (!list) return invalid(`${at}.${op} must be an array of filter nodes`);
    const children: FilterNode[] = [];
    list.forEach((child, i) => {
      const node = this.filter(child, `${at}.${op}[${i}]`, depth + 1);
      if (node) children.push(node);
    });
    // Empty leaves and groups are dropped, as Dédalo does: they do not restrict anything.
    if (children.length === 0) return undefined;
    if (op !== '$not' && children.length === 1) return children[0];
    return { kind: 'group', op, children } satisfies FilterGroup;
  }

  /** undefined: an empty leaf (no q, no operator), dropped. */
  private leaf(raw: Json, at: string): FilterLeaf | undefined {
    const path = this.path(own(raw, 'path'), `${at}.path`);
    const last = path[path.length - 1]!;
    const qOperatorRaw = given(raw, 'q_operator');
    if (qOperatorRaw !== undefined && (typeof qOperatorRaw !== 'string' || qOperatorRaw.length > 8)) {
      return invalid(`${at}.q_operator must be a short string`);
    }
    const qOperator = qOperatorRaw === '' ? undefined : (qOperatorRaw as string | undefined);
    const qSplitRaw = given(raw, 'q_split');
    if (qSplitRaw !== undefined && typeof qSplitRaw !== 'boolean')
      return invalid(`${at}.q_split must be a boolean`);
    const langRaw = given(raw, 'lang');
    if (
      langRaw !== undefined &&
      (typeof langRaw !== 'string' || !(langRaw === 'all' || this.ontology.isLanguage(langRaw)))
    ) {
      return invalid(`${at}.lang ${echo(langRaw)} is not a known language`);
    }
    const node = this.ontology.node(last.component_tipo);
    const lang =
      typeof langRaw === 'string' && langRaw !== 'all' && node?.translatable === true ? langRaw : undefined;
    const q = own(raw, 'q');
    const values = (Array.isArray(q) ? q : q === undefined || q === null ? [] : [q]).filter(
      (v) => v !== null && v !== '',
    );
    this.spend(`${at}.q`, values.length);
    const kind = this.kindOf(last);
    const tests: LeafTest[] = [];
    if (qOperator === '*' || qOperator === '!*') {
      tests.push({ kind: 'presence', present: qOperator === '*' });
    } else if (values.length === 0) {
      if (qOperator !== undefined) return invalid(`${at}.q is required with q_operator ${echo(qOperator)}`);
      return undefined;
    } else {
      values.forEach((v, i) => {
        const here = Array.isArray(q) ? `${at}.q[${i}]` : `${at}.q`;
        tests.push(this.test(kind, v, qOperator, qSplitRaw !== false, here, last.component_tipo));
      });
    }
    return { kind: 'leaf', path, tests, lang, at };
  }

  private kindOf(
    step: PathStep,
  ): 'text' | 'number' | 'date' | 'relation' | 'section_id' | 'section_tipo' | 'other' {
    if (step.component_tipo === 'section_id' || step.component_tipo === 'id') return 'section_id';
    if (step.component_tipo === 'section_tipo') return 'section_tipo';
    const model = this.ontology.node(step.component_tipo)?.model;
    if (model === undefined || !isComponentModel(model)) return 'other';
    const spec = COMPONENT_MODELS[model];
    if (spec.relation) return 'relation';
    if (spec.column === 'string') return 'text';
    if (spec.column === 'number') return 'number';
    if (spec.column === 'date') return 'date';
    return 'other';
  }

  private test(
    kind: ReturnType<SqoParser['kindOf']>,
    q: unknown,
    qOperator: string | undefined,
    split: boolean,
    at: string,
    tipo: string,
  ): LeafTest {
    if (typeof q === 'string' && q.length > SQO_LIMITS.maxQLength) {
      return invalid(`${at} is longer than ${SQO_LIMITS.maxQLength} characters`);
    }
    // PostgreSQL text holds neither NUL nor unpaired surrogates: refuse them here, not as a 500.
    if (typeof q === 'string' && NOT_STORABLE.test(q)) {
      return invalid(`${at} contains a NUL character or an unpaired surrogate`);
    }
    if (typeof q === 'string' && (q.trim() === '*' || q.trim() === '!*')) {
      return { kind: 'presence', present: q.trim() === '*' };
    }
    switch (kind) {
      case 'text':
        return textTest(q, qOperator, split, at);
      case 'number':
      case 'section_id':
        return numberTest(q, qOperator, at);
      case 'date':
        return dateTest(q, qOperator, at);
      case 'relation':
        return this.locatorTest(q, qOperator, at);
      case 'section_tipo': {
        if (typeof q !== 'string') return invalid(`${at} must be a section tipo`);
        return { kind: 'text', op: 'exact', words: [q], negate: qOperator === '!=' };
      }
      default:
        return invalid(`${at}: ${tipo} can only be searched with q_operator * or !*`);
    }
  }

  private locatorTest(q: unknown, qOperator: string | undefined, at: string): LeafTest {
    if (qOperator !== undefined && qOperator !== '=' && qOperator !== '!=') {
      return invalid(
        `${at}: q_operator ${echo(qOperator)} does not apply to a relation (use *, !*, = or !=)`,
      );
    }
    if (!isObject(q)) return invalid(`${at} must be a locator {section_tipo, section_id}`);
    const section = this.section(own(q, 'section_tipo'), `${at}.section_tipo`);
    const sectionId = sectionIdOf(own(q, 'section_id'), `${at}.section_id`);
    return {
      kind: 'locators',
      locators: [{ section_tipo: section.tipo, section_id: sectionId }],
      negate: qOperator === '!=',
    };
  }

  locatorList(raw: unknown, at: string): LocatorFilter[] {
    if (!Array.isArray(raw)) return invalid(`${at} must be an array of locators`);
    if (raw.length > SQO_LIMITS.maxLocators)
      return invalid(`${at} has more than ${SQO_LIMITS.maxLocators} locators`);
    return raw.map((l, i) => {
      const here = `${at}[${i}]`;
      if (!isObject(l)) return invalid(`${here} must be a locator {section_tipo, section_id}`);
      const locator: LocatorFilter = {
        section_tipo: this.section(own(l, 'section_tipo'), `${here}.section_tipo`).tipo,
        section_id: sectionIdOf(own(l, 'section_id'), `${here}.section_id`),
      };
      const tipo = given(l, 'tipo') ?? given(l, 'from_component_tipo');
      if (tipo !== undefined) {
        const node = typeof tipo === 'string' ? this.ontology.node(tipo) : undefined;
        if (!node || !isComponentModel(node.model))
          return invalid(`${here}.tipo ${echo(tipo)} is not a component`);
        locator.tipo = node.tipo;
      }
      const lang = given(l, 'lang');
      if (lang !== undefined) {
        if (typeof lang !== 'string' || !this.ontology.isLanguage(lang)) {
          return invalid(`${here}.lang ${echo(lang)} is not a known language`);
        }
        locator.lang = lang;
      }
      return locator;
    });
  }

  order(raw: unknown, at: string): OrderItem[] | undefined {
    if (raw === undefined || raw === false) return undefined;
    if (!Array.isArray(raw)) return invalid(`${at} must be an array of {direction, path} or false`);
    if (raw.length > SQO_LIMITS.maxOrderItems)
      return invalid(`${at} has more than ${SQO_LIMITS.maxOrderItems} items`);
    if (raw.length === 0) return undefined;
    return raw.map((item, i) => {
      const here = `${at}[${i}]`;
      if (!isObject(item)) return invalid(`${here} must be an object {direction, path}`);
      const direction = given(item, 'direction') ?? 'ASC';
      if (typeof direction !== 'string' || !['ASC', 'DESC'].includes(direction.toUpperCase())) {
        return invalid(`${here}.direction must be ASC or DESC`);
      }
      const path = this.path(own(item, 'path'), `${here}.path`);
      const kind = this.kindOf(path[path.length - 1]!);
      if (kind === 'other') {
        return invalid(`${here}.path: ${path[path.length - 1]!.component_tipo} cannot be ordered by`);
      }
      const lang = given(item, 'lang');
      if (lang !== undefined && (typeof lang !== 'string' || !this.ontology.isLanguage(lang))) {
        return invalid(`${here}.lang ${echo(lang)} is not a known language`);
      }
      return { direction: direction.toUpperCase() as 'ASC' | 'DESC', path, lang: lang as string | undefined };
    });
  }
}

/** Text operators inside q (docs/work-sqo.md): `==a`, `=a`, `!=a`, `-a`, `a*`, `*a`, `'a'`, words. */
function textTest(q: unknown, qOperator: string | undefined, split: boolean, at: string): LeafTest {
  if (typeof q !== 'string' && typeof q !== 'number') return invalid(`${at} must be a string`);
  let text = String(q);
  if (qOperator !== undefined) {
    if (!['=', '==', '!=', '-'].includes(qOperator)) {
      return invalid(`${at}: q_operator ${echo(qOperator)} does not apply to text (use *, !*, =, ==, !=, -)`);
    }
    text = `${qOperator}${text}`;
  }
  const needText = (s: string): string => (s === '' ? invalid(`${at} has an operator but no text`) : s);
  if (text.startsWith('=='))
    return { kind: 'text', op: 'exact', words: [needText(text.slice(2))], negate: false };
  if (text.startsWith('!='))
    return { kind: 'text', op: 'exact', words: [needText(text.slice(2))], negate: true };
  if (text.startsWith('='))
    return { kind: 'text', op: 'exact', words: [needText(text.slice(1))], negate: false };
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) {
    return { kind: 'text', op: 'contains', words: [needText(text.slice(1, -1))], negate: false };
  }
  let negate = false;
  if (text.startsWith('-') && text.length > 1) {
    negate = true;
    text = text.slice(1);
  }
  const starts = text.startsWith('*');
  const ends = text.endsWith('*') && text.length > 1;
  if (starts !== ends) {
    const core = needText(starts ? text.slice(1) : text.slice(0, -1));
    return { kind: 'text', op: starts ? 'ends' : 'begins', words: [core], negate };
  }
  if (starts && ends) text = text.slice(1, -1);
  const words = split ? text.split(/\s+/).filter((w) => w !== '') : [text];
  if (words.length === 0 || words.every((w) => w === '')) return invalid(`${at} has no text to search`);
  return { kind: 'text', op: 'contains', words, negate };
}

const NUMBER_TEXT = /^-?\d{1,30}(\.\d{1,30})?$/;
const COMPARISON = /^(>=|<=|!=|==|=|>|<)/;

function numberOf(v: unknown, at: string): number {
  const n = typeof v === 'string' && NUMBER_TEXT.test(v.trim()) ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) return invalid(`${at} must be a number`);
  return n;
}

/** A comparison or a range over one number-like value: `[from, to)` style bounds. */
function comparison(op: string, from: number, to: number, at: string): LeafTest {
  switch (op) {
    case '=':
    case '==':
      return {
        kind: 'range',
        lower: { value: from, inclusive: true },
        upper: { value: to, inclusive: false },
        negate: false,
      };
    case '!=':
      return {
        kind: 'range',
        lower: { value: from, inclusive: true },
        upper: { value: to, inclusive: false },
        negate: true,
      };
    case '<':
      return { kind: 'range', upper: { value: from, inclusive: false }, negate: false };
    case '<=':
      return { kind: 'range', upper: { value: to, inclusive: false }, negate: false };
    case '>':
      return { kind: 'range', lower: { value: to, inclusive: true }, negate: false };
    case '>=':
      return { kind: 'range', lower: { value: from, inclusive: true }, negate: false };
    default:
      return invalid(`${at}: unknown operator ${echo(op)} (use =, !=, <, <=, >, >=, ... or *, !*)`);
  }
}

const rangeOf = (lower: number, upperExclusive: number): LeafTest => ({
  kind: 'range',
  lower: { value: lower, inclusive: true },
  upper: { value: upperExclusive, inclusive: false },
  negate: false,
});

/** Numbers compare exactly: the "interval" of a number is the point itself. */
function numberTest(q: unknown, qOperator: string | undefined, at: string): LeafTest {
  let op = qOperator;
  let text: unknown = q;
  if (typeof q === 'string') {
    const trimmed = q.trim();
    const range = trimmed.split('...');
    if (range.length === 2) {
      const a = numberOf(range[0], at);
      const b = numberOf(range[1], at);
      return {
        kind: 'range',
        lower: { value: a, inclusive: true },
        upper: { value: b, inclusive: true },
        negate: false,
      } satisfies LeafTest;
    }
    const m = COMPARISON.exec(trimmed);
    if (m) {
      op = m[1];
      text = trimmed.slice(m[1]!.length);
    }
  }
  const n = numberOf(text, at);
  const point: Bound = { value: n, inclusive: true };
  switch (op ?? '=') {
    case '=':
    case '==':
      return { kind: 'range', lower: point, upper: point, negate: false };
    case '!=':
      return { kind: 'range', lower: point, upper: point, negate: true };
    case '<':
      return { kind: 'range', upper: { value: n, inclusive: false }, negate: false };
    case '<=':
      return { kind: 'range', upper: point, negate: false };
    case '>':
      return { kind: 'range', lower: { value: n, inclusive: false }, negate: false };
    case '>=':
      return { kind: 'range', lower: point, negate: false };
    default:
      return invalid(`${at}: unknown operator ${echo(op)} (use =, !=, <, <=, >, >=, a...b, *, !*)`);
  }
}

const DATE_TEXT = /^(-?\d{1,6})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?$/;

function datePartsOf(raw: unknown, at: string): DateParts {
  if (typeof raw === 'string' || typeof raw === 'number') {
    const m = DATE_TEXT.exec(String(raw).trim());
    if (!m) return invalid(`${at} must be a date like 1928, 1928-05 or 1928-05-17`);
    return checkedParts(
      { year: Number(m[1]), month: m[2] ? Number(m[2]) : undefined, day: m[3] ? Number(m[3]) : undefined },
      at,
    );
  }
  if (!isObject(raw)) return invalid(`${at} must be a date object {year, month?, day?}`);
  const part = (name: string) => {
    const v = given(raw, name);
    return v === undefined ? undefined : numberOf(v, `${at}.${name}`);
  };
  const year = part('year');
  if (year === undefined) return invalid(`${at}.year is required`);
  const month = part('month');
  return checkedParts({ year, month, day: month === undefined ? undefined : part('day') }, at);
}

function checkedParts(parts: DateParts, at: string): DateParts {
  if (!Number.isInteger(parts.year) || Math.abs(parts.year) > 999_999)
    return invalid(`${at}.year must be an integer year`);
  if (parts.month !== undefined && (!Number.isInteger(parts.month) || parts.month < 1 || parts.month > 12)) {
    return invalid(`${at}.month must be 1 to 12`);
  }
  if (parts.day !== undefined && (!Number.isInteger(parts.day) || parts.day < 1 || parts.day > 31)) {
    return invalid(`${at}.day must be 1 to 31`);
  }
  return parts;
}

/**
 * A date q: `{start:{year,month?,day?}, end?, op?, mode?}` or a text `1928`, `>=1928-05`,
 * `1920...1930`. A partial date covers its whole year or month: `=1928` is any day of 1928,
 * `<1928` before it, `<=1928` up to its end.
 */
function dateTest(q: unknown, qOperator: string | undefined, at: string): LeafTest {
  let op = qOperator;
  if (typeof q === 'string' || typeof q === 'number') {
    const text = String(q).trim();
    const range = text.split('...');
    if (range.length === 2) {
      const from = dateInterval(datePartsOf(range[0], at)).from;
      return rangeOf(from, dateInterval(datePartsOf(range[1], at)).to);
    }
    const m = COMPARISON.exec(text);
    const parts = datePartsOf(m ? text.slice(m[1]!.length) : text, at);
    const { from, to } = dateInterval(parts);
    return comparison(m?.[1] ?? op ?? '=', from, to, at);
  }
  if (!isObject(q)) return invalid(`${at} must be a date search object {start:{year, month?, day?}}`);
  const inlineOp = given(q, 'op') ?? given(q, 'operator');
  if (inlineOp !== undefined) {
    if (typeof inlineOp !== 'string') return invalid(`${at}.op must be a string`);
    op = inlineOp;
  }
  const start = given(q, 'start');
  const end = given(q, 'end');
  if (start === undefined && end === undefined) {
    return invalid(`${at} must hold start (and optionally end) {year, month?, day?}`);
  }
  if (start !== undefined && end !== undefined) {
    const from = dateInterval(datePartsOf(start, `${at}.start`)).from;
    return rangeOf(from, dateInterval(datePartsOf(end, `${at}.end`)).to);
  }
  const interval = dateInterval(datePartsOf(start ?? end, start !== undefined ? `${at}.start` : `${at}.end`));
  return comparison(op ?? '=', interval.from, interval.to, at);
}

/** The client's SQO, checked and typed; throws `search.invalid_sqo` (400) on anything wrong. */
export function parseSqo(raw: unknown, ontology: Ontology, options: ParseSqoOptions = {}): Sqo {
  const at = options.at ?? 'sqo';
  if (!isObject(raw)) return invalid(`${at} must be an object`);

  const modeRaw = given(raw, 'mode') ?? 'search';
  if (typeof modeRaw !== 'string' || !(SQO_MODES as readonly string[]).includes(modeRaw)) {
    return invalid(`${at}.mode must be one of ${SQO_MODES.join(', ')}`);
  }
  const mode = modeRaw as SqoMode;

  const sectionsRaw = given(raw, 'section_tipo');
  const sectionList = typeof sectionsRaw === 'string' ? [sectionsRaw] : sectionsRaw;
  if (!Array.isArray(sectionList) || sectionList.length === 0) {
    return invalid(`${at}.section_tipo is required (a section tipo or an array of them)`);
  }
  if (sectionList.length > SQO_LIMITS.maxSections) {
    return invalid(`${at}.section_tipo has more than ${SQO_LIMITS.maxSections} sections`);
  }
  let sections: string[];
  if (sectionList.length === 1 && sectionList[0] === 'all' && mode === 'related') {
    sections = ['all'];
  } else {
    const parser = new SqoParser(ontology, [], at);
    sections = [
      ...new Set(
        sectionList.map(
          (s, i) =>
            parser.section(
              s,
              typeof sectionsRaw === 'string' ? `${at}.section_tipo` : `${at}.section_tipo[${i}]`,
            ).tipo,
        ),
      ),
    ];
  }
  const parser = new SqoParser(ontology, sections, at);

  const filterRaw = given(raw, 'filter');
  const filtersRaw = given(raw, 'filters');
  if (filterRaw !== undefined && filtersRaw !== undefined && !jsonEqual(filterRaw, filtersRaw)) {
    return invalid(`${at}.filter and ${at}.filters are both given and differ (send one)`);
  }
  const filterName = filterRaw !== undefined ? 'filter' : 'filters';
  const filterValue = filterRaw ?? filtersRaw;
  const filter =
    filterValue === undefined || filterValue === false
      ? undefined
      : parser.filter(filterValue, `${at}.${filterName}`, 1);

  const locatorsRaw = given(raw, 'filter_by_locators');
  const filterByLocators =
    locatorsRaw === undefined ? undefined : parser.locatorList(locatorsRaw, `${at}.filter_by_locators`);
  const opRaw = given(raw, 'filter_by_locators_op') ?? 'OR';
  if (typeof opRaw !== 'string' || !['AND', 'OR'].includes(opRaw.toUpperCase())) {
    return invalid(`${at}.filter_by_locators_op must be AND or OR`);
  }

  const limitRaw = given(raw, 'limit');
  const defaultLimit = options.defaultLimit ?? 10;
  const limitValue =
    limitRaw === undefined ? defaultLimit : integerIn(limitRaw, `${at}.limit`, 0, SQO_LIMITS.maxLimit);
  const offsetRaw = given(raw, 'offset');
  const offset = offsetRaw === undefined ? 0 : integerIn(offsetRaw, `${at}.offset`, 0, SQO_LIMITS.maxOffset);
  const fullCount = given(raw, 'full_count') ?? false;
  if (typeof fullCount !== 'boolean') return invalid(`${at}.full_count must be a boolean`);
  const totalRaw = given(raw, 'total');
  const total =
    totalRaw === undefined ? undefined : integerIn(totalRaw, `${at}.total`, 0, SQO_LIMITS.maxOffset);

  const sqo: Sqo = {
    section_tipo: sections,
    mode,
    filter_by_locators_op: opRaw.toUpperCase() as 'AND' | 'OR',
    // 0 is Dédalo's "no limit", clamped to the most a client may ask for.
    limit: limitValue === 0 ? SQO_LIMITS.maxLimit : limitValue,
    offset,
    full_count: fullCount,
    lang: options.lang ?? 'lg-eng',
  };
  if (filter) sqo.filter = filter;
  if (filterByLocators) sqo.filter_by_locators = filterByLocators;
  const order = parser.order(given(raw, 'order'), `${at}.order`);
  if (order) sqo.order = order;
  if (total !== undefined && total > 0) sqo.total = total;
  return sqo;
}

/** Every section a filter or order path reads (for the caller's permission checks). */
export function sectionsReadBy(sqo: Sqo): string[] {
  const found = new Set<string>();
  const visitPath = (path: PathStep[]) => {
    for (const step of path) if (step.section_tipo) found.add(step.section_tipo);
  };
  const visit = (node: FilterNode) => {
    if (node.kind === 'leaf') visitPath(node.path);
    else node.children.forEach(visit);
  };
  if (sqo.filter) visit(sqo.filter);
  for (const o of sqo.order ?? []) visitPath(o.path);
  return [...found];
}
