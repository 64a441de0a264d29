/**
 * `dd_utils_api.attach_uploaded_file`: makes a file the caller uploaded (multipart, or chunked and
 * joined) the value of a media component (image, av, pdf), as the web client's upload does.
 * `options: {section_tipo, section_id, tipo, key_dir, file_name}`. Needs level >= 2 on the
 * component and the record in the caller's projects, like a save; answers the component as a
 * save does (`{context, data}`). Media components cannot be saved directly (save answers 400).
 * An audiovisual file's running time fills the section's duration field (when the caller may
 * save it), in the same change; the answer then carries that field's item too.
 */
import { assertCan, PermissionDenied } from '../../auth/permissions.js';
import { accountGuard } from '../../auth/rights-ceiling.js';
import { componentSpec, invalidValue } from '../../components/component-values.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { readComponent } from '../../read/component-read.js';
import { rowInScope } from '../../read/page-builder.js';
import { attachStagedFile } from '../../records/attach-media.js';
import { durationComponentOf } from '../../records/media-duration-field.js';
import { readMediaDuration } from '../../uploads/media-duration.js';
import { checkKeyDir, safeFileName, UserStaging } from '../../uploads/staging.js';
import {
  assertWritableSection,
  callerAccess,
  requireComponent,
  requireRecordId,
  requireSection,
} from '../core/record-access.js';
import { objectField } from '../rqo-fields.js';

export const attachUploadedFileAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const section = requireSection(ctx, options.section_tipo, 'options.section_tipo');
    const node = requireComponent(ctx, section, options.tipo, 'options.tipo');
    const sectionId = requireRecordId(ctx, options.section_id, 'options.section_id');
    const keyDir = checkKeyDir(options.key_dir);
    const fileName = safeFileName(options.file_name, 'options.file_name');
    const spec = componentSpec(ctx.ontology, node);
    if (spec.kind !== 'media') throw invalidValue(spec, 'is not a media component (image, av, pdf)');
    assertWritableSection(section);
    const access = await callerAccess(ctx);
    assertCan(access, 'save', section.tipo, spec.tipo);
    const key = { section_tipo: section.tipo, section_id: sectionId };
    const durationTipo = durationComponentOf(ctx.ontology, spec.tipo);
    const durationNode = durationTipo ? ctx.ontology.node(durationTipo) : undefined;
    const duration =
      durationNode && access.can('save', section.tipo, durationNode.tipo)
        ? { spec: componentSpec(ctx.ontology, durationNode), read: readMediaDuration }
        : undefined;
    const row = await attachStagedFile(ctx.db, ctx.ontology, {
      key,
      spec,
      staging: new UserStaging(ctx.config.dataDir, access.userId),
      keyDir,
      fileName,
      dataDir: ctx.config.dataDir,
      userId: access.userId,
      now: ctx.now,
      assertRow: (r) => {
        if (!rowInScope(ctx.ontology, access, r))
          throw new PermissionDenied(access.userId, 'project_scope', key.section_tipo);
      },
      guard: accountGuard(ctx.ontology, access),
      duration,
    });
    const echo = await readComponent(ctx, access, {
      sectionTipo: key.section_tipo,
      sectionId: key.section_id,
      tipo: spec.tipo,
      mode: 'edit',
      lang: 'lg-nolan',
      row,
    });
    if (duration && row[duration.spec.column]?.[duration.spec.tipo] !== undefined) {
      const filled = await readComponent(ctx, access, {
        sectionTipo: key.section_tipo,
        sectionId: key.section_id,
        tipo: duration.spec.tipo,
        mode: 'edit',
        lang: 'lg-nolan',
        row,
      });
      return {
        data: { context: [...echo.context, ...filled.context], data: [...echo.data, ...filled.data] },
      };
    }
    return { data: echo };
  },
};
