/**
 * A component's value as a person reads it in a spreadsheet (the plain CSV export): text in the
 * data language (the list's fallback when it has none there), numbers as written, dates as
 * YYYY-MM-DD (only the known parts; a range as `start/end`, ISO 8601's interval), relations and
 * value lists (yes/no) as the target record's name (its first list column), media as file names.
 * Several values of one component are joined by ` | `.
 */
import type { UserAccess } from '../auth/permissions.js';
import { locatorSectionId } from '../auth/permissions.js';
import { listColumns } from '../context/element-context.js';
import { COMPONENT_MODELS, isComponentModel } from '../ontology/component-models.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import { componentEntries, rowInScope } from '../read/page-builder.js';
import { checkedTable, componentItems, type MatrixRow, readRecords } from '../store/record-rows.js';
import type { SqlQueryable } from '../store/sql-client.js';

export const VALUE_SEPARATOR = ' | ';

type Item = Record<string, unknown>;

const pad = (n: unknown, width: number) => {
  const v = Number(n);
  const sign = v < 0 ? '-' : '';
  return sign + String(Math.abs(v)).padStart(width, '0');
};

/** One date part as YYYY[-MM[-DD]][ HH:MM[:SS]], only the parts it holds. */
export function formatDatePart(part: unknown): string {
  if (part === null || typeof part !== 'object') return '';
  const d = part as Record<string, unknown>;
  if (typeof d.year !== 'number') return '';
  let text = pad(d.year, 4);
  if (typeof d.month === 'number') {
    text += `-${pad(d.month, 2)}`;
    if (typeof d.day === 'number') text += `-${pad(d.day, 2)}`;
  }
  if (typeof d.hour === 'number') {
    text += ` ${pad(d.hour, 2)}:${pad(d.minute ?? 0, 2)}`;
    if (typeof d.second === 'number') text += `:${pad(d.second, 2)}`;
  }
  return text;
}

function formatDate(item: Item): string {
  const start = formatDatePart(item.start);
  const end = formatDatePart(item.end);
  return end === '' ? start : `${start}/${end}`;
}

const recordKey = (sectionTipo: string, sectionId: number) => `${sectionTipo}\u0000${sectionId}`;

/** The first text a row holds (in `lang`, else any): a name when its label column is empty. */
function anyText(row: MatrixRow, lang: string): string | undefined {
  const items = Object.values(row.string ?? {}).flatMap((v) => (Array.isArray(v) ? (v as Item[]) : []));
  const isText = (i: Item) => typeof i.value === 'string' && i.value !== '';
  return (items.find((i) => i.lang === lang && isText(i)) ?? items.find(isText))?.value as string | undefined;
}

/**
 * The names of the records a page of rows points at, read in one statement per target section.
 * A target the user may not read (section level 0, or a record outside their projects) is
 * named by its id only, as a read shows it.
 */
export async function targetNames(
  db: SqlQueryable,
  ontology: Ontology,
  access: UserAccess,
  rows: readonly MatrixRow[],
  relations: readonly OntologyNode[],
  lang: string,
): Promise<Map<string, string>> {
  const wanted = new Map<string, Set<number>>();
  for (const row of rows) {
    for (const node of relations) {
      for (const item of componentItems(row, 'relation', node.tipo) as Item[]) {
        const id = locatorSectionId(item);
        const st = item.section_tipo;
        if (id === undefined || typeof st !== 'string') continue;
        if (!wanted.has(st)) wanted.set(st, new Set());
        wanted.get(st)!.add(id);
      }
    }
  }
  const names = new Map<string, string>();
  for (const [sectionTipo, ids] of wanted) {
    const table = ontology.tableOf(sectionTipo);
    if (!table || access.level(sectionTipo) < 1) continue;
    const label = listColumns(ontology, sectionTipo)[0];
    for (const target of await readRecords(db, checkedTable(table), sectionTipo, [...ids])) {
      if (!rowInScope(ontology, access, target)) continue;
      const entries = label ? (componentEntries(label, target, lang, 'list') as Item[]) : [];
      const first = entries.find((e) => typeof e.value === 'string' && e.value !== '')?.value;
      const name = typeof first === 'string' ? first : anyText(target, lang);
      if (name !== undefined) names.set(recordKey(sectionTipo, Number(target.section_id)), name);
    }
  }
  return names;
}

/** The cell of one component of one record in the plain export. */
export function displayValue(
  node: OntologyNode,
  row: MatrixRow,
  lang: string,
  names: ReadonlyMap<string, string>,
): string {
  if (!isComponentModel(node.model)) return '';
  const model = COMPONENT_MODELS[node.model];
  if (model.relation) {
    return (componentItems(row, 'relation', node.tipo) as Item[])
      .map((l) => {
        const id = locatorSectionId(l);
        if (id === undefined) return '';
        return names.get(recordKey(String(l.section_tipo), id)) ?? String(id);
      })
      .join(VALUE_SEPARATOR);
  }
  const items = componentEntries(node, row, lang, 'list') as Item[];
  const shown = items.map((item) => {
    switch (model.column) {
      case 'date':
        return formatDate(item);
      case 'media': {
        const v = item.value as Item | undefined;
        return typeof v?.name === 'string' ? v.name : '';
      }
      case 'misc':
        return item.value === undefined ? JSON.stringify(item) : JSON.stringify(item.value);
      default:
        return item.value === null || item.value === undefined ? '' : String(item.value);
    }
  });
  return shown.filter((s) => s !== '').join(VALUE_SEPARATOR);
}
