/**
 * `dd_ontology_api`, for global administrators only (docs/ontology.md, "Importing and exporting"):
 *
 * - `import_ontology`: `options.content` is the file's text (jer_dd INSERT or COPY, dd_ontology
 *   COPY; within the request body limit, larger files go through the CLI), `options.tld` the TLD
 *   to import (needed when the file holds several), `options.file_name` the name to record,
 *   `options.dry_run`. Answers the import report as `data`. An unreadable file → 400
 *   `ontology.import_invalid`, a result that would break the ontology → 409
 *   `ontology.import_broken`, both with the problems (and the report) in `error.details`.
 * - `export_ontology`: `options.tld`, `options.format` (dd_ontology | jer_dd) → `data.content`.
 *
 * The same operations as `npm run work -- ontology import|export` (import-tld.ts, export-tld.ts).
 */
import { assertGlobalAdmin } from '../../auth/permissions.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportTld,
  TldNotInstalled,
} from '../../ontology/import/export-tld.js';
import { importOntologyTld, OntologyImportRefused } from '../../ontology/import/import-tld.js';
import { callerAccess } from '../core/record-access.js';
import { objectField, optionalBoolean, optionalString, requiredString } from '../rqo-fields.js';

/** The body limit bounds it anyway; this only names the field in the refusal. */
const MAX_CONTENT = 4 * 1024 * 1024;

export const importOntologyAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  longRunning: true,
  handle: async (ctx) => {
    assertGlobalAdmin(await callerAccess(ctx));
    const options = objectField(ctx.rqo, 'options');
    const content = requiredString(options, 'content', 'options.content', MAX_CONTENT);
    const tld = optionalString(options, 'tld', 'options.tld', 32) ?? null;
    const fileName = optionalString(options, 'file_name', 'options.file_name', 255) ?? 'ontology file';
    const dryRun = optionalBoolean(options, 'dry_run', 'options.dry_run') ?? false;
    try {
      const report = await importOntologyTld(ctx.db, {
        text: content,
        fileName,
        tld,
        dryRun,
        userId: ctx.session!.userId,
        via: 'api',
        now: ctx.now,
      });
      return { data: report };
    } catch (err) {
      if (!(err instanceof OntologyImportRefused)) throw err;
      throw new WorkError(
        err.reason === 'broken' ? 'ontology.import_broken' : 'ontology.import_invalid',
        err.message,
        undefined,
        { reason: err.reason, problems: err.problems, ...(err.report ? { report: err.report } : {}) },
      );
    }
  },
};

export const exportOntologyAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    assertGlobalAdmin(await callerAccess(ctx));
    const options = objectField(ctx.rqo, 'options');
    const tld = requiredString(options, 'tld', 'options.tld', 32);
    const format = optionalString(options, 'format', 'options.format', 32) ?? 'dd_ontology';
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new WorkError('rqo.invalid_field', `options.format must be one of ${EXPORT_FORMATS.join(', ')}`);
    }
    try {
      const content = await exportTld(ctx.db, tld, format as ExportFormat);
      return { data: { tld, format, content } };
    } catch (err) {
      if (err instanceof TldNotInstalled) throw new WorkError('ontology.tld_not_installed', err.message);
      throw err;
    }
  },
};
