/**
 * Applies a save's `changed_data` to a component's current items, in order, and returns the new
 * items and the item counter (docs/work-api.md).
 *
 * - Item ids are minted from the record's counter (`meta`) and never reused: a removed item's id
 *   is gone for good, and translations of one logical value share its id.
 * - Translatable literals: every action works on the `lang` slice; items of other languages are
 *   kept untouched. `clear` too empties only that slice.
 * - `key` (an index into the slice) is accepted wherever `id` is, for older clients.
 * - Relations: inserting a locator that is already there changes nothing (the client reads the
 *   unchanged `pagination.total` as "already linked").
 * - `sort_by_column` takes either the wanted order (an array of item ids or locators; items not
 *   listed keep their relative order after the listed ones) or `{tipo, direction}`, a text
 *   component of the target section whose first value orders the locators (empty values last).
 *
 * Database work (creating the target of `add_new_element`, reading a sort column) goes through
 * the hooks, so this module is testable without a database and the save owns the transaction.
 */
import { WorkError } from '../dispatch/error-registry.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import {
  type AccessItem,
  accessItem,
  type ComponentSpec,
  dateValue,
  invalidValue,
  itemLang,
  type Locator,
  literalValue,
  locatorIdentity,
  locatorValue,
  MAX_ITEMS,
  targetKey,
  type ValueItem,
} from './component-values.js';

export const CHANGE_ACTIONS = [
  'insert',
  'update',
  'remove',
  'set_data',
  'clear',
  'sort_data',
  'sort_by_column',
  'add_new_element',
] as const;

export type ChangeActionName = (typeof CHANGE_ACTIONS)[number];

/** One `changed_data` item, its fields type-checked (the value is checked here, per model). */
export interface ChangeObject {
  action: ChangeActionName;
  id?: number;
  key?: number;
  value: unknown;
}

export interface ChangeHooks {
  /** add_new_element: creates a record in `sectionTipo` (same transaction) and returns its id. */
  createTarget(sectionTipo: string): Promise<number>;
  /** sort_by_column: the sort text of each target record (by `targetKey`) in `columnTipo`. */
  columnValues(locators: readonly Locator[], columnTipo: string): Promise<Map<string, string>>;
}

export interface ApplyResult {
  items: unknown[];
  lastId: number;
  /** Section ids created by add_new_element, in order. */
  createdSectionIds: number[];
}

type Item = ValueItem | Locator | AccessItem;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const idOf = (item: unknown): number | undefined => {
  const id = isObject(item) ? item.id : undefined;
  return typeof id === 'number' ? id : undefined;
};

const sameAccess = (a: AccessItem, b: AccessItem) => a.tipo === b.tipo && a.section_tipo === b.section_tipo;

