/**
 * `dd_import_api` (docs/import-export.md, "Importing"): the client's Import page speaks to the
 * same operations as `npm run work -- import` (collections/import-records.ts, import-undo.ts).
 *
 * - `import_records`: `options.content` (the file's text, within the 4 MiB request limit) or
 *   `options.upload: {key_dir, file_name}` (a file staged by the multipart upload, any size),
 *   `options.file_name`, `section_tipo`, `mapping` (object or JSON text), `lang`, `kind`,
 *   `dry_run`, `all_or_nothing`. Answers the report. An unreadable file → 400
 *   `import.invalid_file` (details: kind, line, column); no save rights on the section → 403.
 * - `list_imports` (`options.limit`, `offset`): the newest first; a global administrator sees
 *   every import, anyone else their own.
 * - `get_import` (`options.import_id`): one import with its stored report (same visibility).
 * - `undo_import` (`options.import_id`, `force`): puts back what the import did; 409
 *   `import.undo_conflict` naming the records changed since.
 */
import { stat } from 'node:fs/promises';
import { isGlobalAdmin, PermissionDenied } from '../../auth/permissions.js';
import { ImportFileRefused, importRecords } from '../../collections/import-records.js';
import { type ImportKind, listImports, readImport } from '../../collections/import-register.js';
import { fileSource, type ImportSource, textSource } from '../../collections/import-source.js';
import { undoImport } from '../../collections/import-undo.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { safeFileName, UserStaging } from '../../uploads/staging.js';
import { callerAccess } from '../core/record-access.js';
import { type Fields, objectField, optionalBoolean, optionalObject, optionalString } from '../rqo-fields.js';

const MAX_CONTENT = 4 * 1024 * 1024;
const KINDS: readonly ImportKind[] = ['dedalo_csv', 'mapped_csv', 'matrix_copy'];

function integerOption(options: Fields, name: string, min: number, max: number): number | undefined {
  const value = Object.hasOwn(options, name) ? options[name] : undefined;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new WorkError('rqo.invalid_field', `options.${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** The file: inline text, or a file the caller staged with the upload. */
async function sourceOf(
  ctx: ActionContext,
  options: Fields,
): Promise<{ source: ImportSource; name: string }> {
  const upload = optionalObject(options, 'upload', 'options.upload');
  const content = optionalString(options, 'content', 'options.content', MAX_CONTENT);
  if ((upload === undefined) === (content === undefined)) {
    throw new WorkError('rqo.invalid_field', 'options: give either content (the file text) or upload');
  }
  if (content !== undefined) {
    return {
      source: textSource(content),
      name: optionalString(options, 'file_name', 'options.file_name', 255) ?? 'import.csv',
    };
  }
  const staging = new UserStaging(ctx.config.dataDir, ctx.session!.userId);
  const name = safeFileName(upload!.file_name, 'options.upload.file_name');
  const path = staging.filePath(String(upload!.key_dir ?? 'document'), name);
  const found = await stat(path).catch(() => undefined);
  if (!found?.isFile()) {
    throw new WorkError(
      'resource.not_found',
      `no staged file "${name}" in ${String(upload!.key_dir ?? 'document')}: upload it first`,
    );
  }
  return {
    source: fileSource(path),
    name: optionalString(options, 'file_name', 'options.file_name', 255) ?? name,
  };
}

export const importRecordsAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  longRunning: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const access = await callerAccess(ctx);
    const { source, name } = await sourceOf(ctx, options);
    const kind = optionalString(options, 'kind', 'options.kind', 32);
    if (kind !== undefined && !(KINDS as readonly string[]).includes(kind)) {
      throw new WorkError('rqo.invalid_field', `options.kind must be one of ${KINDS.join(', ')}`);
    }
    const mapping = Object.hasOwn(options, 'mapping') ? options.mapping : undefined;
    const sectionTipo = optionalString(options, 'section_tipo', 'options.section_tipo', 64);
    const lang = optionalString(options, 'lang', 'options.lang', 32);
    if (lang !== undefined && !ctx.ontology.isLanguage(lang)) {
      throw new WorkError('lang.not_allowed', `options.lang "${lang}" is not in the language allowlist`);
    }
    try {
      const report = await importRecords(
        { db: ctx.db, ontology: ctx.ontology, access, now: () => new Date(ctx.now.getTime()) },
        {
          source,
          fileName: name,
          ...(kind !== undefined ? { kind: kind as ImportKind } : {}),
          ...(sectionTipo !== undefined ? { sectionTipo } : {}),
          ...(mapping !== undefined && mapping !== null ? { mapping } : {}),
          ...(lang !== undefined ? { lang } : {}),
          dryRun: optionalBoolean(options, 'dry_run', 'options.dry_run') ?? false,
          allOrNothing: optionalBoolean(options, 'all_or_nothing', 'options.all_or_nothing') ?? false,
          via: 'api',
        },
      );
      // Users and profiles written: this instance's permission caches follow at once.
      if (report.written) ctx.permissions.engine.invalidateProfiles();
      return { data: report };
    } catch (err) {
      if (err instanceof ImportFileRefused) {
        throw new WorkError('import.invalid_file', err.message, undefined, err.details);
      }
      throw err;
    }
  },
};

export const listImportsAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const access = await callerAccess(ctx);
    const list = await listImports(ctx.db, {
      ...(isGlobalAdmin(access) ? {} : { userId: access.userId }),
      limit: integerOption(options, 'limit', 1, 500) ?? 50,
      offset: integerOption(options, 'offset', 0, 1_000_000_000) ?? 0,
    });
    return { data: list };
  },
};

export const getImportAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const id = integerOption(options, 'import_id', 1, Number.MAX_SAFE_INTEGER);
    if (id === undefined) throw new WorkError('rqo.invalid_field', 'options.import_id is required');
    const access = await callerAccess(ctx);
    const run = await readImport(ctx.db, id);
    // Someone else's import is as unknown as a missing one.
    if (!run || (!isGlobalAdmin(access) && run.user_id !== access.userId)) {
      throw new WorkError('resource.not_found', `import ${id} does not exist`);
    }
    return { data: run };
  },
};

export const undoImportAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  longRunning: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const id = integerOption(options, 'import_id', 1, Number.MAX_SAFE_INTEGER);
    if (id === undefined) throw new WorkError('rqo.invalid_field', 'options.import_id is required');
    const access = await callerAccess(ctx);
    try {
      const result = await undoImport(ctx.db, ctx.ontology, access, id, {
        force: optionalBoolean(options, 'force', 'options.force') ?? false,
        now: ctx.now,
      });
      ctx.permissions.engine.invalidateProfiles();
      return { data: result };
    } catch (err) {
      // Another user's import: not found, as for get_import.
      if (err instanceof PermissionDenied && err.reason === 'global_admin' && !isGlobalAdmin(access)) {
        const run = await readImport(ctx.db, id);
        if (run && run.user_id !== access.userId) {
          throw new WorkError('resource.not_found', `import ${id} does not exist`);
        }
      }
      throw err;
    }
  },
};
