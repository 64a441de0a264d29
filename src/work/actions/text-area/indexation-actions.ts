/**
 * `dd_component_text_area_api`: indexing a transcription's passages (or a whole record) with
 * thesaurus terms (docs/work-api.md, records/indexation.ts).
 *
 * `set_indexation` makes the terms of one indexation exactly `data.terms`, and with `data.value`
 * writes the text with the passage's marks in the same transaction: add a passage (value with the
 * new marks + terms), re-point it (terms only), remove it (value without the marks + no terms).
 * Without `source.tipo` and `data.tag_id` the whole record is indexed. Needs save rights on the
 * text component (when written) and on each changed term's indexation component; `data.version`
 * (the text's version a read answered) refuses a stale text with 409 `record.stale_write`.
 *
 * `get_indexations` lists a record's indexations: per tag id (null: the whole record) the terms
 * holding it, with their breadcrumbs, and the next free tag id of the text.
 */
import { assertCan, PermissionDenied, type UserAccess } from '../../auth/permissions.js';
import { type ComponentSpec, componentSpec } from '../../components/component-values.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { lockHeldByOther } from '../../locks/component-locks.js';
import { inUseError } from '../../locks/in-use-error.js';
import { NO_LANG } from '../../ontology/load-ontology.js';
import { rowInScope } from '../../read/page-builder.js';
import { allowedLang, sessionLang } from '../../read/read-request.js';
import { type TermNode, termsById, thesaurusShape } from '../../read/thesaurus-tree.js';
import {
  type IndexTarget,
  indexComponentOf,
  nextTagId,
  setIndexationIn,
  termsIndexingRecord,
} from '../../records/indexation.js';
import { StaleVersion, staleWriteError } from '../../records/stale-write.js';
import { historyAuthor } from '../../store/history.js';
import { checkedTable, componentItems, readRecord } from '../../store/record-rows.js';
import type { RecordKey } from '../../store/records.js';
import type { SqlQueryable } from '../../store/sql-client.js';
import { callerAccess, requireComponent, requireRecordId, requireSection } from '../core/record-access.js';
import { type Fields, objectField, optionalString } from '../rqo-fields.js';

/** Most terms one indexation may name. */
const MAX_TERMS = 100;
/** Tag ids are at most six digits in the tag grammar. */
const MAX_TAG_ID = 999_999;

const isObject = (v: unknown): v is Fields => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Parsed {
  target: IndexTarget;
  textSpec?: ComponentSpec;
  lang: string;
}

/** The indexed record, and the text component and tag when the indexation is a passage. */
function parseTarget(ctx: ActionContext, source: Fields, data: Fields): Parsed {
  const section = requireSection(ctx, source.section_tipo, 'source.section_tipo');
  const sectionId = requireRecordId(ctx, source.section_id, 'source.section_id');
  const key: RecordKey = { section_tipo: section.tipo, section_id: sectionId };
  const asked = allowedLang(ctx, optionalString(source, 'lang', 'source.lang', 32), 'source.lang');
  const lang = asked === undefined || asked === NO_LANG ? sessionLang(ctx) : asked;
  const hasTipo = source.tipo !== undefined && source.tipo !== null;
  const rawTag = Object.hasOwn(data, 'tag_id') ? data.tag_id : undefined;
  if (!hasTipo) {
    if (rawTag !== undefined && rawTag !== null) {
      throw new WorkError(
        'rqo.invalid_field',
        'data.tag_id needs source.tipo, the text component holding the tag',
      );
    }
    return { target: { key }, lang };
  }
  const node = requireComponent(ctx, section, source.tipo, 'source.tipo');
  if (node.model !== 'component_text_area') {
    throw new WorkError(
      'rqo.invalid_field',
      `source.tipo "${node.tipo}" is a ${node.model}; passages are indexed in a component_text_area`,
    );
  }
  if (typeof rawTag !== 'number' || !Number.isInteger(rawTag) || rawTag < 1 || rawTag > MAX_TAG_ID) {
    throw new WorkError('rqo.invalid_field', `data.tag_id must be an integer from 1 to ${MAX_TAG_ID}`);
  }
  return {
    target: { key, textTipo: node.tipo, tagId: rawTag },
    textSpec: componentSpec(ctx.ontology, node),
    lang,
  };
}

