/**
 * The three ways v1 clients send parameters (docs/publication-v1.md), turned into one option set:
 *   1. a JSON body, read only when neither the query string nor a form carries `code`;
 *   2. an `options` field (a JSON string, or a structure) that becomes the whole option set,
 *      with `code`, `lang` and `db_name` beside it (the PHP-cURL client style);
 *   3. flat fields, where the exact strings "true" and "false" become booleans.
 * Decisions (docs/publication-v1.md): JSON-body values that are false, 0 or "" are kept (upstream
 * dropped them: a bug), only null means "not sent"; the action of the URL path always
 * wins over a `dedalo_get` sent in the body or options.
 */
export type Options = Record<string, unknown>;

export interface V1Intake {
  options: Options;
  code?: string;
  lang?: string;
  dbName?: string;
}

/** Query string or form fields as Fastify / URLSearchParams give them (`a[]=1&a[]=2` -> array). */
export function fieldsOf(source: URLSearchParams): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [rawKey, value] of source) {
    if (rawKey.endsWith('[]')) {
      const key = rawKey.slice(0, -2);
      const list = Array.isArray(fields[key]) ? (fields[key] as unknown[]) : [];
      list.push(value);
      fields[key] = list;
    } else fields[rawKey] = value;
  }
  return fields;
}

function flatValue(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : String(value);
}

/** `fields`: query string plus form fields; `jsonBody`: a parsed JSON object body, if any. */
export function buildOptions(fields: Record<string, unknown>, jsonBody: unknown, action: string): V1Intake {
  const vars: Record<string, unknown> = { ...fields };
  let fromBody = false;
  if (!('code' in vars) && jsonBody !== null && typeof jsonBody === 'object' && !Array.isArray(jsonBody)) {
    for (const [key, value] of Object.entries(jsonBody as Record<string, unknown>)) {
      if (value !== null && value !== undefined) vars[key] = value;
    }
    fromBody = true;
  }
  let options: Options;
  if (vars.options !== undefined && vars.options !== null && vars.options !== '') {
    let decoded: unknown = vars.options;
    if (typeof decoded === 'string') {
      try {
        decoded = JSON.parse(decoded);
      } catch {
        decoded = undefined;
      }
    }
    options =
      decoded !== null && typeof decoded === 'object' && !Array.isArray(decoded)
        ? { ...(decoded as Options) }
        : {};
  } else if (fromBody) {
    options = { ...vars };
  } else {
    options = {};
    for (const [key, value] of Object.entries(vars)) options[key] = flatValue(value);
  }
  options.dedalo_get = action;
  return {
    options,
    code: asText(vars.code ?? options.code),
    lang: asText(vars.lang ?? options.lang),
    dbName: asText(vars.db_name ?? options.db_name),
  };
}
