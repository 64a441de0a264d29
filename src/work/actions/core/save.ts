/**
 * `dd_core_api.save`: applies `data.changed_data` to one component of one record and answers the
 * refreshed component (`{context, data}`, as a component read) (docs/work-api.md).
 *
 * Order: fields type-checked -> section and component known -> section writable (dd542 never)
 * -> level >= 2 on (section_tipo, tipo), record exists, record in the caller's projects ->
 * the version named still current -> values checked against the model -> passwords hashed
 * (before the transaction: hashing takes tens of milliseconds and must not hold the row lock)
 * -> one transaction (records/save-component.ts), in which the rights ceiling
 * (auth/rights-ceiling.ts) judges a saved user or profile before and after the change -> echo
 * read inside it -> permission caches dropped for saved users and profiles.
 *
 * The client's whole data item sent beside `changed_data` is ignored: only `changed_data` is
 * trusted, and `version` beside it: the component's version the client edited (as a read
 * answered it). When the component has changed since, the save is refused with 409
 * `record.stale_write` (records/stale-write.ts); without it the save is not checked (the stock
 * client's last-write-wins). `source.mode: 'search'` persists nothing and echoes the value (the
 * search panel keeps its state this way); it needs only read access.
 */

import { hashPassword } from '../../auth/password-hash.js';
import { assertCan, isGlobalAdmin, PermissionDenied, type UserAccess } from '../../auth/permissions.js';
import { accountGuard, assertMayWriteComponent } from '../../auth/rights-ceiling.js';
import { CHANGE_ACTIONS, type ChangeActionName, type ChangeObject } from '../../components/apply-changes.js';
import { type ComponentSpec, componentSpec, invalidValue } from '../../components/component-values.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { lockHeldByOther } from '../../locks/component-locks.js';
import { inUseError } from '../../locks/in-use-error.js';
import { NO_LANG } from '../../ontology/load-ontology.js';
import { afterOntologyWrite } from '../../ontology/ontology-edit.js';
import { readComponent } from '../../read/component-read.js';
import { rowInScope } from '../../read/page-builder.js';
import type { ReadResult } from '../../read/read-types.js';
import { saveComponentIn } from '../../records/save-component.js';
import { StaleVersion, staleWriteError } from '../../records/stale-write.js';
import { historyAuthor } from '../../store/history.js';
import type { RecordKey } from '../../store/records.js';
import type { SqlQueryable } from '../../store/sql-client.js';
import { type Fields, objectField, optionalObject, optionalString } from '../rqo-fields.js';
import {
  assertWritableSection,
  callerAccess,
  requireComponent,
  requireRecordId,
  requireSection,
} from './record-access.js';

/** Most change objects one save may carry. */
export const MAX_CHANGES = 1000;
/** Relation echo page size when the client sends none, and the largest it may ask for. */
export const DEFAULT_ECHO_LIMIT = 10;
const MAX_ECHO_LIMIT = 1000;
/** A password is at least this long (and at most MAX_PASSWORD, bounding the hashing work). */
export const MIN_PASSWORD = 8;
const MAX_PASSWORD = 1024;

const USERS_SECTION = 'dd128';
const PROFILES_SECTION = 'dd234';

const isObject = (v: unknown): v is Fields => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An optional non-negative integer field of a change object (`id`, `key`); `false` counts as absent. */
function optionalIndex(item: Fields, name: string, path: string): number | undefined {
  const value = Object.hasOwn(item, name) ? item[name] : undefined;
  if (value === undefined || value === null || value === false) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new WorkError('rqo.invalid_field', `${path}.${name} must be a non-negative integer`);
  }
  return value;
}

/** No component value nests deeper than this (a date item is 3 levels); deeper is refused. */
const MAX_DEPTH = 32;

/**
 * Whether a string anywhere in `value` (keys included) holds U+0000. Refuses absurd nesting
 * first, so no later walk over the value can exhaust the stack.
 */
function containsNul(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) {
    throw new WorkError(
      'validation.invalid_value',
      `data.changed_data nests deeper than ${MAX_DEPTH} levels`,
    );
  }
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  if (isObject(value)) {
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
  }
  return false;
}