function parseTerms(ctx: ActionContext, data: Fields): RecordKey[] {
  const raw = Object.hasOwn(data, 'terms') ? data.terms : undefined;
  if (!Array.isArray(raw) || raw.length > MAX_TERMS) {
    throw new WorkError(
      'rqo.invalid_field',
      `data.terms must be an array of at most ${MAX_TERMS} terms {section_tipo, section_id} (empty: remove the indexation)`,
    );
  }
  return raw.map((t, n) => {
    if (!isObject(t))
      throw new WorkError('rqo.invalid_field', `data.terms[${n}] must be {section_tipo, section_id}`);
    const section = requireSection(ctx, t.section_tipo, `data.terms[${n}].section_tipo`);
    return {
      section_tipo: section.tipo,
      section_id: requireRecordId(ctx, t.section_id, `data.terms[${n}].section_id`),
    };
  });
}

function parseText(
  data: Fields,
  spec: ComponentSpec | undefined,
): { value: string; version?: number } | undefined {
  const value = Object.hasOwn(data, 'value') ? data.value : undefined;
  const version = Object.hasOwn(data, 'version') ? data.version : undefined;
  if (value === undefined || value === null) return undefined;
  if (!spec)
    throw new WorkError(
      'rqo.invalid_field',
      'data.value needs source.tipo, the text component it is the value of',
    );
  if (typeof value !== 'string' || value.length > spec.maxLength) {
    throw new WorkError(
      'rqo.invalid_field',
      `data.value must be a string of at most ${spec.maxLength} characters`,
    );
  }
  if (value.includes('\u0000')) {
    throw new WorkError(
      'validation.invalid_value',
      'data.value: text may not contain NUL (U+0000) characters',
    );
  }
  if (version === undefined || version === null) return { value };
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
    throw new WorkError(
      'rqo.invalid_field',
      'data.version must be a non-negative integer (the version a read answered)',
    );
  }
  return { value, version };
}

/** The indexed record exists and is the caller's to read (its projects); 404 only after the level check. */
async function assertRecordReadable(
  ctx: ActionContext,
  db: SqlQueryable,
  access: UserAccess,
  key: RecordKey,
) {
  assertCan(access, 'read', key.section_tipo);
  const row = await readRecord(db, checkedTable(ctx.ontology.tableOf(key.section_tipo)!), key);
  if (!row) throw new WorkError('resource.not_found', `${key.section_tipo} ${key.section_id} does not exist`);
  if (!rowInScope(ctx.ontology, access, row)) {
    throw new PermissionDenied(access.userId, 'project_scope', key.section_tipo);
  }
  return row;
}

/** The terms with their labels and breadcrumbs, grouped by thesaurus section (ids in the given order). */
async function describeTerms(
  ctx: ActionContext,
  db: SqlQueryable,
  access: UserAccess,
  keys: readonly RecordKey[],
  lang: string,
): Promise<(TermNode & { path: TermNode[] })[]> {
  const out: (TermNode & { path: TermNode[] })[] = [];
  for (const sectionTipo of [...new Set(keys.map((k) => k.section_tipo))]) {
    const ids = keys.filter((k) => k.section_tipo === sectionTipo).map((k) => k.section_id);
    const shape = thesaurusShape(ctx.ontology, sectionTipo);
    if (!shape || !access.can('read', sectionTipo, shape.termTipo)) {
      // No reading right on the terms: their addresses only.
      for (const id of ids) {
        out.push({
          section_tipo: sectionTipo,
          section_id: id,
          label: '',
          lang: null,
          children: 0,
          indexations: 0,
          parent: null,
          path: [],
        });
      }
      continue;
    }
    out.push(...(await termsById(db, shape, ids, lang)));
  }
  const order = new Map(keys.map((k, i) => [`${k.section_tipo}\u0000${k.section_id}`, i]));
  return out.sort(
    (a, b) =>
      (order.get(`${a.section_tipo}\u0000${a.section_id}`) ?? 0) -
      (order.get(`${b.section_tipo}\u0000${b.section_id}`) ?? 0),
  );
}

