/**
 * Indexing a record with thesaurus terms (docs/work-api.md, `dd_component_text_area_api`).
 *
 * An indexation lives in two places (the Dédalo model): the index marks around a passage of a
 * transcription (`[index-n-<tag_id>-…]` … `[/index-n-<tag_id>-…]`) and one locator per term in the
 * term's indexation component (component_relation_index, hierarchy40 by default), type dd96,
 * naming the transcription's record, the text component (`tag_component_tipo`) and the tag id.
 * A whole record (an interview) is indexed by a locator with no tag. Both sides are written here
 * in the caller's transaction, each through the one component save (records/save-component.ts),
 * so every write has its history and activity rows and a failure leaves neither side.
 *
 * `setIndexationIn` makes the terms holding the indexation exactly `terms`: locators are added to
 * the new terms and removed from the terms no longer named; with `text` the text component is
 * written too (its tags must agree: both marks present when terms remain, none when none do).
 */

import { parseTags } from '../../common/text/tag-grammar.js';
import { assertCan, PermissionDenied, type UserAccess } from '../auth/permissions.js';
import type { ChangeObject } from '../components/apply-changes.js';
import {
  type ComponentSpec,
  componentSpec,
  invalidValue,
  type Locator,
} from '../components/component-values.js';
import { WorkError } from '../dispatch/error-registry.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import { rowInScope } from '../read/page-builder.js';
import { checkedTable, componentItems, readRecord, recordsPointingAt } from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { saveComponentIn } from './save-component.js';

export const INDEX_RELATION_TYPE = 'dd96';

/** Where the indexation points: a passage of a text component, or (no tag) the whole record. */
export interface IndexTarget {
  key: RecordKey;
  /** The record holding `key` (the interview of a recording), written as section_top_* of the locator. */
  top?: RecordKey;
  /** The text component holding the tags (absent: the whole record). */
  textTipo?: string;
  tagId?: number;
}

export interface SetIndexationArgs {
  target: IndexTarget;
  /** The terms that must hold the indexation afterwards (section_tipo, section_id). */
  terms: readonly RecordKey[];
  /** The text component's new value in `lang`, when the marks change (add or remove a passage). */
  text?: { value: string; lang: string; expectedVersion?: number };
  access: UserAccess;
  now: Date;
}

export interface SetIndexationOutcome {
  added: RecordKey[];
  removed: RecordKey[];
  /** The text component's version after the write (when it was written). */
  textVersion?: number;
}

/** The index marks of `tagId` in a text: how many openings and closings, and their order. */
export function indexMarks(text: string, tagId: number): { open: number; close: number; ordered: boolean } {
  let open = 0;
  let close = 0;
  let ordered = true;
  for (const tag of parseTags(text)) {
    if ((tag.kind !== 'index-open' && tag.kind !== 'index-close') || tag.tagId !== tagId) continue;
    if (tag.kind === 'index-open') open += 1;
    else {
      close += 1;
      if (open < close) ordered = false;
    }
  }
  return { open, close, ordered };
}

/** The next free tag id of a text component (every language): one more than the highest index mark. */
export function nextTagId(texts: readonly string[]): number {
  let max = 0;
  for (const text of texts) {
    for (const tag of parseTags(text)) {
      if ((tag.kind === 'index-open' || tag.kind === 'index-close') && tag.tagId > max) max = tag.tagId;
    }
  }
  return max + 1;
}

/** The indexation component of a thesaurus section (its first component_relation_index). */
export function indexComponentOf(ontology: Ontology, sectionTipo: string): ComponentSpec | undefined {
  const node = ontology.sectionComponents(sectionTipo).find((n) => n.model === 'component_relation_index');
  return node ? componentSpec(ontology, node) : undefined;
}

const sameTarget = (l: Locator, target: IndexTarget): boolean =>
  l.section_tipo === target.key.section_tipo &&
  Number(l.section_id) === target.key.section_id &&
  (target.tagId === undefined
    ? l.tag_id === undefined || l.tag_id === null || l.tag_id === ''
    : String(l.tag_id) === String(target.tagId) &&
      (l.tag_component_tipo ?? l.component_tipo) === target.textTipo);