function parseChanges(data: Fields): ChangeObject[] {
  const raw = Object.hasOwn(data, 'changed_data') ? data.changed_data : undefined;
  if (!Array.isArray(raw)) throw new WorkError('rqo.invalid_field', 'data.changed_data must be an array');
  if (raw.length === 0)
    throw new WorkError('rqo.invalid_field', 'data.changed_data is empty: nothing to save');
  if (raw.length > MAX_CHANGES) {
    throw new WorkError('rqo.invalid_field', `data.changed_data holds more than ${MAX_CHANGES} changes`);
  }
  // PostgreSQL's jsonb cannot hold a NUL character: refused here instead of failing in the write.
  if (containsNul(raw)) {
    throw new WorkError(
      'validation.invalid_value',
      'data.changed_data: text may not contain NUL (U+0000) characters',
    );
  }
  return raw.map((item, n) => {
    const path = `data.changed_data[${n}]`;
    if (!isObject(item)) throw new WorkError('rqo.invalid_field', `${path} must be an object`);
    const action = Object.hasOwn(item, 'action') ? item.action : undefined;
    if (typeof action !== 'string' || !(CHANGE_ACTIONS as readonly string[]).includes(action)) {
      throw new WorkError('rqo.invalid_field', `${path}.action must be one of ${CHANGE_ACTIONS.join(', ')}`);
    }
    const change: ChangeObject = {
      action: action as ChangeActionName,
      value: Object.hasOwn(item, 'value') ? item.value : null,
    };
    const id = optionalIndex(item, 'id', path);
    const key = optionalIndex(item, 'key', path);
    if (id !== undefined) change.id = id;
    if (key !== undefined) change.key = key;
    return change;
  });
}

/**
 * `data.version`: the component's version the client edits, a non-negative integer (0: it was
 * never saved); absent or null: no check.
 */
function parseVersion(data: Fields): number | undefined {
  const value = Object.hasOwn(data, 'version') ? data.version : undefined;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new WorkError(
      'rqo.invalid_field',
      'data.version must be a non-negative integer (the version a read answered)',
    );
  }
  return value;
}

/** `data.pagination`: the echo page of a relation (limit 1..1000, offset >= 0). */
function parsePagination(data: Fields): { limit: number; offset?: number } {
  const pagination = optionalObject(data, 'pagination', 'data.pagination') ?? {};
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = pagination[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) {
      throw new WorkError(
        'rqo.invalid_field',
        `data.pagination.${name} must be an integer from ${min} to ${max}`,
      );
    }
    return v;
  };
  const offset = int('offset', 0, Number.MAX_SAFE_INTEGER);
  return {
    limit: int('limit', 1, MAX_ECHO_LIMIT) ?? DEFAULT_ECHO_LIMIT,
    ...(offset !== undefined ? { offset } : {}),
  };
}

/** The change's language: the allowlist's, and a real language for translatable components. */
function resolveLang(ctx: ActionContext, source: Fields, spec: ComponentSpec): string {
  const lang = optionalString(source, 'lang', 'source.lang', 32) ?? NO_LANG;
  if (!ctx.ontology.isLanguage(lang)) {
    throw new WorkError('lang.not_allowed', `source.lang "${lang}" is not in the language allowlist`);
  }
  if (!spec.translatable) return NO_LANG;
  if (lang === NO_LANG) {
    throw new WorkError(
      'rqo.invalid_field',
      `source.lang: ${spec.tipo} is translatable and needs a data language`,
    );
  }
  return lang;
}

