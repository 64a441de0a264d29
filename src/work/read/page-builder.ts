/**
 * Builds the `{context, data}` of a read from matrix rows: one data item per record and shown
 * component, the portals' target records resolved one level with their own items and contexts,
 * and a `datalist` for value-list components. The cost is fixed per page: one statement per
 * (portal, target section) and one per value-list section, never one per record.
 *
 * Entries: literal items of the data language for translatable components (in list mode, when a
 * record has none in that language, the items of the first language it has, so a row is never
 * blank), every item otherwise; locators with `paginated_key` and a `pagination` for relations;
 * password values never (`[]`). Every item carries the component's `version` (records/stale-write.ts):
 * a save naming it is refused if the component has changed since.
 */
import { isGlobalAdmin, locatorIds, locatorSectionId, type UserAccess } from '../auth/permissions.js';
import { PERMISSION_TIPOS, projectFilterTipoOf } from '../auth/permissions-store.js';
import {
  DATALIST_MODELS,
  dataLangOf,
  ddoContext,
  labelOf,
  listColumns,
  PORTAL_LIMIT,
  PORTAL_MODELS,
  portalColumns,
} from '../context/element-context.js';
import {
  COMPONENT_MODELS,
  isComponentModel,
  isUnimplementedComponent,
} from '../ontology/component-models.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import type { DataColumn } from '../store/matrix-tables.js';
import {
  componentItems,
  componentVersion,
  type MatrixRow,
  readShownRecords,
  type ShownRow,
} from '../store/record-rows.js';
import type { SqlQueryable } from '../store/sql-client.js';
import type { ContextEntry, DataItem, Ddo, Pagination, ReadResult } from './read-types.js';

/** Options of a value list offered in a datalist (a yes/no list, the profiles, the projects). */
const DATALIST_MAX = 500;

export interface PageOptions {
  mode: string;
  /** The data language. */
  lang: string;
  /** The language of labels (the session's application language); the data language if absent. */
  labelLang?: string;
}

type Locator = { section_tipo?: unknown; section_id?: unknown; [k: string]: unknown };

const locatorId = (l: Locator) => locatorSectionId(l);

/** Whether a row is inside the caller's projects (the same rule as the search scope, in memory). */
export function rowInScope(ontology: Ontology, access: UserAccess, row: ShownRow): boolean {
  if (!access.active) return false;
  if (isGlobalAdmin(access)) return true;
  const filterTipo = projectFilterTipoOf(ontology, row.section_tipo);
  if (!filterTipo) return true;
  const projects = new Set(access.projectIds);
  return locatorIds(componentItems(row, 'relation', filterTipo), PERMISSION_TIPOS.projectSection).some((id) =>
    projects.has(id),
  );
}

/** A component's entries as a read shows them (see the module comment). */
export function componentEntries(node: OntologyNode, row: ShownRow, lang: string, mode: string): unknown[] {
  // A model not implemented here: whatever is stored under its tipo, untouched.
  if (isUnimplementedComponent(node.model)) return componentItems(row, 'misc', node.tipo);
  if (!isComponentModel(node.model)) return [];
  if (node.model === 'component_password') return [];
  const items = componentItems(row, COMPONENT_MODELS[node.model].column, node.tipo);
  if (COMPONENT_MODELS[node.model].relation || node.translatable !== true) return items;
  const slice = items.filter((i) => (i as { lang?: unknown }).lang === lang);
  if (slice.length > 0 || mode !== 'list') return slice;
  const first = (items[0] as { lang?: unknown } | undefined)?.lang;
  return first === undefined ? [] : items.filter((i) => (i as { lang?: unknown }).lang === first);
}

/**
 * The data columns a page reads of a section's records: those of the components `ddos` show
 * there, and the relation column (the project filter that keeps records in scope).
 */
export function shownColumns(ontology: Ontology, sectionTipo: string, ddos: readonly Ddo[]): Set<DataColumn> {
  const columns = new Set<DataColumn>(['relation']);
  for (const ddo of ddos) {
    if (ddo.section_tipo !== sectionTipo && ddo.section_tipo !== 'self') continue;
    const node = ontology.node(ddo.tipo);
    if (!node) continue;
    if (isUnimplementedComponent(node.model)) columns.add('misc');
    else if (isComponentModel(node.model)) columns.add(COMPONENT_MODELS[node.model].column);
  }
  return columns;
}

/** One page of a relation's locators, numbered by `paginated_key` across pages. */
export function relationPage(
  items: readonly unknown[],
  page: { limit: number; offset: number },
): { entries: unknown[]; pagination: Pagination } {
  const entries = items
    .slice(page.offset, page.offset + page.limit)
    .map((l, i) => ({ ...(l as object), paginated_key: page.offset + i }));
  return { entries, pagination: { total: items.length, limit: page.limit, offset: page.offset } };
}