/** The locator an indexation of `target` puts in a term's indexation component. */
function locatorFor(target: IndexTarget): Record<string, unknown> {
  return {
    type: INDEX_RELATION_TYPE,
    section_tipo: target.key.section_tipo,
    section_id: target.key.section_id,
    ...(target.tagId !== undefined
      ? { tag_id: String(target.tagId), tag_component_tipo: target.textTipo, component_tipo: target.textTipo }
      : {}),
    ...(target.top
      ? { section_top_tipo: target.top.section_tipo, section_top_id: target.top.section_id }
      : {}),
  };
}

/**
 * The record that holds `key` through a portal (the interview whose audiovisual field links the
 * recording): the first, by section order then id. Undefined when none does.
 */
export async function topRecordOf(
  db: SqlQueryable,
  ontology: Ontology,
  key: RecordKey,
): Promise<RecordKey | undefined> {
  for (const section of ontology.sections()) {
    if (section.tipo === key.section_tipo) continue;
    const portals = ontology
      .sectionComponents(section.tipo)
      .filter(
        (c) => c.model === 'component_portal' && (c.target_section_tipo ?? []).includes(key.section_tipo),
      )
      .map((c) => c.tipo);
    const table = ontology.tableOf(section.tipo);
    if (portals.length === 0 || !table) continue;
    const rows = (await recordsPointingAt(db, checkedTable(table), key, portals))
      .filter((r) => r.section_tipo === section.tipo)
      .sort((a, b) => Number(a.section_id) - Number(b.section_id));
    if (rows[0]) return { section_tipo: section.tipo, section_id: Number(rows[0].section_id) };
  }
  return undefined;
}

/** One term's locators into a record (its indexation component's items that name the record). */
export interface TermIndexation {
  key: RecordKey;
  spec: ComponentSpec;
  locators: Locator[];
}

/**
 * Every term (of every section with an indexation component that may point at `key`'s section)
 * holding a locator into the record `key`, with those locators. `lock`: the term rows are locked
 * for update, so two indexings of the same record are serialised.
 */
export async function termsIndexingRecord(
  db: SqlQueryable,
  ontology: Ontology,
  key: RecordKey,
  lock: boolean,
): Promise<TermIndexation[]> {
  const found: TermIndexation[] = [];
  for (const section of ontology.sections()) {
    const spec = indexComponentOf(ontology, section.tipo);
    if (!spec || (spec.targets.length > 0 && !spec.targets.includes(key.section_tipo))) continue;
    const table = checkedTable(ontology.tableOf(section.tipo)!);
    // A section_id stored as a string (PHP wrote them so) is matched too.
    const probes = [key.section_id, String(key.section_id)].map((id) =>
      JSON.stringify([{ section_tipo: key.section_tipo, section_id: id }]),
    );
    const { rows } = await db.query<{ section_id: number; items: Locator[] }>(
      `SELECT section_id, relation -> $2 AS items FROM ${table}
        WHERE section_tipo = $1 AND (relation -> $2 @> $3::jsonb OR relation -> $2 @> $4::jsonb)
        ORDER BY section_id${lock ? ' FOR UPDATE' : ''}`,
      [section.tipo, spec.tipo, probes[0], probes[1]],
    );
    for (const row of rows) {
      const locators = (Array.isArray(row.items) ? row.items : []).filter(
        (l) => l.section_tipo === key.section_tipo && Number(l.section_id) === key.section_id,
      );
      found.push({ key: { section_tipo: section.tipo, section_id: Number(row.section_id) }, spec, locators });
    }
  }
  return found;
}

/** The terms holding a locator of `target` (the passage's tag, or the whole record), with its item ids. */
async function termsIndexing(
  tx: SqlQueryable,
  ontology: Ontology,
  target: IndexTarget,
): Promise<{ key: RecordKey; spec: ComponentSpec; ids: number[] }[]> {
  return (await termsIndexingRecord(tx, ontology, target.key, true))
    .map((t) => ({
      key: t.key,
      spec: t.spec,
      ids: t.locators
        .filter((l) => sameTarget(l, target))
        .map((l) => l.id)
        .filter((n): n is number => typeof n === 'number'),
    }))
    .filter((t) => t.ids.length > 0);
}

const keyOf = (k: RecordKey) => `${k.section_tipo}\u0000${k.section_id}`;