/** The clear passwords of the changes, checked and replaced by their Argon2id hashes. */
async function hashPasswords(spec: ComponentSpec, changes: ChangeObject[]): Promise<ChangeObject[]> {
  const hashOne = async (raw: unknown, path: string) => {
    const clear = isObject(raw) && Object.hasOwn(raw, 'value') ? raw.value : raw;
    if (typeof clear !== 'string' || clear.length < MIN_PASSWORD || clear.length > MAX_PASSWORD) {
      throw invalidValue(spec, `${path} must be a string of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
    }
    const value = await hashPassword(clear);
    return isObject(raw) ? { ...raw, value } : value;
  };
  // A password component holds one value; each hash costs tens of milliseconds and 19 MiB, so
  // a save carrying many is refused before any is computed.
  const values = changes.reduce(
    (n, c) =>
      n +
      (c.action === 'insert' || c.action === 'update' ? 1 : 0) +
      (c.action === 'set_data' && Array.isArray(c.value) ? c.value.length : 0),
    0,
  );
  if (values > 1) throw invalidValue(spec, 'one password per save');
  const out: ChangeObject[] = [];
  for (const [n, change] of changes.entries()) {
    const path = `changed_data[${n}].value`;
    if (change.action === 'insert' || change.action === 'update') {
      out.push({ ...change, value: await hashOne(change.value, path) });
    } else if (change.action === 'set_data' && Array.isArray(change.value)) {
      const values = [];
      for (const [k, v] of change.value.entries()) values.push(await hashOne(v, `${path}[${k}]`));
      out.push({ ...change, value: values });
    } else {
      out.push(change);
    }
  }
  return out;
}

/** The relation echo shows the page of the new item after an insert (the last page). */
function echoPagination(
  changes: readonly ChangeObject[],
  total: number,
  requested: { limit: number; offset?: number },
) {
  const { limit } = requested;
  const appended = changes.some((c) => c.action === 'insert' || c.action === 'add_new_element');
  if (appended || requested.offset === undefined) {
    const offset = !appended || limit >= total ? 0 : limit * (Math.ceil(total / limit) - 1);
    return { limit, offset };
  }
  return { limit, offset: requested.offset };
}

/** A password's value never leaves the server, whatever the reader put in the echo. */
function withoutPasswords(result: ReadResult, spec: ComponentSpec): ReadResult {
  if (spec.kind !== 'password') return result;
  return {
    ...result,
    data: result.data.map((item) =>
      item.tipo === spec.tipo
        ? { ...item, entries: item.entries.map((e) => ({ id: (e as { id?: unknown }).id, lang: NO_LANG })) }
        : item,
    ),
  };
}

/** Deadlocks and serialisation failures between concurrent saves: the client may retry. */

function searchEcho(spec: ComponentSpec, key: RecordKey, lang: string, changes: readonly ChangeObject[]) {
  return {
    context: [],
    data: [
      {
        tipo: spec.tipo,
        section_tipo: key.section_tipo,
        section_id: key.section_id,
        mode: 'search',
        lang,
        from_component_tipo: spec.tipo,
        entries:
          spec.kind === 'password' || changes[0]?.value === null || changes[0]?.value === undefined
            ? []
            : [changes[0].value],
      },
    ],
  };
}

/**
 * The `record.stale_write` refusal of a save: who wrote the current version and when, and the
 * component's data item as a read `get_data` answers it (the client's relation page).
 */
async function staleRefusal(
  ctx: ActionContext,
  access: UserAccess,
  tx: SqlQueryable,
  stale: StaleVersion,
  spec: ComponentSpec,
  mode: string,
  lang: string,
  pagination: { limit: number; offset?: number },
): Promise<WorkError> {
  const author = stale.currentVersion > 0 ? await historyAuthor(tx, stale.currentVersion) : undefined;
  const read = await readComponent(
    ctx,
    access,
    {
      sectionTipo: stale.key.section_tipo,
      sectionId: stale.key.section_id,
      tipo: spec.tipo,
      mode,
      lang,
      row: stale.row,
      ...(spec.kind === 'relation'
        ? { pagination: { limit: pagination.limit, offset: pagination.offset ?? 0 } }
        : {}),
    },
    tx,
  );
  const item = withoutPasswords(read, spec).data.find(
    (d) =>
      d.tipo === spec.tipo &&
      d.section_id === stale.key.section_id &&
      d.section_tipo === stale.key.section_tipo,
  );
  return staleWriteError(stale, lang, author, item);
}

export const saveAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const data = objectField(ctx.rqo, 'data');
    const section = requireSection(ctx, source.section_tipo, 'source.section_tipo');
    const node = requireComponent(ctx, section, source.tipo, 'source.tipo');
    const sectionId = requireRecordId(ctx, source.section_id, 'source.section_id');
    const mode = optionalString(source, 'mode', 'source.mode', 32) ?? 'edit';
    // Accepted for dataframe-aware clients; dataframes are not modelled yet.
    optionalObject(source, 'caller_dataframe', 'source.caller_dataframe');
    const spec = componentSpec(ctx.ontology, node);
    const lang = resolveLang(ctx, source, spec);
    let changes = parseChanges(data);
    const expectedVersion = parseVersion(data);
    const pagination = parsePagination(data);
    const key: RecordKey = { section_tipo: section.tipo, section_id: sectionId };
    const access: UserAccess = await callerAccess(ctx);

    if (mode === 'search') {
      assertCan(access, 'read', section.tipo, spec.tipo);
      return { data: searchEcho(spec, key, lang, changes) };
    }

    assertWritableSection(section);
    // Level here; existence and project scope on the row the transaction locks (no statements
    // of their own: a save is on the hot path).
    assertCan(access, 'save', key.section_tipo, spec.tipo);
    // The global-admin flag bypasses every profile and project: only a global admin may grant
    // or withdraw it, whatever level a profile gives on the users section. The rest of the
    // rights ceiling (auth/rights-ceiling.ts) judges the saved user or profile in the transaction.
    assertMayWriteComponent(access, key.section_tipo, spec.tipo);
    if (spec.computed) {
      throw invalidValue(spec, `is computed from ${spec.computed.from.join(', ')}: save those instead`);
    }
    if (spec.kind === 'password') changes = await hashPasswords(spec, changes);

    // A deadlock or serialization abort between two writers answers record.write_conflict
    // (app.ts): nothing of this save is kept, and a retry can succeed.
    const saved: { echo: ReadResult; created: number[] } = await ctx.db.transaction(async (tx) => {
      // A component another user is editing (a live lock of theirs) is not written.
      const lockKey = { ...key, component_tipo: spec.tipo };
      const holder = await lockHeldByOther(tx, lockKey, access.userId, ctx.now);
      if (holder) throw inUseError(lockKey, holder);
      const outcome = await saveComponentIn(tx, ctx.ontology, {
        key,
        spec,
        lang,
        changes,
        userId: access.userId,
        projectIds: access.projectIds,
        ...(isGlobalAdmin(access) ? {} : { filterProjectsAllowed: access.projectIds }),
        assertRow: (row) => {
          if (!rowInScope(ctx.ontology, access, row)) {
            throw new PermissionDenied(access.userId, 'project_scope', key.section_tipo);
          }
        },
        ...(expectedVersion !== undefined ? { expectedVersion } : {}),
        guard: accountGuard(ctx.ontology, access),
        now: ctx.now,
      }).catch(async (err: unknown) => {
        if (!(err instanceof StaleVersion)) throw err;
        // Described from the row this transaction holds locked, so the value and the version
        // the refusal carries are the ones the save was refused against.
        throw await staleRefusal(ctx, access, tx, err, spec, mode, lang, pagination);
      });
      // A record of an ontology section: its node follows, and the ontology must still load.
      await afterOntologyWrite(tx, ctx.ontology, key.section_tipo, [key.section_id]);
      const echo = await readComponent(
        ctx,
        access,
        {
          sectionTipo: key.section_tipo,
          sectionId: key.section_id,
          tipo: spec.tipo,
          mode,
          lang,
          row: outcome.row,
          ...(spec.kind === 'relation'
            ? { pagination: echoPagination(changes, outcome.items.length, pagination) }
            : {}),
        },
        tx,
      );
      return { echo, created: outcome.createdSectionIds };
    });

    // The database trigger already bumped the permissions version for other instances.
    if (key.section_tipo === USERS_SECTION) ctx.permissions.engine.invalidateUser(key.section_id);
    if (key.section_tipo === PROFILES_SECTION) ctx.permissions.engine.invalidateProfiles();

    const created = saved.created.at(-1);
    return {
      data: withoutPasswords(saved.echo, spec),
      ...(created !== undefined ? { extensions: { created_section_id: created } } : {}),
    };
  },
};