/**
 * A list record's text when its label component holds none: the first text it stores under any
 * component (in `lang`, else any), so options written under another ontology's label component
 * (the yes/no list bootstrapped with this project's dd62, then Dédalo's `dd` imported) keep a
 * readable label.
 */
function storedText(row: MatrixRow, lang: string): string | undefined {
  const items = Object.values((row.string ?? {}) as Record<string, unknown>).flatMap((v) =>
    Array.isArray(v) ? (v as { lang?: unknown; value?: unknown }[]) : [],
  );
  const text = (i: { value?: unknown }) => typeof i.value === 'string' && i.value !== '';
  const found = items.find((i) => i.lang === lang && text(i)) ?? items.find(text);
  return found?.value as string | undefined;
}

export class PageBuilder {
  private readonly contexts = new Map<string, ContextEntry>();
  private readonly items: DataItem[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly db: SqlQueryable,
    private readonly ontology: Ontology,
    private readonly access: UserAccess,
    private readonly options: PageOptions,
  ) {}

  /** Adds a context entry once per (section_tipo, tipo, mode). */
  addContext(entry: ContextEntry | undefined): void {
    if (!entry) return;
    const key = `${entry.section_tipo}\u0000${entry.tipo}\u0000${entry.mode}`;
    if (!this.contexts.has(key)) this.contexts.set(key, entry);
  }