/** Checks the terms named: known thesaurus sections with an indexation component that takes the target. */
function termSpecs(ontology: Ontology, target: IndexTarget, terms: readonly RecordKey[]) {
  return terms.map((term, n) => {
    const spec = indexComponentOf(ontology, term.section_tipo);
    if (!spec) {
      throw new WorkError(
        'rqo.invalid_field',
        `data.terms[${n}].section_tipo "${term.section_tipo.slice(0, 64)}" has no indexation component (component_relation_index)`,
      );
    }
    if (spec.targets.length > 0 && !spec.targets.includes(target.key.section_tipo)) {
      throw new WorkError(
        'validation.locator_target',
        `${spec.tipo} (${spec.model}) of ${term.section_tipo} indexes only ${spec.targets.join(', ')}, not ${target.key.section_tipo}`,
      );
    }
    return { key: term, spec };
  });
}

/** The rights check of one component write: level 2 on it and the record in the caller's projects. */
function scopeGuard(ontology: Ontology, access: UserAccess, key: RecordKey) {
  return (row: Parameters<typeof rowInScope>[2]) => {
    if (!rowInScope(ontology, access, row)) {
      throw new PermissionDenied(access.userId, 'project_scope', key.section_tipo);
    }
  };
}

/** The text without the marks of `tagId`. */
export function withoutMarks(text: string, tagId: number): string {
  let out = '';
  let at = 0;
  for (const tag of parseTags(text)) {
    if ((tag.kind === 'index-open' || tag.kind === 'index-close') && tag.tagId === tagId) {
      out += text.slice(at, tag.start);
      at = tag.end;
    }
  }
  return out + text.slice(at);
}

/** Removes the marks of a removed indexation from every language of the text still holding them. */
async function stripMarksElsewhere(
  tx: SqlQueryable,
  ontology: Ontology,
  target: IndexTarget,
  textSpec: ComponentSpec,
  args: SetIndexationArgs,
  outcome: SetIndexationOutcome,
) {
  const tagId = target.tagId!;
  const row = await readRecord(tx, checkedTable(ontology.tableOf(target.key.section_tipo)!), target.key);
  const items = (row ? componentItems(row, textSpec.column, textSpec.tipo) : []) as {
    id?: number;
    lang?: string;
    value?: unknown;
  }[];
  for (const item of items) {
    if (typeof item.value !== 'string' || item.id === undefined) continue;
    const marks = indexMarks(item.value, tagId);
    if (marks.open === 0 && marks.close === 0) continue;
    assertCan(args.access, 'save', target.key.section_tipo, textSpec.tipo);
    const saved = await saveComponentIn(tx, ontology, {
      key: target.key,
      spec: textSpec,
      lang: textSpec.translatable ? (item.lang ?? NO_LANG) : NO_LANG,
      changes: [{ action: 'update', id: item.id, value: withoutMarks(item.value, tagId) }],
      userId: args.access.userId,
      projectIds: args.access.projectIds,
      assertRow: scopeGuard(ontology, args.access, target.key),
      now: args.now,
    });
    outcome.textVersion = saved.row.versions?.[textSpec.tipo];
  }
}