export async function applyChanges(
  spec: ComponentSpec,
  ontology: Ontology,
  current: { items: readonly unknown[]; lastId: number },
  changes: readonly ChangeObject[],
  sourceLang: string,
  hooks: ChangeHooks,
): Promise<ApplyResult> {
  const lang = itemLang(spec, sourceLang);
  const inSlice = (item: unknown) => !spec.translatable || (isObject(item) && item.lang === lang);
  // Items of other languages are set aside and put back unchanged.
  const others = current.items.filter((i) => !inSlice(i));
  let slice = current.items.filter(inSlice) as Item[];
  let lastId = current.lastId;
  const createdSectionIds: number[] = [];
  const mint = () => ++lastId;

  /** A new item from a client value; `id` is kept when the value is a known item (or its translation). */
  const makeItem = (raw: unknown, path: string, id: number | undefined): Item => {
    switch (spec.kind) {
      case 'relation':
        return { id: id ?? mint(), ...locatorValue(spec, raw, path) };
      case 'security_access':
        return accessItem(spec, ontology, raw, path);
      case 'date':
        return { id: id ?? mint(), lang: NO_LANG, ...dateValue(spec, raw, path) };
      case 'media':
        throw invalidValue(spec, 'media files are attached by the upload tools, not by save');
      default:
        return { id: id ?? mint(), lang, value: literalValue(spec, raw, path) };
    }
  };

  /** An id the component already knows (any language), so a translation can share it. */
  const knownId = (raw: unknown): number | undefined => {
    const id = idOf(raw);
    if (id === undefined || spec.kind === 'relation') return undefined;
    // The live state, not the value before the save: an id removed earlier in this save is gone.
    return others.some((i) => idOf(i) === id) || slice.some((i) => idOf(i) === id) ? id : undefined;
  };

  /** Index of the item a change targets by `id` or `key`; -1 when it names none in the slice. */
  const targetIndex = (change: ChangeObject, path: string): number => {
    const id = change.id ?? idOf(change.value);
    if (id !== undefined) return slice.findIndex((i) => idOf(i) === id);
    if (change.key !== undefined) return change.key < slice.length ? change.key : -1;
    throw invalidValue(spec, `${path} needs the id (or key) of the item to change`);
  };

  for (const [n, change] of changes.entries()) {
    const path = `changed_data[${n}]`;
    switch (change.action) {
      case 'insert': {
        if (spec.kind === 'security_access') {
          const item = makeItem(change.value, `${path}.value`, undefined) as AccessItem;
          slice = [...slice.filter((i) => !sameAccess(i as AccessItem, item)), item];
          break;
        }
        if (spec.kind === 'relation') {
          const locator = locatorValue(spec, change.value, `${path}.value`);
          if (slice.some((i) => locatorIdentity(i as Locator) === locatorIdentity(locator))) break;
          const item = { id: mint(), ...locator };
          slice = spec.single ? [item] : [...slice, item];
          break;
        }
        const shared = knownId(change.value);
        const item = makeItem(change.value, `${path}.value`, shared);
        const at = shared === undefined ? -1 : slice.findIndex((i) => idOf(i) === shared);
        if (at >= 0) slice[at] = item;
        else slice = spec.single ? [item] : [...slice, item];
        break;
      }
      case 'update': {
        const at = targetIndex(change, path);
        if (at >= 0) {
          const existing = slice[at]!;
          slice[at] = makeItem(change.value, `${path}.value`, idOf(existing));
          break;
        }
        // No item of this language yet: the first translation of a value another language has.
        const id = change.id ?? idOf(change.value);
        if (id !== undefined && spec.translatable && others.some((i) => idOf(i) === id)) {
          slice = [...slice, makeItem(change.value, `${path}.value`, id)];
          break;
        }
        throw new WorkError(
          'resource.conflict',
          `${spec.tipo}: ${path} updates ${id !== undefined ? `item ${id}` : `key ${change.key}`}, which this component does not hold (removed meanwhile?)`,
        );
      }
      case 'remove': {
        if (change.id !== undefined) {
          slice = slice.filter((i) => idOf(i) !== change.id);
        } else if (change.key !== undefined) {
          slice = slice.filter((_, index) => index !== change.key);
        } else if (spec.kind === 'relation' && isObject(change.value)) {
          // A locator without id: removed by its target.
          const gone = locatorIdentity(locatorValue(spec, change.value, `${path}.value`));
          slice = slice.filter((i) => locatorIdentity(i as Locator) !== gone);
        } else {
          // `id: null` and no key: every item of this language.
          slice = [];
        }
        break;
      }
      case 'set_data': {
        const values = change.value === null ? [] : change.value;
        if (!Array.isArray(values))
          throw invalidValue(spec, `${path}.value must be an array (the whole new value)`);
        if (values.length > MAX_ITEMS)
          throw invalidValue(spec, `${path}.value holds more than ${MAX_ITEMS} items`);
        const next: Item[] = [];
        for (const [k, raw] of values.entries()) {
          const itemPath = `${path}.value[${k}]`;
          if (spec.kind === 'security_access') {
            const item = makeItem(raw, itemPath, undefined) as AccessItem;
            const at = next.findIndex((i) => sameAccess(i as AccessItem, item));
            if (at >= 0) next.splice(at, 1);
            // Level 0 is the same as no item (upstream stores no zeros).
            if (item.value > 0) next.push(item);
          } else if (spec.kind === 'relation') {
            const locator = locatorValue(spec, raw, itemPath);
            const key = locatorIdentity(locator);
            if (next.some((i) => locatorIdentity(i as Locator) === key)) continue;
            const kept = slice.find((i) => locatorIdentity(i as Locator) === key);
            next.push({ id: idOf(kept) ?? mint(), ...locator });
          } else {
            const id = knownId(raw);
            next.push(
              makeItem(raw, itemPath, id !== undefined && !next.some((i) => idOf(i) === id) ? id : undefined),
            );
          }
        }
        slice = next;
        break;
      }
      case 'clear':
        slice = [];
        break;
      case 'sort_data': {
        const v = change.value;
        const from = isObject(v) ? v.source_key : undefined;
        const to = isObject(v) ? v.target_key : undefined;
        const valid = (k: unknown): k is number =>
          typeof k === 'number' && Number.isInteger(k) && k >= 0 && k < slice.length;
        if (!valid(from) || !valid(to)) {
          throw invalidValue(
            spec,
            `${path}.value must be {source_key, target_key}, indexes below ${slice.length}`,
          );
        }
        const [moved] = slice.splice(from, 1);
        slice.splice(to, 0, moved!);
        break;
      }
      case 'sort_by_column':
        slice = await sortByColumn(spec, slice as Locator[], change.value, `${path}.value`, hooks);
        break;
      case 'add_new_element': {
        if (spec.kind !== 'relation') throw invalidValue(spec, `${path}: add_new_element is for portals`);
        const target = isObject(change.value) ? change.value.target_section_tipo : change.value;
        if (typeof target !== 'string' || !spec.targets.includes(target)) {
          throw new WorkError(
            'validation.locator_target',
            `${spec.tipo} (${spec.model}): ${path}.value must be one of its target sections (${spec.targets.join(', ')})`,
          );
        }
        const sectionId = await hooks.createTarget(target);
        createdSectionIds.push(sectionId);
        const item: Locator = {
          id: mint(),
          type: spec.relationType!,
          section_tipo: target,
          section_id: sectionId,
          from_component_tipo: spec.tipo,
        };
        slice = spec.single ? [item] : [...slice, item];
        break;
      }
    }
  }
  if (spec.single && slice.length > 1) throw invalidValue(spec, 'holds one value at most');
  if (slice.length + others.length > MAX_ITEMS) throw invalidValue(spec, `holds at most ${MAX_ITEMS} items`);
  return { items: [...others, ...slice], lastId, createdSectionIds };
}

