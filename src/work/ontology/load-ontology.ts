/**
 * Builds an Ontology from its source (the `dd_ontology` rows read by ontology-store.ts, or the
 * default content): checks it against the schema and for integrity (unique tipos, parents that
 * exist, known models, relation targets that are sections, registered TLDs), then indexes it by
 * tipo and by parent. The result is immutable; a request holds the one it started with (nothing
 * here is module state).
 */
import type { DataColumn, MatrixTable } from '../store/matrix-tables.js';
import {
  COMPONENT_MODELS,
  ELEMENT_MODELS,
  isComponentModel,
  isUnimplementedComponent,
} from './component-models.js';
import { defaultOntologySource } from './default-ontology.js';
import { type OntologyNode, type OntologySeed, ontologySeedSchema, tldOf } from './ontology-schema.js';

/** The ontology is broken (a table edited by hand, a bad import): every problem, listed. */
export class OntologyError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Invalid ontology (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'OntologyError';
  }
}

export const NO_LANG = 'lg-nolan';

export interface Ontology {
  /** The root area, the one element without a parent. */
  readonly rootTipo: string;
  /** The element with this tipo, or undefined. */
  node(tipo: string): OntologyNode | undefined;
  /** Direct children in ontology order (empty for an unknown tipo). */
  children(tipo: string): readonly OntologyNode[];
  /** A section's components in ontology order, looking through groupers (depth first). */
  sectionComponents(sectionTipo: string): readonly OntologyNode[];
  /**
   * What an edit read of the section shows: its components and, read-only, its `component_*`
   * elements whose model is not implemented (isUnimplementedComponent), in ontology order.
   */
  sectionEditComponents(sectionTipo: string): readonly OntologyNode[];
  /** The section a component (or grouper) belongs to. */
  sectionOf(tipo: string): OntologyNode | undefined;
  /** The matrix table a section's records live in. */
  tableOf(sectionTipo: string): MatrixTable | undefined;
  /** The typed column a component's data is stored in (undefined for a non-component). */
  dataColumnOf(componentTipo: string): DataColumn | undefined;
  /** Every section, in ontology order. */
  sections(): readonly OntologyNode[];
  /**
   * The relation components of the sections stored in `table` that may hold a locator into
   * `targetSectionTipo` (those targeting it, and those declaring no target), for "who points at
   * this record" lookups.
   */
  relationComponentsInto(table: MatrixTable, targetSectionTipo: string): readonly string[];
  /**
   * Elements whose model this server does not implement (kept, shown read-only), in ontology
   * order; `component_*` ones inside a section are reported by `sectionOf` like any element.
   */
  readonly notImplemented: readonly OntologyNode[];
  /** Allowed language codes, `lg-nolan` included. */
  readonly languages: readonly { code: string; label: string }[];
  isLanguage(code: string): boolean;
}

/** Implemented here: the components of component-models.ts and the container models. */
export const isImplementedModel = (model: string) =>
  isComponentModel(model) || (ELEMENT_MODELS as readonly string[]).includes(model);

/**
 * Model names are lower-case words joined by underscores (`component_geolocation`, `section_tab`,
 * `button_new`). A well-formed name this server does not implement is kept (an imported Dédalo
 * ontology has dozens: buttons, tools, diffusion elements, components we do not edit); such
 * elements are listed in `notImplemented` and shown read-only, never dropped.
 */
const MODEL_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

function checkIntegrity(
  nodes: readonly OntologyNode[],
  languages: readonly { code: string }[],
  tlds: readonly { tld: string }[] | undefined,
): string[] {
  const problems: string[] = [];
  const registered = tlds && new Set(tlds.map((t) => t.tld));
  const byTipo = new Map<string, OntologyNode>();
  for (const n of nodes) {
    if (byTipo.has(n.tipo)) problems.push(`${n.tipo} is defined twice`);
    byTipo.set(n.tipo, n);
  }
  const roots = nodes.filter((n) => n.parent === null);
  if (roots.length !== 1) problems.push(`there must be exactly one root, found ${roots.length}`);
  for (const n of nodes) {
    if (registered && !registered.has(tldOf(n.tipo)))
      problems.push(`${n.tipo} belongs to the TLD ${tldOf(n.tipo)}, which is not registered`);
    if (!MODEL_NAME.test(n.model))
      problems.push(`${n.tipo} has a model "${n.model}" that is not a model name`);
    if (n.parent !== null && !byTipo.has(n.parent))
      problems.push(`${n.tipo} has a missing parent ${n.parent}`);
    const component = isComponentModel(n.model);
    const relation = component && COMPONENT_MODELS[n.model as keyof typeof COMPONENT_MODELS].relation;
    // Relations of models we do not implement are kept as they are, unchecked.
    if (!isImplementedModel(n.model)) continue;
    if (relation && n.model !== 'component_relation_index' && !n.target_section_tipo) {
      problems.push(`${n.tipo} (${n.model}) needs target_section_tipo`);
    }
    if (!relation && n.target_section_tipo) problems.push(`${n.tipo} is not a relation but has targets`);
    for (const target of n.target_section_tipo ?? []) {
      // A target in a TLD that is not installed (an imported TLD pointing at one not imported
      // yet) is ignored, not refused: the loaded ontology leaves it out (targetsInstalled).
      if (registered && !registered.has(tldOf(target))) continue;
      if (byTipo.get(target)?.model !== 'section')
        problems.push(`${n.tipo} targets ${target}, not a section`);
    }
    if (n.translatable !== undefined && !component) problems.push(`${n.tipo} is not a component`);
    if ((n.matrix_table !== undefined || n.read_only !== undefined) && n.model !== 'section') {
      problems.push(`${n.tipo} is not a section but has section settings`);
    }
  }
  // A cycle would make the walks below loop forever.
  for (const n of nodes) {
    const seen = new Set<string>();
    for (let p: OntologyNode | undefined = n; p; p = p.parent ? byTipo.get(p.parent) : undefined) {
      if (seen.has(p.tipo)) {
        problems.push(`${n.tipo} is inside a parent cycle`);
        break;
      }
      seen.add(p.tipo);
    }
  }
  if (!languages.some((l) => l.code === NO_LANG)) problems.push(`languages must include ${NO_LANG}`);
  if (new Set(languages.map((l) => l.code)).size !== languages.length)
    problems.push('a language is listed twice');
  return problems;
}