/** Runs in the caller's transaction; see the module comment. */
export async function setIndexationIn(
  tx: SqlQueryable,
  ontology: Ontology,
  args: SetIndexationArgs,
): Promise<SetIndexationOutcome> {
  const { target, access, now } = args;
  const wanted = termSpecs(ontology, target, args.terms);
  // The indexed record: it exists and the caller may read it (its project scope).
  const table = checkedTable(ontology.tableOf(target.key.section_tipo)!);
  const row = await readRecord(tx, table, target.key, { forUpdate: true });
  if (!row) {
    throw new WorkError(
      'resource.not_found',
      `${target.key.section_tipo} ${target.key.section_id} does not exist`,
    );
  }
  scopeGuard(ontology, access, target.key)(row);

  const outcome: SetIndexationOutcome = { added: [], removed: [] };
  // A passage of a recording names the interview that holds it too (publication groups by it).
  const located: IndexTarget =
    target.tagId !== undefined && !target.top
      ? { ...target, ...(await topRecordOf(tx, ontology, target.key).then((top) => (top ? { top } : {}))) }
      : target;
  if (target.textTipo !== undefined && target.tagId !== undefined) {
    const textNode = ontology.node(target.textTipo)!;
    const textSpec = componentSpec(ontology, textNode);
    const keep = wanted.length > 0;
    if (args.text) {
      const marks = indexMarks(args.text.value, target.tagId);
      if (keep && (marks.open !== 1 || marks.close !== 1 || !marks.ordered)) {
        throw invalidValue(
          textSpec,
          `data.value must mark the passage once: [index-n-${target.tagId}-…] before [/index-n-${target.tagId}-…] (found ${marks.open} opening and ${marks.close} closing)`,
        );
      }
      if (!keep && (marks.open > 0 || marks.close > 0)) {
        throw invalidValue(
          textSpec,
          `data.value still holds the marks of tag ${target.tagId}: an indexation without terms is removed from the text too`,
        );
      }
      assertCan(access, 'save', target.key.section_tipo, textSpec.tipo);
      const lang = textSpec.translatable ? args.text.lang : NO_LANG;
      const current = (
        componentItems(row, textSpec.column, textSpec.tipo) as { id?: number; lang?: string }[]
      ).find((i) => !textSpec.translatable || i.lang === lang);
      const change: ChangeObject =
        current?.id !== undefined
          ? { action: 'update', id: current.id, value: args.text.value }
          : { action: 'insert', value: args.text.value };
      const saved = await saveComponentIn(tx, ontology, {
        key: target.key,
        spec: textSpec,
        lang,
        changes: [change],
        userId: access.userId,
        projectIds: access.projectIds,
        assertRow: scopeGuard(ontology, access, target.key),
        ...(args.text.expectedVersion !== undefined ? { expectedVersion: args.text.expectedVersion } : {}),
        now,
      });
      outcome.textVersion = saved.row.versions?.[textSpec.tipo];
    }
    if (!keep) {
      // A tag id is shared by the translations of the text: a removed indexation leaves no marks
      // in any language (each language written is its own history row).
      await stripMarksElsewhere(tx, ontology, target, textSpec, args, outcome);
    } else if (!args.text) {
      // Re-pointing a passage: its marks must already be in the text (some language).
      const texts = (componentItems(row, textSpec.column, textSpec.tipo) as { value?: unknown }[]).map((i) =>
        typeof i.value === 'string' ? i.value : '',
      );
      if (!texts.some((t) => indexMarks(t, target.tagId!).open > 0)) {
        throw invalidValue(
          textSpec,
          `${target.key.section_tipo} ${target.key.section_id} has no passage marked with tag ${target.tagId}: send data.value with its marks`,
        );
      }
    }
  }

  const current = await termsIndexing(tx, ontology, target);
  const wantedKeys = new Set(wanted.map((w) => keyOf(w.key)));
  const currentKeys = new Set(current.map((c) => keyOf(c.key)));
  // A fixed order (by key): two indexings touching the same terms lock them in the same order.
  const work = [
    ...current
      .filter((c) => !wantedKeys.has(keyOf(c.key)))
      .map((c) => ({
        key: c.key,
        spec: c.spec,
        changes: c.ids.map((id): ChangeObject => ({ action: 'remove', id, value: null })),
        removed: true,
      })),
    ...wanted
      .filter(
        (w, i, all) =>
          !currentKeys.has(keyOf(w.key)) && all.findIndex((o) => keyOf(o.key) === keyOf(w.key)) === i,
      )
      .map((w) => ({
        key: w.key,
        spec: w.spec,
        changes: [{ action: 'insert', value: locatorFor(located) } as ChangeObject],
        removed: false,
      })),
  ].sort((a, b) => (keyOf(a.key) < keyOf(b.key) ? -1 : 1));
  for (const step of work) {
    assertCan(access, 'save', step.key.section_tipo, step.spec.tipo);
    await saveComponentIn(tx, ontology, {
      key: step.key,
      spec: step.spec,
      lang: NO_LANG,
      changes: step.changes,
      userId: access.userId,
      projectIds: access.projectIds,
      assertRow: scopeGuard(ontology, access, step.key),
      now,
    });
    (step.removed ? outcome.removed : outcome.added).push(step.key);
  }
  return outcome;
}
