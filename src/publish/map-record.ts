/**
 * One work record -> its publication rows, in the column order of the table definition: one row
 * per language for translatable tables (`lang` column), one row otherwise. Pure: the caller hands
 * in the record, the records reached through `via` columns and the inbound locators; nothing here
 * reads a database, so the shapes are tested without one.
 *
 * Languages: a translatable table gets a row for each map language in which at least one of its
 * translatable text columns has a value of its own (the first map language when none has any). A
 * value missing in a row's language falls back to the first map language that has one (map
 * `fallback: "first"`, Dédalo's default-language fallback) or stays NULL (`"none"`).
 * Untranslatable values are repeated in every language row.
 */
import { secondsOfTimeCode } from '../common/text/time-code.js';
import type { Cell, Row, TableDef } from '../demo/dataset.js';
import type { Ontology } from '../work/ontology/load-ontology.js';
import { NO_LANG } from '../work/ontology/load-ontology.js';
import { componentItems, type MatrixRow } from '../work/store/record-rows.js';
import type { ColumnMap, PublicationMap, TableMap } from './publication-map-schema.js';

export interface PublishLocator {
  section_tipo: string;
  section_id: number | string;
}

export interface MapInputs {
  /** The record a `via` relation's first locator points at, when it exists. */
  viaRecord(locator: PublishLocator): MatrixRow | undefined;
  /** Locators of the published records pointing at this record (dd_relations). */
  inbound(sectionTipo: string, sectionId: number): readonly PublishLocator[];
}

/** A record that cannot be mapped; the run reports it with the record and goes on. */
export class RecordMapError extends Error {
  constructor(
    readonly sectionTipo: string,
    readonly sectionId: number,
    reason: string,
  ) {
    super(`${sectionTipo} ${sectionId}: ${reason}`);
    this.name = 'RecordMapError';
  }
}

const YES = 1;
const YES_NO_SECTION = 'dd64';