export const setIndexationAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const data = objectField(ctx.rqo, 'data');
    const { target, textSpec, lang } = parseTarget(ctx, source, data);
    const terms = parseTerms(ctx, data);
    const text = parseText(data, textSpec);
    const access = await callerAccess(ctx);
    assertCan(access, 'read', target.key.section_tipo);
    if (text && textSpec) assertCan(access, 'save', target.key.section_tipo, textSpec.tipo);
    if (textSpec?.translatable && text && lang === NO_LANG) {
      throw new WorkError(
        'rqo.invalid_field',
        `source.lang: ${textSpec.tipo} is translatable and needs a data language`,
      );
    }

    const result = await ctx.db.transaction(async (tx) => {
      if (text && textSpec) {
        const lockKey = { ...target.key, component_tipo: textSpec.tipo };
        const holder = await lockHeldByOther(tx, lockKey, access.userId, ctx.now);
        if (holder) throw inUseError(lockKey, holder);
      }
      const outcome = await setIndexationIn(tx, ctx.ontology, {
        target,
        terms,
        ...(text
          ? {
              text: {
                value: text.value,
                lang,
                ...(text.version !== undefined ? { expectedVersion: text.version } : {}),
              },
            }
          : {}),
        access,
        now: ctx.now,
      }).catch(async (err: unknown) => {
        if (!(err instanceof StaleVersion)) throw err;
        const author = err.currentVersion > 0 ? await historyAuthor(tx, err.currentVersion) : undefined;
        throw staleWriteError(err, lang, author, undefined);
      });
      return { outcome, described: await describeTerms(ctx, tx, access, terms, lang) };
    });
    return {
      data: {
        section_tipo: target.key.section_tipo,
        section_id: target.key.section_id,
        tipo: target.textTipo ?? null,
        tag_id: target.tagId ?? null,
        terms: result.described,
        added: result.outcome.added,
        removed: result.outcome.removed,
        ...(result.outcome.textVersion !== undefined ? { version: result.outcome.textVersion } : {}),
      },
    };
  },
};

export const getIndexationsAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const section = requireSection(ctx, source.section_tipo, 'source.section_tipo');
    const key: RecordKey = {
      section_tipo: section.tipo,
      section_id: requireRecordId(ctx, source.section_id, 'source.section_id'),
    };
    const tipo =
      source.tipo === undefined || source.tipo === null
        ? undefined
        : requireComponent(ctx, section, source.tipo, 'source.tipo').tipo;
    const asked = allowedLang(ctx, optionalString(source, 'lang', 'source.lang', 32), 'source.lang');
    const lang = asked === undefined || asked === NO_LANG ? sessionLang(ctx) : asked;
    const access = await callerAccess(ctx);
    const row = await assertRecordReadable(ctx, ctx.db, access, key);
    const holders = await termsIndexingRecord(ctx.db, ctx.ontology, key, false);
    // tag id ('' for the whole record) -> the terms holding it, in term order.
    const byTag = new Map<string, RecordKey[]>();
    for (const h of holders) {
      for (const l of h.locators) {
        const tag = l.tag_id === undefined || l.tag_id === null ? '' : String(l.tag_id);
        if (tag !== '' && tipo !== undefined && (l.tag_component_tipo ?? l.component_tipo) !== tipo) continue;
        const list = byTag.get(tag) ?? [];
        if (!list.some((k) => k.section_tipo === h.key.section_tipo && k.section_id === h.key.section_id))
          list.push(h.key);
        byTag.set(tag, list);
      }
    }
    const all = [...byTag.values()].flat();
    const described = await describeTerms(ctx, ctx.db, access, all, lang);
    const find = (k: RecordKey) =>
      described.find((d) => d.section_tipo === k.section_tipo && d.section_id === k.section_id)!;
    const tags = [...byTag.entries()]
      .map(([tag, keys]) => ({ tag_id: tag === '' ? null : Number(tag), terms: keys.map(find) }))
      .sort((a, b) => (a.tag_id ?? 0) - (b.tag_id ?? 0));
    const texts =
      tipo === undefined
        ? []
        : (componentItems(row, 'string', tipo) as { value?: unknown }[]).map((i) =>
            typeof i.value === 'string' ? i.value : '',
          );
    // Whether this user may index here: save on the text (passages) and on some thesaurus's
    // indexation component that takes this section. The client offers indexing only then.
    const termSections = ctx.ontology
      .sections()
      .map((sec) => ({ sec, spec: indexComponentOf(ctx.ontology, sec.tipo) }))
      .filter(({ spec }) => spec && (spec.targets.length === 0 || spec.targets.includes(key.section_tipo)));
    const mayIndex =
      (tipo === undefined || access.can('save', key.section_tipo, tipo)) &&
      termSections.some(({ sec, spec }) => access.can('save', sec.tipo, spec!.tipo));
    return {
      data: {
        section_tipo: key.section_tipo,
        section_id: key.section_id,
        tipo: tipo ?? null,
        may_index: mayIndex,
        // A whole record is indexed where its passages are not: a section with a tagged text
        // (a recording's transcription) indexes passages, its interview the whole.
        indexable:
          termSections.length > 0 &&
          (tipo !== undefined ||
            !ctx.ontology
              .sectionComponents(key.section_tipo)
              .some((c) => c.model === 'component_text_area' && c.properties?.tags === true)),
        tags,
        ...(tipo !== undefined
          ? {
              next_tag_id: Math.max(nextTagId(texts), ...tags.map((t) => (t.tag_id ?? 0) + 1)),
            }
          : {}),
      },
    };
  },
};
