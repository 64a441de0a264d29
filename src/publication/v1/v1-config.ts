/**
 * The legacy v1 API's settings (docs/publication-v1.md, docs/configuration.md), read with the rest of
 * the publication configuration. Names are the upstream constants prefixed with V1_ where they
 * mean something here; connection, media and table settings are the v2 ones. v1 is off unless
 * V1_API_CODE is set (its only authentication is that shared code).
 */
import {
  boolVar,
  type EnvShape,
  listVar,
  parseEnv,
  rawVar,
  stringVar,
  stringVarOr,
} from '../../common/env-schema.js';

export const LANG_PATTERN = /^lg-[a-z]{2,5}$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const v1Schema = {
  V1_API_CODE: rawVar(),
  V1_BASE_PATH: stringVarOr('V1_BASE_PATH', '/publication/server_api/v1'),
  V1_API_ENTITY: stringVarOr('V1_API_ENTITY', 'dedalo'),
  V1_DEFAULT_DB: stringVar('V1_DEFAULT_DB'),
  V1_DEFAULT_LANG: stringVarOr('V1_DEFAULT_LANG', 'lg-spa'),
  V1_TABLE_THESAURUS: listVar('V1_TABLE_THESAURUS'),
  V1_TABLE_THESAURUS_MAP: stringVar('V1_TABLE_THESAURUS_MAP'),
  V1_TERM_ID_RESTRICTED: stringVar('V1_TERM_ID_RESTRICTED'),
  V1_AR_RESTRICTED_TERMS: listVar('V1_AR_RESTRICTED_TERMS'),
  V1_SHOW_DEBUG: boolVar('V1_SHOW_DEBUG', false),
  V1_NUMBERS_AS_STRINGS: boolVar('V1_NUMBERS_AS_STRINGS', false),
  V1_SUBTITLES_URL_BASE: stringVar('V1_SUBTITLES_URL_BASE'),
  V1_PUBLICACION_FILTER_SQL: stringVar('V1_PUBLICACION_FILTER_SQL'),
  V1_TABLE_GLOBAL_SEARCH: stringVarOr('V1_TABLE_GLOBAL_SEARCH', 'global_search'),
} satisfies EnvShape;

export interface V1Config {
  /** The shared secret every request carries as `code` (API_WEB_USER_CODE). */
  code: string;
  basePath: string;
  /** API_ENTITY: the installation name echoed in authentication errors. */
  entity: string;
  /** $DEFAULT_DDBB; absent: the first published database. */
  defaultDb?: string;
  defaultLang: string;
  /** TABLE_THESAURUS; absent: every ts_* table of the database. */
  tableThesaurus?: string[];
  /** $table_thesaurus_map (term-id prefix -> table); absent: derived from each ts table's terms. */
  tableThesaurusMap?: Record<string, string>;
  termIdRestricted?: string;
  restrictedTerms: string[];
  showDebug: boolean;
  /** Answer every number as a string, as v5 and early v6 sites received them (docs/publication-v1.md). */
  numbersAsStrings: boolean;
  /** TEXT_SUBTITLES_URL_BASE; absent: `<V1_BASE_PATH>/subtitles/`. */
  subtitlesUrlBase: string;
  /** PUBLICACION_FILTER_SQL: a condition in the safe SQL subset (publication-filter.ts). */
  publicationFilterSql?: string;
  /** TABLE_GLOBAL_SEARCH: the table of global_search and global_search_json. */
  globalSearchTable: string;
}

/** Reads the v1 settings; `problems` collects what is wrong; undefined when v1 is off. */
export function loadV1Config(
  env: Record<string, string | undefined>,
  problems: string[],
): V1Config | undefined {
  const e = parseEnv(v1Schema, env);
  const basePath = e.V1_BASE_PATH.replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(basePath) || basePath.includes('//')) {
    problems.push(`V1_BASE_PATH must be a path like /publication/server_api/v1, got "${e.V1_BASE_PATH}"`);
  }
  if (!LANG_PATTERN.test(e.V1_DEFAULT_LANG)) {
    problems.push(`V1_DEFAULT_LANG must look like lg-spa, got "${e.V1_DEFAULT_LANG}"`);
  }
  if (!IDENTIFIER.test(e.V1_TABLE_GLOBAL_SEARCH)) {
    problems.push(`V1_TABLE_GLOBAL_SEARCH must be a table name, got "${e.V1_TABLE_GLOBAL_SEARCH}"`);
  }
  for (const table of e.V1_TABLE_THESAURUS ?? []) {
    if (!IDENTIFIER.test(table)) problems.push(`V1_TABLE_THESAURUS item "${table}" is not a table name`);
  }
  let map: Record<string, string> | undefined;
  if (e.V1_TABLE_THESAURUS_MAP !== undefined) {
    try {
      const parsed: unknown = JSON.parse(e.V1_TABLE_THESAURUS_MAP);
      if (
        typeof parsed !== 'object' ||
        parsed === null ||
        Array.isArray(parsed) ||
        !Object.entries(parsed).every(
          ([k, v]) => IDENTIFIER.test(k) && typeof v === 'string' && IDENTIFIER.test(v),
        )
      ) {
        throw new Error('not a map');
      }
      map = parsed as Record<string, string>;
    } catch {
      problems.push(
        'V1_TABLE_THESAURUS_MAP must be a JSON object like {"ts1":"ts_themes","on1":"ts_onomastic"}',
      );
    }
  }
  if (e.V1_API_CODE === undefined || e.V1_API_CODE === '') return undefined;
  return {
    code: e.V1_API_CODE,
    basePath,
    entity: e.V1_API_ENTITY,
    defaultDb: e.V1_DEFAULT_DB,
    defaultLang: e.V1_DEFAULT_LANG,
    tableThesaurus: e.V1_TABLE_THESAURUS,
    tableThesaurusMap: map,
    termIdRestricted: e.V1_TERM_ID_RESTRICTED,
    restrictedTerms: e.V1_AR_RESTRICTED_TERMS ?? [],
    showDebug: e.V1_SHOW_DEBUG,
    numbersAsStrings: e.V1_NUMBERS_AS_STRINGS,
    subtitlesUrlBase: e.V1_SUBTITLES_URL_BASE ?? `${basePath}/subtitles/`,
    publicationFilterSql: e.V1_PUBLICACION_FILTER_SQL,
    globalSearchTable: e.V1_TABLE_GLOBAL_SEARCH,
  };
}