interface Item {
  lang?: unknown;
  value?: unknown;
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Item => v !== null && typeof v === 'object' && !Array.isArray(v);

function itemsOf(ontology: Ontology, row: MatrixRow, tipo: string): Item[] {
  const column = ontology.dataColumnOf(tipo);
  if (!column) return [];
  return componentItems(row, column, tipo).filter(isObject);
}

function locatorId(loc: Item): number | undefined {
  const id = typeof loc.section_id === 'string' ? Number(loc.section_id) : loc.section_id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** Whether a record is marked publishable (no `publishable` component in the map: every record). */
export function isPublishable(ontology: Ontology, table: TableMap, row: MatrixRow): boolean {
  if (!table.publishable) return true;
  return itemsOf(ontology, row, table.publishable).some(
    (loc) => loc.section_tipo === YES_NO_SECTION && locatorId(loc) === YES,
  );
}

function textIn(items: readonly Item[], lang: string): string | null {
  const values = items
    .filter((i) => i.lang === lang && typeof i.value === 'string' && i.value !== '')
    .map((i) => i.value as string);
  return values.length > 0 ? values.join(' | ') : null;
}

const pad = (n: unknown) => String(n).padStart(2, '0');

function dateText(item: Item | undefined): string | null {
  const start = item && isObject(item.start) ? item.start : undefined;
  if (!start || typeof start.year !== 'number') return null;
  const year = String(start.year).padStart(4, '0');
  if (typeof start.month !== 'number') return year;
  if (typeof start.day !== 'number') return `${year}-${pad(start.month)}`;
  return `${year}-${pad(start.month)}-${pad(start.day)}`;
}

/** A number, a numeric string, or a time code (`00:00:12` is 12: a duration typed or read from the file). */
function numberOf(item: Item | undefined): number | null {
  const v = item?.value;
  const n = typeof v === 'string' && v.trim() !== '' ? (secondsOfTimeCode(v) ?? Number(v)) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function mediaPath(item: Item | undefined): string | null {
  const v = item?.value;
  if (typeof v === 'string') return v;
  if (isObject(v) && typeof v.path === 'string') return v.path;
  return null;
}

const json = (values: readonly unknown[]): string | null =>
  values.length > 0 ? JSON.stringify(values) : null;

function relationCell(kind: ColumnMap['value'], items: readonly Item[]): Cell {
  const locators = items.filter((l) => typeof l.section_tipo === 'string' && locatorId(l) !== undefined);
  switch (kind) {
    case 'ids':
      return json(locators.map((l) => locatorId(l)));
    case 'locators':
      return json(locators.map((l) => ({ section_tipo: l.section_tipo, section_id: locatorId(l) })));
    case 'term_ids': {
      const ids = locators.map((l) => `${l.section_tipo}_${locatorId(l)}`);
      return ids.length === 1 ? ids[0]! : json(ids);
    }
    default: {
      // indexation: the keys the publication's indexation search reads, in a fixed order.
      return json(
        locators.map((l) => {
          const out: Record<string, unknown> = {
            type: l.type ?? 'dd96',
            tag_id: l.tag_id ?? null,
            section_tipo: l.section_tipo,
            section_id: locatorId(l),
            component_tipo: l.tag_component_tipo ?? l.component_tipo ?? null,
          };
          if (l.section_top_tipo !== undefined) out.section_top_tipo = l.section_top_tipo;
          if (l.section_top_id !== undefined) out.section_top_id = l.section_top_id;
          return out;
        }),
      );
    }
  }
}

export interface MappedRecord {
  table: TableDef;
  sectionId: number;
  /** Empty when the record is not publishable: its rows are removed. */
  rows: Row[];
}

export class RecordMapper {
  constructor(
    private readonly ontology: Ontology,
    private readonly map: PublicationMap,
  ) {}

  private sourceOf(row: MatrixRow, column: ColumnMap, inputs: MapInputs): MatrixRow | undefined {
    if (!column.via) return row;
    const first = itemsOf(this.ontology, row, column.via)[0];
    if (!first || locatorId(first) === undefined || typeof first.section_tipo !== 'string') return undefined;
    return inputs.viaRecord({ section_tipo: first.section_tipo, section_id: locatorId(first)! });
  }

  private isTranslatable(column: ColumnMap): boolean {
    return column.value === 'text' && this.ontology.node(column.component!)?.translatable === true;
  }

  /** The text of a column in `lang`, with the map's fallback. */
  private text(items: readonly Item[], column: ColumnMap, lang: string | null): string | null {
    if (!this.isTranslatable(column)) return textIn(items, NO_LANG);
    if (lang) {
      const own = textIn(items, lang);
      if (own !== null || this.map.fallback === 'none') return own;
    }
    for (const l of this.map.languages) {
      const value = textIn(items, l);
      if (value !== null) return value;
    }
    return null;
  }

  private cell(row: MatrixRow, column: ColumnMap, lang: string | null, inputs: MapInputs): Cell {
    if (column.value === 'section_term_id') return `${row.section_tipo}_${row.section_id}`;
    const source = this.sourceOf(row, column, inputs);
    if (!source) return null;
    const items = itemsOf(this.ontology, source, column.component!);
    switch (column.value) {
      case 'text':
        return this.text(items, column, lang);
      case 'number':
        return numberOf(items[0]);
      case 'date':
        return dateText(items[0]);
      case 'media':
        return mediaPath(items[0]);
      default:
        return relationCell(column.value, items);
    }
  }

  /** The languages a translatable table writes this record in. */
  private languagesOf(table: TableMap, row: MatrixRow, inputs: MapInputs): string[] {
    const own = new Set<string>();
    for (const column of table.columns) {
      if (!this.isTranslatable(column)) continue;
      const source = this.sourceOf(row, column, inputs);
      if (!source) continue;
      for (const item of itemsOf(this.ontology, source, column.component!)) {
        if (typeof item.lang === 'string' && typeof item.value === 'string' && item.value !== '')
          own.add(item.lang);
      }
    }
    const langs = this.map.languages.filter((l) => own.has(l));
    return langs.length > 0 ? langs : [this.map.languages[0]!];
  }

  mapRecord(table: TableMap, def: TableDef, row: MatrixRow, inputs: MapInputs): MappedRecord {
    const sectionId = row.section_id;
    if (!isPublishable(this.ontology, table, row)) return { table: def, sectionId, rows: [] };
    try {
      const langs: (string | null)[] = table.translatable ? this.languagesOf(table, row, inputs) : [null];
      const relations = table.dd_relations ? json(inputs.inbound(row.section_tipo, sectionId)) : null;
      const rows = langs.map((lang) => {
        const out: Cell[] = [sectionId];
        if (table.translatable) out.push(lang);
        for (const column of table.columns) out.push(this.cell(row, column, lang, inputs));
        if (table.dd_relations) out.push(relations);
        return out;
      });
      return { table: def, sectionId, rows };
    } catch (err) {
      throw new RecordMapError(row.section_tipo, sectionId, (err as Error).message);
    }
  }
}
