/**
 * The parts of a `read` RQO every branch shares, checked once: the source (section, tipo, mode,
 * language, action, record), the `show.ddo_map` (each entry a known element in a known section),
 * and the data language (the session's when the source names none).
 */

import { type Fields, objectField, optionalObject, optionalString } from '../actions/rqo-fields.js';
import { parseSectionId } from '../actions/section-id.js';
import { DEFAULT_LANG } from '../context/element-context.js';
import type { ActionContext } from '../dispatch/action-registry.js';
import { WorkError } from '../dispatch/error-registry.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { TIPO_PATTERN } from '../ontology/ontology-schema.js';
import type { Ddo } from './read-types.js';

export const READ_ACTIONS = [
  'search',
  'get_data',
  'resolve_data',
  'get_relation_list',
  'related_search',
] as const;
export type ReadAction = (typeof READ_ACTIONS)[number];

export const MODES = ['list', 'edit', 'search', 'tm', 'related', 'list_thesaurus', 'solved'] as const;

const MAX_DDOS = 500;

export interface ReadRequest {
  sectionTipo: string;
  tipo: string;
  model?: string;
  mode: string;
  lang: string;
  action: ReadAction;
  sectionId?: number;
  ddoMap?: Ddo[];
  source: Fields;
}

/** The session's data language, the default for every read without `source.lang`. */
export function sessionLang(ctx: ActionContext): string {
  return ctx.session?.dataLang ?? DEFAULT_LANG;
}

/** The session's application language: the language of labels (the menu's, fields', sections'). */
export function labelLang(ctx: ActionContext): string {
  return ctx.session?.applicationLang ?? DEFAULT_LANG;
}

/** A language of the allowlist (`lg-nolan` included), or a 400 naming the field. */
export function allowedLang(ctx: ActionContext, value: string | undefined, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (value !== NO_LANG && !ctx.ontology.isLanguage(value)) {
    throw new WorkError('lang.not_allowed', `${path} "${value.slice(0, 32)}" is not an allowed language`);
  }
  return value;
}

function tipoOrSelf(value: unknown, path: string): string {
  if (typeof value !== 'string' || (value !== 'self' && !TIPO_PATTERN.test(value))) {
    throw new WorkError('rqo.invalid_field', `${path} must be a tipo or "self"`);
  }
  return value;
}

/** `show.ddo_map` entries, checked; undefined when the RQO has none. */
export function parseDdoMap(
  ctx: ActionContext,
  show: Fields | undefined,
  sectionTipo: string,
): Ddo[] | undefined {
  if (!show || show.ddo_map === undefined || show.ddo_map === null) return undefined;
  if (!Array.isArray(show.ddo_map) || show.ddo_map.length > MAX_DDOS) {
    throw new WorkError('rqo.invalid_field', `show.ddo_map must be an array of at most ${MAX_DDOS} entries`);
  }
  // Entries naming an element this ontology lacks (the time machine's dd201/dd197 columns, say)
  // are skipped: a stock client's layout may name more than we have.
  return show.ddo_map.flatMap((raw, i) => {
    const at = `show.ddo_map[${i}]`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new WorkError('rqo.invalid_field', `${at} must be an object`);
    }
    const entry = raw as Fields;
    const tipo = tipoOrSelf(entry.tipo, `${at}.tipo`);
    const st = tipoOrSelf(entry.section_tipo ?? 'self', `${at}.section_tipo`);
    const parent = tipoOrSelf(entry.parent ?? 'self', `${at}.parent`);
    const resolvedSection = st === 'self' ? sectionTipo : st;
    const mode = optionalString(entry, 'mode', `${at}.mode`, 32);
    if (!ctx.ontology.node(tipo) || ctx.ontology.node(resolvedSection)?.model !== 'section') return [];
    return [
      {
        tipo,
        section_tipo: resolvedSection,
        parent: parent === 'self' ? sectionTipo : parent,
        ...(mode !== undefined ? { mode } : {}),
      },
    ];
  });
}

export function parseReadRequest(ctx: ActionContext): ReadRequest {
  const source = objectField(ctx.rqo, 'source');
  const sectionTipoRaw = optionalString(source, 'section_tipo', 'source.section_tipo', 64);
  if (!sectionTipoRaw) throw new WorkError('rqo.invalid_field', 'source.section_tipo is required');
  const tipo = optionalString(source, 'tipo', 'source.tipo', 64) ?? sectionTipoRaw;
  const model = optionalString(source, 'model', 'source.model', 64);
  const action = (optionalString(source, 'action', 'source.action', 32) ?? 'search') as ReadAction;
  if (!(READ_ACTIONS as readonly string[]).includes(action)) {
    throw new WorkError('rqo.invalid_field', `source.action must be one of ${READ_ACTIONS.join(', ')}`);
  }
  const idRaw = Object.hasOwn(source, 'section_id') ? source.section_id : undefined;
  let sectionId: number | undefined;
  if (idRaw !== undefined && idRaw !== null && idRaw !== '') {
    const id = parseSectionId(idRaw, 'source.section_id', ctx);
    if (typeof id !== 'number')
      throw new WorkError('rqo.invalid_field', 'source.section_id must be an integer');
    sectionId = id;
  }
  const modeRaw = optionalString(source, 'mode', 'source.mode', 32);
  if (modeRaw !== undefined && !(MODES as readonly string[]).includes(modeRaw)) {
    throw new WorkError('rqo.invalid_field', `source.mode must be one of ${MODES.join(', ')}`);
  }
  const mode = modeRaw ?? (sectionId !== undefined ? 'edit' : 'list');
  const lang =
    allowedLang(ctx, optionalString(source, 'lang', 'source.lang', 32), 'source.lang') ?? sessionLang(ctx);
  const show = optionalObject(ctx.rqo.body, 'show', 'show');
  return {
    sectionTipo: sectionTipoRaw,
    tipo,
    ...(model !== undefined ? { model } : {}),
    mode,
    // lg-nolan is a storage tag, not a reading language: read in the session's language.
    lang: lang === NO_LANG ? sessionLang(ctx) : lang,
    action,
    ...(sectionId !== undefined ? { sectionId } : {}),
    ddoMap: parseDdoMap(ctx, show, sectionTipoRaw),
    source,
  };
}
