/**
 * One v1 action call: the request's context (its statement budget included), the v1 settings,
 * the database and request language chosen for it, and typed readers of its options that
 * refuse bad values with a v1 error naming the parameter.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Condition, Row, TableInfo } from '../db/types.js';
import type { PublicationContext } from '../services/context.js';
import type { Options } from './intake.js';
import type { V1Config } from './v1-config.js';
import { V1Error } from './v1-errors.js';

export interface V1Call {
  ctx: PublicationContext;
  v1: V1Config;
  db: string;
  /** WEB_CURRENT_LANG_CODE: the request's `lang`, or the default language. */
  lang: string;
  options: Options;
  log: FastifyBaseLogger;
}

export type V1Action = (call: V1Call) => Promise<unknown>;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True for true, "true", 1 and "1" (upstream accepted only true / "true"; docs/publication-v1.md). */
export function optBool(options: Options, name: string, def: boolean): boolean {
  const v = options[name];
  if (v === undefined || v === null || v === '') return def;
  if (v === true || v === 'true' || v === 1 || v === '1') return true;
  if (v === false || v === 'false' || v === 0 || v === '0') return false;
  throw new V1Error(`Error on sql request. Illegal ${name} (expected true or false)`);
}

export function optString(options: Options, name: string): string | undefined {
  const v = options[name];
  if (v === undefined || v === null || v === false) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw new V1Error(`Error on sql request. Illegal ${name} (expected text)`);
}

/** A non-negative integer (digits only, as upstream); empty means the default. */
export function optInt(options: Options, name: string, def: number): number {
  const v = options[name];
  if (v === undefined || v === null || v === '' || v === false) return def;
  const text = typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string' || !/^\d{1,9}$/.test(text.trim())) {
    throw new V1Error(`Error on sql request. Illegal ${name} (1)`);
  }
  return Number(text.trim());
}

/** An array, a JSON array text, or a comma list. */
export function optList(options: Options, name: string): string[] | undefined {
  const v = options[name];
  if (v === undefined || v === null || v === false || v === '') return undefined;
  let items: unknown[];
  if (Array.isArray(v)) items = v;
  else if (typeof v === 'string' && v.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(v);
      if (!Array.isArray(parsed)) throw new Error('not an array');
      items = parsed;
    } catch {
      throw new V1Error(`Error on sql request. Illegal ${name} (not a JSON array)`);
    }
  } else if (typeof v === 'string' || typeof v === 'number') items = String(v).split(',');
  else throw new V1Error(`Error on sql request. Illegal ${name}`);
  return items.map((item) => {
    if (typeof item !== 'string' && typeof item !== 'number') {
      throw new V1Error(`Error on sql request. Illegal ${name} (items must be text)`);
    }
    return String(item).trim();
  });
}

/**
 * A structured parameter as given, or parsed when it came as JSON text (nested v1 parameters may
 * come either way); undefined when absent or empty/false.
 */
function structuredOption(options: Options, name: string): unknown {
  const v = options[name];
  if (v === undefined || v === null || v === false || v === '' || v === 'false') return undefined;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new V1Error(`Error on sql request. Illegal ${name} (not valid JSON)`);
  }
}

/** An object, or a JSON text of one. */
export function optObject(options: Options, name: string): Record<string, unknown> | undefined {
  const v = structuredOption(options, name);
  if (v === undefined) return undefined;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new V1Error(`Error on sql request. Illegal ${name} (expected an object)`);
  }
  return v as Record<string, unknown>;
}

/** An array of objects, or a JSON text of one. */
export function optObjectList(options: Options, name: string): Record<string, unknown>[] | undefined {
  let v = structuredOption(options, name);
  if (v === undefined) return undefined;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) v = [v];
  if (!Array.isArray(v) || !v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) {
    throw new V1Error(`Error on sql request. Illegal ${name} (expected a list of objects)`);
  }
  return v as Record<string, unknown>[];
}

/** The language option, checked like upstream (`lg-` plus 2-5 letters). */
export function optLang(options: Options, name = 'lang'): string | undefined {
  const lang = optString(options, name);
  if (lang === undefined || lang === '') return undefined;
  if (!/^lg-[a-z]{2,5}$/.test(lang)) throw new V1Error(`Error. Illegal lang: ${lang}`);
  return lang;
}

/** A published table of the call's database; unknown or malformed names are refused. */
export async function tableOf(call: V1Call, name: string, param = 'table'): Promise<TableInfo> {
  if (!IDENTIFIER.test(name) || name.length > 64)
    throw new V1Error(`Error on sql request. Illegal ${param} (1)`);
  const schema = await call.ctx.schemas.get(call.db);
  const info = schema.tables.get(name);
  if (!info) throw new V1Error(`Error on sql request. Illegal ${param}: unknown table ${name}`);
  return info;
}

/** Record `id`'s row of `table`, in `lang` when the table has languages; undefined when absent. */
export async function recordRow(
  call: V1Call,
  table: TableInfo,
  id: number,
  lang: string,
): Promise<Row | undefined> {
  const where: Condition[] = [{ column: 'section_id', op: 'eq', value: id }];
  if (table.hasLang) where.push({ column: 'lang', op: 'eq', value: lang });
  const [row] = await call.ctx.driver.select(call.db, {
    table: table.name,
    columns: table.columns.map((c) => c.name),
    where,
    orderBy: [],
    limit: 1,
  });
  return row;
}
