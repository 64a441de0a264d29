/**
 * What else a component save changes, decided from the ontology (the save writes it in the same
 * transaction, each with its own history row):
 * - computed components: a component whose `properties.computed = {from: [tipos], join}` is
 *   recomputed whenever one of its sources is saved (its value = the sources' first values,
 *   joined);
 * - inverse references: a `component_relation_parent` and the `component_relation_children` of
 *   the section it points into mirror each other (A's parent P <-> P's child A), as upstream's
 *   dd_relations keep them.
 */
import type { Ontology } from '../ontology/load-ontology.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { componentItems, type MatrixRow } from '../store/record-rows.js';
import { type ComponentSpec, componentSpec, type ValueItem } from './component-values.js';

/** The computed components of `sectionTipo` that read `savedTipo`. */
export function computedObservers(
  ontology: Ontology,
  sectionTipo: string,
  savedTipo: string,
): ComponentSpec[] {
  return ontology
    .sectionComponents(sectionTipo)
    .map((node) => componentSpec(ontology, node))
    .filter((spec) => spec.computed?.from.includes(savedTipo));
}

/** A source's text: its first item in `lang`, else its first lg-nolan item, else its first item. */
function firstText(items: readonly unknown[], lang: string): string | undefined {
  const values = items as ValueItem[];
  const pick = values.find((i) => i?.lang === lang) ?? values.find((i) => i?.lang === NO_LANG) ?? values[0];
  const value = pick?.value;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/**
 * The new items of a computed component from the row's current values: one lg-nolan item, or
 * none when every source is empty. The item keeps its id while it exists (so history reads as
 * one value changing); a new one takes the next id from the counter.
 */
export function computeItems(
  ontology: Ontology,
  spec: ComponentSpec,
  row: MatrixRow,
  lastId: number,
): { items: ValueItem[]; lastId: number } {
  const rule = spec.computed!;
  const parts = rule.from
    .map((tipo) => {
      const column = ontology.dataColumnOf(tipo);
      return column ? firstText(componentItems(row, column, tipo), NO_LANG) : undefined;
    })
    .filter((t): t is string => t !== undefined);
  if (parts.length === 0) return { items: [], lastId };
  const previous = componentItems(row, spec.column, spec.tipo)[0] as ValueItem | undefined;
  const id = typeof previous?.id === 'number' ? previous.id : lastId + 1;
  return { items: [{ id, lang: NO_LANG, value: parts.join(rule.join) }], lastId: Math.max(lastId, id) };
}

const INVERSE_MODEL = {
  component_relation_parent: 'component_relation_children',
  component_relation_children: 'component_relation_parent',
} as const;

/** The component of `targetSectionTipo` that mirrors `spec` (parent <-> children), if any. */
export function inverseComponentOf(
  ontology: Ontology,
  spec: ComponentSpec,
  targetSectionTipo: string,
): ComponentSpec | undefined {
  const model = (INVERSE_MODEL as Record<string, string>)[spec.model];
  if (!model) return undefined;
  const node = ontology
    .sectionComponents(targetSectionTipo)
    .find((c) => c.model === model && (c.target_section_tipo ?? []).includes(spec.sectionTipo));
  return node ? componentSpec(ontology, node) : undefined;
}