/** A schema issue's place, naming the node by its tipo when there is one (`oh14.label`). */
function issuePlace(seed: OntologySeed, path: readonly PropertyKey[]): string {
  const [list, index, ...rest] = path;
  const tipo = list === 'nodes' && typeof index === 'number' ? seed.nodes?.[index]?.tipo : undefined;
  return typeof tipo === 'string' ? [tipo, ...rest].map(String).join('.') : path.map(String).join('.');
}

/** The node without its relation targets in TLDs that are not registered (none left: no list). */
function targetsInstalled(n: OntologyNode, tlds: readonly { tld: string }[] | undefined): OntologyNode {
  if (!tlds || !n.target_section_tipo) return n;
  const registered = new Set(tlds.map((t) => t.tld));
  const kept = n.target_section_tipo.filter((t) => registered.has(tldOf(t)));
  if (kept.length === n.target_section_tipo.length) return n;
  const { target_section_tipo: _all, ...rest } = n;
  return kept.length > 0 ? { ...rest, target_section_tipo: kept } : rest;
}

export function loadOntology(seed: OntologySeed = defaultOntologySource()): Ontology {
  const parsed = ontologySeedSchema.safeParse(seed);
  if (!parsed.success) {
    throw new OntologyError(parsed.error.issues.map((i) => `${issuePlace(seed, i.path)}: ${i.message}`));
  }
  const { languages, tlds } = parsed.data;
  const problems = checkIntegrity(parsed.data.nodes, languages, tlds);
  if (problems.length > 0) throw new OntologyError(problems);

  const nodes = parsed.data.nodes.map((n) => Object.freeze(targetsInstalled(n, tlds)));
  const byTipo = new Map(nodes.map((n) => [n.tipo, n]));
  const childrenOf = new Map<string, OntologyNode[]>();
  for (const n of nodes) {
    if (n.parent === null) continue;
    const list = childrenOf.get(n.parent) ?? [];
    list.push(n);
    childrenOf.set(n.parent, list);
  }
  const children = (tipo: string): readonly OntologyNode[] => childrenOf.get(tipo) ?? [];

  const componentsOf = new Map<string, readonly OntologyNode[]>();
  const editComponentsOf = new Map<string, readonly OntologyNode[]>();
  const sectionByTipo = new Map<string, OntologyNode>();
  const sections = nodes.filter((n) => n.model === 'section');
  for (const section of sections) {
    const found: OntologyNode[] = [];
    const shown: OntologyNode[] = [];
    const walk = (tipo: string) => {
      for (const child of children(tipo)) {
        // A section never nests inside another section's data.
        if (child.model === 'section') continue;
        sectionByTipo.set(child.tipo, section);
        if (isComponentModel(child.model)) found.push(child);
        if (isComponentModel(child.model) || isUnimplementedComponent(child.model)) shown.push(child);
        walk(child.tipo);
      }
    };
    walk(section.tipo);
    componentsOf.set(section.tipo, Object.freeze(found));
    editComponentsOf.set(section.tipo, Object.freeze(shown));
  }
  const languageCodes = new Set(languages.map((l) => l.code));

  return {
    rootTipo: nodes.find((n) => n.parent === null)!.tipo,
    node: (tipo) => byTipo.get(tipo),
    children,
    sectionComponents: (sectionTipo) => componentsOf.get(sectionTipo) ?? [],
    sectionEditComponents: (sectionTipo) => editComponentsOf.get(sectionTipo) ?? [],
    sectionOf: (tipo) => sectionByTipo.get(tipo),
    tableOf: (sectionTipo) => {
      const n = byTipo.get(sectionTipo);
      return n?.model === 'section' ? (n.matrix_table ?? 'matrix') : undefined;
    },
    dataColumnOf: (tipo) => {
      const model = byTipo.get(tipo)?.model;
      return model !== undefined && isComponentModel(model) ? COMPONENT_MODELS[model].column : undefined;
    },
    sections: () => sections,
    relationComponentsInto: (table, targetSectionTipo) =>
      sections
        .filter((section) => (section.matrix_table ?? 'matrix') === table)
        .flatMap((section) => componentsOf.get(section.tipo) ?? [])
        .filter((c) => {
          if (!isComponentModel(c.model) || !COMPONENT_MODELS[c.model].relation) return false;
          return c.target_section_tipo === undefined || c.target_section_tipo.includes(targetSectionTipo);
        })
        .map((c) => c.tipo),
    notImplemented: Object.freeze(nodes.filter((n) => !isImplementedModel(n.model))),
    languages: Object.freeze(languages.map((l) => Object.freeze({ ...l }))),
    isLanguage: (code) => languageCodes.has(code),
  };
}