  addItem(item: DataItem): void {
    const key = `${item.section_tipo}\u0000${item.section_id}\u0000${item.tipo}\u0000${item.from_component_tipo}\u0000${item.lang}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(item);
  }

  /**
   * The items of `rows` (records of one section) for the ddos shown directly under the section,
   * then each portal's targets. `pageOf` gives a relation component's page (default: first page
   * of PORTAL_LIMIT); `parent` marks the records as targets of a portal of another record.
   */
  async addRecords(
    sectionTipo: string,
    rows: readonly ShownRow[],
    ddoMap: readonly Ddo[],
    extra: {
      pageOf?: (tipo: string) => { limit: number; offset: number };
      parent?: { tipo: string; sectionIdOf: (row: ShownRow) => number | undefined };
      /** Relation components read in full ("get_data" of a component), else paginated. */
    } = {},
  ): Promise<void> {
    const { mode, lang } = this.options;
    const top = ddoMap.filter(
      (d) =>
        (d.section_tipo === sectionTipo || d.section_tipo === 'self') &&
        (d.parent === 'self' || d.parent === sectionTipo || d.parent === extra.parent?.tipo),
    );
    const targets = new Map<
      string,
      { portal: OntologyNode; locators: Map<string, { l: Locator; owner: number }> }
    >();
    const valueLists = new Set<string>();
    for (const ddo of top) {
      const node = this.ontology.node(ddo.tipo);
      if (!node || !(isComponentModel(node.model) || isUnimplementedComponent(node.model))) continue;
      if (this.access.level(sectionTipo, node.tipo) < 1) continue;
      const ddoMode = ddo.mode ?? mode;
      this.addContext(
        ddoContext(
          this.ontology,
          this.access,
          { ...ddo, section_tipo: sectionTipo },
          { mode: ddoMode, lang, ...(this.options.labelLang ? { labelLang: this.options.labelLang } : {}) },
        ),
      );
      const relation = isComponentModel(node.model) && COMPONENT_MODELS[node.model].relation;
      if (DATALIST_MODELS.has(node.model)) for (const t of node.target_section_tipo ?? []) valueLists.add(t);
      for (const row of rows) {
        const entries = componentEntries(node, row, lang, ddoMode);
        const item: DataItem = {
          tipo: node.tipo,
          section_tipo: sectionTipo,
          section_id: Number(row.section_id),
          mode: ddoMode,
          lang: dataLangOf(node, lang),
          from_component_tipo: extra.parent?.tipo ?? node.tipo,
          entries,
          version: componentVersion(row, node.tipo),
        };
        if (extra.parent) {
          item.parent_tipo = extra.parent.tipo;
          const owner = extra.parent.sectionIdOf(row);
          if (owner !== undefined) item.parent_section_id = owner;
        }
        if (relation) {
          const page = extra.pageOf?.(node.tipo) ?? { limit: PORTAL_LIMIT, offset: 0 };
          const { entries: pageEntries, pagination } = relationPage(entries, page);
          item.entries = pageEntries;
          item.pagination = pagination;
          if (PORTAL_MODELS.has(node.model) && !extra.parent) {
            let group = targets.get(node.tipo);
            if (!group) {
              group = { portal: node, locators: new Map() };
              targets.set(node.tipo, group);
            }
            for (const l of pageEntries as Locator[]) {
              const id = locatorId(l);
              if (typeof l.section_tipo === 'string' && id !== undefined) {
                group.locators.set(`${l.section_tipo}\u0000${id}`, { l, owner: Number(row.section_id) });
              }
            }
          }
        }
        this.addItem(item);
      }
    }
    if (valueLists.size > 0) await this.addDatalists(sectionTipo, top, valueLists);
    for (const { portal, locators } of targets.values()) {
      await this.addPortalTargets(portal, [...locators.values()], ddoMap);
    }
  }

  /** One statement per target section of a portal; the columns come from the ddo_map or the default. */
  private async addPortalTargets(
    portal: OntologyNode,
    locators: { l: Locator; owner: number }[],
    ddoMap: readonly Ddo[],
  ): Promise<void> {
    const given = ddoMap.filter((d) => d.parent === portal.tipo);
    const columns = given.length > 0 ? given : portalColumns(this.ontology, portal);
    const bySection = new Map<string, { ids: number[]; owners: Map<number, number> }>();
    for (const { l, owner } of locators) {
      const st = l.section_tipo as string;
      if (!(portal.target_section_tipo ?? []).includes(st)) continue;
      if (this.access.level(st, st) < 1) continue;
      const group = bySection.get(st) ?? { ids: [] as number[], owners: new Map<number, number>() };
      const id = locatorId(l)!;
      group.ids.push(id);
      group.owners.set(id, owner);
      bySection.set(st, group);
    }
    for (const [st, { ids, owners }] of bySection) {
      const table = this.ontology.tableOf(st);
      if (!table) continue;
      const shown = columns.filter((c) => c.section_tipo === st).map((c) => ({ ...c, parent: portal.tipo }));
      const rows = (
        await readShownRecords(this.db, table, st, ids, shownColumns(this.ontology, st, shown))
      ).filter((r) => rowInScope(this.ontology, this.access, r));
      await this.addRecords(st, rows, shown, {
        parent: { tipo: portal.tipo, sectionIdOf: (r) => owners.get(Number(r.section_id)) },
      });
    }
  }

  /** `datalist` on every value-list item: the target section's records with their labels. */
  private async addDatalists(
    sectionTipo: string,
    ddos: readonly Ddo[],
    sections: Set<string>,
  ): Promise<void> {
    const lists = new Map<string, unknown[]>();
    for (const st of sections) lists.set(st, await this.datalistOf(st));
    // One datalist per component, shared by its items on the page (they are the same options).
    const byComponent = new Map<string, unknown[]>();
    for (const ddo of ddos) {
      const node = this.ontology.node(ddo.tipo);
      if (!node || !DATALIST_MODELS.has(node.model) || byComponent.has(node.tipo)) continue;
      byComponent.set(
        node.tipo,
        (node.target_section_tipo ?? []).flatMap((t) =>
          (lists.get(t) ?? []).map((o) => ({ ...(o as object), from_component_tipo: node.tipo })),
        ),
      );
    }
    for (const item of this.items) {
      if (item.section_tipo !== sectionTipo) continue;
      const datalist = byComponent.get(item.tipo);
      if (datalist) item.datalist = datalist;
    }
  }

  private async datalistOf(sectionTipo: string): Promise<unknown[]> {
    const table = this.ontology.tableOf(sectionTipo);
    if (!table || this.access.level(sectionTipo, sectionTipo) < 1) return [];
    const { rows } = await this.db.query<MatrixRow>(
      `SELECT section_tipo, section_id, string, relation, date, number, media, misc, meta
       FROM ${table} WHERE section_tipo = $1 AND section_id > 0 ORDER BY section_id LIMIT ${DATALIST_MAX}`,
      [sectionTipo],
    );
    const labelColumn = listColumns(this.ontology, sectionTipo)[0];
    return rows.map((row) => {
      const entries = labelColumn ? componentEntries(labelColumn, row, this.options.lang, 'list') : [];
      const value = (entries[0] as { value?: unknown } | undefined)?.value;
      return {
        value: { section_tipo: sectionTipo, section_id: Number(row.section_id) },
        label:
          typeof value === 'string' ? value : (storedText(row, this.options.lang) ?? String(row.section_id)),
        section_id: Number(row.section_id),
      };
    });
  }

  result(): ReadResult {
    return { context: [...this.contexts.values()], data: this.items };
  }

  /** The data items so far (to put a `sections` item before them, say). */
  get dataItems(): DataItem[] {
    return this.items;
  }

  labelFor(node: OntologyNode): string {
    return labelOf(node, this.options.labelLang ?? this.options.lang);
  }
}
