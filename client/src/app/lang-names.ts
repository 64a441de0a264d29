/**
 * Names of data languages in the interface language ("anglès" for lg-eng in Catalan), for the
 * side-by-side columns and the fallback mark. Dédalo codes are ISO 639-2 after `lg-`; the
 * browser names them; the ontology's own label is the fallback.
 */
import { uiLang } from '../api/i18n.js';
import type { LangOption } from './session.js';

const ISO: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  cat: 'ca',
  fra: 'fr',
  deu: 'de',
  ita: 'it',
  por: 'pt',
  eus: 'eu',
  glg: 'gl',
};

/** The BCP 47 tag of a Dédalo language code, for `lang` attributes (lg-cat -> ca). */
export function bcp47Of(code: string): string {
  const iso = code.replace(/^lg-/, '');
  return ISO[iso] ?? iso;
}

export function langName(code: string, langs: readonly LangOption[]): string {
  try {
    const name = new Intl.DisplayNames([uiLang()], { type: 'language' }).of(bcp47Of(code));
    if (name && name !== bcp47Of(code)) return name;
  } catch {
    // An unknown code: the ontology's label below.
  }
  return langs.find((l) => l.value === code)?.label ?? code;
}