async function sortByColumn(
  spec: ComponentSpec,
  slice: Locator[],
  value: unknown,
  path: string,
  hooks: ChangeHooks,
): Promise<Locator[]> {
  if (spec.kind !== 'relation') throw invalidValue(spec, `${path}: sort_by_column is for portals`);
  if (Array.isArray(value)) {
    // The wanted order: item ids or locators.
    const rank = new Map<string, number>();
    for (const [n, entry] of value.entries()) {
      const k =
        typeof entry === 'number'
          ? `id:${entry}`
          : isObject(entry)
            ? targetKey(entry as { section_tipo: unknown; section_id: unknown })
            : undefined;
      if (k === undefined) throw invalidValue(spec, `${path}[${n}] must be an item id or a locator`);
      if (!rank.has(k)) rank.set(k, n);
    }
    const position = (l: Locator) =>
      rank.get(`id:${l.id}`) ?? rank.get(targetKey(l)) ?? Number.MAX_SAFE_INTEGER;
    return slice
      .map((l, n) => ({ l, n }))
      .sort((a, b) => position(a.l) - position(b.l) || a.n - b.n)
      .map((x) => x.l);
  }
  if (!isObject(value)) throw invalidValue(spec, `${path} must be an order (array) or {tipo, direction}`);
  const column = value.tipo ?? value.column_tipo ?? value.component_tipo;
  if (typeof column !== 'string') throw invalidValue(spec, `${path}.tipo must name a column`);
  const direction = String(value.direction ?? 'ASC').toUpperCase();
  if (direction !== 'ASC' && direction !== 'DESC')
    throw invalidValue(spec, `${path}.direction must be ASC or DESC`);
  const texts = await hooks.columnValues(slice, column);
  const sign = direction === 'ASC' ? 1 : -1;
  return slice
    .map((l, n) => ({ l, n, text: texts.get(targetKey(l)) ?? '' }))
    .sort((a, b) => {
      // Empty values go last whatever the direction; ties keep their order.
      if ((a.text === '') !== (b.text === '')) return a.text === '' ? 1 : -1;
      return sign * a.text.localeCompare(b.text) || a.n - b.n;
    })
    .map((x) => x.l);
}
